// SPDX-License-Identifier: GPL-2.0
// The machine's power profile, which `--primary-domain auto` follows: from
// power-profiles-daemon over D-Bus where it runs, else the ACPI platform
// profile, else the cpufreq energy-performance preference (docs/domain.md).
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "sysfs.hpp"

namespace scx_burst {

struct PowerProfile {
	std::string name;	// "performance", "low-power", "balance_power", ...
	std::string source;	// "power-profiles-daemon", "platform_profile", "EPP"
};

// How long one D-Bus read may take before the sysfs sources are used.
inline constexpr std::chrono::milliseconds kProfileBusTimeout{250};

// Reads the profile from the first source that has one (the bus of
// @paths only when it names one); nullopt when none has.
std::optional<PowerProfile> read_power_profile(const SysfsPaths &paths = {});

// The domain keyword a profile maps to: "performance", "powersave" or
// "all" (the table in power_profile.cpp; any name it lacks is "all").
const char *profile_domain(const std::string &name);

// Whether a --primary-domain spec follows the power profile while running
// ("auto", any case and spacing).
bool follows_power_profile(const std::string &spec);

}  // namespace scx_burst
