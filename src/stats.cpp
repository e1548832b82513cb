// SPDX-License-Identifier: GPL-2.0
#include "scx_burst/stats.hpp"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "scx_burst/domain.hpp"
#include "scx_burst/scheduler.hpp"
#include "scx_burst/tunables.hpp"

namespace scx_burst {

const std::array<StatMeta, BURST_NR_STATS> kStatMeta = {{
#define BURST_STAT(name, kind, group, label, desc) \
	{#name, BURST_STAT_KIND_##kind, #group, label, desc},
#include "scx_burst/stats_table.h"
#undef BURST_STAT
}};

namespace {

constexpr DerivedStat kDerived[] = {
#define BURST_RATIO(name, group, label, num, den, meaning) \
	{#name, #group, label, #num " / " #den, meaning, BURST_STAT_##num, BURST_STAT_##den},
#include "scx_burst/stats_derived_table.h"
#undef BURST_RATIO
};

}  // namespace

const std::span<const DerivedStat> kDerivedStats = kDerived;

Counters StatsSample::total() const
{
	Counters t{};
	for (const auto &c : per_cpu)
		for (size_t i = 0; i < t.size(); i++)
			t[i] = kStatMeta[i].kind == BURST_STAT_KIND_MAX ? std::max(t[i], c[i]) :
									 t[i] + c[i];
	return t;
}

StatsSample stats_delta(const StatsSample &now, const StatsSample &prev)
{
	StatsSample d = now;	// keeps now's primary domain
	for (size_t i = 0; i < now.cpus.size(); i++) {
		auto it = std::find(prev.cpus.begin(), prev.cpus.end(), now.cpus[i]);
		if (it == prev.cpus.end())
			continue;
		const Counters &p = prev.per_cpu[it - prev.cpus.begin()];
		for (size_t k = 0; k < p.size(); k++) {
			if (kStatMeta[k].kind == BURST_STAT_KIND_MAX)
				continue;	// already the interval's value
			d.per_cpu[i][k] = now.per_cpu[i][k] >= p[k] ?
						  now.per_cpu[i][k] - p[k] : 0;
		}
	}
	return d;
}

namespace {

// Table cell of counter @k: run time in ms, everything else as counted.
uint64_t cell(const Counters &c, size_t k)
{
	if (k == BURST_STAT_run_ns)
		return c[k] / 1000000;
	return c[k];
}

// Table cell of derived column @d, and its width (room for 123.45).
std::string derived_cell(const Counters &c, const DerivedStat &d)
{
	return fmt::format("{:.2f}", d.value(c));
}

size_t derived_width(const DerivedStat &d)
{
	return std::max<size_t>(std::strlen(d.label), 6);
}

nlohmann::json counters_json(const Counters &c)
{
	nlohmann::json j = nlohmann::json::object();
	for (size_t k = 0; k < c.size(); k++)
		j[kStatMeta[k].name] = c[k];
	for (const auto &d : kDerivedStats)
		j[d.name] = d.value(c);
	return j;
}

}  // namespace

void print_stats_table(std::ostream &out, const StatsContext &ctx,
		       const StatsSample &sample, const std::vector<TaskRow> *tasks)
{
	std::array<size_t, BURST_NR_STATS> width;
	Counters tot = sample.total();

	for (size_t k = 0; k < width.size(); k++)
		width[k] = std::max<size_t>(std::strlen(kStatMeta[k].label),
					    std::to_string(cell(tot, k)).size());

	auto is_primary = [&](int cpu) {
		return std::find(sample.primary.begin(), sample.primary.end(), cpu) !=
		       sample.primary.end();
	};
	std::string line = fmt::format("[{:8.1f}s] policy={} switches={} interval={:.1f}s",
				       ctx.elapsed_s, ctx.policy, ctx.policy_switches,
				       ctx.interval_s);
	if (!sample.primary.empty())
		line += fmt::format(" primary={}{}", format_cpulist(sample.primary),
				    ctx.overflow ? " (overflowing)" : "");
	line += "\n";
	line += fmt::format("{:>5}", "cpu");
	for (size_t k = 0; k < width.size(); k++)
		line += fmt::format(" {:>{}}", kStatMeta[k].label, width[k]);
	for (const auto &d : kDerivedStats)
		line += fmt::format(" {:>{}}", d.label, derived_width(d));
	line += "\n";

	auto row = [&](const std::string &name, const Counters &c) {
		line += fmt::format("{:>5}", name);
		for (size_t k = 0; k < width.size(); k++)
			line += fmt::format(" {:>{}}", cell(c, k), width[k]);
		for (const auto &d : kDerivedStats)
			line += fmt::format(" {:>{}}", derived_cell(c, d), derived_width(d));
		line += "\n";
	};
	for (size_t i = 0; i < sample.cpus.size(); i++)
		row(std::to_string(sample.cpus[i]) + (is_primary(sample.cpus[i]) ? "*" : ""),
		    sample.per_cpu[i]);
	row("total", tot);

	if (tasks) {
		for (const auto &t : *tasks)
			line += fmt::format("  task tid={} tgid={} comm={} score={} "
					    "burst_us={} prev_burst_us={} runs={} "
					    "run_ms={}\n",
					    t.tid, t.tgid, t.comm, t.score,
					    t.burst_ns / 1000, t.prev_burst_ns / 1000,
					    t.runs, t.run_ns / 1000000);
	}
	out << line << std::flush;
}

nlohmann::json stats_json(const StatsContext &ctx, const StatsSample &sample,
			  const std::vector<TaskRow> *tasks)
{
	nlohmann::json j;
	j["elapsed_s"] = ctx.elapsed_s;
	j["interval_s"] = ctx.interval_s;
	j["policy"] = ctx.policy;
	j["primary_domain"] = format_domain(sample.primary);
	j["overflow"] = ctx.overflow;
	j["policy_switches"] = ctx.policy_switches;
	j["cpus"] = nlohmann::json::array();
	for (size_t i = 0; i < sample.cpus.size(); i++) {
		auto c = counters_json(sample.per_cpu[i]);
		c["cpu"] = sample.cpus[i];
		c["primary"] = std::find(sample.primary.begin(), sample.primary.end(),
					 sample.cpus[i]) != sample.primary.end();
		j["cpus"].push_back(std::move(c));
	}
	j["total"] = counters_json(sample.total());
	if (tasks) {
		j["tasks"] = nlohmann::json::array();
		for (const auto &t : *tasks)
			j["tasks"].push_back({{"tid", t.tid},
					      {"tgid", t.tgid},
					      {"comm", t.comm},
					      {"score", t.score},
					      {"burst_ns", t.burst_ns},
					      {"prev_burst_ns", t.prev_burst_ns},
					      {"runs", t.runs},
					      {"run_ns", t.run_ns}});
	}
	return j;
}

StatsContext stats_context(const SchedulerApi &sched, uint64_t policy_switches,
			   double elapsed_s, double interval_s)
{
	StatsContext ctx;
	ctx.elapsed_s = elapsed_s;
	ctx.interval_s = interval_s;
	ctx.policy = policy_name(sched.tunables().policy);
	ctx.overflow = sched.overflowing();
	ctx.policy_switches = policy_switches;
	return ctx;
}

StatsContext context_from_json(const nlohmann::json &j, double interval_s)
{
	StatsContext ctx;
	ctx.elapsed_s = j.value("elapsed_s", 0.0);
	ctx.interval_s = interval_s;
	ctx.policy = j.value("policy", "");
	ctx.overflow = j.value("overflow", false);
	ctx.policy_switches = j.value("policy_switches", (uint64_t)0);
	return ctx;
}

StatsSample sample_from_json(const nlohmann::json &j)
{
	StatsSample s;
	if (!j.contains("cpus") || !j["cpus"].is_array())
		return s;
	for (const auto &c : j["cpus"]) {
		Counters cnt{};
		for (size_t k = 0; k < cnt.size(); k++)
			cnt[k] = c.value(kStatMeta[k].name, (uint64_t)0);
		s.cpus.push_back(c.value("cpu", -1));
		if (c.value("primary", false))
			s.primary.push_back(s.cpus.back());
		s.per_cpu.push_back(cnt);
	}
	return s;
}

nlohmann::json stats_meta_json()
{
	nlohmann::json j = nlohmann::json::object();
	for (const auto &m : kStatMeta)
		j[m.name] = {{"group", m.group},
			     {"kind", m.kind == BURST_STAT_KIND_MAX ? "max" : "sum"},
			     {"label", m.label},
			     {"desc", m.desc}};
	for (const auto &d : kDerivedStats)
		j[d.name] = {{"group", d.group}, {"label", d.label}, {"desc", d.desc}};
	return j;
}

}  // namespace scx_burst
