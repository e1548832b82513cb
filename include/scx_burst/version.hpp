// SPDX-License-Identifier: GPL-2.0
// What this build is: its version, the git revision it was built from, and
// the ops name the kernel shows for it in /sys/kernel/sched_ext/root/ops.
#pragma once

#include <string>
#include <string_view>

namespace scx_burst {

// "0.1.0", from project() in CMakeLists.txt.
std::string_view version();

// `git describe --always --dirty --long` of the source tree at build time
// ("ff4de5f0a1b2", "v0.1.0-3-gff4de5f0a1b2-dirty"), "unknown" outside git.
std::string_view git_revision();

// What `scx_burst -V` prints: "scx_burst 0.1.0 (git ff4de5f0a1b2)".
std::string version_line();

// The sched_ext ops name for @version and @rev, as sched-ext's own
// schedulers form theirs: "burst_0.1.0_gff4de5f0a1b2", "_dirty" appended
// for an edited tree, no revision part when it is "unknown".  Only the
// characters the kernel accepts (bpf_obj_name_cpy(): letters, digits, '_'
// and '.'), at most kOpsNameMax of them.
std::string ops_name(std::string_view version, std::string_view rev);

// The ops name of this build.
std::string ops_name();

// SCX_OPS_NAME_LEN less the terminating NUL.
inline constexpr size_t kOpsNameMax = 127;

}  // namespace scx_burst
