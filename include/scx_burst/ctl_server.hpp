// SPDX-License-Identifier: GPL-2.0
// The control socket's server side: listens, reads request lines, answers
// them with ctl_handle_line() (ctl.hpp).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <poll.h>

#include "ctl.hpp"

namespace scx_burst {

// The daemon's listening socket and its clients, served from the
// daemon's own poll loop (no threads).  Holds an flock on PATH.lock for
// its lifetime so that a second daemon refuses to start.  Leaves nothing
// behind: the socket, the lock file (when it held the lock) and the
// directories it created go with it, also when listen() fails.
class CtlServer {
public:
	static Result<CtlServer> listen(const std::string &path);

	// Appends the fds to poll (listener first, then clients).
	void add_pollfds(std::vector<pollfd> &fds) const;
	// Serves whatever @fds (from add_pollfds, after poll) says is ready.
	void serve(const std::vector<pollfd> &fds, CtlBackend &backend);

	CtlServer(CtlServer &&other) noexcept;
	CtlServer &operator=(CtlServer &&other) = delete;
	CtlServer(const CtlServer &) = delete;
	~CtlServer();

private:
	CtlServer() = default;

	struct Client {
		int fd;
		std::string buf;
	};

	void close_client(size_t i);

	std::string path_;
	std::string lock_path_;		// set once the lock is held
	std::vector<std::filesystem::path> made_dirs_;	// deepest first
	int lock_fd_ = -1;
	int listen_fd_ = -1;
	std::vector<Client> clients_;
};

}  // namespace scx_burst
