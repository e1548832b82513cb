// SPDX-License-Identifier: GPL-2.0
// The daemon's view of the per-CPU counters: one table (stats_table.h)
// drives the column labels, JSON keys and descriptions, another
// (stats_derived_table.h) the columns computed from them; one printer for
// every command that shows stats.
#pragma once

#include <array>
#include <cstdint>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "intf.h"
#include "tasks.hpp"

namespace scx_burst {

struct StatMeta {
	const char *name;
	burst_stat_kind kind;
	const char *group;
	const char *label;
	const char *desc;
};

extern const std::array<StatMeta, BURST_NR_STATS> kStatMeta;

using Counters = std::array<uint64_t, BURST_NR_STATS>;

// A column computed from a row's counters (stats_derived_table.h).
struct DerivedStat {
	const char *name;
	const char *group;
	const char *label;
	const char *desc;	// "numerator / denominator"
	const char *meaning;
	burst_stat_idx num, den;

	double value(const Counters &c) const
	{
		return c[den] ? (double)c[num] / c[den] : 0.0;
	}
};

extern const std::span<const DerivedStat> kDerivedStats;

// Counters of each listed CPU (cumulative as read, or a difference).
struct StatsSample {
	std::vector<int> cpus;
	std::vector<Counters> per_cpu;
	std::vector<int> primary;	// primary domain CPUs; empty: none

	Counters total() const;
};

// @now - @prev, CPU by CPU (CPUs missing from @prev count from zero).
StatsSample stats_delta(const StatsSample &now, const StatsSample &prev);

// What a stats report says besides the counters.
struct StatsContext {
	double elapsed_s = 0;	// since the scheduler was enabled
	double interval_s = 0;	// covered by the counters
	std::string policy;
	bool overflow = false;	// the primary domain overflows right now
	uint64_t policy_switches = 0;	// live policy changes so far
};

class SchedulerApi;

// The context of a report on @sched's counters: its policy and overflow
// state now, @policy_switches, @elapsed_s since it was enabled and the
// @interval_s the counters cover.
StatsContext stats_context(const SchedulerApi &sched, uint64_t policy_switches,
			   double elapsed_s, double interval_s);

// The context a stats_json() object carries, its counters covering
// @interval_s (--monitor: the time since the previous object).
StatsContext context_from_json(const nlohmann::json &j, double interval_s);

// Human table: a header line, one row per CPU, a total row.
void print_stats_table(std::ostream &out, const StatsContext &ctx,
		       const StatsSample &sample,
		       const std::vector<TaskRow> *tasks = nullptr);

// The same numbers as one JSON object.
nlohmann::json stats_json(const StatsContext &ctx, const StatsSample &sample,
			  const std::vector<TaskRow> *tasks = nullptr);

// The per-CPU counters of a stats_json() object (inverse of stats_json).
StatsSample sample_from_json(const nlohmann::json &j);

// Descriptions of every counter, for the stats_meta request.
nlohmann::json stats_meta_json();

}  // namespace scx_burst
