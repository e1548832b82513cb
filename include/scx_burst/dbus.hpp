// SPDX-License-Identifier: GPL-2.0
// A minimal D-Bus client, enough to read one string property of a service
// on the system bus (power-profiles-daemon's ActiveProfile) without
// linking libdbus or libsystemd: the daemon is linked statically for the
// VM image.  The wire format is the D-Bus specification's: SASL EXTERNAL
// authentication, Hello, then org.freedesktop.DBus.Properties.Get.
// The message coder is public so that the unit tests' fake bus speaks the
// same protocol (tests/unit/power_profile_test.cpp).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "error.hpp"

namespace scx_burst {

enum class DbusType : uint8_t { MethodCall = 1, MethodReturn = 2, Error = 3, Signal = 4 };

// Header flag: do not start the destination service to answer this call.
inline constexpr uint8_t kDbusNoAutoStart = 0x2;

// One message.  Only the header fields this client uses are carried;
// @body is the marshalled body, described by @signature.
struct DbusMessage {
	DbusType type = DbusType::MethodCall;
	uint8_t flags = 0;
	uint32_t serial = 0;
	uint32_t reply_serial = 0;	// 0: none
	std::string path, interface, member, error_name, destination, sender, signature;
	std::string body;
	bool big_endian = false;	// the body's byte order, as received
};

// Marshals a body of strings (signature "s" repeated) or of one variant
// holding a string (signature "v" with inner "s").
std::string dbus_body_strings(const std::vector<std::string> &strings);
std::string dbus_body_variant_string(const std::string &s);

// The whole message, little-endian.
std::string dbus_encode(const DbusMessage &m);

// Decodes the message at the start of @buf (either byte order).  Returns
// the bytes it used, 0 when @buf does not yet hold the whole message, or
// an error when it is malformed.
Result<size_t> dbus_decode(std::string_view buf, DbusMessage &m);

// The first string of a body whose signature is "s" or "v" holding "s"
// (an error's message, a property's value).
Result<std::string> dbus_body_first_string(const DbusMessage &m);

struct DbusProperty {
	std::string service, path, interface, name;
};

// A connection to the bus, authenticated and named (Hello), that asks
// any number of questions: a caller that asks every second
// (--primary-domain auto) does not connect, authenticate and say Hello
// each time.  A failure to talk (the bus went away, a reply too late)
// leaves it unusable; the caller opens a new one.
class DbusConnection {
public:
	// Connects to the bus at @socket: fails, without waiting longer than
	// @timeout, when it is absent, slow or refuses.
	static Result<DbusConnection> open(const std::string &socket,
					   std::chrono::milliseconds timeout);

	// The value of the first of @candidates whose service answers (one
	// Get for each, all sent at once; services are not auto-started).
	// Fails, without waiting longer than @timeout, when the bus is slow
	// or gone (then usable() is false), or no candidate answers with a
	// string (the connection stays usable).
	Result<std::string> get_string_property(const std::vector<DbusProperty> &candidates,
						std::chrono::milliseconds timeout);

	bool usable() const;

	DbusConnection(DbusConnection &&) noexcept;
	DbusConnection &operator=(DbusConnection &&) noexcept;
	~DbusConnection();

private:
	struct Impl;
	explicit DbusConnection(std::unique_ptr<Impl> impl);
	std::unique_ptr<Impl> impl_;
};

// What is left until @deadline, rounded up (a wait never ends early), 0
// once it has passed: the timeout to hand on to the next step.
std::chrono::milliseconds dbus_time_left(std::chrono::steady_clock::time_point deadline);

// One question on a connection of its own (open, then
// get_string_property), within @timeout in total.
Result<std::string> dbus_get_string_property(const std::string &socket,
					     const std::vector<DbusProperty> &candidates,
					     std::chrono::milliseconds timeout);

}  // namespace scx_burst
