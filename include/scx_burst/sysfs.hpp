// SPDX-License-Identifier: GPL-2.0
// Pre-flight checks against /sys/kernel/sched_ext, before anything loads.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "error.hpp"

namespace scx_burst {

// Every place in sysfs scx_burst reads, and the D-Bus system bus (where
// power-profiles-daemon tells the power profile).  Tests point it at a
// fake tree, laid out as /sys is, with SysfsPaths::under(dir).
struct SysfsPaths {
	std::filesystem::path sched_ext = "/sys/kernel/sched_ext";
	std::filesystem::path cpu = "/sys/devices/system/cpu";	// also cpufreq/policy*
	std::filesystem::path devices = "/sys/devices";	// cpu_core/, cpu_atom/
	std::filesystem::path platform_profile = "/sys/firmware/acpi/platform_profile";
	std::string system_bus = "/run/dbus/system_bus_socket";	// empty: no bus

	// The same layout with @sys in place of /sys, and no bus: a fake tree
	// is never overruled by the host's power-profiles-daemon.
	static SysfsPaths under(const std::filesystem::path &sys);
};

// First line of a file, without the newline; empty if unreadable.
std::string read_line(const std::filesystem::path &path);

// "disabled", "enabled", ... or empty when sched_ext is absent.
std::string sched_ext_state(const SysfsPaths &sys = {});

// The kernel's CPU hotplug event counter, 0 if unreadable.
uint64_t sched_ext_hotplug_seq(const SysfsPaths &sys = {});

// Name of the active sched_ext scheduler, empty if none.
std::string sched_ext_ops(const SysfsPaths &sys = {});

// Fails with a one-line reason if the kernel has no sched_ext.
Result<> check_sched_ext_present(const SysfsPaths &sys = {});

// Fails with a one-line reason if a scheduler cannot be loaded now: no
// sched_ext in the kernel, or another scheduler active.
Result<> check_sched_ext(const SysfsPaths &sys = {});

// The one-line error for "another scheduler is active" (@ops and @state as
// sched_ext/root/ops and state read), with how to stop the usual ones.
std::string active_scheduler_error(const std::string &ops, const std::string &state);

// Fails unless running as root.
Result<> check_root();

}  // namespace scx_burst
