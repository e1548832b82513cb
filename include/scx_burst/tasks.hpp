// SPDX-License-Identifier: GPL-2.0
// Per-task burst state read from the BPF task storage (--debug-tasks).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace scx_burst {

// One thread's burst state, as --debug-tasks shows it.
struct TaskRow {
	int tid = 0;
	int tgid = 0;
	std::string comm;
	uint32_t score = 0;
	uint64_t burst_ns = 0;
	uint64_t prev_burst_ns = 0;
	uint64_t runs = 0;
	uint64_t run_ns = 0;
};

// Every thread in /proc that has scheduler state in @task_map_fd, looked
// up by pidfd.  Threads that exit meanwhile are skipped.
std::vector<TaskRow> read_task_rows(int task_map_fd);

}  // namespace scx_burst
