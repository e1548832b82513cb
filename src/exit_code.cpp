// SPDX-License-Identifier: GPL-2.0
#include "scx_burst/exit_code.hpp"

#include <spdlog/spdlog.h>

namespace scx_burst {

int fail_with(const std::string &msg, ExitCode code)
{
	spdlog::error("{}", msg);
	return code;
}

int parse_exit(const CLI::App &app, const CLI::ParseError &e)
{
	if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success))
		return app.exit(e);	// --help, --version
	return fail_with(e.what(), kExitUsage);
}

}  // namespace scx_burst
