/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pure policy arithmetic of scx_burst: burst scores, weights, virtual time
 * and virtual deadlines.
 *
 * Everything here is a static inline function of its arguments: no maps,
 * no helpers, no globals besides constant tables.  The BPF scheduler
 * compiles it with clang -target bpf, the unit tests compile it with the
 * host C++ compiler and check it against values they derive on their own.
 */
#ifndef SCX_BURST_POLICY_H
#define SCX_BURST_POLICY_H

#include "intf.h"

/*
 * Constants of the policy math.  The tunables' defaults and limits are in
 * tunables_table.h.
 */
enum burst_limits {
	BURST_MAX_SMOOTHNESS		= 10,	/* burst_smooth() clamps to it */
	BURST_MAX_SCORE			= 39,
	BURST_FIXED_SHIFT		= 10,
	BURST_NICE_WIDTH		= 40,	/* nice -20..19 */
	BURST_NICE_0_IDX		= 20,
	BURST_CGROUP_WEIGHT_DFL		= 100,	/* p->scx.weight at nice 0 */
};

/*
 * The kernel's sched_prio_to_weight[] and sched_prio_to_wmult[] (2^32 /
 * weight), indexed by nice + 20.  Neighbouring weights differ by ~1.25x:
 * one nice level is ~10% of CPU between two competing tasks.
 */
static const u32 burst_prio_to_weight[BURST_NICE_WIDTH] = {
	88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916,
	9548,  7620,  6100,  4904,  3906,  3121,  2501,  1991,  1586,  1277,
	1024,  820,   655,   526,   423,   335,   272,   215,   172,   137,
	110,   87,    70,    56,    45,    36,    29,    23,    18,    15,
};

static const u32 burst_prio_to_wmult[BURST_NICE_WIDTH] = {
	48388,     59856,     76040,     92818,     118348,
	147320,    184698,    229616,    287308,    360437,
	449829,    563644,    704093,    875809,    1099582,
	1376151,   1717300,   2157191,   2708050,   3363326,
	4194304,   5237765,   6557202,   8165337,   10153587,
	12820798,  15790321,  19976592,  24970740,  31350126,
	39045157,  49367440,  61356676,  76695844,  95443717,
	119304647, 148102320, 186737708, 238609294, 286331153,
};

/*
 * BFS prio_ratios[]: 128 at nice -20, each nice level 10% more than the one
 * below, truncated at every step (prio_ratios[i] = prio_ratios[i-1]*11/10).
 */
static const u32 burst_bfs_prio_ratio[BURST_NICE_WIDTH] = {
	128,  140,  154,  169,  185,  203,  223,  245,  269,  295,
	324,  356,  391,  430,  473,  520,  572,  629,  691,  760,
	836,  919,  1010, 1111, 1222, 1344, 1478, 1625, 1787, 1965,
	2161, 2377, 2614, 2875, 3162, 3478, 3825, 4207, 4627, 5089,
};

static inline u32 burst_min_u32(u32 a, u32 b)
{
	return a < b ? a : b;
}

static inline u64 burst_max_u64(u64 a, u64 b)
{
	return a > b ? a : b;
}

/* Index of the most significant set bit, 1-based; 0 for 0 (kernel fls64). */
static inline u32 burst_fls64(u64 x)
{
	u32 r = 1;

	if (!x)
		return 0;
	if (x >> 32) { x >>= 32; r += 32; }
	if (x >> 16) { x >>= 16; r += 16; }
	if (x >> 8)  { x >>= 8;  r += 8; }
	if (x >> 4)  { x >>= 4;  r += 4; }
	if (x >> 2)  { x >>= 2;  r += 2; }
	if (x >> 1)  { r += 1; }
	return r;
}

/* (a * b) >> shift without 128-bit arithmetic, for shift <= 32. */
static inline u64 burst_mul_u64_u32_shr(u64 a, u32 b, u32 shift)
{
	u64 lo = (a & 0xffffffffULL) * b;
	u64 hi = (a >> 32) * b;

	return (lo >> shift) + (hi << (32 - shift));
}

/*
 * Fixed-point log2 of @burst_ns with BURST_FIXED_SHIFT fractional bits:
 * fls64() in the integer part, the bits below the leading one as the
 * fraction (BORE's "greed").
 */
static inline u32 burst_greed(u64 burst_ns)
{
	u32 msb = burst_fls64(burst_ns);
	u64 frac;

	if (!msb)
		return 0;
	frac = ((burst_ns << (64 - msb)) << 1) >> (64 - BURST_FIXED_SHIFT);
	return (msb << BURST_FIXED_SHIFT) | (u32)frac;
}

/*
 * BORE's update_burst_score(): penalise the part of log2(burst) above
 * @offset, with slope @scale / 1024 score steps per doubling, capped at 39.
 */
static inline u32 burst_score(u64 burst_ns, u32 offset, u32 scale)
{
	s64 penalty = (s64)burst_greed(burst_ns) -
		      ((s64)offset << BURST_FIXED_SHIFT);
	u64 scaled;

	if (penalty <= 0)
		return 0;
	scaled = ((u64)penalty * scale) >> 10;
	scaled >>= BURST_FIXED_SHIFT;
	return scaled > BURST_MAX_SCORE ? (u32)BURST_MAX_SCORE : (u32)scaled;
}

/*
 * Fold a finished burst into the history: an average that gives the new
 * burst a weight of 2^-smoothness (1: the mean of the two, 0: no memory).
 */
static inline u64 burst_smooth(u64 prev_ns, u64 burst_ns, u32 smoothness)
{
	if (smoothness > BURST_MAX_SMOOTHNESS)
		smoothness = BURST_MAX_SMOOTHNESS;
	return (prev_ns * ((1ULL << smoothness) - 1) + burst_ns) >> smoothness;
}

/* The burst a task is judged by: the larger of history and current run. */
static inline u64 burst_effective(u64 prev_ns, u64 burst_ns)
{
	return burst_max_u64(prev_ns, burst_ns);
}

/* nice -20..19 -> 0..39, clamped. */
static inline u32 burst_nice_idx(s32 nice)
{
	s32 idx = nice + BURST_NICE_0_IDX;

	if (idx < 0)
		return 0;
	if (idx >= BURST_NICE_WIDTH)
		return BURST_NICE_WIDTH - 1;
	return (u32)idx;
}

/*
 * Virtual time a task is charged for running @delta_ns.
 *
 * Plain weighted vtime is delta * 100 / weight (100 is the sched_ext weight
 * of nice 0).  A burst score then makes vtime grow as if the task's nice
 * were raised by @score levels, clamped at nice 19:
 *
 *	vdelta * weight(nice) / weight(min(nice + score, 19))
 *
 * computed as BORE does, with sched_prio_to_wmult[] (2^32 / weight).
 * Score 0 leaves vtime growth unchanged.
 */
static inline u64 burst_vtime_delta(u64 delta_ns, u32 weight, u32 nice_idx,
				    u32 score)
{
	u64 vdelta = delta_ns * BURST_CGROUP_WEIGHT_DFL / (weight ? weight : 1);
	u32 eff;

	if (nice_idx >= BURST_NICE_WIDTH)
		nice_idx = BURST_NICE_WIDTH - 1;
	eff = burst_min_u32(nice_idx + score, BURST_NICE_WIDTH - 1);
	if (eff == nice_idx)
		return vdelta;
	return burst_mul_u64_u32_shr(vdelta * burst_prio_to_weight[nice_idx],
				     burst_prio_to_wmult[eff], 32);
}

/*
 * Lower bound of a waking task's vtime: at most one slice behind the
 * queue's clock, so a long sleep does not buy a long monopoly.
 */
static inline u64 burst_vtime_floor(u64 vtime, u64 vtime_now, u64 slice_ns)
{
	u64 floor = vtime_now - slice_ns;

	if (vtime_now < slice_ns)
		floor = 0;
	return (s64)(vtime - floor) < 0 ? floor : vtime;
}

/*
 * BFS virtual deadline offset: prio_ratio(nice) / 128 * rr_interval, so a
 * nice -20 task is due one rr_interval from now, a nice 0 task 6.5.
 */
static inline u64 burst_deadline_offset(u32 nice_idx, u64 rr_interval_ns)
{
	if (nice_idx >= BURST_NICE_WIDTH)
		nice_idx = BURST_NICE_WIDTH - 1;
	return (u64)burst_bfs_prio_ratio[nice_idx] * rr_interval_ns >> 7;
}

/*
 * BFS's cache distance, in rr_intervals, from a task's CPU to a CPU it may
 * be sent to: 0 for the same CPU, 1 for its SMT sibling, 2 for another CPU
 * of the same LLC, 3 for a CPU of another LLC.  Preemption subtracts
 * distance x rr_interval from a candidate's deadline, so a nearby CPU wins
 * over a slightly later remote one.
 */
enum burst_cache_dist {
	BURST_DIST_SAME_CPU	= 0,
	BURST_DIST_SMT		= 1,
	BURST_DIST_SAME_LLC	= 2,
	BURST_DIST_OTHER_LLC	= 3,
};

/*
 * How much earlier (in queue key) a task waiting in another LLC's queue
 * must be than the best a CPU has locally before the CPU pulls it across:
 * one slice of key (vtime of one nice-0 slice, or one rr_interval of
 * deadline).  Less would bounce tasks between LLCs for nothing; more would
 * let equal tasks drift apart by more than a slice.
 */
static inline u64 burst_steal_margin(u32 policy, u64 slice_ns, u64 rr_interval_ns)
{
	return policy == BURST_POLICY_DEADLINE ? rr_interval_ns : slice_ns;
}

/*
 * An overdue task runs for a quarter of the policy's slice: enough to make
 * progress, little enough that the bound does not hand a SCHED_IDLE or
 * nice-19 task next to a hog a real share (a full 40 ms rr_interval every
 * 0.6 s was 6 % of the CPU; a quarter is about what one slice every 2 s
 * gave before the bound existed).
 */
static inline u64 burst_rescue_slice(u64 slice_ns)
{
	return slice_ns / 4;
}

/*
 * A queued task is overdue once it has waited half of max_wait.  The age
 * check runs every max_wait / 4, so an overdue task is found by 3/4 of
 * max_wait and runs before max_wait as long as a slice is no longer than
 * max_wait / 4 (5 ms and 6 ms slices against the 1 s default).
 */
static inline u64 burst_overdue_ns(u64 max_wait_ns)
{
	return max_wait_ns / 2;
}

/*
 * BFS's renewal rule: a task gets a fresh deadline (and a full
 * rr_interval) when its slice is used up; otherwise it keeps both.  A
 * slice_left above rr_interval is stale (rr_interval was lowered live).
 */
static inline bool burst_deadline_expired(u64 slice_left_ns, u64 rr_interval_ns)
{
	return !slice_left_ns || slice_left_ns > rr_interval_ns;
}

/* Wrap-safe "a is earlier than b" for vtimes and deadlines. */
static inline bool burst_key_before(u64 a, u64 b)
{
	return (s64)(a - b) < 0;
}

/*
 * Deadline preemption: the key a busy CPU competes with as a victim, or 0
 * when it is no victim for a task with @deadline.  @running is the key of
 * the task the CPU runs, @dist its cache distance from the waking task.  A
 * CPU in another LLC must run a deadline later by one more rr_interval or
 * it would not pull the task across; among victims the latest key wins,
 * each step of distance counting as one rr_interval earlier.
 */
static inline bool burst_victim_key(u64 deadline, u64 running, u32 dist,
				    u64 rr_interval_ns, u64 *key)
{
	if (dist == BURST_DIST_OTHER_LLC)
		deadline += rr_interval_ns;
	if (!burst_key_before(deadline, running))
		return false;
	*key = running - dist * rr_interval_ns;
	return true;
}

/*
 * Overflow hysteresis of the primary domain.  A domain CPU that was
 * wanted and not idle starts a saturation episode at @now (returned as
 * the new *since); once it has lasted @hold_ns the domain overflows.
 * Returns true when overflow starts now.  Ended by a domain CPU that
 * finds nothing waiting (since = 0, overflow off).
 */
static inline bool burst_saturation_step(u64 *since, bool overflow, u64 now,
					 u64 hold_ns)
{
	if (!*since) {
		*since = now;
		return false;
	}
	return !overflow && now - *since >= hold_ns;
}

static inline u64 burst_deadline(u64 now, u32 nice_idx, u64 rr_interval_ns)
{
	return now + burst_deadline_offset(nice_idx, rr_interval_ns);
}

/*
 * SCHED_IDLE tasks under the deadline policy (BFS's SCHED_IDLEPRIO) are
 * queued this far behind every normal deadline: they run when nothing else
 * wants the CPU, yet still once every couple of seconds, so sched_ext's
 * watchdog (30 s) never sees a starved runnable task.
 */
#define BURST_IDLE_CLASS_DELAY_NS	(2000ULL * 1000 * 1000)

/*
 * Added to a running SCHED_IDLE task's key when looking for a preemption
 * victim: it is later than any normal task (wrap-safe, well below 2^63).
 */
#define BURST_IDLE_CLASS_KEY_BIAS	(1ULL << 62)

static inline u64 burst_idle_class_deadline(u64 now, u32 nice_idx,
					    u64 rr_interval_ns)
{
	return burst_deadline(now, nice_idx, rr_interval_ns) +
	       BURST_IDLE_CLASS_DELAY_NS;
}

#endif /* SCX_BURST_POLICY_H */
