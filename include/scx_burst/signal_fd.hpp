// SPDX-License-Identifier: GPL-2.0
// Signals as a file descriptor: the daemon's and the tracer's main loops
// poll it next to their other descriptors.
#pragma once

#include <csignal>
#include <initializer_list>

#include <sys/signalfd.h>
#include <unistd.h>

namespace scx_burst {

// @signals blocked for the whole process and readable from fd().
class SignalFd {
public:
	explicit SignalFd(std::initializer_list<int> signals)
	{
		sigset_t set;
		sigemptyset(&set);
		for (int s : signals)
			sigaddset(&set, s);
		sigprocmask(SIG_BLOCK, &set, nullptr);
		fd_ = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	}
	~SignalFd()
	{
		if (fd_ >= 0)
			close(fd_);
	}
	SignalFd(const SignalFd &) = delete;
	SignalFd &operator=(const SignalFd &) = delete;

	int fd() const { return fd_; }

	// The signal received, 0 if none.
	int take() const
	{
		signalfd_siginfo si;
		if (read(fd_, &si, sizeof(si)) == (ssize_t)sizeof(si))
			return si.ssi_signo;
		return 0;
	}

private:
	int fd_ = -1;
};

}  // namespace scx_burst
