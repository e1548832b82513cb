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

// The value of the first of @candidates whose service answers, asked on
// the bus at @socket with one connection (auth, Hello, one Get for each
// candidate, all sent at once).  Services are not auto-started.  Fails,
// without waiting longer than @timeout in total, when the bus is absent,
// slow or refuses, or no candidate answers with a string.
Result<std::string> dbus_get_string_property(const std::string &socket,
					     const std::vector<DbusProperty> &candidates,
					     std::chrono::milliseconds timeout);

}  // namespace scx_burst
