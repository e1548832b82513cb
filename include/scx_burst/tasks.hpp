// SPDX-License-Identifier: GPL-2.0
// Per-task burst state read from the BPF task storage (--debug-tasks).
#pragma once

#include <vector>

#include "stats.hpp"

namespace scx_burst {

// Every thread in /proc that has scheduler state in @task_map_fd, looked
// up by pidfd.  Threads that exit meanwhile are skipped.
std::vector<TaskRow> read_task_rows(int task_map_fd);

}  // namespace scx_burst
