// SPDX-License-Identifier: GPL-2.0
// The machine's power profile, which `--primary-domain auto` follows: from
// power-profiles-daemon over D-Bus where it runs, else the ACPI platform
// profile, else the cpufreq energy-performance preference (docs/domain.md).
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "dbus.hpp"
#include "sysfs.hpp"

namespace scx_burst {

struct PowerProfile {
	std::string name;	// "performance", "low-power", "balance_power", ...
	std::string source;	// "power-profiles-daemon", "platform_profile", "EPP"
};

// How long one D-Bus read may take before the sysfs sources are used.
inline constexpr std::chrono::milliseconds kProfileBusTimeout{250};

// Reads the profile from the first source that has one (the bus of
// @paths only when it names one); nullopt when none has.  Keeps its bus
// connection from one read to the next, as the daemon reads once a
// second under auto; a connection that broke since the last read (the
// bus restarted) is opened again within the same read, so that a bus
// that is back by then does not look like a profile change.  One read
// waits for the bus @bus_timeout at most.
class PowerProfileReader {
public:
	explicit PowerProfileReader(SysfsPaths paths = {},
				    std::chrono::milliseconds bus_timeout = kProfileBusTimeout);
	std::optional<PowerProfile> read();
	const SysfsPaths &paths() const { return paths_; }

private:
	std::optional<std::string> from_bus();

	SysfsPaths paths_;
	std::chrono::milliseconds bus_timeout_;
	std::optional<DbusConnection> bus_;
};

// One read on a connection of its own.
std::optional<PowerProfile> read_power_profile(const SysfsPaths &paths = {});

// The domain keyword a profile maps to: "performance", "powersave" or
// "all" (the table in power_profile.cpp; any name it lacks is "all").
const char *profile_domain(const std::string &name);

// Whether a --primary-domain spec follows the power profile while running
// ("auto", any case and spacing).
bool follows_power_profile(const std::string &spec);

}  // namespace scx_burst
