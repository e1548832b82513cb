// SPDX-License-Identifier: GPL-2.0
// The control protocol: one JSON object per line over a Unix socket, in
// the spirit of sched_ext's scx_stats:
//
//   {"req": "set", "args": {"policy": "deadline"}}
//   {"errno": 0, "args": {"resp": {...}}}
//
// Requests: stats, stats_meta, get, set.  Errors carry a non-zero errno
// and the message as "resp".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "error.hpp"
#include "tunables.hpp"

namespace scx_burst {

inline constexpr size_t kCtlMaxLine = 16384;	// longer requests are refused

class CtlBackend;
// The tunables (tunables_json()) plus "primary_domain".
nlohmann::json settings_json(CtlBackend &backend);

// What the server needs from the running daemon.
class CtlBackend {
public:
	virtual ~CtlBackend() = default;
	virtual burst_tunables get() = 0;
	virtual void set(const burst_tunables &t) = 0;
	virtual nlohmann::json stats() = 0;
	// The primary domain: current ("all" or a CPU list), validation of a
	// new spec (mask, list or keyword), and the switch.
	virtual std::string domain() = 0;
	virtual Result<std::vector<int>> check_domain(const std::string &spec) = 0;
	virtual Result<> set_domain(const std::vector<int> &cpus) = 0;
};

// Answers one request line (without its newline).
std::string ctl_handle_line(const std::string &line, CtlBackend &backend);

// Reply helpers.
nlohmann::json ctl_ok(nlohmann::json resp);
nlohmann::json ctl_error(int err, const std::string &msg);

// Client: sends @req and returns the reply object.
Result<nlohmann::json> ctl_request(const std::string &socket_path,
				   const nlohmann::json &req);
// The same with a request line as given (for `ctl raw`).
Result<nlohmann::json> ctl_request_line(const std::string &socket_path,
					const std::string &line);

// Parses "key=value" words into a set request's args (numbers stay
// numbers, true/false become booleans, anything else a string).
Result<nlohmann::json> parse_assignments(const std::vector<std::string> &words);

}  // namespace scx_burst

#include <poll.h>
#include <vector>

namespace scx_burst {

// The daemon's listening socket and its clients, served from the
// daemon's own poll loop (no threads).  Holds an flock on PATH.lock for
// its lifetime so that a second daemon refuses to start.
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
	int lock_fd_ = -1;
	int listen_fd_ = -1;
	std::vector<Client> clients_;
};

}  // namespace scx_burst
