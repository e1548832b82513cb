// SPDX-License-Identifier: GPL-2.0
// The control socket's server side: listens, reads request lines, answers
// them with ctl_handle_line() (ctl.hpp).
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include <poll.h>

#include "ctl.hpp"

namespace scx_burst {

// How many clients the server keeps, and how long one may stay silent.  A
// client that is slow or gone must not lock the operator out: a silent
// client is closed after the idle timeout, and when the table is full a
// new connection evicts the one idle longest (docs/control.md).
inline constexpr size_t kCtlMaxClients = 16;
inline constexpr std::chrono::milliseconds kCtlIdleTimeout{5000};
// Replies are sent without blocking the daemon's loop; a client that lets
// more than this pile up unread is closed.
inline constexpr size_t kCtlMaxPending = 1 << 20;

struct CtlLimits {
	size_t max_clients = kCtlMaxClients;
	std::chrono::milliseconds idle_timeout = kCtlIdleTimeout;	// tests shorten it
};

// The daemon's listening socket and its clients, served from the
// daemon's own poll loop (no threads).  Holds an flock on PATH.lock for
// its lifetime so that a second daemon refuses to start.  Leaves nothing
// behind: the socket, the lock file (when it held the lock) and the
// directories it created go with it, also when listen() fails.
class CtlServer {
public:
	static Result<CtlServer> listen(const std::string &path, CtlLimits limits = {});

	// Appends the fds to poll (listener first, then clients).
	void add_pollfds(std::vector<pollfd> &fds) const;
	// Serves whatever @fds (from add_pollfds, after poll) says is ready,
	// accepts new clients and closes idle ones.  Call it after every
	// poll, also when poll timed out, so that idle clients expire.
	void serve(const std::vector<pollfd> &fds, CtlBackend &backend);

	// Clients currently kept open (never more than max_clients).
	size_t nr_clients() const { return clients_.size(); }

	CtlServer(CtlServer &&other) noexcept;
	CtlServer &operator=(CtlServer &&other) = delete;
	CtlServer(const CtlServer &) = delete;
	~CtlServer();

private:
	using Clock = std::chrono::steady_clock;

	CtlServer() = default;

	struct Client {
		int fd;
		std::string buf;		// a partial request line
		std::string out;		// replies the socket did not take yet
		Clock::time_point last;		// accepted or last byte received
	};

	void read_client(size_t i, CtlBackend &backend);
	bool flush_client(size_t i);
	void accept_clients();
	void close_client(size_t i);

	CtlLimits limits_;
	std::string path_;
	std::string lock_path_;		// set once the lock is held
	std::vector<std::filesystem::path> made_dirs_;	// deepest first
	int lock_fd_ = -1;
	int listen_fd_ = -1;
	std::vector<Client> clients_;
};

}  // namespace scx_burst
