// SPDX-License-Identifier: GPL-2.0
#include "scx_burst/sysfs.hpp"

#include <cstdlib>

#include <fstream>

#include <unistd.h>

namespace scx_burst {

std::string read_line(const std::filesystem::path &path)
{
	std::ifstream in(path);
	std::string line;

	if (in)
		std::getline(in, line);
	return line;
}

std::string sched_ext_state(const std::filesystem::path &root)
{
	return read_line(root / "state");
}

uint64_t sched_ext_hotplug_seq(const std::filesystem::path &root)
{
	return std::strtoull(read_line(root / "hotplug_seq").c_str(), nullptr, 10);
}

std::string sched_ext_ops(const std::filesystem::path &root)
{
	return read_line(root / "root" / "ops");
}

Result<> check_sched_ext_present(const std::filesystem::path &root)
{
	std::error_code ec;

	if (!std::filesystem::exists(root / "state", ec))
		return fail("this kernel has no sched_ext: CONFIG_SCHED_CLASS_EXT "
			    "is not enabled (" + (root / "state").string() +
			    " missing); scx_burst needs Linux >= 6.12 built with it");
	return {};
}

Result<> check_sched_ext(const std::filesystem::path &root)
{
	if (auto r = check_sched_ext_present(root); !r)
		return r;
	std::string state = sched_ext_state(root);
	if (state != "disabled")
		return fail(active_scheduler_error(sched_ext_ops(root), state));
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
