// SPDX-License-Identifier: GPL-2.0
// The control socket's client side, and the commands built on it:
// `scx_burst ctl ...` and `scx_burst --monitor`.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "error.hpp"
#include "options.hpp"

namespace scx_burst {

// Client: sends @req and returns the reply object.
Result<nlohmann::json> ctl_request(const std::string &socket_path,
				   const nlohmann::json &req);
// The same with a request line as given (for `ctl raw`).
Result<nlohmann::json> ctl_request_line(const std::string &socket_path,
					const std::string &line);

// The request line (no newline) `ctl VERB ASSIGNMENTS...` sends: raw's
// words joined as given, set's key=value words as args.
Result<std::string> ctl_command_request(const CtlCommand &cmd);

// ctl get/set/stats/stats_meta/raw: one request to a running daemon.
// Returns kExitOk, kExitFailure (unreachable, or the daemon said no) or
// kExitUsage (words that do not parse; nothing sent).
int run_ctl(const Options &opts, const CtlCommand &cmd);

// --monitor: streams a running daemon's stats, loads nothing; returns
// kExitFailure once the daemon cannot be reached or answers an error.
int run_monitor(const Options &opts);

}  // namespace scx_burst
