// SPDX-License-Identifier: GPL-2.0
// Fuzzes the D-Bus message decoder (src/dbus.cpp), which reads what the
// system bus sends to the daemon every second under --primary-domain auto.
//
// Beyond "no crash, no sanitizer report": a decoded message never claims
// more bytes than it was given, a message missing its last byte is
// incomplete, and encoding what was decoded gives a message that decodes
// to the same fields and body.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "scx_burst/dbus.hpp"

using scx_burst::DbusMessage;

namespace {

[[noreturn]] void broken(const char *what)
{
	fprintf(stderr, "dbus_message fuzz: %s\n", what);
	abort();
}

bool same(const DbusMessage &a, const DbusMessage &b)
{
	return a.type == b.type && a.flags == b.flags && a.serial == b.serial &&
	       a.reply_serial == b.reply_serial && a.path == b.path &&
	       a.interface == b.interface && a.member == b.member &&
	       a.error_name == b.error_name && a.destination == b.destination &&
	       a.sender == b.sender && a.signature == b.signature && a.body == b.body;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	std::string in(reinterpret_cast<const char *>(data), size);
	DbusMessage m;
	auto used = scx_burst::dbus_decode(in, m);
	if (!used || *used == 0)
		return 0;
	if (*used > size)
		broken("decoded more bytes than it was given");
	DbusMessage part;
	auto cut = scx_burst::dbus_decode(std::string_view(in).substr(0, *used - 1), part);
	if (cut && *cut != 0)
		broken("a message without its last byte decoded");
	(void)scx_burst::dbus_body_first_string(m);

	// Every field decoded has the type the encoder writes it with (a
	// signature is a 'g', at most 255 bytes), so the trip back holds.
	std::string again = scx_burst::dbus_encode(m);
	DbusMessage back;
	auto r = scx_burst::dbus_decode(again, back);
	if (!r || *r != again.size())
		broken("the re-encoded message does not decode whole");
	if (!same(m, back))
		broken("the re-encoded message decodes to other fields");
	return 0;
}
