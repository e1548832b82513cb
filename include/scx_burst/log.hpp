// SPDX-License-Identifier: GPL-2.0
// spdlog set-up, with libbpf's messages routed through it.
#pragma once

#include <string>
#include <vector>

namespace scx_burst {

// Level from -v (count) or SPDLOG_LEVEL; logs go to stderr as
// "scx_burst: <level>: <message>".
void setup_logging(int verbose);

// The last lines libbpf printed (the verifier log ends up here).
std::vector<std::string> libbpf_log_tail(size_t max_lines);
void clear_libbpf_log();

}  // namespace scx_burst
