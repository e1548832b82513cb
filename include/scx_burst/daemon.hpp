// SPDX-License-Identifier: GPL-2.0
// The scheduler daemon: load, attach, stream stats, report the exit.
#pragma once

#include "options.hpp"

namespace scx_burst {

// Runs until SIGINT/SIGTERM or until the kernel disables the scheduler;
// reloads when the kernel asks for a restart.  Returns the exit status:
// 0 when the user stopped it, non-zero on any failure or kernel ejection.
int run_daemon(const Options &opts);

// --monitor: streams a running daemon's stats, loads nothing.
int run_monitor(const Options &opts);

// ctl get/set/stats/stats_meta: one request to a running daemon.
int run_ctl(const Options &opts, const CtlCommand &cmd);

}  // namespace scx_burst
