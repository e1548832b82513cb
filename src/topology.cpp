// SPDX-License-Identifier: GPL-2.0
#include "scx_burst/topology.hpp"

#include <algorithm>
#include <charconv>
#include <map>

#include "scx_burst/intf.h"
#include "scx_burst/sysfs.hpp"
#include "scx_burst/text.hpp"

namespace scx_burst {
namespace {

Result<int> parse_cpu_number(const std::string &s, const std::string &whole)
{
	int v = -1;
	auto t = trim(s);
	auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
	if (t.empty() || ec != std::errc() || p != t.data() + t.size() || v < 0)
		return fail("invalid CPU list '" + whole + "': '" + t +
			    "' is not a CPU number");
	if (v >= BURST_MAX_CPUS)
		return fail("invalid CPU list '" + whole + "': CPU " +
			    std::to_string(v) + " is beyond the supported " +
			    std::to_string(BURST_MAX_CPUS));
	return v;
}

}  // namespace

Result<std::vector<int>> parse_cpulist(const std::string &text)
{
	std::vector<int> cpus;
	std::string s = trim(text);

	if (s.empty())
		return fail("invalid CPU list: it is empty");
	size_t start = 0;
	while (start <= s.size()) {
		size_t comma = s.find(',', start);
		std::string item = s.substr(start, comma == std::string::npos ?
							   std::string::npos :
							   comma - start);
		size_t dash = item.find('-');
		if (dash == std::string::npos) {
			auto v = parse_cpu_number(item, text);
			if (!v)
				return std::unexpected(v.error());
			cpus.push_back(*v);
		} else {
			auto a = parse_cpu_number(item.substr(0, dash), text);
			if (!a)
				return std::unexpected(a.error());
			auto b = parse_cpu_number(item.substr(dash + 1), text);
			if (!b)
				return std::unexpected(b.error());
			if (*b < *a)
				return fail("invalid CPU list '" + text +
					    "': range " + trim(item) +
					    " goes backwards");
			for (int c = *a; c <= *b; c++)
				cpus.push_back(c);
		}
		if (comma == std::string::npos)
			break;
		start = comma + 1;
	}
	std::sort(cpus.begin(), cpus.end());
	cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
	return cpus;
}

Result<Topology> read_topology(const SysfsPaths &sys)
{
	const std::filesystem::path &root = sys.cpu;
	Topology topo;
	std::string possible = read_line(root / "possible");
	std::string online = read_line(root / "online");

	if (possible.empty())
		return fail("cannot read " + (root / "possible").string());
	auto poss = parse_cpulist(possible);
	if (!poss)
		return std::unexpected(poss.error());
	topo.nr_cpu_ids = poss->back() + 1;
	auto onl = parse_cpulist(online.empty() ? possible : online);
	if (!onl)
		return std::unexpected(onl.error());
	topo.online = *onl;
	topo.llc_of.assign(topo.nr_cpu_ids, 0);
	topo.sibling.assign(topo.nr_cpu_ids, -1);

	// The LLC is the highest-level cache a CPU lists; CPUs that list the
	// same sharing set share it.
	std::map<std::string, int> llc_ids;
	for (int cpu : topo.online) {
		auto dir = root / ("cpu" + std::to_string(cpu));
		std::string shared;
		int best_level = -1;
		for (int idx = 0; idx < 16; idx++) {
			auto cache = dir / "cache" / ("index" + std::to_string(idx));
			std::string level = read_line(cache / "level");
			if (level.empty())
				break;
			std::string type = read_line(cache / "type");
			if (type == "Instruction")
				continue;
			int lv = std::atoi(level.c_str());
			if (lv > best_level) {
				best_level = lv;
				shared = read_line(cache / "shared_cpu_list");
			}
		}
		if (shared.empty())
			shared = "all";
		auto [it, fresh] = llc_ids.emplace(shared, (int)llc_ids.size());
		(void)fresh;
		topo.llc_of[cpu] = it->second;

		auto sibs = parse_cpulist(read_line(dir / "topology" /
						    "thread_siblings_list"));
		if (sibs) {
			for (int s : *sibs) {
				if (s != cpu && s < topo.nr_cpu_ids) {
					topo.sibling[cpu] = s;
					topo.smt = true;
					break;
				}
			}
		}
	}
	topo.nr_llcs = std::max<int>(1, llc_ids.size());
	if (topo.nr_llcs > BURST_MAX_LLCS)
		return fail("this machine has " + std::to_string(topo.nr_llcs) +
			    " LLCs; scx_burst supports " +
			    std::to_string(BURST_MAX_LLCS));
	return topo;
}

}  // namespace scx_burst
