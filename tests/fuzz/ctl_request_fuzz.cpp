// SPDX-License-Identifier: GPL-2.0
// Fuzzes the control socket's request path: any bytes as one request line
// into ctl_handle_line(), against the fake backend of the unit tests.
//
// Beyond "no crash, no sanitizer report", every input must get a reply
// that is a JSON object with an integer errno, and a refused request
// must leave the settings as they were.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "fake_backend.hpp"
#include "scx_burst/ctl.hpp"

using nlohmann::json;
using scx_burst::test::FakeBackend;

namespace {

[[noreturn]] void broken(const char *what, const std::string &reply)
{
	fprintf(stderr, "ctl_request fuzz: %s\nreply: %s\n", what, reply.c_str());
	abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	// The server never passes on a line longer than this, nor its newline.
	if (size > scx_burst::kCtlMaxLine)
		return -1;
	std::string line(reinterpret_cast<const char *>(data), size);
	if (line.find('\n') != std::string::npos)
		return -1;

	FakeBackend b;
	burst_tunables before = b.t;
	std::string reply = scx_burst::ctl_handle_line(line, b);

	json r = json::parse(reply, nullptr, false);
	if (r.is_discarded() || !r.is_object())
		broken("the reply is not a JSON object", reply);
	if (!r.contains("errno") || !r["errno"].is_number_integer())
		broken("the reply has no integer errno", reply);
	if (r["errno"] != 0) {
		if (b.sets != 0 || !b.dom.empty() ||
		    std::memcmp(&b.t, &before, sizeof(before)))
			broken("a refused request changed the settings", reply);
		if (!r["args"]["resp"].is_string())
			broken("an error reply without a message", reply);
	}
	return 0;
}
