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

/*
 * When a sleep ends a burst.
 *
 * BORE restarts the burst at every sleep, so a task that runs 10 ms, waits
 * 20 us for a child and runs 10 ms again is judged by 10 ms bursts (score
 * 7) while a hog that never sleeps climbs to 16 after a second and 20
 * after ten: each step is 1.25x of vtime speed, so the sleeper outruns the
 * hog several times over.  Here a sleep pays back run time instead of
 * wiping it out.  A sleep of @slept_ns credits the burst with
 *
 *	credit = max(4 * slept, burst * slept / reset)	(reset = burst_reset_us)
 *
 * and the burst ends (folded into the history, restarted from 0) once the
 * credit covers it: always when the task slept at least a quarter as long
 * as the burst, or at least @reset_ns.  Otherwise the burst goes on, less
 * the credit.  So:
 *
 *   - a task that is off the CPU a fifth of the time or more is judged as
 *     in BORE, by its bursts: a 60 Hz renderer (200 us per 16 ms) and a
 *     ping-pong pair (a few us of run per longer wait) keep score 0.  The
 *     quarter leaves room for wakeup costs that a loaded machine or an
 *     emulator inflates (TCG charges cyclictest ~0.7 ms per 1 ms period);
 *   - a task that runs far more than it sleeps keeps its burst: 10 ms runs
 *     with 20 us sleeps accumulate like a hog's, and the burst settles at
 *     run * reset / slept (where the credit equals a cycle's run), 25 s
 *     for that task with reset 50 ms, a hog's score;
 *   - a long burst decays while its task sleeps, by the fraction slept /
 *     reset per sleep (an exponential with time constant reset), so a
 *     program that computed for 10 s and then renders frames is judged by
 *     its frames again after ~20 of them, and any sleep of reset or longer
 *     ends the burst at once.
 *
 * burst_reset_us = 1 gives BORE's rule (every sleep ends the burst); the
 * default is 50 ms (the tunables table).  A shell that forks many short
 * children keeps its burst, and the programs it starts inherit it until
 * their first long sleep; see docs/policies.md.  The
 * credit is a 16-bit fraction of reset: slept < reset <= 2^34 ns, so
 * slept << 16 fits in 64 bits.
 */
enum { BURST_SLEEP_PAYBACK = 4 };	/* a sleep pays back 4x its length */

static inline u64 burst_sleep_credit(u64 burst_ns, u64 slept_ns, u64 reset_ns)
{
	u64 frac;

	if (slept_ns >= reset_ns || slept_ns >= burst_ns / BURST_SLEEP_PAYBACK)
		return burst_ns;
	frac = (slept_ns << 16) / reset_ns;
	return burst_max_u64(slept_ns * BURST_SLEEP_PAYBACK,
			     burst_mul_u64_u32_shr(burst_ns, (u32)frac, 16));
}

/*
 * Account a sleep of @slept_ns that just ended: either the burst ends
 * (folded into *@prev_ns by burst_smooth(), restarted; returns true) or it
 * is reduced by the sleep's credit (returns false).
 */
static inline bool burst_wake(u64 *burst_ns, u64 *prev_ns, u64 slept_ns,
			      u64 reset_ns, u32 smoothness)
{
	u64 credit = burst_sleep_credit(*burst_ns, slept_ns, reset_ns);

	if (credit >= *burst_ns) {
		*prev_ns = burst_smooth(*prev_ns, *burst_ns, smoothness);
		*burst_ns = 0;
		return true;
	}
	*burst_ns -= credit;
	return false;
}

/*
 * The sleep a wakeup credits (burst_wake()'s @slept_ns).  Two kinds of
 * wait are work the task handed to another task, not idleness, and credit
 * nothing:
 *
 *   - @child_exited: the wait ended because a child of the task exited
 *     (wait4() woken by the child's exit, the waker being that exiting
 *     child).  A loop that forks a short child, waits for it and then
 *     computes for 5 ms (stress-ng's fork workers) slept a quarter of its
 *     burst or more while its child waited behind the queued hogs, so every
 *     loop ended its burst and it kept the score of a 5 ms burst (5)
 *     against the hogs' 16 and more: 1.35x its EEVDF CPU time while the
 *     hogs got 0.54x (docs/policies.md).  Now its burst grows as a hog's
 *     does.  A shell or make waiting for its commands runs for microseconds
 *     between waits, so its burst stays near 0 either way;
 *   - @answered, a sleep shorter than @handoff_ns (one slice): the wakeup
 *     is synchronous and answers one, the waker being the task this one
 *     last woke synchronously (a request over a pipe or socket and its
 *     reply).  Each thread of a pair that trades a CPU this way runs for
 *     microseconds and sleeps while the other runs, so each looked like a
 *     60 Hz renderer (score 0) while together they are one CPU-bound task;
 *     at score 0 against the hogs' 12-15 the pair was owed most of a CPU
 *     (a ping-pong pair made 3-7 times EEVDF's round trips under load).
 *     Now the pair's bursts grow by their runs as long as the trade goes on
 *     quickly.  A reply that comes a slice or more later (a server waiting
 *     for a client that thinks, a partner that waited its turn behind
 *     other tasks) credits in full, so the burst only spans a run of quick
 *     exchanges, and the task's CPU time in it.
 *
 * A wait for input (a terminal, a timer, a pipe or socket whose writer is
 * not answering this task) credits in full.
 */
static inline u64 burst_credited_sleep(u64 slept_ns, bool child_exited,
					bool answered, u64 handoff_ns)
{
	if (child_exited || (answered && slept_ns < handoff_ns))
		return 0;
	return slept_ns;
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
 * Where a new task starts in the burst policy's vtime order: behind the
 * queue's clock by what half a slice of running costs at the burst score
 * it inherited (EEVDF's START_DEBIT, weighed by burst).  Starting at the
 * clock itself put every child ahead of the queued hogs, so a loop that
 * forks short children (stress-ng's fork workers, a build driver) won the
 * CPU once per child whatever its own score; now a child of a CPU-heavy
 * parent starts as far back as a hog's half slice costs (at most 68 x
 * slice / 2 at score 39), a child of an interactive one half a slice back.
 * The wait bound still runs it within max_wait_ms.
 */
static inline u64 burst_fork_vtime(u64 vtime_now, u64 slice_ns, u32 nice_idx,
				   u32 score)
{
	return vtime_now + burst_vtime_delta(slice_ns / 2, BURST_CGROUP_WEIGHT_DFL,
					     nice_idx, score);
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
 * The burst policy's clock (vtime_now), advanced as each task starts
 * running: to the started task's key, but never past the key of the head
 * of the starting CPU's LLC queue (@queued: there is one), and never back.
 *
 *	clock = max(clock, min(started key, queued head's key))
 *
 * Tasks start out of key order: on an idle CPU, by a synchronous or
 * preemption handoff, a new task (burst_fork_vtime(): ahead of the clock
 * by its inherited score).  A clock that followed the largest started key
 * ran ahead of the queue: a fork worker's children and a hog's renewed
 * key moved it by tens of milliseconds of key at every start (2 vCPUs,
 * renderer, ping-pong, fork workers and hogs: fork workers' starts moved
 * it by 6 s of key in 4 s), so a task waking from a sleep, floored one
 * slice behind that clock, queued behind hogs that had waited since,
 * whatever its score, and its wakeup waited for several of their slices
 * (renderer wakeup p99 18.6 ms against EEVDF's 6.6 ms).  Held at the
 * queue's head, the floor puts a sleeper at most one slice ahead of the
 * earliest queued task, as CFS's min_vruntime did.  It needs
 * burst_credited_sleep()'s quick-answer rule: without the clock running
 * ahead, the floor no longer taxes frequent sleepers, the score's weight
 * acts in full, and a ping-pong pair at score 0 held a whole CPU
 * (docs/policies.md).
 */
static inline u64 burst_clock_advance(u64 clock, u64 started_key, bool queued,
				      u64 head_key)
{
	u64 to = started_key;

	if (queued && (s64)(head_key - to) < 0)
		to = head_key;
	return (s64)(to - clock) > 0 ? to : clock;
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
 * Warm pick: a CPU about to take the head of its LLC's queue that last ran
 * elsewhere looks at the next BURST_WARM_SCAN - 1 tasks for one whose CPU
 * (scx_bpf_task_cpu(): where it last ran, or where its wakeup placed it)
 * is this one, so that tasks taking turns on the LLC's CPUs keep their CPU
 * and its cache instead of trading CPUs at every slice (the queue is
 * shared, so without it two CPUs serving hogs swapped them about every
 * other slice).  Such a task is taken ahead of the head only if
 *
 *	key < head key + window,
 *	window = min(one slice of the head's key, one slice of its own key)
 *
 * (a slice of key: the vtime one slice of running costs at the task's
 * weight and score; in the deadline policy one rr_interval), its burst
 * score is at most the head's plus BURST_WARM_SCORE_SLACK, and its key is
 * before that of every other task the CPU would run instead (the running
 * task's, the other queues' heads).  So an interactive head (a low score)
 * is never passed over for a hog.  In the burst policy a task that passes
 * the head and runs its slice moves its key by its own slice of key, at
 * least the window, so past it: each task passes a waiting head at most
 * once (a task that sleeps before its slice ends may pass again, for
 * less than a slice each time).  In the deadline policy a renewed deadline lands within the window
 * only while now + offset <= head deadline + rr_interval: no passing after
 * the head's own deadline plus one rr_interval.
 */
enum {
	BURST_WARM_SCORE_SLACK	= 1,
};	/* BURST_WARM_SCAN: with the step bounds below */

/*
 * The window of the warm pick, from one slice of the head's key and one
 * slice of the candidate's (burst_vtime_delta(slice, ...) of each).
 */
static inline u64 burst_warm_window(u32 policy, u64 rr_interval_ns,
				    u64 head_slice_key, u64 own_slice_key)
{
	if (policy == BURST_POLICY_DEADLINE)
		return rr_interval_ns;
	return head_slice_key < own_slice_key ? head_slice_key : own_slice_key;
}

/*
 * Synchronous handoff (pick_sync_cpu() in the BPF program).  A wakee put
 * into the waker CPU's local queue runs before anything that CPU would
 * take from its queues, so it is handed the CPU only if its key is within
 *
 *	window = one slice of key at score 0 (the deadline policy: one
 *		 rr_interval)
 *
 * of the earliest head there (burst_warm_in_window()).  Score 0: a slice
 * of key grows with the score, and a greedy wakee must not get a wider
 * window than a quiet one; its own key still grows by its score as it
 * runs, so it reaches the edge sooner.  A pair handing work back and
 * forth runs at most this far ahead of its turn, then waits in the
 * waker's CPU's own queue like any queued task.
 */
static inline u64 burst_handoff_window(u32 policy, u64 rr_interval_ns,
				       u64 slice_ns, u32 weight, u32 nice_idx)
{
	if (policy == BURST_POLICY_DEADLINE)
		return rr_interval_ns;
	return burst_vtime_delta(slice_ns, weight, nice_idx, 0);
}

/* Is a key within @window after the head's (strictly: see above)? */
static inline bool burst_warm_in_window(u64 key, u64 head_key, u64 window)
{
	return (s64)(key - (head_key + window)) < 0;
}

/* Is a task of burst score @score no greedier than the head may pass? */
static inline bool burst_warm_score_ok(u32 score, u32 head_score)
{
	return score <= head_score + BURST_WARM_SCORE_SLACK;
}

/*
 * Bounded work per call.  The hot callbacks (ops.select_cpu, ops.enqueue,
 * ops.dispatch) never look at a number of queues, CPUs or tasks that grows
 * with the queue length or the CPU count; the stats count their steps
 * (stats_table.h, group "steps"):
 *
 *   - a queue peek, a queue's nr_queued, a move attempt from a queue;
 *   - a cpumask kfunc (an idle-CPU pick or test, an and/intersects, a
 *     distribute pick): the kernel walks the mask a machine word at a time,
 *     so one step covers 64 CPUs;
 *   - a CPU considered as a preemption victim.
 *
 * The only loops of those callbacks go over other LLCs: a dispatching CPU
 * peeks their queues, a deadline wakeup looks at their latest-deadline
 * CPUs.  Each call looks at no more than BURST_LLC_SCAN_MAX other LLCs,
 * from a start that rotates per CPU (burst_llc_scan_at()), so on a machine
 * with more LLCs than that every LLC is still looked at within
 * burst_llc_scan_rounds() calls.  Not counted: while a task is overdue
 * (half of max_wait), ops.dispatch walks the queues for one it may run
 * (rescue_overdue() in the BPF program), the wait bound at work.
 *
 * The BURST_STEPS_MAX_* bounds add up the most steps each path of the
 * callback can take (the BPF code next to each step says which term it
 * belongs to); the VM test and the benchmark check every call's steps
 * against them.
 */
enum burst_step_limits {
	BURST_LLC_SCAN_MAX		= 4,
	/* tasks the warm pick looks at, the head included */
	BURST_WARM_SCAN			= 4,
	/* one idle search in a mask (pick_idle_in): the and with the LLC,
	 * with SMT the previous CPU's core, an idle core in the LLC and
	 * anywhere, then the previous CPU, the LLC, anywhere */
	BURST_STEPS_IDLE_SEARCH		= 7,
	/* sync wakeup: previous CPU, nr_queued of the local queue, the
	 * heads of the waker CPU's pinned, LLC and outside queues; the
	 * domain mask; two idle searches (domain, then all allowed); the
	 * domain CPU kept when the domain is full */
	BURST_STEPS_MAX_SELECT		= 2 + 3 + 1 + 2 * BURST_STEPS_IDLE_SEARCH + 1,
	/* an idle core for the last task (with its domain mask); the
	 * domain mask for wants_domain, twice (for the last task, then for
	 * the queue); queue_llc's domain mask and pick; the domain mask and
	 * two idle searches; preemption victims: the CPU, its sibling, its
	 * own LLC's and BURST_LLC_SCAN_MAX other LLCs' latest CPUs; the
	 * heads of the victim's three queues (preempt_handoff) */
	BURST_STEPS_MAX_ENQUEUE		= 2 + 2 + 2 + 1 + 2 * BURST_STEPS_IDLE_SEARCH +
					  3 + BURST_LLC_SCAN_MAX + 3,
	/* the old policy's three queues; the domain mask of the previous
	 * task; the own pinned, LLC and outside queues and both queues of
	 * BURST_LLC_SCAN_MAX other LLCs; the warm pick's tasks; three take
	 * attempts; an idle core for the previous task (with its domain
	 * mask) */
	BURST_STEPS_MAX_DISPATCH	= 3 + 1 + 3 + 2 * BURST_LLC_SCAN_MAX +
					  BURST_WARM_SCAN + 3 + 2,
};

/* How many other LLCs one call looks at, on a machine with @nr_llcs. */
static inline u32 burst_llc_scan_count(u32 nr_llcs)
{
	return nr_llcs > 1 ? burst_min_u32(nr_llcs - 1, BURST_LLC_SCAN_MAX) : 0;
}

/*
 * The @k-th other LLC (k < burst_llc_scan_count()) a CPU of LLC @own
 * looks at in a call whose rotation is @start: the other LLCs in order
 * after @own, beginning @start places further.  A CPU that adds
 * burst_llc_scan_count() to @start after each call looks at every other
 * LLC within burst_llc_scan_rounds() calls.
 */
static inline u32 burst_llc_scan_at(u32 own, u32 start, u32 k, u32 nr_llcs)
{
	u32 others = nr_llcs > 1 ? nr_llcs - 1 : 1;

	return (own + 1 + (start + k) % others) % (nr_llcs ? nr_llcs : 1);
}

/* Calls after which every other LLC has been looked at. */
static inline u32 burst_llc_scan_rounds(u32 nr_llcs)
{
	u32 n = burst_llc_scan_count(nr_llcs);

	return n ? (nr_llcs - 1 + n - 1) / n : 0;
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
 * Deadline mode weighted by burst (deadline_burst, the default).  BFS puts
 * every renewed deadline prio_ratio(nice) / 128 rr_intervals out, 6.5 for
 * nice 0, whatever the task does: a task that sleeps between short bursts
 * and uses up its slice now and then lands behind most queued hogs at each
 * renewal.  Here the offset is scaled by the task's burst score:
 *
 *	offset = prio_ratio(nice) / 128 * rr_interval * f(score)
 *	f(s) = max(1/8, 2^((s - 8) * 1024 / 1292))	(s < 8), 1 from 8 on
 *
 * that is, in proportion to the burst that score stands for (a doubling of
 * the burst is 1292/1024 score steps at the default penalty slope), as
 * EEVDF puts a deadline one request of CPU after eligibility: a task asking
 * for half the CPU time of another is due in half the time.  Score 8 is
 * 11 ms of burst with the default penalty, about two rr_intervals; bursts
 * of about 2 ms or less (score 4 and below) get the floor, 1/8.  A 60 Hz
 * renderer with 4 ms frames (score 6) is due 0.33 of BFS's offset out
 * (13 ms at rr_interval 6 ms), where a linear f (1/8 + 7/8 * s / 8, before)
 * put it 0.78 out (31 ms), behind most hogs: each frame that used up the
 * slice's rest waited for them, and the deadline policy's renderer response
 * was 1.45x EEVDF's.  CPU-bound tasks keep BFS's deadlines and their nice
 * ratios exactly.
 * Bounded both ways, so every deadline is between now + offset / 8 and
 * now + offset: a queued task is overtaken only by deadlines renewed less
 * than its own offset ago, and EDF stays starvation-free (the wait bound
 * max_wait_ms holds regardless).  A task cannot keep a low f by running:
 * its burst grows with its run time (burst_wake()), so f reaches 1 after
 * ~11 ms of CPU without a real sleep.
 */
enum burst_deadline_factor_consts {
	BURST_DL_FACTOR_ONE	= 1024,
	BURST_DL_FACTOR_MIN	= 128,	/* f(0) = 1/8 */
	BURST_DL_FULL_SCORE	= 8,	/* f = 1 from this score on */
};

/* f(s) in 1024ths for s < BURST_DL_FULL_SCORE, rounded to nearest. */
static const u32 burst_dl_factor[BURST_DL_FULL_SCORE] = {
	BURST_DL_FACTOR_MIN, BURST_DL_FACTOR_MIN, BURST_DL_FACTOR_MIN,
	BURST_DL_FACTOR_MIN, BURST_DL_FACTOR_MIN, 197, 341, 591,
};

static inline u32 burst_deadline_factor(u32 score)
{
	if (score >= BURST_DL_FULL_SCORE)
		return BURST_DL_FACTOR_ONE;
	return burst_dl_factor[score];
}

static inline u64 burst_deadline_offset_scored(u32 nice_idx, u64 rr_interval_ns,
					       u32 score)
{
	return burst_deadline_offset(nice_idx, rr_interval_ns) *
	       burst_deadline_factor(score) / BURST_DL_FACTOR_ONE;
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

/*
 * A renewed deadline: BFS's offset, or with @weighted (deadline_burst) the
 * offset scaled by @score (burst_deadline_factor()); SCHED_IDLE tasks
 * (@idle_class) BURST_IDLE_CLASS_DELAY_NS further out either way.
 */
static inline u64 burst_task_deadline(u64 now, u32 nice_idx, u64 rr_interval_ns,
				      u32 score, bool weighted, bool idle_class)
{
	u64 off = weighted ?
		  burst_deadline_offset_scored(nice_idx, rr_interval_ns, score) :
		  burst_deadline_offset(nice_idx, rr_interval_ns);

	return now + off + (idle_class ? BURST_IDLE_CLASS_DELAY_NS : 0);
}

#endif /* SCX_BURST_POLICY_H */
