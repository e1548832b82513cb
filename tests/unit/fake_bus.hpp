// SPDX-License-Identifier: GPL-2.0
// A fake D-Bus system bus for the unit tests: a Unix socket server that
// authenticates any EXTERNAL client, answers Hello (and sends the
// NameAcquired signal a real bus sends after it), and answers
// org.freedesktop.DBus.Properties.Get from a table of services, with the
// real bus's ServiceUnknown error for a name nobody owns.  It speaks
// through scx_burst's own message coder; the interop test against a real
// dbus-daemon (power_profile_test.cpp) checks that coder.
#pragma once

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "scx_burst/dbus.hpp"

namespace scx_burst::test {

class FakeBus {
public:
	enum class Mode { Answer, Silent, RejectAuth };

	explicit FakeBus(const std::filesystem::path &socket) : path_(socket)
	{
		listen_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		sockaddr_un a{};
		a.sun_family = AF_UNIX;
		std::filesystem::remove(path_);
		std::snprintf(a.sun_path, sizeof(a.sun_path), "%s", path_.c_str());
		if (bind(listen_, (sockaddr *)&a, sizeof(a)) || ::listen(listen_, 8))
			throw std::runtime_error("fake bus: cannot listen on " + path_.string());
		thread_ = std::thread([this] { serve(); });
	}
	~FakeBus()
	{
		shutdown(listen_, SHUT_RDWR);	// wakes accept()
		// and recv() on a connection a client keeps open
		if (int c = client_.load(); c >= 0)
			shutdown(c, SHUT_RDWR);
		thread_.join();
		close(listen_);
		std::filesystem::remove(path_);
	}
	FakeBus(const FakeBus &) = delete;
	FakeBus &operator=(const FakeBus &) = delete;

	// The ActiveProfile a service answers; a service not set is unknown.
	void set(const std::string &service, const std::string &profile)
	{
		std::lock_guard l(mu_);
		profiles_[service] = profile;
	}
	void remove(const std::string &service)
	{
		std::lock_guard l(mu_);
		profiles_.erase(service);
	}
	std::atomic<Mode> mode{Mode::Answer};
	std::atomic<int> connections{0};
	std::atomic<int> gets{0};
	std::atomic<bool> auto_start_asked{false};	// a Get without NO_AUTO_START

private:
	void serve()
	{
		for (;;) {
			int c = accept4(listen_, nullptr, nullptr, SOCK_CLOEXEC);
			if (c < 0)
				return;
			connections++;
			client_ = c;
			talk(c);
			client_ = -1;
			close(c);
		}
	}

	// Appends what the peer sends next to @in; false once it closed.
	bool more(int c, std::string &in)
	{
		char b[4096];
		ssize_t n = recv(c, b, sizeof(b), 0);
		if (n <= 0)
			return false;
		in.append(b, n);
		return true;
	}

	void send_msg(int c, const DbusMessage &m)
	{
		std::string s = dbus_encode(m);
		(void)!send(c, s.data(), s.size(), MSG_NOSIGNAL);
	}

	void talk(int c)
	{
		std::string in;
		while (in.find("\r\n") == std::string::npos)
			if (!more(c, in))
				return;
		if (!in.starts_with(std::string(1, '\0') + "AUTH EXTERNAL "))
			return;
		if (mode == Mode::RejectAuth) {
			std::string r = "REJECTED EXTERNAL\r\n";
			(void)!send(c, r.data(), r.size(), MSG_NOSIGNAL);
			while (more(c, in)) {
			}
			return;
		}
		std::string ok = "OK 0123456789abcdef0123456789abcdef\r\n";
		(void)!send(c, ok.data(), ok.size(), MSG_NOSIGNAL);
		in.erase(0, in.find("\r\n") + 2);
		while (in.find("BEGIN\r\n") == std::string::npos)
			if (!more(c, in))
				return;
		in.erase(0, in.find("BEGIN\r\n") + 7);
		uint32_t serial = 100;
		for (;;) {
			DbusMessage m;
			auto used = dbus_decode(in, m);
			if (!used)
				return;
			if (*used == 0) {
				if (!more(c, in))
					return;
				continue;
			}
			in.erase(0, *used);
			if (mode == Mode::Silent || m.type != DbusType::MethodCall)
				continue;
			DbusMessage r;
			r.type = DbusType::MethodReturn;
			r.serial = serial++;
			r.reply_serial = m.serial;
			r.sender = "org.freedesktop.DBus";
			r.destination = ":1.42";
			if (m.member == "Hello") {
				r.signature = "s";
				r.body = dbus_body_strings({":1.42"});
				send_msg(c, r);
				DbusMessage sig;
				sig.type = DbusType::Signal;
				sig.serial = serial++;
				sig.path = "/org/freedesktop/DBus";
				sig.interface = "org.freedesktop.DBus";
				sig.member = "NameAcquired";
				sig.sender = "org.freedesktop.DBus";
				sig.destination = ":1.42";
				sig.signature = "s";
				sig.body = dbus_body_strings({":1.42"});
				send_msg(c, sig);
				continue;
			}
			gets++;
			if (!(m.flags & kDbusNoAutoStart))
				auto_start_asked = true;
			std::string profile;
			bool known;
			{
				std::lock_guard l(mu_);
				auto it = profiles_.find(m.destination);
				known = it != profiles_.end();
				if (known)
					profile = it->second;
			}
			if (known && m.member == "Get" &&
			    m.interface == "org.freedesktop.DBus.Properties") {
				r.sender = m.destination;
				r.signature = "v";
				r.body = dbus_body_variant_string(profile);
			} else {
				r.type = DbusType::Error;
				r.error_name = "org.freedesktop.DBus.Error.ServiceUnknown";
				r.signature = "s";
				r.body = dbus_body_strings({"The name " + m.destination +
							    " was not provided by any .service files"});
			}
			send_msg(c, r);
		}
	}

public:
	// Hangs up on the client being served (the bus restarting).
	void hang_up()
	{
		if (int c = client_.load(); c >= 0)
			shutdown(c, SHUT_RDWR);
	}

private:
	std::filesystem::path path_;
	int listen_ = -1;
	std::atomic<int> client_{-1};
	std::thread thread_;
	std::mutex mu_;
	std::map<std::string, std::string> profiles_;
};

}  // namespace scx_burst::test
