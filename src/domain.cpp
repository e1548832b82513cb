// SPDX-License-Identifier: GPL-2.0
#include "scx_burst/domain.hpp"

#include <algorithm>
#include <cctype>
#include <map>

#include "scx_burst/intf.h"
#include "scx_burst/power_profile.hpp"
#include "scx_burst/sysfs.hpp"
#include "scx_burst/text.hpp"

namespace scx_burst {
namespace {

// Masks and keywords are read without any whitespace, also inside
// ("0x f0" is 0xf0), and in lower case.
std::string squeeze_lower(const std::string &s)
{
	std::string out = lowercase(s);
	std::erase_if(out, [](unsigned char c) { return std::isspace(c); });
	return out;
}

int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

}  // namespace

Result<std::vector<int>> parse_hex_mask(const std::string &text)
{
	std::string s = squeeze_lower(text);
	std::vector<int> cpus;

	if (s.rfind("0x", 0) == 0)
		s = s.substr(2);
	if (s.empty())
		return fail("invalid CPU mask '" + text + "': no hex digits");
	// Commas separate 32-bit groups as in /proc masks: every group but
	// the first then has exactly 8 digits.
	std::string digits;
	size_t start = 0;
	for (bool first = true;; first = false) {
		size_t comma = s.find(',', start);
		std::string g = s.substr(start, comma == std::string::npos ? std::string::npos
									   : comma - start);
		if (g.empty() || (!first && g.size() != 8))
			return fail("invalid CPU mask '" + text +
				    "': groups between ',' must have 8 hex digits");
		for (char c : g)
			if (hex_digit(c) < 0)
				return fail("invalid CPU mask '" + text + "': '" + std::string(1, c) +
					    "' is not a hex digit");
		digits += g;
		if (comma == std::string::npos)
			break;
		start = comma + 1;
	}
	for (size_t i = 0; i < digits.size(); i++) {
		int v = hex_digit(digits[digits.size() - 1 - i]);
		for (int b = 0; b < 4; b++) {
			if (v & (1 << b)) {
				int cpu = i * 4 + b;
				if (cpu >= BURST_MAX_CPUS)
					return fail("invalid CPU mask '" + text + "': CPU " +
						    std::to_string(cpu) + " is beyond the supported " +
						    std::to_string(BURST_MAX_CPUS));
				cpus.push_back(cpu);
			}
		}
	}
	std::sort(cpus.begin(), cpus.end());
	return cpus;
}

Result<std::vector<int>> parse_cpus(const std::string &text)
{
	std::string s = squeeze_lower(text);
	bool list = s.rfind("0x", 0) != 0 && (s.find('-') != std::string::npos ||
					      (s.find(',') != std::string::npos &&
					       s.find_first_of("abcdef") == std::string::npos));
	if (list)
		return parse_cpulist(text);
	return parse_hex_mask(text);
}

std::string format_cpulist(const std::vector<int> &cpus)
{
	std::string out;
	for (size_t i = 0; i < cpus.size();) {
		size_t j = i;
		while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1)
			j++;
		if (!out.empty())
			out += ",";
		out += std::to_string(cpus[i]);
		if (j > i)
			out += "-" + std::to_string(cpus[j]);
		i = j + 1;
	}
	return out;
}

std::string format_domain(const std::vector<int> &cpus)
{
	return cpus.empty() ? "all" : format_cpulist(cpus);
}

std::string format_hex_mask(const std::vector<int> &cpus)
{
	if (cpus.empty())
		return "0x0";
	int top = *std::max_element(cpus.begin(), cpus.end());
	std::vector<int> nib(top / 4 + 1, 0);
	for (int c : cpus)
		nib[c / 4] |= 1 << (c % 4);
	std::string out = "0x";
	for (size_t i = nib.size(); i-- > 0;)
		out += "0123456789abcdef"[nib[i]];
	return out;
}

namespace {

// CPU -> capacity, from the best source the system has; empty if none.
std::map<int, long> capacities(const Topology &topo, const SysfsPaths &p, std::string &src)
{
	std::map<int, long> cap;
	for (int cpu : topo.online) {
		std::string v = read_line(p.cpu / ("cpu" + std::to_string(cpu)) / "cpu_capacity");
		if (v.empty()) {
			cap.clear();
			break;
		}
		cap[cpu] = std::atol(v.c_str());
	}
	if (!cap.empty()) {
		src = "cpu_capacity";
		return cap;
	}
	auto core = parse_cpulist(read_line(p.devices / "cpu_core" / "cpus"));
	auto atom = parse_cpulist(read_line(p.devices / "cpu_atom" / "cpus"));
	if (core && atom) {
		for (int c : *atom)
			cap[c] = 1;
		for (int c : *core)
			cap[c] = 2;
		src = "hybrid PMUs (cpu_core / cpu_atom)";
		return cap;
	}
	for (int cpu : topo.online) {
		std::string v = read_line(p.cpu / ("cpu" + std::to_string(cpu)) / "cpufreq" /
					  "cpuinfo_max_freq");
		if (v.empty()) {
			cap.clear();
			break;
		}
		cap[cpu] = std::atol(v.c_str());
	}
	if (!cap.empty())
		src = "cpufreq maximum frequency";
	return cap;
}

// performance: the CPUs of at least the average capacity; powersave: the
// others, below it.  The two split the CPUs whenever capacities differ,
// and with preferred-core boosting (two to four CPUs a little above the
// rest of their kind) performance still means all the fast cores.
Result<Domain> by_capacity(bool performance, const Topology &topo, const SysfsPaths &p)
{
	std::string src;
	auto cap = capacities(topo, p, src);
	const char *kw = performance ? "performance" : "powersave";
	if (cap.empty())
		return Domain{{}, std::string(kw) + ": the system exposes no CPU capacity, "
						    "using all CPUs"};
	long lo = cap.begin()->second, hi = lo;
	double sum = 0;
	for (auto &[c, v] : cap) {
		lo = std::min(lo, v);
		hi = std::max(hi, v);
		sum += v;
	}
	if (lo == hi)
		return Domain{{}, std::string(kw) + ": all CPUs have the same capacity (" + src +
					  "), using all CPUs"};
	double avg = sum / cap.size();
	Domain d;
	for (auto &[c, v] : cap)
		if ((v >= avg) == performance)
			d.cpus.push_back(c);
	d.why = std::string(kw) + ": the CPUs " + (performance ? "of at least" : "below") +
		" the average capacity by " + src;
	return d;
}

}  // namespace

std::string domain_keyword(const std::string &spec)
{
	std::string kw = squeeze_lower(spec);
	if (kw == "all" || kw == "performance" || kw == "powersave" || follows_power_profile(kw))
		return kw;
	return "";
}

Result<Domain> resolve_domain(const std::string &spec, const Topology &topo,
			      const SysfsPaths &paths, bool online_part)
{
	std::string kw = domain_keyword(spec);
	if (kw == "all")
		return Domain{{}, "all: no primary domain"};
	if (kw == "performance")
		return by_capacity(true, topo, paths);
	if (kw == "powersave")
		return by_capacity(false, topo, paths);
	if (follows_power_profile(kw)) {
		auto prof = read_power_profile(paths);
		if (!prof)
			return Domain{{}, "no power profile, using all CPUs"};
		std::string to = profile_domain(prof->name);
		std::string from = "power profile '" + prof->name + "' (" + prof->source + ")";
		if (to == "all")
			return Domain{{}, from + ", using all CPUs"};
		auto d = by_capacity(to == "performance", topo, paths);
		if (d)
			d->why = from + " -> " + d->why;
		return d;
	}

	auto cpus = parse_cpus(spec);
	if (!cpus)
		return std::unexpected(cpus.error());
	if (cpus->empty())
		return fail("invalid primary domain '" + spec + "': it names no CPU");
	Domain d;
	std::vector<int> offline;
	for (int c : *cpus) {
		bool online = std::binary_search(topo.online.begin(), topo.online.end(), c);
		if (online) {
			d.cpus.push_back(c);
			continue;
		}
		if (c >= topo.nr_cpu_ids)
			return fail("invalid primary domain '" + spec + "': CPU " + std::to_string(c) +
				    " does not exist (this machine has CPUs 0-" +
				    std::to_string(topo.nr_cpu_ids - 1) + ")");
		if (online_part) {
			offline.push_back(c);
			continue;
		}
		return fail("invalid primary domain '" + spec + "': CPU " + std::to_string(c) +
			    " is offline");
	}
	if (!offline.empty()) {
		bool one = offline.size() == 1;
		std::string gone = (one ? "CPU " : "CPUs ") + format_cpulist(offline) +
				   (one ? " is offline" : " are offline");
		std::string until = one ? " until it returns" : " until they return";
		d.why = gone + (d.cpus.empty() ? ": no primary domain" :
						  ": using " + format_cpulist(d.cpus)) + until;
	}
	if (d.cpus == topo.online) {
		if (offline.empty())
			d.why = "every online CPU: no primary domain";
		d.cpus.clear();
	}
	return d;
}

}  // namespace scx_burst
