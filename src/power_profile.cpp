// SPDX-License-Identifier: GPL-2.0
#include "scx_burst/power_profile.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string_view>
#include <vector>

#include "scx_burst/text.hpp"

namespace scx_burst {
namespace {

// Profile name -> domain keyword, for every source's names:
// power-profiles-daemon (power-saver, balanced, performance), the ACPI
// platform profile (low-power, cool, quiet, balanced,
// balanced-performance, performance, custom) and the EPP (default,
// performance, balance_performance, balance_power, power).  A name not
// here is "all".
struct ProfileMapping {
	std::string_view name;
	const char *domain;
};
constexpr ProfileMapping kProfileDomains[] = {
	{"performance", "performance"},
	{"power-saver", "powersave"},
	{"low-power", "powersave"},
	{"quiet", "powersave"},
	{"cool", "powersave"},
	{"power", "powersave"},
};

// power-profiles-daemon under its name since 0.20, then the older one.
const std::vector<DbusProperty> kDaemonProfile = {
	{"org.freedesktop.UPower.PowerProfiles", "/org/freedesktop/UPower/PowerProfiles",
	 "org.freedesktop.UPower.PowerProfiles", "ActiveProfile"},
	{"net.hadess.PowerProfiles", "/net/hadess/PowerProfiles", "net.hadess.PowerProfiles",
	 "ActiveProfile"},
};

// The EPP of every cpufreq policy; when they differ, "mixed (a, b)".
std::string read_epp(const std::filesystem::path &cpu)
{
	std::error_code ec;
	std::vector<std::pair<long, std::string>> found;
	for (const auto &e : std::filesystem::directory_iterator(cpu / "cpufreq", ec)) {
		std::string n = e.path().filename().string();
		if (!n.starts_with("policy"))
			continue;
		std::string v = trim(read_line(e.path() / "energy_performance_preference"));
		if (!v.empty())
			found.emplace_back(std::atol(n.c_str() + 6), v);
	}
	std::sort(found.begin(), found.end());
	std::set<std::string> seen;
	std::string all;
	for (const auto &[n, v] : found)
		if (seen.insert(v).second)
			all += (all.empty() ? "" : ", ") + v;
	return seen.size() > 1 ? "mixed (" + all + ")" : all;
}

}  // namespace

PowerProfileReader::PowerProfileReader(SysfsPaths paths, std::chrono::milliseconds bus_timeout)
	: paths_(std::move(paths)), bus_timeout_(bus_timeout)
{
}

std::optional<std::string> PowerProfileReader::from_bus()
{
	auto deadline = std::chrono::steady_clock::now() + bus_timeout_;
	auto ask = [&]() -> std::optional<std::string> {
		auto p = bus_->get_string_property(kDaemonProfile, dbus_time_left(deadline));
		return p ? std::optional<std::string>(*p) : std::nullopt;
	};

	// The kept connection first: an answer, or a failure that left it
	// usable (the bus answered, without the property), is the reply.
	if (bus_ && bus_->usable()) {
		auto p = ask();
		if (p || bus_->usable())
			return p;
	}
	// None kept, or it broke just now (the bus restarted): one new
	// connection within the same budget.
	bus_.reset();
	auto left = dbus_time_left(deadline);
	if (left == std::chrono::milliseconds(0))
		return std::nullopt;
	auto c = DbusConnection::open(paths_.system_bus, left);
	if (!c)
		return std::nullopt;
	bus_ = std::move(*c);
	return ask();
}

std::optional<PowerProfile> PowerProfileReader::read()
{
	if (!paths_.system_bus.empty()) {
		auto p = from_bus();
		if (p && !p->empty())
			return PowerProfile{*p, "power-profiles-daemon"};
	}
	if (std::string p = trim(read_line(paths_.platform_profile)); !p.empty())
		return PowerProfile{p, "platform_profile"};
	if (std::string p = read_epp(paths_.cpu); !p.empty())
		return PowerProfile{p, "EPP"};
	return std::nullopt;
}

std::optional<PowerProfile> read_power_profile(const SysfsPaths &paths)
{
	return PowerProfileReader(paths).read();
}

const char *profile_domain(const std::string &name)
{
	for (const auto &m : kProfileDomains)
		if (m.name == name)
			return m.domain;
	return "all";
}

bool follows_power_profile(const std::string &spec)
{
	std::string s = lowercase(spec);
	std::erase_if(s, [](unsigned char c) { return std::isspace(c); });
	return s == "auto";
}

}  // namespace scx_burst
