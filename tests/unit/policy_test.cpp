// SPDX-License-Identifier: GPL-2.0
// policy.h against values derived here, independently of its code: from
// BORE's formula (seed 000) done in long double, from BFS's prio ratio rule
// and from hand-computed table rows.
#include <cmath>
#include <cstdint>

#include <gtest/gtest.h>

#include "scx_burst/policy.h"

namespace {

constexpr uint64_t kMs = 1000000ULL;

// BORE's score, recomputed from its definition: integer part fls64(b),
// fraction = the 10 bits below the leading one, i.e. floor((b / 2^(msb-1)
// - 1) * 1024); minus offset, times scale / 1024, floor, capped at 39.
uint32_t reference_score(uint64_t burst, uint32_t offset, uint32_t scale)
{
	if (burst == 0)
		return 0;
	int msb = 0;
	for (uint64_t b = burst; b; b >>= 1)
		msb++;
	long double mant = (long double)burst / std::ldexp(1.0L, msb - 1) - 1.0L;
	long double greed = msb * 1024.0L + std::floor(mant * 1024.0L);
	long double penalty = greed - offset * 1024.0L;
	if (penalty <= 0)
		return 0;
	long double scaled = std::floor(penalty * scale / 1024.0L);
	uint64_t score = (uint64_t)std::floor(scaled / 1024.0L);
	return score > 39 ? 39 : (uint32_t)score;
}

struct ScoreRow {
	uint64_t burst;
	uint32_t offset, scale;
	uint32_t expect;	// computed by hand from the seed's formula
};

// Hand computation, defaults (offset 18, scale 1292), e.g. 1 ms:
// fls64(1e6) = 20, 1e6 / 2^19 = 1.907 -> frac 928, greed 21408,
// penalty 21408 - 18432 = 2976, * 1292 >> 10 = 3754, >> 10 = 3.
const ScoreRow kScoreRows[] = {
	{0, 18, 1292, 0},
	{1, 18, 1292, 0},
	{200 * 1000, 18, 1292, 0},	/* under 2^18 ns: tolerated */
	{1 * kMs, 18, 1292, 3},
	{8 * kMs, 18, 1292, 7},
	{100 * kMs, 18, 1292, 11},
	{1000 * kMs, 18, 1292, 16},
	{10000 * kMs, 18, 1292, 20},
	/* offset 10, scale 2048: 2 steps per doubling past 1 us */
	{1 * kMs, 10, 2048, 21},
	{8 * kMs, 10, 2048, 27},
	{100 * kMs, 10, 2048, 34},
	{1000 * kMs, 10, 2048, 39},	/* 41 capped */
	{10000 * kMs, 10, 2048, 39},
	/* scale 0 disables the penalty */
	{10000 * kMs, 18, 0, 0},
	/* offset 30: only what exceeds 2^30 ns (1.07 s) counts */
	{500 * kMs, 30, 1292, 0},
	{1000 * kMs, 30, 1292, 1},	/* log2(1e9) = 29.9 -> greed 31603 */
	{10000 * kMs, 30, 1292, 5},
};

TEST(BurstScore, TableOfBursts)
{
	for (const auto &r : kScoreRows) {
		SCOPED_TRACE(testing::Message() << "burst=" << r.burst << " offset="
						<< r.offset << " scale=" << r.scale);
		EXPECT_EQ(burst_score(r.burst, r.offset, r.scale), r.expect);
		EXPECT_EQ(reference_score(r.burst, r.offset, r.scale), r.expect);
	}
}

TEST(BurstScore, MatchesReferenceEverywhere)
{
	const uint32_t offsets[] = {0, 10, 18, 24, 40, 64};
	const uint32_t scales[] = {0, 512, 1024, 1292, 2048, 4096};
	for (uint32_t off : offsets) {
		for (uint32_t sc : scales) {
			for (int shift = 0; shift < 64; shift++) {
				for (uint64_t mul : {1ULL, 3ULL, 5ULL, 7ULL}) {
					uint64_t b = (mul << shift) >> (mul > 1 ? 2 : 0);
					ASSERT_EQ(burst_score(b, off, sc),
						  reference_score(b, off, sc))
						<< "b=" << b << " off=" << off << " sc=" << sc;
				}
			}
		}
	}
}

TEST(BurstScore, MonotonicInBurst)
{
	uint32_t last = 0;
	for (uint64_t b = 1; b < (1ULL << 40); b = b * 5 / 4 + 1) {
		uint32_t s = burst_score(b, 18, 1292);
		ASSERT_GE(s, last) << b;
		last = s;
	}
	EXPECT_EQ(last, 28u);	/* ~1100 s: (40.x - 18) doublings * 1.26 */
}

TEST(BurstFls, MatchesLoop)
{
	EXPECT_EQ(burst_fls64(0), 0u);
	for (int i = 0; i < 64; i++) {
		EXPECT_EQ(burst_fls64(1ULL << i), (uint32_t)i + 1);
		EXPECT_EQ(burst_fls64((1ULL << i) | 1), (uint32_t)i + 1);
	}
	EXPECT_EQ(burst_fls64(~0ULL), 64u);
}

TEST(BurstSmooth, Sequences)
{
	// smoothness 1: the mean of history and the new burst.
	uint64_t prev = 0;
	const uint64_t expect1[] = {4 * kMs, 6 * kMs, 7 * kMs, 7500000, 7750000};
	for (uint64_t e : expect1) {
		prev = burst_smooth(prev, 8 * kMs, 1);
		EXPECT_EQ(prev, e);
	}
	// then short bursts pull it down again, halving the distance.
	prev = burst_smooth(prev, 0, 1);
	EXPECT_EQ(prev, 3875000u);
	// smoothness 0: no memory at all.
	EXPECT_EQ(burst_smooth(123 * kMs, 5 * kMs, 0), 5 * kMs);
	// smoothness 2: new burst weighs a quarter.
	EXPECT_EQ(burst_smooth(8 * kMs, 0, 2), 6 * kMs);
	EXPECT_EQ(burst_smooth(0, 8 * kMs, 2), 2 * kMs);
	// clamped at the maximum smoothness instead of overflowing
	EXPECT_EQ(burst_smooth(1024, 0, 99), burst_smooth(1024, 0, BURST_MAX_SMOOTHNESS));
}

TEST(BurstSmooth, EffectiveIsMaxOfHistoryAndCurrent)
{
	EXPECT_EQ(burst_effective(5, 9), 9u);
	EXPECT_EQ(burst_effective(9, 5), 9u);
}

TEST(Weights, WmultIsInverseOfWeight)
{
	for (int i = 0; i < BURST_NICE_WIDTH; i++) {
		double inv = 4294967296.0 / burst_prio_to_weight[i];
		EXPECT_NEAR(burst_prio_to_wmult[i], inv, inv * 1e-4) << i;
	}
	EXPECT_EQ(burst_prio_to_weight[BURST_NICE_0_IDX], 1024u);
	for (int i = 1; i < BURST_NICE_WIDTH; i++) {
		double step = (double)burst_prio_to_weight[i - 1] / burst_prio_to_weight[i];
		EXPECT_NEAR(step, 1.25, 0.06) << i;	/* 18 / 15 at the end */
	}
}

TEST(VtimeDelta, ScoreZeroIsPlainWeightedVtime)
{
	EXPECT_EQ(burst_vtime_delta(10 * kMs, 100, BURST_NICE_0_IDX, 0), 10 * kMs);
	EXPECT_EQ(burst_vtime_delta(10 * kMs, 200, BURST_NICE_0_IDX, 0), 5 * kMs);
	EXPECT_EQ(burst_vtime_delta(10 * kMs, 1, 0, 0), 1000 * kMs);
	EXPECT_EQ(burst_vtime_delta(10 * kMs, 0, 0, 0), 1000 * kMs); /* no div by 0 */
}

TEST(VtimeDelta, ScoreActsAsRaisedNice)
{
	for (uint32_t nice_idx : {0u, 10u, 20u, 25u, 35u, 39u}) {
		for (uint32_t score = 0; score <= 39; score++) {
			uint32_t eff = std::min<uint32_t>(nice_idx + score, 39);
			double expect = 10.0 * kMs * burst_prio_to_weight[nice_idx] /
					burst_prio_to_weight[eff];
			double got = burst_vtime_delta(10 * kMs, 100, nice_idx, score);
			EXPECT_NEAR(got, expect, expect * 2e-4 + 1)
				<< "nice_idx=" << nice_idx << " score=" << score;
		}
	}
	// one score step ~ 1.25x vtime speed at nice 0
	double r = (double)burst_vtime_delta(kMs, 100, 20, 1) /
		   burst_vtime_delta(kMs, 100, 20, 0);
	EXPECT_NEAR(r, 1.25, 0.01);
	// clamped at nice 19: a nice 19 task is not slowed further
	EXPECT_EQ(burst_vtime_delta(kMs, 100, 39, 10), kMs);
}

TEST(VtimeDelta, NoOverflowOnLongRuns)
{
	// 100 s at the minimum weight, nice -20, maximum score
	uint64_t d = burst_vtime_delta(100000 * kMs, 1, 0, 39);
	long double expect = 100000.0L * kMs * 100 * 88761.0L / 15.0L;
	EXPECT_NEAR((long double)d, expect, expect * 1e-4L);
}

TEST(VtimeFloor, SleeperGetsAtMostOneSlice)
{
	EXPECT_EQ(burst_vtime_floor(100, 1000 * kMs, 5 * kMs), 995 * kMs);
	EXPECT_EQ(burst_vtime_floor(999 * kMs, 1000 * kMs, 5 * kMs), 999 * kMs);
	EXPECT_EQ(burst_vtime_floor(2000 * kMs, 1000 * kMs, 5 * kMs), 2000 * kMs);
	EXPECT_EQ(burst_vtime_floor(0, 1 * kMs, 5 * kMs), 0u);
}

TEST(Deadline, PrioRatiosFollowBfsRule)
{
	uint64_t ratio = 128;
	for (int i = 0; i < BURST_NICE_WIDTH; i++) {
		EXPECT_EQ(burst_bfs_prio_ratio[i], ratio) << "nice " << i - 20;
		ratio = ratio * 11 / 10;
	}
	EXPECT_EQ(burst_bfs_prio_ratio[BURST_NICE_0_IDX], 836u);
}

TEST(Deadline, OffsetsAndDeadlines)
{
	const uint64_t rr = 6 * kMs;
	// nice -20: exactly one rr_interval
	EXPECT_EQ(burst_deadline_offset(0, rr), rr);
	// nice 0: 836 / 128 * 6 ms = 39.1875 ms
	EXPECT_EQ(burst_deadline_offset(20, rr), 39187500u);
	// nice 19: 5089 / 128 * 6 ms
	EXPECT_EQ(burst_deadline_offset(39, rr), 5089ULL * rr / 128);
	EXPECT_EQ(burst_deadline(1000, 20, rr), 1000 + 39187500u);
	for (int i = 1; i < BURST_NICE_WIDTH; i++)
		EXPECT_GT(burst_deadline_offset(i, rr), burst_deadline_offset(i - 1, rr));
	// nice 5 vs nice 0: the share ratio two pinned hogs should show
	double share = (double)burst_deadline_offset(25, rr) / burst_deadline_offset(20, rr);
	EXPECT_NEAR(share, 1344.0 / 836.0, 1e-9);
	// SCHED_IDLE goes behind every normal deadline
	EXPECT_GT(burst_idle_class_deadline(0, 0, rr), burst_deadline(0, 39, rr));
}

TEST(Nice, IndexClamped)
{
	EXPECT_EQ(burst_nice_idx(-20), 0u);
	EXPECT_EQ(burst_nice_idx(0), 20u);
	EXPECT_EQ(burst_nice_idx(19), 39u);
	EXPECT_EQ(burst_nice_idx(-100), 0u);
	EXPECT_EQ(burst_nice_idx(100), 39u);
}

TEST(Balance, StealMarginIsOneSliceOfKey)
{
	EXPECT_EQ(burst_steal_margin(BURST_POLICY_BURST, 5000000, 6000000), 5000000u);
	EXPECT_EQ(burst_steal_margin(BURST_POLICY_DEADLINE, 5000000, 6000000), 6000000u);
}

TEST(WaitBound, OverdueBeforeTheBound)
{
	// The age check runs every bound/4: a task that just missed a check
	// is found overdue at the next one, and then has a quarter of the
	// bound left for the CPU kicked for it to reach a dispatch.
	for (uint64_t bound : {50000000ULL, 1000000000ULL, 10000000000ULL}) {
		uint64_t od = burst_overdue_ns(bound), period = bound / 4;
		EXPECT_LE(od + period, bound / 4 * 3);
		EXPECT_GE(od, bound / 2) << "overdue too early: the bound would reorder normal waits";
	}
}

TEST(Deadline, IdleClassBiasOutranksAnyDeadline)
{
	uint64_t rr = 1000ULL * 1000000;	// the largest rr_interval
	uint64_t normal = burst_deadline(1ULL << 40, 39, rr) + 100 * rr;
	uint64_t idle = (1ULL << 40) + BURST_IDLE_CLASS_KEY_BIAS;
	EXPECT_LT((int64_t)(normal - idle), 0) << "a SCHED_IDLE victim must look later";
}

}  // namespace

namespace {

TEST(WaitBound, RescueSliceIsAQuarter)
{
	EXPECT_EQ(burst_rescue_slice(40000000), 10000000u);
	EXPECT_EQ(burst_rescue_slice(5000000), 1250000u);
	EXPECT_LT(burst_rescue_slice(100000), 100000u);
}

}  // namespace

namespace {

TEST(Deadline, RenewedOnlyWhenTheSliceIsUsedUp)
{
	const uint64_t rr = 6000000;
	EXPECT_TRUE(burst_deadline_expired(0, rr)) << "slice used up: a fresh deadline";
	EXPECT_FALSE(burst_deadline_expired(1, rr)) << "slice left: keep the deadline";
	EXPECT_FALSE(burst_deadline_expired(rr, rr));
	EXPECT_TRUE(burst_deadline_expired(rr + 1, rr)) << "rr_interval lowered live";
}

TEST(Deadline, VictimKeyPrefersNearCpusAndNeedsAMarginAcrossLlcs)
{
	const uint64_t rr = 6000000, t = 1ULL << 40;
	uint64_t key = 0;

	// An earlier deadline preempts a later one on the same CPU.
	ASSERT_TRUE(burst_victim_key(t, t + 1, BURST_DIST_SAME_CPU, rr, &key));
	EXPECT_EQ(key, t + 1);
	EXPECT_FALSE(burst_victim_key(t + 1, t + 1, BURST_DIST_SAME_CPU, rr, &key))
		<< "an equal deadline is no reason to preempt";
	// Across LLCs only with one rr_interval to spare.
	EXPECT_FALSE(burst_victim_key(t, t + rr, BURST_DIST_OTHER_LLC, rr, &key));
	EXPECT_TRUE(burst_victim_key(t, t + rr + 1, BURST_DIST_OTHER_LLC, rr, &key));
	// Same running key: the nearer CPU ranks later (a better victim).
	uint64_t near = 0, far = 0;
	ASSERT_TRUE(burst_victim_key(t, t + 5 * rr, BURST_DIST_SMT, rr, &near));
	ASSERT_TRUE(burst_victim_key(t, t + 5 * rr, BURST_DIST_SAME_LLC, rr, &far));
	EXPECT_TRUE(burst_key_before(far, near));
	// Wrap-around: keys compare by difference.
	EXPECT_TRUE(burst_victim_key(~0ULL - 10, 5, BURST_DIST_SAME_CPU, rr, &key));
}

TEST(Domain, OverflowOnlyAfterTheHoldTime)
{
	const uint64_t hold = 5000000;
	uint64_t since = 0;

	EXPECT_FALSE(burst_saturation_step(&since, false, 1000, hold)) << "episode starts";
	EXPECT_EQ(since, 1000u);
	EXPECT_FALSE(burst_saturation_step(&since, false, 1000 + hold - 1, hold));
	EXPECT_TRUE(burst_saturation_step(&since, false, 1000 + hold, hold)) << "overflow";
	EXPECT_FALSE(burst_saturation_step(&since, true, 1000 + 2 * hold, hold))
		<< "already overflowing: nothing new to report";
	EXPECT_EQ(since, 1000u) << "the episode keeps its start";
}

}  // namespace
