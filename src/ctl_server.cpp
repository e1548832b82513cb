// SPDX-License-Identifier: GPL-2.0
#include "scx_burst/ctl_server.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <spdlog/spdlog.h>


namespace scx_burst {

using nlohmann::json;

Result<CtlServer> CtlServer::listen(const std::string &path, CtlLimits limits)
{
	CtlServer s;
	std::error_code ec;
	auto dir = std::filesystem::path(path).parent_path();

	for (auto d = dir; !d.empty() && !std::filesystem::exists(d, ec);
	     d = d.parent_path())
		s.made_dirs_.push_back(d);
	if (!dir.empty())
		std::filesystem::create_directories(dir, ec);
	std::string lock = path + ".lock";
	for (;;) {
		s.lock_fd_ = open(lock.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0600);
		if (s.lock_fd_ < 0)
			return fail("cannot create " + lock + ": " + strerror(errno));
		if (flock(s.lock_fd_, LOCK_EX | LOCK_NB))
			return fail("another scx_burst daemon is already running (it holds " +
				    lock + ")");
		// The daemon that held it removes the file as it exits: only
		// the file still at that path counts.
		struct stat held, now;
		if (fstat(s.lock_fd_, &held) == 0 && stat(lock.c_str(), &now) == 0 &&
		    held.st_dev == now.st_dev && held.st_ino == now.st_ino)
			break;
		close(s.lock_fd_);
	}
	s.lock_path_ = lock;

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
	s.limits_ = limits;
	if (s.limits_.max_clients < 1)
		s.limits_.max_clients = 1;
	return s;
}

CtlServer::CtlServer(CtlServer &&o) noexcept
	: limits_(o.limits_), path_(std::move(o.path_)), lock_path_(std::move(o.lock_path_)),
	  made_dirs_(std::move(o.made_dirs_)), lock_fd_(o.lock_fd_), listen_fd_(o.listen_fd_),
	  clients_(std::move(o.clients_))
{
	o.lock_fd_ = o.listen_fd_ = -1;
	o.clients_.clear();
	o.path_.clear();
	o.lock_path_.clear();
	o.made_dirs_.clear();
}

CtlServer::~CtlServer()
{
	for (auto &c : clients_)
		close(c.fd);
	if (listen_fd_ >= 0) {
		close(listen_fd_);
		unlink(path_.c_str());
	}
	if (lock_fd_ >= 0) {
		// Removed while still held; see the stat() check in listen().
		if (!lock_path_.empty())
			unlink(lock_path_.c_str());
		close(lock_fd_);
	}
	std::error_code ec;
	for (const auto &d : made_dirs_)
		if (!std::filesystem::remove(d, ec))	// only when empty
			break;
}

void CtlServer::add_pollfds(std::vector<pollfd> &fds) const
{
	fds.push_back({listen_fd_, POLLIN, 0});
	for (const auto &c : clients_)
		fds.push_back({c.fd, (short)(POLLIN | (c.out.empty() ? 0 : POLLOUT)), 0});
}

void CtlServer::close_client(size_t i)
{
	close(clients_[i].fd);
	clients_.erase(clients_.begin() + i);
}

// Sends what client @i's socket takes now, without waiting.  False when
// the client is gone (and closed).
bool CtlServer::flush_client(size_t i)
{
	Client &c = clients_[i];
	while (!c.out.empty()) {
		ssize_t n = send(c.fd, c.out.data(), c.out.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n > 0) {
			c.out.erase(0, n);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return true;
		close_client(i);
		return false;
	}
	return true;
}

// Reads what client @i sent and answers every complete line; closes the
// client when it hangs up, errs, sends a line longer than kCtlMaxLine or
// leaves more than kCtlMaxPending of replies unread.
void CtlServer::read_client(size_t i, CtlBackend &backend)
{
	char buf[4096];
	ssize_t n = recv(clients_[i].fd, buf, sizeof(buf), MSG_DONTWAIT);
	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
		close_client(i);
		return;
	}
	if (n < 0)
		return;
	Client &c = clients_[i];
	c.last = Clock::now();
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
		c.out += ctl_handle_line(line, backend) + "\n";
		if (c.out.size() > kCtlMaxPending) {
			spdlog::warn("control: dropped a client that does not read its replies");
			close_client(i);
			return;
		}
	}
	if (!drop && c.buf.size() > kCtlMaxLine)
		drop = true;
	if (drop) {
		// Best effort: the client is closed either way.
		c.out += ctl_error(E2BIG, "request longer than " + std::to_string(kCtlMaxLine) +
						  " bytes").dump() + "\n";
		spdlog::warn("control: dropped a client sending an oversized request");
		if (flush_client(i))
			close_client(i);
		return;
	}
	flush_client(i);
}

// Accepts every pending connection.  With the table full, the client idle
// longest makes room: silent clients cannot lock the operator out.
void CtlServer::accept_clients()
{
	for (;;) {
		int fd = accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (fd < 0)
			break;
		if (clients_.size() >= limits_.max_clients) {
			auto idlest = std::min_element(clients_.begin(), clients_.end(),
						       [](const Client &a, const Client &b) {
							       return a.last < b.last;
						       });
			spdlog::debug("control: {} clients connected, closing the one idle longest",
				      clients_.size());
			close_client(idlest - clients_.begin());
		}
		clients_.push_back({fd, {}, {}, Clock::now()});
	}
}

void CtlServer::serve(const std::vector<pollfd> &fds, CtlBackend &backend)
{
	// fds: [..., listener, clients...] as added; find ours by fd.
	std::vector<pollfd> ready;
	bool accept_ready = false;
	for (const auto &p : fds) {
		if (!p.revents)
			continue;
		if (p.fd == listen_fd_)
			accept_ready = true;
		else
			ready.push_back(p);
	}
	for (const auto &p : ready) {
		auto find = [this](int fd) {
			return std::find_if(clients_.begin(), clients_.end(),
					    [fd](const Client &c) { return c.fd == fd; });
		};
		auto c = find(p.fd);
		if (c == clients_.end())
			continue;
		if ((p.revents & POLLOUT) && !flush_client(c - clients_.begin()))
			continue;
		if (p.revents & (POLLIN | POLLHUP | POLLERR))
			read_client(find(p.fd) - clients_.begin(), backend);
	}
	if (accept_ready)
		accept_clients();

	auto now = Clock::now();
	for (size_t i = clients_.size(); i-- > 0;) {
		if (now - clients_[i].last >= limits_.idle_timeout) {
			spdlog::debug("control: closing a client silent for {} ms",
				      limits_.idle_timeout.count());
			close_client(i);
		}
	}
}

}  // namespace scx_burst
