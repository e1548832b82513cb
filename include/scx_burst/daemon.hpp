// SPDX-License-Identifier: GPL-2.0
// The scheduler daemon: load, attach, stream stats, report the exit.
#pragma once

#include "options.hpp"

namespace scx_burst {

// Runs until SIGINT/SIGTERM or until the kernel disables the scheduler;
// reloads when the kernel asks for a restart.  Returns the exit status
// (exit_code.hpp): kExitOk when the user stopped it, kExitFailure on any
// failure or kernel ejection, said in one line.
int run_daemon(const Options &opts);

}  // namespace scx_burst
