// SPDX-License-Identifier: GPL-2.0
#include "scx_burst/sysfs.hpp"

#include <cstdlib>

#include <fstream>

#include <unistd.h>

namespace scx_burst {

SysfsPaths SysfsPaths::under(const std::filesystem::path &sys)
{
	return {sys / "kernel/sched_ext", sys / "devices/system/cpu", sys / "devices",
		sys / "firmware/acpi/platform_profile", ""};
}

std::string read_line(const std::filesystem::path &path)
{
	std::ifstream in(path);
	std::string line;

	if (in)
		std::getline(in, line);
	return line;
}

std::string sched_ext_state(const SysfsPaths &sys)
{
	return read_line(sys.sched_ext / "state");
}

uint64_t sched_ext_hotplug_seq(const SysfsPaths &sys)
{
	return std::strtoull(read_line(sys.sched_ext / "hotplug_seq").c_str(), nullptr, 10);
}

std::string sched_ext_ops(const SysfsPaths &sys)
{
	return read_line(sys.sched_ext / "root" / "ops");
}

Result<> check_sched_ext_present(const SysfsPaths &sys)
{
	std::error_code ec;

	if (!std::filesystem::exists(sys.sched_ext / "state", ec))
		return fail("this kernel has no sched_ext: CONFIG_SCHED_CLASS_EXT "
			    "is not enabled (" + (sys.sched_ext / "state").string() +
			    " missing); scx_burst needs Linux >= 6.12 built with it");
	return {};
}

Result<> check_sched_ext(const SysfsPaths &sys)
{
	if (auto r = check_sched_ext_present(sys); !r)
		return r;
	std::string state = sched_ext_state(sys);
	if (state != "disabled")
		return fail(active_scheduler_error(sched_ext_ops(sys), state));
	return {};
}

std::string active_scheduler_error(const std::string &ops, const std::string &state)
{
	std::string msg = "another sched_ext scheduler is already active: " +
			  (ops.empty() ? std::string("(unnamed)") : ops);
	if (!state.empty())
		msg += " (state " + state + ")";
	msg += "; stop it first: `systemctl stop scx` or `scxctl stop` if the "
	       "scx service or scx_loader started it";
	// sched-ext's schedulers are processes named scx_<first word of ops>.
	std::string base = ops.substr(0, ops.find('_'));
	if (!base.empty())
		msg += ", else end the scx_" + base + " process";
	return msg;
}

Result<> check_root()
{
	if (geteuid() != 0)
		return fail("must be run as root: loading a sched_ext scheduler "
			    "needs CAP_SYS_ADMIN and CAP_BPF");
	return {};
}

}  // namespace scx_burst
