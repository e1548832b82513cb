// SPDX-License-Identifier: GPL-2.0
// Stats table and JSON: every counter of stats_table.h and every column of
// stats_derived_table.h shows up, totals
// are the sums of the rows, deltas subtract CPU by CPU.
#include <algorithm>
#include <cstring>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "scx_burst/stats.hpp"

namespace {

using namespace scx_burst;

StatsSample sample3()
{
	StatsSample s;
	s.cpus = {0, 1, 3};
	for (int i = 0; i < 3; i++) {
		Counters c{};
		for (size_t k = 0; k < c.size(); k++)
			c[k] = (i + 1) * 1000 + k;
		c[BURST_STAT_run_ns] = (i + 1) * 7000000ULL;
		c[BURST_STAT_runs] = 10 * (i + 1);
		c[BURST_STAT_score_sum] = 50 * (i + 1);
		s.per_cpu.push_back(c);
	}
	return s;
}

TEST(Stats, MetaTableIsComplete)
{
	std::set<std::string> names, labels;
	for (const auto &m : kStatMeta) {
		EXPECT_TRUE(names.insert(m.name).second) << m.name;
		EXPECT_TRUE(labels.insert(m.label).second) << m.label;
		EXPECT_GT(std::strlen(m.desc), 10u) << m.name;
	}
	EXPECT_EQ(names.size(), (size_t)BURST_NR_STATS);
	// Derived columns share the name and label spaces of the counters.
	for (const auto &d : kDerivedStats) {
		EXPECT_TRUE(names.insert(d.name).second) << d.name;
		EXPECT_TRUE(labels.insert(d.label).second) << d.label;
	}
	auto meta = stats_meta_json();
	EXPECT_EQ(meta.size(), BURST_NR_STATS + kDerivedStats.size());
	for (const auto &m : kStatMeta)
		EXPECT_EQ(meta[m.name]["desc"], m.desc);
	for (const auto &d : kDerivedStats)
		EXPECT_EQ(meta[d.name]["desc"], d.desc);
	EXPECT_EQ(meta["avg_score"]["desc"], "score_sum / runs");
}

// What the total row holds for slot @k: the sum, or the largest for MAX.
uint64_t combine(const std::vector<uint64_t> &v, size_t k)
{
	uint64_t r = 0;
	for (uint64_t x : v)
		r = kStatMeta[k].kind == BURST_STAT_KIND_MAX ? std::max(r, x) : r + x;
	return r;
}

TEST(Stats, TotalIsSumOrMax)
{
	auto s = sample3();
	auto t = s.total();
	for (size_t k = 0; k < t.size(); k++)
		EXPECT_EQ(t[k], combine({s.per_cpu[0][k], s.per_cpu[1][k], s.per_cpu[2][k]}, k))
			<< kStatMeta[k].name;
	EXPECT_EQ(kStatMeta[BURST_STAT_max_wait_us].kind, BURST_STAT_KIND_MAX);
	EXPECT_EQ(t[BURST_STAT_max_wait_us], s.per_cpu[2][BURST_STAT_max_wait_us]);
}

TEST(Stats, MaxMaskMatchesTable)
{
	for (size_t k = 0; k < BURST_NR_STATS; k++)
		EXPECT_EQ((burst_stat_max_mask >> k) & 1,
			  kStatMeta[k].kind == BURST_STAT_KIND_MAX ? 1u : 0u)
			<< kStatMeta[k].name;
}

TEST(Stats, DeltaPerCpu)
{
	auto prev = sample3();
	auto now = prev;
	now.per_cpu[1][BURST_STAT_enqueue] += 42;
	now.cpus.push_back(7);	// appeared since (hotplug): counts from zero
	now.per_cpu.push_back(Counters{});
	now.per_cpu.back()[BURST_STAT_runs] = 5;
	auto d = stats_delta(now, prev);
	EXPECT_EQ(d.per_cpu[0][BURST_STAT_enqueue], 0u);
	EXPECT_EQ(d.per_cpu[1][BURST_STAT_enqueue], 42u);
	EXPECT_EQ(d.per_cpu[3][BURST_STAT_runs], 5u);
	EXPECT_EQ(d.total()[BURST_STAT_enqueue], 42u);
	// MAX slots are already per interval: the delta keeps now's value
	EXPECT_EQ(d.per_cpu[1][BURST_STAT_max_wait_us], now.per_cpu[1][BURST_STAT_max_wait_us]);
}

TEST(Stats, TableHasRowPerCpuAndTotal)
{
	auto s = sample3();
	std::ostringstream out;
	StatsContext ctx{12.5, 1.0, "burst"};
	print_stats_table(out, ctx, s);
	std::istringstream in(out.str());
	std::string header, cols, line;
	std::getline(in, header);
	std::getline(in, cols);
	EXPECT_NE(header.find("policy=burst"), std::string::npos);
	EXPECT_NE(header.find("switches=0"), std::string::npos);
	for (const auto &m : kStatMeta)
		EXPECT_NE(cols.find(m.label), std::string::npos) << m.label;
	for (const auto &d : kDerivedStats)
		EXPECT_NE(cols.find(d.label), std::string::npos) << d.label;
	std::vector<std::string> first;
	while (std::getline(in, line)) {
		std::istringstream ls(line);
		std::string w;
		ls >> w;
		first.push_back(w);
		if (w == "total") {
			// enq column of the total row is the sum of the rows
			uint64_t enq;
			ls >> enq;
			EXPECT_EQ(enq, s.total()[BURST_STAT_enqueue]);
			// run_ms column is in milliseconds
			std::vector<uint64_t> v{enq};
			uint64_t x;
			while (ls >> x)
				v.push_back(x);
			EXPECT_EQ(v[BURST_STAT_run_ns], 42u);
		}
	}
	EXPECT_EQ(first, (std::vector<std::string>{"0", "1", "3", "total"}));
	EXPECT_NE(out.str().find("5.00"), std::string::npos);	// avg score 300/60
}

TEST(Stats, JsonSameNumbers)
{
	auto s = sample3();
	std::vector<TaskRow> tasks{{12, 10, "hog", 17, 5, 6, 7, 8}};
	auto j = stats_json(StatsContext{3.0, 1.0, "deadline"}, s, &tasks);
	EXPECT_EQ(j["policy"], "deadline");
	ASSERT_EQ(j["cpus"].size(), 3u);
	for (size_t k = 0; k < BURST_NR_STATS; k++) {
		std::vector<uint64_t> v;
		for (const auto &c : j["cpus"])
			v.push_back(c[kStatMeta[k].name].get<uint64_t>());
		EXPECT_EQ(j["total"][kStatMeta[k].name].get<uint64_t>(), combine(v, k))
			<< kStatMeta[k].name;
	}
	EXPECT_EQ(j["cpus"][2]["cpu"], 3);
	EXPECT_DOUBLE_EQ(j["total"]["avg_score"].get<double>(), 5.0);
	for (const auto &d : kDerivedStats)
		EXPECT_DOUBLE_EQ(j["cpus"][0][d.name].get<double>(), d.value(s.per_cpu[0]))
			<< d.name;
	EXPECT_EQ(j["total"].size(), BURST_NR_STATS + kDerivedStats.size());
	EXPECT_EQ(j["tasks"][0]["comm"], "hog");
	EXPECT_EQ(j["tasks"][0]["score"], 17);
	// round trip through text, as a consumer of --json lines sees it
	auto back = nlohmann::json::parse(j.dump());
	EXPECT_EQ(back, j);
}

TEST(Stats, ContextRoundTripsThroughJson)
{
	StatsContext ctx{7.5, 1.0, "deadline", true, 3};
	auto back = context_from_json(stats_json(ctx, sample3()), 0.5);
	EXPECT_DOUBLE_EQ(back.elapsed_s, 7.5);
	EXPECT_DOUBLE_EQ(back.interval_s, 0.5);
	EXPECT_EQ(back.policy, "deadline");
	EXPECT_TRUE(back.overflow);
	EXPECT_EQ(back.policy_switches, 3u);
}

}  // namespace
