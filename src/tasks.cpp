// SPDX-License-Identifier: GPL-2.0
#include "scx_burst/tasks.hpp"

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <bpf/bpf.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "scx_burst/intf.h"
#include "scx_burst/sysfs.hpp"

namespace scx_burst {
namespace {

#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL	/* a pidfd for any thread, 6.9+ */
#endif

int pidfd_open_thread(int tid)
{
	int fd = syscall(SYS_pidfd_open, tid, PIDFD_THREAD);
	if (fd < 0 && errno == EINVAL)
		fd = syscall(SYS_pidfd_open, tid, 0);	/* pre-6.9: leaders */
	return fd;
}

bool is_number(const std::string &s)
{
	return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
}

}  // namespace

std::vector<TaskRow> read_task_rows(int task_map_fd)
{
	std::vector<TaskRow> rows;
	std::error_code ec;

	for (const auto &proc : std::filesystem::directory_iterator("/proc", ec)) {
		std::string pid = proc.path().filename();
		if (!is_number(pid))
			continue;
		std::error_code tec;
		for (const auto &task : std::filesystem::directory_iterator(
			     proc.path() / "task", tec)) {
			std::string tid = task.path().filename();
			if (!is_number(tid))
				continue;
			int fd = pidfd_open_thread(std::atoi(tid.c_str()));
			if (fd < 0)
				continue;
			burst_task_ctx ctx{};
			int err = bpf_map_lookup_elem(task_map_fd, &fd, &ctx);
			close(fd);
			if (err)
				continue;
			TaskRow r;
			r.tid = std::atoi(tid.c_str());
			r.tgid = std::atoi(pid.c_str());
			r.comm = read_line(task.path() / "comm");
			r.score = ctx.score;
			r.burst_ns = ctx.burst_ns;
			r.prev_burst_ns = ctx.prev_burst_ns;
			r.runs = ctx.nr_runs;
			r.run_ns = ctx.run_ns;
			rows.push_back(std::move(r));
		}
	}
	return rows;
}

}  // namespace scx_burst
