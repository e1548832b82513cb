// SPDX-License-Identifier: GPL-2.0
// spdlog set-up, with libbpf's messages routed through it.
#pragma once

#include <string>
#include <vector>

#include <spdlog/common.h>

namespace scx_burst {

// Level from -v (count) or SPDLOG_LEVEL; logs go to stderr as
// "scx_burst: <level>: <message>", never coloured.  When stderr is the
// journal stream systemd connected ($JOURNAL_STREAM), each line starts
// with its syslog priority, "<6>scx_burst: info: ...", so that journald
// files warnings and errors at their level.  main calls it before parsing
// the command line (its errors take the same form) and again with -v.
void setup_logging(int verbose);

// The syslog priority journald gets for @level (debug 7 ... critical 2).
int journal_priority(spdlog::level::level_enum level);

// Whether stderr is the stream @journal_stream ("dev:inode") names.
bool stderr_is_journal(const char *journal_stream);

// The last lines libbpf printed (the verifier log ends up here).
std::vector<std::string> libbpf_log_tail(size_t max_lines);
void clear_libbpf_log();

}  // namespace scx_burst
