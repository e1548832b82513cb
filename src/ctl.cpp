// SPDX-License-Identifier: GPL-2.0
#include "scx_burst/ctl.hpp"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <optional>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <spdlog/spdlog.h>

#include "scx_burst/stats.hpp"

namespace scx_burst {

using nlohmann::json;

json settings_json(CtlBackend &backend)
{
	json j = tunables_json(backend.get());
	j["primary_domain"] = backend.domain();
	return j;
}

json ctl_ok(json resp)
{
	return {{"errno", 0}, {"args", {{"resp", std::move(resp)}}}};
}

json ctl_error(int err, const std::string &msg)
{
	return {{"errno", err}, {"args", {{"resp", msg}}}};
}

namespace {

json handle_request(const std::string &line, CtlBackend &backend)
{
	json req = json::parse(line, nullptr, false);
	if (req.is_discarded() || !req.is_object())
		return ctl_error(EINVAL, "malformed request: not a JSON object");
	if (!req.contains("req") || !req["req"].is_string())
		return ctl_error(EINVAL, "malformed request: no \"req\" string");
	for (auto &[key, val] : req.items()) {
		(void)val;
		if (key != "req" && key != "args")
			return ctl_error(EINVAL, "unknown field \"" + key + "\"");
	}
	std::string what = req["req"];
	json args = req.value("args", json::object());

	if (what == "get")
		return ctl_ok(settings_json(backend));
	if (what == "stats")
		return ctl_ok(backend.stats());
	if (what == "stats_meta")
		return ctl_ok(stats_meta_json());
	if (what == "set") {
		// Validate everything, the domain included, before changing anything.
		std::optional<std::vector<int>> dom;
		if (args.is_object() && args.contains("primary_domain")) {
			const json &spec = args["primary_domain"];
			if (!spec.is_string() && !spec.is_number_integer())
				return ctl_error(EINVAL, "primary_domain: must be a mask, a CPU "
							 "list or a keyword");
			auto d = backend.check_domain(spec.is_string() ? spec.get<std::string>()
								       : spec.dump());
			if (!d)
				return ctl_error(EINVAL, "primary_domain: " + d.error().msg);
			dom = *d;
			args.erase("primary_domain");
		}
		burst_tunables cur = backend.get();
		std::expected<burst_tunables, SetError> t = cur;
		if (!args.empty() || !dom)
			t = apply_tunables(cur, args);
		if (!t)
			return ctl_error(t.error().err, t.error().msg);
		if (dom) {
			if (auto r = backend.set_domain(*dom); !r)
				return ctl_error(EIO, r.error().msg);
		}
		backend.set(*t);
		return ctl_ok(settings_json(backend));
	}
	return ctl_error(EOPNOTSUPP, "unknown request \"" + what +
					     "\" (stats, stats_meta, get, set)");
}

}  // namespace

// Every error stays inside the request: a reply for any input, and the
// reply always serialises (invalid UTF-8 in an echoed value is replaced).
std::string ctl_handle_line(const std::string &line, CtlBackend &backend)
{
	json reply;
	try {
		reply = handle_request(line, backend);
	} catch (const std::exception &e) {
		reply = ctl_error(EINVAL, std::string("bad request: ") + e.what());
	}
	return reply.dump(-1, ' ', false, json::error_handler_t::replace);
}

Result<json> parse_assignments(const std::vector<std::string> &words)
{
	json args = json::object();
	for (const auto &w : words) {
		auto eq = w.find('=');
		if (eq == std::string::npos || eq == 0)
			return fail("expected key=value, got '" + w + "'");
		std::string key = w.substr(0, eq), val = w.substr(eq + 1);
		int64_t n;
		auto [p, ec] = std::from_chars(val.data(), val.data() + val.size(), n);
		if (!val.empty() && ec == std::errc() && p == val.data() + val.size())
			args[key] = n;
		else if (val == "true" || val == "false")
			args[key] = val == "true";
		else
			args[key] = val;
	}
	return args;
}

namespace {

Result<int> connect_to(const std::string &path)
{
	sockaddr_un addr{};
	if (path.size() >= sizeof(addr.sun_path))
		return fail("control socket path too long: " + path);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return fail(std::string("socket: ") + strerror(errno));
	addr.sun_family = AF_UNIX;
	std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
	if (connect(fd, (sockaddr *)&addr, sizeof(addr))) {
		int err = errno;
		close(fd);
		return fail("cannot reach the scx_burst daemon at " + path + ": " +
			    strerror(err) + " (is it running?)");
	}
	timeval tv{5, 0};
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	return fd;
}

bool send_all(int fd, const std::string &s)
{
	size_t off = 0;
	while (off < s.size()) {
		ssize_t n = send(fd, s.data() + off, s.size() - off, MSG_NOSIGNAL);
		if (n <= 0)
			return false;
		off += n;
	}
	return true;
}

}  // namespace

Result<json> ctl_request(const std::string &socket_path, const json &req)
{
	return ctl_request_line(socket_path, req.dump());
}

Result<json> ctl_request_line(const std::string &socket_path, const std::string &text)
{
	auto fd = connect_to(socket_path);
	if (!fd)
		return std::unexpected(fd.error());
	std::string line = text + "\n", reply;
	if (!send_all(*fd, line)) {
		close(*fd);
		return fail("failed to send the request: " + std::string(strerror(errno)));
	}
	char buf[4096];
	for (;;) {
		ssize_t n = recv(*fd, buf, sizeof(buf), 0);
		if (n <= 0)
			break;
		reply.append(buf, n);
		if (reply.find('\n') != std::string::npos)
			break;
	}
	close(*fd);
	auto nl = reply.find('\n');
	if (nl == std::string::npos)
		return fail("no reply from the daemon at " + socket_path);
	json j = json::parse(reply.substr(0, nl), nullptr, false);
	if (j.is_discarded())
		return fail("malformed reply from the daemon");
	return j;
}

Result<CtlServer> CtlServer::listen(const std::string &path)
{
	CtlServer s;
	std::error_code ec;
	auto dir = std::filesystem::path(path).parent_path();

	if (!dir.empty())
		std::filesystem::create_directories(dir, ec);
	std::string lock = path + ".lock";
	s.lock_fd_ = open(lock.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0600);
	if (s.lock_fd_ < 0)
		return fail("cannot create " + lock + ": " + strerror(errno));
	if (flock(s.lock_fd_, LOCK_EX | LOCK_NB))
		return fail("another scx_burst daemon is already running (it holds " +
			    lock + ")");

	sockaddr_un addr{};
	if (path.size() >= sizeof(addr.sun_path))
		return fail("control socket path too long: " + path);
	unlink(path.c_str());	// stale: its owner would hold the lock
	s.listen_fd_ = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (s.listen_fd_ < 0)
		return fail(std::string("socket: ") + strerror(errno));
	addr.sun_family = AF_UNIX;
	std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
	mode_t old = umask(0177);
	int err = bind(s.listen_fd_, (sockaddr *)&addr, sizeof(addr));
	umask(old);
	if (err)
		return fail("cannot bind the control socket " + path + ": " + strerror(errno));
	chmod(path.c_str(), 0600);
	if (::listen(s.listen_fd_, 8))
		return fail("cannot listen on " + path + ": " + strerror(errno));
	s.path_ = path;
	return s;
}

CtlServer::CtlServer(CtlServer &&o) noexcept
	: path_(std::move(o.path_)), lock_fd_(o.lock_fd_), listen_fd_(o.listen_fd_),
	  clients_(std::move(o.clients_))
{
	o.lock_fd_ = o.listen_fd_ = -1;
	o.clients_.clear();
	o.path_.clear();
}

CtlServer::~CtlServer()
{
	for (auto &c : clients_)
		close(c.fd);
	if (listen_fd_ >= 0) {
		close(listen_fd_);
		unlink(path_.c_str());
	}
	if (lock_fd_ >= 0)
		close(lock_fd_);
}

void CtlServer::add_pollfds(std::vector<pollfd> &fds) const
{
	fds.push_back({listen_fd_, POLLIN, 0});
	for (const auto &c : clients_)
		fds.push_back({c.fd, POLLIN, 0});
}

void CtlServer::close_client(size_t i)
{
	close(clients_[i].fd);
	clients_.erase(clients_.begin() + i);
}

void CtlServer::serve(const std::vector<pollfd> &fds, CtlBackend &backend)
{
	// fds: [..., listener, clients...] as added; find ours by fd.
	std::vector<int> ready;
	bool accept_ready = false;
	for (const auto &p : fds) {
		if (!p.revents)
			continue;
		if (p.fd == listen_fd_)
			accept_ready = true;
		else
			ready.push_back(p.fd);
	}
	for (int fd : ready) {
		size_t i = 0;
		while (i < clients_.size() && clients_[i].fd != fd)
			i++;
		if (i == clients_.size())
			continue;
		char buf[4096];
		ssize_t n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
			close_client(i);
			continue;
		}
		if (n < 0)
			continue;
		Client &c = clients_[i];
		c.buf.append(buf, n);
		bool drop = false;
		size_t nl;
		while ((nl = c.buf.find('\n')) != std::string::npos) {
			std::string line = c.buf.substr(0, nl);
			c.buf.erase(0, nl + 1);
			if (line.size() > kCtlMaxLine) {
				drop = true;
				break;
			}
			std::string reply = ctl_handle_line(line, backend) + "\n";
			if (!send_all(fd, reply)) {
				drop = true;
				break;
			}
		}
		if (!drop && c.buf.size() > kCtlMaxLine)
			drop = true;
		if (drop) {
			send_all(fd, ctl_error(E2BIG, "request longer than " +
							      std::to_string(kCtlMaxLine) +
							      " bytes")
					     .dump() + "\n");
			spdlog::warn("control: dropped a client sending an oversized request");
			close_client(i);
		}
	}
	if (accept_ready) {
		for (;;) {
			int fd = accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
			if (fd < 0)
				break;
			if (clients_.size() >= 16) {
				close(fd);
				continue;
			}
			timeval tv{1, 0};
			setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
			clients_.push_back({fd, {}});
		}
	}
}

}  // namespace scx_burst
