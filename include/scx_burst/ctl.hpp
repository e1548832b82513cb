// SPDX-License-Identifier: GPL-2.0
// The control protocol: one JSON object per line over a Unix socket, in
// the spirit of sched_ext's scx_stats:
//
//   {"req": "set", "args": {"policy": "deadline"}}
//   {"errno": 0, "args": {"resp": {...}}}
//
// The requests are the table ctl_requests() (ctl_protocol.cpp), which the
// server dispatches on and the `scx_burst ctl VERB` command is built
// from.  Errors carry a non-zero errno and the message as "resp".
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
	// new spec (mask, list or keyword), and the switch to the CPUs
	// @spec resolved to (`auto` keeps following the power profile).
	virtual std::string domain() = 0;
	virtual Result<std::vector<int>> check_domain(const std::string &spec) = 0;
	virtual Result<> set_domain(const std::vector<int> &cpus, const std::string &spec) = 0;
	// `save`: writes the running settings to the daemon's config file;
	// returns its path.
	virtual Result<std::string> save() { return fail("save is not supported here"); }
};

// One request of the protocol.  Adding one: an entry in ctl_requests(),
// its handler, and docs/control.md.
struct CtlRequest {
	const char *name;
	// `scx_burst ctl NAME key=value...`: the words become "args"; else
	// the command takes none.
	bool takes_assignments;
	// The reply is a settings object (printed as key=value lines).
	bool settings_reply;
	const char *help;
	nlohmann::json (*handle)(nlohmann::json &args, CtlBackend &backend);
};

const std::vector<CtlRequest> &ctl_requests();
const CtlRequest *find_ctl_request(const std::string &name);

// A set request's work: validates every field of @args (tunables and
// "primary_domain") before changing anything, then applies them; the
// reply `ctl set` gets.  SIGHUP applies the config file through it too.
nlohmann::json ctl_set(CtlBackend &backend, nlohmann::json args);

// Answers one request line (without its newline).
std::string ctl_handle_line(const std::string &line, CtlBackend &backend);

// Reply helpers.
nlohmann::json ctl_ok(nlohmann::json resp);
nlohmann::json ctl_error(int err, const std::string &msg);

// Parses "key=value" words into a set request's args (numbers stay
// numbers, true/false become booleans, anything else a string).
Result<nlohmann::json> parse_assignments(const std::vector<std::string> &words);

}  // namespace scx_burst
