// SPDX-License-Identifier: GPL-2.0
#include "scx_burst/dbus.hpp"

#include <cerrno>
#include <cstring>
#include <map>
#include <optional>

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace scx_burst {
namespace {

// Header field codes of the specification.
enum Field : uint8_t {
	kPath = 1,
	kInterface = 2,
	kMember = 3,
	kErrorName = 4,
	kReplySerial = 5,
	kDestination = 6,
	kSender = 7,
	kSignature = 8,
};

// Far more than a property read needs; a bigger message is refused
// before anything is allocated for it.
constexpr uint32_t kMaxMessage = 1 << 20;

class Writer {
public:
	void align(size_t n)
	{
		while (buf.size() % n)
			buf += '\0';
	}
	void byte(uint8_t v) { buf += (char)v; }
	void u32(uint32_t v)
	{
		align(4);
		for (int i = 0; i < 4; i++)
			buf += (char)(v >> (8 * i));
	}
	void str(const std::string &s)	// s and o
	{
		u32(s.size());
		buf += s;
		buf += '\0';
	}
	void sig(const std::string &s)	// g
	{
		byte(s.size());
		buf += s;
		buf += '\0';
	}
	std::string buf;
};

class Reader {
public:
	Reader(std::string_view b, bool big) : b_(b), big_(big) {}
	size_t pos = 0;

	bool align(size_t n)
	{
		pos = (pos + n - 1) / n * n;
		return pos <= b_.size();
	}
	std::optional<uint8_t> byte()
	{
		if (pos >= b_.size())
			return std::nullopt;
		return (uint8_t)b_[pos++];
	}
	std::optional<uint32_t> u32()
	{
		if (!align(4) || pos + 4 > b_.size())
			return std::nullopt;
		uint32_t v = 0;
		for (int i = 0; i < 4; i++) {
			uint32_t c = (uint8_t)b_[pos + i];
			v |= big_ ? c << (8 * (3 - i)) : c << (8 * i);
		}
		pos += 4;
		return v;
	}
	std::optional<std::string> text(uint32_t len)
	{
		if (pos + len + 1 > b_.size() || b_[pos + len] != '\0')
			return std::nullopt;
		std::string s(b_.substr(pos, len));
		pos += len + 1;
		return s;
	}
	std::optional<std::string> str()
	{
		auto len = u32();
		return len ? text(*len) : std::nullopt;
	}
	std::optional<std::string> sig()
	{
		auto len = byte();
		return len ? text(*len) : std::nullopt;
	}
	// Skips one value of a basic type; false for containers.
	bool skip(char type)
	{
		switch (type) {
		case 'y':
			return byte().has_value();
		case 'n':
		case 'q':
			if (!align(2) || pos + 2 > b_.size())
				return false;
			pos += 2;
			return true;
		case 'b':
		case 'i':
		case 'u':
		case 'h':
			return u32().has_value();
		case 'x':
		case 't':
		case 'd':
			if (!align(8) || pos + 8 > b_.size())
				return false;
			pos += 8;
			return true;
		case 's':
		case 'o':
			return str().has_value();
		case 'g':
			return sig().has_value();
		}
		return false;
	}

private:
	std::string_view b_;
	bool big_;
};

void field(Writer &w, Field code, char type, const std::string &s)
{
	if (s.empty())
		return;
	w.align(8);
	w.byte(code);
	w.sig(std::string(1, type));
	if (type == 'g')
		w.sig(s);
	else
		w.str(s);
}

}  // namespace

std::string dbus_body_strings(const std::vector<std::string> &strings)
{
	Writer w;
	for (const auto &s : strings)
		w.str(s);
	return w.buf;
}

std::string dbus_body_variant_string(const std::string &s)
{
	Writer w;
	w.sig("s");
	w.str(s);
	return w.buf;
}

std::string dbus_encode(const DbusMessage &m)
{
	Writer w;
	w.byte('l');
	w.byte((uint8_t)m.type);
	w.byte(m.flags);
	w.byte(1);	// protocol version
	w.u32(m.body.size());
	w.u32(m.serial);
	w.u32(0);	// the fields' length, set below
	size_t start = w.buf.size();
	field(w, kPath, 'o', m.path);
	field(w, kInterface, 's', m.interface);
	field(w, kMember, 's', m.member);
	field(w, kErrorName, 's', m.error_name);
	if (m.reply_serial) {
		w.align(8);
		w.byte(kReplySerial);
		w.sig("u");
		w.u32(m.reply_serial);
	}
	field(w, kDestination, 's', m.destination);
	field(w, kSender, 's', m.sender);
	field(w, kSignature, 'g', m.signature);
	uint32_t len = w.buf.size() - start;
	for (int i = 0; i < 4; i++)
		w.buf[12 + i] = (char)(len >> (8 * i));
	w.align(8);
	return w.buf + m.body;
}

Result<size_t> dbus_decode(std::string_view buf, DbusMessage &m)
{
	if (buf.size() < 16)
		return 0;
	if (buf[0] != 'l' && buf[0] != 'B')
		return fail("D-Bus: bad byte order mark");
	Reader r(buf, buf[0] == 'B');
	r.pos = 1;
	m = DbusMessage{};
	m.type = (DbusType)*r.byte();
	m.flags = *r.byte();
	if (*r.byte() != 1)
		return fail("D-Bus: unknown protocol version");
	uint32_t body_len = *r.u32();
	m.serial = *r.u32();
	uint32_t fields_len = *r.u32();
	if (body_len > kMaxMessage || fields_len > kMaxMessage)
		return fail("D-Bus: message too long");
	size_t fields_end = 16 + fields_len;
	size_t body_at = (fields_end + 7) / 8 * 8;
	if (buf.size() < body_at + body_len)
		return 0;

	Reader h(buf.substr(0, fields_end), buf[0] == 'B');
	h.pos = 16;
	while (h.pos < fields_end) {
		if (!h.align(8) || h.pos >= fields_end)
			break;
		auto code = h.byte();
		auto sig = h.sig();
		if (!code || !sig || sig->size() != 1)
			return fail("D-Bus: malformed header field");
		// The fields this client knows, with the type the
		// specification gives each; others are skipped.
		std::string *dst = nullptr;
		char want = 's';
		switch (*code) {
		case kPath: dst = &m.path; want = 'o'; break;
		case kInterface: dst = &m.interface; break;
		case kMember: dst = &m.member; break;
		case kErrorName: dst = &m.error_name; break;
		case kReplySerial: want = 'u'; break;
		case kDestination: dst = &m.destination; break;
		case kSender: dst = &m.sender; break;
		case kSignature: dst = &m.signature; want = 'g'; break;
		default: want = 0;
		}
		char type = (*sig)[0];
		if (want && type != want)
			return fail("D-Bus: header field " + std::to_string(*code) + " of type '" +
				    std::string(1, type) + "'");
		std::optional<std::string> v;
		if (*code == kReplySerial) {
			auto n = h.u32();
			if (!n)
				return fail("D-Bus: malformed header field");
			m.reply_serial = *n;
		} else if (dst) {
			v = want == 'g' ? h.sig() : h.str();
			if (!v)
				return fail("D-Bus: malformed header field");
			*dst = *v;
		} else if (!h.skip(type)) {
			return fail("D-Bus: malformed header field");
		}
	}
	m.body = std::string(buf.substr(body_at, body_len));
	m.big_endian = buf[0] == 'B';
	return body_at + body_len;
}

Result<std::string> dbus_body_first_string(const DbusMessage &m)
{
	Reader r(m.body, m.big_endian);
	std::optional<std::string> s;
	if (m.signature.starts_with("s")) {
		s = r.str();
	} else if (m.signature == "v") {
		auto inner = r.sig();
		if (inner && *inner == "s")
			s = r.str();
		else if (inner)
			return fail("D-Bus: the value is a '" + *inner + "', not a string");
	} else {
		return fail("D-Bus: no string in a body of signature '" + m.signature + "'");
	}
	if (!s)
		return fail("D-Bus: malformed body");
	return *s;
}

namespace {

using Clock = std::chrono::steady_clock;

class Fd {
public:
	explicit Fd(int fd) : fd_(fd) {}
	~Fd()
	{
		if (fd_ >= 0)
			close(fd_);
	}
	Fd(const Fd &) = delete;
	Fd &operator=(const Fd &) = delete;
	int get() const { return fd_; }

private:
	int fd_;
};

// A connection; what it does waits until its deadline at most.
class Conn {
public:
	Conn(int fd, Clock::time_point deadline) : fd_(fd), deadline_(deadline) {}
	void set_deadline(Clock::time_point d) { deadline_ = d; }

	Result<> send(const std::string &s)
	{
		for (size_t off = 0; off < s.size();) {
			ssize_t n = ::send(fd_.get(), s.data() + off, s.size() - off,
					   MSG_NOSIGNAL);
			if (n > 0) {
				off += n;
				continue;
			}
			if (n < 0 && errno != EAGAIN && errno != EINTR)
				return fail(std::string("D-Bus: send: ") + strerror(errno));
			if (auto r = wait(POLLOUT); !r)
				return r;
		}
		return {};
	}

	// Reads more into in; fails at the deadline or the peer's close.
	Result<> more()
	{
		for (;;) {
			char b[4096];
			ssize_t n = recv(fd_.get(), b, sizeof(b), 0);
			if (n > 0) {
				in.append(b, n);
				if (in.size() > 2 * kMaxMessage)
					return fail("D-Bus: the bus sends too much");
				return {};
			}
			if (n == 0)
				return fail("D-Bus: the bus closed the connection");
			if (errno != EAGAIN && errno != EINTR)
				return fail(std::string("D-Bus: recv: ") + strerror(errno));
			if (auto r = wait(POLLIN); !r)
				return r;
		}
	}

	std::string in;

private:
	Result<> wait(short events)
	{
		auto now = Clock::now();
		if (now >= deadline_)
			return fail("D-Bus: no answer in time");
		// Rounded up: poll() never wakes before the deadline.
		auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline_ - now).count();
		pollfd p{fd_.get(), events, 0};
		if (poll(&p, 1, (int)left) < 0 && errno != EINTR)
			return fail(std::string("D-Bus: poll: ") + strerror(errno));
		return {};
	}

	Fd fd_;
	Clock::time_point deadline_;
};

std::string hex(const std::string &s)
{
	std::string out;
	for (unsigned char c : s) {
		out += "0123456789abcdef"[c >> 4];
		out += "0123456789abcdef"[c & 15];
	}
	return out;
}

}  // namespace

struct DbusConnection::Impl {
	Impl(int fd, Clock::time_point deadline) : conn(fd, deadline) {}
	Conn conn;
	uint32_t serial = 1;	// the last one used
	bool broken = false;

	// The next message from the bus, waiting until the deadline.
	Result<DbusMessage> next()
	{
		for (;;) {
			DbusMessage m;
			auto used = dbus_decode(conn.in, m);
			if (!used)
				return std::unexpected(used.error());
			if (*used) {
				conn.in.erase(0, *used);
				return m;
			}
			if (auto r = conn.more(); !r)
				return std::unexpected(r.error());
		}
	}
};

DbusConnection::DbusConnection(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
DbusConnection::DbusConnection(DbusConnection &&) noexcept = default;
DbusConnection &DbusConnection::operator=(DbusConnection &&) noexcept = default;
DbusConnection::~DbusConnection() = default;

bool DbusConnection::usable() const
{
	return impl_ && !impl_->broken;
}

Result<DbusConnection> DbusConnection::open(const std::string &socket_path,
					    std::chrono::milliseconds timeout)
{
	sockaddr_un addr{};
	addr.sun_family = AF_UNIX;
	if (socket_path.empty() || socket_path.size() >= sizeof(addr.sun_path))
		return fail("D-Bus: no usable bus socket path");
	std::memcpy(addr.sun_path, socket_path.c_str(), socket_path.size() + 1);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return fail(std::string("D-Bus: socket: ") + strerror(errno));
	auto impl = std::make_unique<Impl>(fd, Clock::now() + timeout);
	Conn &c = impl->conn;
	// A Unix socket connects at once or not at all.
	if (connect(fd, (sockaddr *)&addr, sizeof(addr)) < 0)
		return fail("D-Bus: cannot connect to " + socket_path + ": " + strerror(errno));

	// SASL EXTERNAL: the bus checks our uid on the socket.
	if (auto r = c.send(std::string(1, '\0') + "AUTH EXTERNAL " +
			    hex(std::to_string(getuid())) + "\r\n");
	    !r)
		return std::unexpected(r.error());
	size_t eol;
	while ((eol = c.in.find("\r\n")) == std::string::npos)
		if (auto r = c.more(); !r)
			return std::unexpected(r.error());
	if (!c.in.starts_with("OK "))
		return fail("D-Bus: authentication refused: " + c.in.substr(0, eol));
	c.in.erase(0, eol + 2);

	DbusMessage hello;
	hello.serial = impl->serial;
	hello.destination = "org.freedesktop.DBus";
	hello.path = "/org/freedesktop/DBus";
	hello.interface = "org.freedesktop.DBus";
	hello.member = "Hello";
	if (auto r = c.send("BEGIN\r\n" + dbus_encode(hello)); !r)
		return std::unexpected(r.error());
	for (;;) {
		auto m = impl->next();
		if (!m)
			return std::unexpected(m.error());
		if (m->reply_serial != hello.serial)
			continue;	// NameAcquired, ...
		if (m->type == DbusType::Error)
			return fail("D-Bus: Hello refused: " + m->error_name);
		if (m->type == DbusType::MethodReturn)
			return DbusConnection(std::move(impl));
	}
}

Result<std::string> DbusConnection::get_string_property(const std::vector<DbusProperty> &candidates,
							std::chrono::milliseconds timeout)
{
	if (!usable())
		return fail("D-Bus: the connection is closed");
	Impl &im = *impl_;
	im.conn.set_deadline(Clock::now() + timeout);
	// Any failure to talk leaves the stream at an unknown place.
	auto broken = [&im](const Error &e) -> Result<std::string> {
		im.broken = true;
		return std::unexpected(e);
	};

	// Every Get at once: one round trip.
	uint32_t first = im.serial + 1;
	std::string out;
	for (const auto &p : candidates) {
		DbusMessage get;
		get.serial = ++im.serial;
		get.flags = kDbusNoAutoStart;
		get.destination = p.service;
		get.path = p.path;
		get.interface = "org.freedesktop.DBus.Properties";
		get.member = "Get";
		get.signature = "ss";
		get.body = dbus_body_strings({p.interface, p.name});
		out += dbus_encode(get);
	}
	if (auto r = im.conn.send(out); !r)
		return broken(r.error());

	// The replies, by serial; the first candidate in order that answers
	// with a string wins.  Anything else (a signal, the late reply to an
	// earlier call that timed out) is skipped.
	std::map<uint32_t, Result<std::string>> got;
	for (size_t want = 0; want < candidates.size();) {
		if (auto it = got.find(first + want); it != got.end()) {
			if (it->second)
				return it->second;
			want++;
			continue;
		}
		auto m = im.next();
		if (!m)
			return broken(m.error());
		if (m->reply_serial < first || m->reply_serial >= first + candidates.size())
			continue;
		if (m->type == DbusType::MethodReturn)
			got.emplace(m->reply_serial, dbus_body_first_string(*m));
		else if (m->type == DbusType::Error)
			got.emplace(m->reply_serial, fail("D-Bus: " + m->error_name));
	}
	std::string why;
	for (size_t i = 0; i < candidates.size(); i++)
		why += (why.empty() ? "" : "; ") + candidates[i].service + ": " +
		       got.at(first + i).error().msg;
	return fail(why.empty() ? "D-Bus: nothing asked" : why);
}

Result<std::string> dbus_get_string_property(const std::string &socket_path,
					     const std::vector<DbusProperty> &candidates,
					     std::chrono::milliseconds timeout)
{
	auto deadline = Clock::now() + timeout;
	auto c = DbusConnection::open(socket_path, timeout);
	if (!c)
		return std::unexpected(c.error());
	return c->get_string_property(candidates, dbus_time_left(deadline));
}

std::chrono::milliseconds dbus_time_left(Clock::time_point deadline)
{
	auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now());
	return std::max(left, std::chrono::milliseconds(0));
}

}  // namespace scx_burst
