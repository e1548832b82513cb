// SPDX-License-Identifier: GPL-2.0
// How every scx_burst command ends: its exit codes (README, "Exit codes
// and lifetime") and the one way an error reaches the user.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace scx_burst {

enum ExitCode : int {
	kExitOk = 0,		// done, or stopped by SIGINT/SIGTERM
	kExitFailure = 1,	// refused to start, failed, or ejected by the kernel
	kExitUsage = 2,		// the command line is invalid: nothing was tried
};

// Says @msg as the one line "scx_burst: error: @msg" on stderr and returns
// @code, for a command to return to main.
int fail_with(const std::string &msg, ExitCode code = kExitFailure);

// What main exits with when CLI11 stops the parse: --help and --version
// (printed on stdout) end with kExitOk, a refused command line with
// kExitUsage and its reason.
int parse_exit(const CLI::App &app, const CLI::ParseError &e);

}  // namespace scx_burst
