/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scx_burst: a sched_ext scheduler that keeps a desktop responsive under
 * load by ordering tasks by how long they run without sleeping.
 *
 * 1. Burst policy (BORE, the default)
 *
 *    A task's burst is the CPU time it has used since it last slept or
 *    yielded.  When it sleeps, the burst is folded into a smoothed history
 *    (burst_smooth(): with smoothness 1 the mean of history and new burst)
 *    and restarts from zero; the burst the task is judged by is the larger
 *    of history and current burst.  A fixed-point log2 of that burst, minus
 *    a tolerated offset and times a slope, is the burst score 0..39
 *    (burst_score(), BORE's update_burst_score()).
 *
 *    Tasks are queued by virtual time.  Running for delta ns costs
 *    delta * 100 / weight of vtime, as in every weighted vtime scheduler,
 *    and a burst score of s makes it cost as much as if the task's nice
 *    were s levels higher (about 1.25x per level, capped at nice 19).  So
 *    a compiler that never sleeps drifts behind an editor that runs for a
 *    millisecond at a time, without any heuristic that guesses which task
 *    is "interactive".  With --no-burst the score is ignored and this is a
 *    plain weighted vtime scheduler.
 *
 *    A sleeper's vtime is floored at the clock minus one slice: sleeping
 *    buys a head start of at most one slice, never a monopoly.  A forked
 *    task starts with its parent's burst history, or the average burst of
 *    the parent's exited children if that is larger (BORE's child burst
 *    cache), so the children of `make -j` do not start as interactive.
 *    A waking task whose score is lower by more than preempt_margin than
 *    the score of the task running on its CPU preempts it.
 *
 * 2. Deadline policy (BFS)
 *
 *    Con Kolivas' BFS: a task's virtual deadline is now + prio_ratio(nice)
 *    / 128 * rr_interval, where prio_ratio is 128 at nice -20 and 10% more
 *    per nice level.  Earliest deadline runs first; the slice is
 *    rr_interval and the deadline is renewed only when the slice is used
 *    up, so a task that sleeps keeps both.  A waking task preempts the CPU
 *    of its LLC running the latest deadline if its own deadline is
 *    earlier.  As in BFS, the victim search biases each CPU's deadline by
 *    its cache distance from the task's CPU (0 for that CPU, 1 x
 *    rr_interval for its SMT sibling, 2 x for the rest of the LLC): among
 *    near-equal victims the task's own CPU wins, which saves an IPI and
 *    keeps the cache warm.  SCHED_BATCH tasks never preempt.
 *    SCHED_IDLE tasks are queued BURST_IDLE_CLASS_DELAY_NS behind every normal deadline: they
 *    run when nothing else wants the CPU, and once every couple of seconds
 *    anyway, because sched_ext's watchdog ejects a scheduler that leaves a
 *    runnable task waiting for 30 s.
 *
 * 3. Queues
 *
 *    BFS lost ground on many-core machines because of its single global
 *    run queue lock.  Here every LLC has its own ordered queue, and every
 *    CPU has one for tasks pinned to it, so a wakeup touches one queue
 *    shared only by CPUs that share a cache.  A CPU runs the earlier of
 *    the heads of its pinned queue and its LLC queue (ties go to the
 *    pinned queue, i.e. the cache-hot task), and when both are empty pulls
 *    the earliest head of the other LLCs' queues.  Both policies use the
 *    same layout; each queue exists once per policy, so a switch never
 *    mixes vtime and absolute deadlines in one ordered queue, and the
 *    queues of the policy just left are drained before anything else.
 *
 *    Idle CPU choice on wakeup: previous CPU, its SMT sibling, a fully
 *    idle core of the same LLC, any idle CPU of that LLC, then anywhere.
 *    A task sent to an idle CPU is inserted straight into its local queue.
 *    Per-CPU kthreads go straight to their CPU's local queue.  Tasks
 *    pinned to one CPU are never burst-penalised (they cannot be moved
 *    away from what they compete with anyway) and go to their CPU's
 *    pinned queue, still ordered by vtime or deadline so nice levels keep
 *    their meaning between pinned tasks.
 *
 * 4. Runtime settings
 *
 *    Everything the daemon may change while the scheduler runs (policy,
 *    slices, burst tunables, preemption margin) is in the writable
 *    `tunables` in .data; only the CPU topology is rodata, set at load
 *    (a hotplug event makes the kernel ask for a restart, which the daemon
 *    honours by loading again).
 *
 * Not attempted: NUMA awareness beyond LLCs, cgroup bandwidth control,
 * energy-aware placement on asymmetric CPUs.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include <scx_burst/intf.h>
#include <scx_burst/policy.h>

#include "compat.bpf.h"

char _license[] SEC("license") = "GPL";

/* Topology, fixed at load by the daemon. */
const volatile u32 nr_cpu_ids = 1;		/* !0 for veristat */
const volatile u32 nr_llcs = 1;
const volatile u32 cpu_llc[BURST_MAX_CPUS];	/* CPU -> LLC index */
const volatile s32 cpu_sibling[BURST_MAX_CPUS];	/* SMT sibling or -1 */
const volatile u32 llc_first[BURST_MAX_LLCS];	/* LLC -> first in llc_cpus */
const volatile u32 llc_nr[BURST_MAX_LLCS];	/* LLC -> number of CPUs */
const volatile u32 llc_cpus[BURST_MAX_CPUS];	/* CPUs grouped by LLC */
const volatile u32 smt_enabled;

/* Changed by the daemon at runtime. */
struct burst_tunables tunables = {
#define BURST_TUNABLE(key, field, kind, scale, dfl, min, max, cli, help) \
	.field = (u64)(dfl) * (scale),
#include <scx_burst/tunables_table.h>
#undef BURST_TUNABLE
};

/* Primary domain: requested by the daemon, applied by burst_set_domain. */
struct burst_domain_req domain_req;
u32 primary_enabled;		/* a domain is in force */
u64 saturated_since;		/* domain full with work waiting since then */
u32 overflow;			/* saturated for longer than the hold time */

#define private(name) SEC(".data." #name) __hidden __attribute__((aligned(8)))
private(PRIMARY) struct bpf_cpumask __kptr *primary_mask;

/* Read by the daemon. */
struct burst_exit_info exit_info;
char exit_dump[BURST_EXIT_DUMP_MAX];

/* Burst-policy vtime clock: the largest vtime that started running. */
static u64 vtime_now;

/* How many deadline scans per wakeup at most (bounds large LLCs). */
#define PREEMPT_SCAN_MAX	16

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct burst_task_ctx);
} task_ctxs SEC(".maps");

/* Per CPU, written by its owner and read by wakers on other CPUs. */
struct cpu_ctx {
	u64 curr_key;		/* running task's deadline (or vtime) */
	u32 curr_score;		/* running task's burst score */
	u32 curr_flags;		/* running task's BURST_TASK_* */
	u32 busy;		/* a task of ours is running */
	u32 pad[11];
};
_Static_assert(sizeof(struct cpu_ctx) == 64, "one cache line per CPU");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, BURST_MAX_CPUS);
	__type(key, u32);
	__type(value, struct cpu_ctx);
} cpu_ctxs SEC(".maps");

struct mask_ctx {
	struct bpf_cpumask __kptr *mask;
};

/* LLC index -> CPUs of that LLC. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, BURST_MAX_LLCS);
	__type(key, u32);
	__type(value, struct mask_ctx);
} llc_masks SEC(".maps");

/* CPU -> scratch cpumasks for that CPU's own use. */
struct scratch_ctx {
	struct bpf_cpumask __kptr *llc;		/* candidates in one LLC */
	struct bpf_cpumask __kptr *dom;		/* allowed & primary domain */
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, BURST_MAX_CPUS);
	__type(key, u32);
	__type(value, struct scratch_ctx);
} scratch_masks SEC(".maps");

/* Parent pid -> smoothed burst of its exited children. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 16384);
	__type(key, u32);
	__type(value, u64);
} child_bursts SEC(".maps");

struct burst_stats {
	u64 cnt[BURST_NR_STATS];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct burst_stats);
} stats SEC(".maps");

static __always_inline struct burst_stats *stats_here(void)
{
	u32 zero = 0;

	return bpf_map_lookup_elem(&stats, &zero);
}

static __always_inline void stat_add(struct burst_stats *st, u32 idx, u64 v)
{
	if (st && idx < BURST_NR_STATS)
		st->cnt[idx] += v;
}

static __always_inline void stat_inc(u32 idx)
{
	stat_add(stats_here(), idx, 1);
}

static __always_inline struct burst_task_ctx *task_ctx(struct task_struct *p)
{
	return bpf_task_storage_get(&task_ctxs, p, 0, 0);
}

static __always_inline struct cpu_ctx *cpu_ctx(s32 cpu)
{
	u32 key = cpu;

	return bpf_map_lookup_elem(&cpu_ctxs, &key);
}

static __always_inline u32 active_policy(void)
{
	return tunables.policy == BURST_POLICY_DEADLINE ?
	       BURST_POLICY_DEADLINE : BURST_POLICY_BURST;
}

/*
 * Table indexes are masked instead of compared: clang may check one copy
 * of an index and load with another, which the verifier cannot follow,
 * and a mask after a compare gets optimised away.  The table sizes are
 * powers of two; indexes come from the kernel or the daemon's topology.
 */
#define CPU_IDX(i)	((u32)(i) & (BURST_MAX_CPUS - 1))
#define LLC_IDX(i)	((u32)(i) & (BURST_MAX_LLCS - 1))

static __always_inline u32 llc_of(s32 cpu)
{
	return cpu_llc[CPU_IDX(cpu)];
}

static __always_inline u64 llc_dsq(u32 policy, u32 llc)
{
	return BURST_DSQ_ID(BURST_DSQ_LLC, policy, llc);
}

static __always_inline u64 cpu_dsq(u32 policy, s32 cpu)
{
	return BURST_DSQ_ID(BURST_DSQ_CPU, policy, cpu);
}

static __always_inline u32 task_nice_idx(const struct task_struct *p)
{
	return burst_nice_idx(p->static_prio - 120);
}

static __always_inline bool is_pinned(const struct task_struct *p)
{
	return p->nr_cpus_allowed == 1;
}

static __always_inline bool is_percpu_kthread(const struct task_struct *p)
{
	return (p->flags & PF_KTHREAD) && p->nr_cpus_allowed == 1;
}

static __always_inline u32 task_flags(const struct task_struct *p)
{
	u32 flags = 0;

	if (is_pinned(p))
		flags |= BURST_TASK_PINNED;
	if (p->policy == SCHED_IDLE)
		flags |= BURST_TASK_IDLE_CLASS;
	else if (p->policy == SCHED_BATCH)
		flags |= BURST_TASK_BATCH;
	return flags;
}

/* Burst score of @tctx right now; pinned tasks are not penalised. */
static __always_inline u32 current_score(const struct burst_task_ctx *tctx)
{
	if (!tunables.burst_enabled || (tctx->flags & BURST_TASK_PINNED))
		return 0;
	return burst_score(burst_effective(tctx->prev_burst_ns, tctx->burst_ns),
			   tunables.burst_penalty_offset,
			   tunables.burst_penalty_scale);
}

/* Account the run time since the last charge: burst, score and vtime. */
static void charge(struct task_struct *p, struct burst_task_ctx *tctx,
		   u64 now, struct burst_stats *st)
{
	u64 delta = now - tctx->last_charge;

	if ((s64)delta <= 0)
		return;
	tctx->last_charge = now;
	tctx->burst_ns += delta;
	tctx->run_ns += delta;
	/* Deadline policy: what is left of the slice (BFS keeps it). */
	tctx->slice_left_ns = tctx->slice_left_ns > delta ?
			      tctx->slice_left_ns - delta : 0;
	tctx->score = current_score(tctx);
	tctx->vtime += burst_vtime_delta(delta, p->scx.weight,
					 task_nice_idx(p), tctx->score);
	stat_add(st, BURST_STAT_run_ns, delta);
}

/* The task slept or yielded: fold the burst into its history. */
static void restart_burst(struct burst_task_ctx *tctx)
{
	tctx->prev_burst_ns = burst_smooth(tctx->prev_burst_ns, tctx->burst_ns,
					   tunables.burst_smoothness);
	tctx->burst_ns = 0;
	tctx->score = current_score(tctx);
}

/*
 * Queue key and slice of @p under @policy.  Deadline policy: renew the
 * deadline when the slice is used up (BFS), else keep deadline and the
 * remaining slice.  Burst policy: vtime, floored for sleepers.
 */
static u64 task_key(struct task_struct *p, struct burst_task_ctx *tctx,
		    u32 policy, u64 now, u64 *slice)
{
	if (policy == BURST_POLICY_DEADLINE) {
		u64 rr = tunables.rr_interval_ns;
		u32 nice_idx = task_nice_idx(p);

		if (!tctx->slice_left_ns || tctx->slice_left_ns > rr) {
			tctx->slice_left_ns = rr;
			if (tctx->flags & BURST_TASK_IDLE_CLASS)
				tctx->deadline = burst_idle_class_deadline(
					now, nice_idx, rr);
			else
				tctx->deadline = burst_deadline(now, nice_idx,
								rr);
			stat_inc(BURST_STAT_deadline_renew);
		}
		*slice = tctx->slice_left_ns;
		return tctx->deadline;
	}

	*slice = tunables.slice_ns;
	tctx->vtime = burst_vtime_floor(tctx->vtime, vtime_now, *slice);
	return tctx->vtime;
}

/* The key task_key() would give @p now, without renewing anything. */
static u64 peek_key(struct task_struct *p, struct burst_task_ctx *tctx,
		    u32 policy, u64 now)
{
	if (policy == BURST_POLICY_DEADLINE) {
		u64 rr = tunables.rr_interval_ns;

		if (tctx->slice_left_ns && tctx->slice_left_ns <= rr)
			return tctx->deadline;
		if (tctx->flags & BURST_TASK_IDLE_CLASS)
			return burst_idle_class_deadline(now, task_nice_idx(p), rr);
		return burst_deadline(now, task_nice_idx(p), rr);
	}
	return burst_vtime_floor(tctx->vtime, vtime_now, tunables.slice_ns);
}

static __always_inline const struct cpumask *llc_mask(u32 llc)
{
	struct mask_ctx *m = bpf_map_lookup_elem(&llc_masks, &llc);

	return m && m->mask ? cast_mask(m->mask) : NULL;
}

static __always_inline struct scratch_ctx *scratch(void)
{
	u32 cpu = bpf_get_smp_processor_id();

	return bpf_map_lookup_elem(&scratch_masks, &cpu);
}

static __always_inline bool in_primary(s32 cpu)
{
	struct bpf_cpumask *pm;

	if (!primary_enabled)
		return true;
	pm = primary_mask;
	return pm && bpf_cpumask_test_cpu(cpu, cast_mask(pm));
}

/*
 * The CPUs of the primary domain @p may use, in a scratch mask; NULL when
 * there is no domain or @p's affinity excludes all of it.
 */
static __always_inline const struct cpumask *domain_cpus(struct task_struct *p,
							 struct scratch_ctx *sc)
{
	struct bpf_cpumask *pm, *dom;

	if (!primary_enabled || !sc)
		return NULL;
	pm = primary_mask;
	dom = sc->dom;
	if (!pm || !dom)
		return NULL;
	if (!bpf_cpumask_and(dom, cast_mask(pm), p->cpus_ptr))
		return NULL;
	return cast_mask(dom);
}

/*
 * The primary domain has no idle CPU for a task that wants it: start or
 * continue a saturation episode, and overflow once it has lasted longer
 * than the hold time.  Ended by a domain CPU that finds nothing waiting.
 */
static void note_saturated(u64 now, struct burst_stats *st)
{
	u64 since = saturated_since;

	if (!since) {
		saturated_since = now;
		return;
	}
	if (!overflow && now - since >= tunables.overflow_hold_ns) {
		overflow = 1;
		stat_add(st, BURST_STAT_saturation, 1);
	}
}

static __always_inline void note_idle_capacity(void)
{
	if (saturated_since)
		saturated_since = 0;
	if (overflow)
		overflow = 0;
}

/*
 * Find and claim an idle CPU for @p among @cpus: previous CPU, its SMT
 * sibling, a fully idle core in the previous CPU's LLC, any idle CPU of
 * that LLC, a fully idle core anywhere, any idle CPU.  -1 if all busy.
 */
static s32 pick_idle_in(s32 prev_cpu, const struct cpumask *cpus,
			struct scratch_ctx *sc)
{
	const struct cpumask *llc;
	struct bpf_cpumask *tmp;
	s32 cpu, sib;

	if (bpf_cpumask_test_cpu(prev_cpu, cpus) &&
	    scx_bpf_test_and_clear_cpu_idle(prev_cpu))
		return prev_cpu;

	if (smt_enabled) {
		sib = cpu_sibling[CPU_IDX(prev_cpu)];
		if (sib >= 0 && bpf_cpumask_test_cpu(sib, cpus) &&
		    scx_bpf_test_and_clear_cpu_idle(sib))
			return sib;
	}

	llc = llc_mask(llc_of(prev_cpu));
	tmp = sc ? sc->llc : NULL;
	if (llc && tmp && nr_llcs > 1) {
		bpf_cpumask_and(tmp, llc, cpus);
		if (smt_enabled) {
			cpu = scx_bpf_pick_idle_cpu(cast_mask(tmp),
						    SCX_PICK_IDLE_CORE);
			if (cpu >= 0)
				return cpu;
		}
		cpu = scx_bpf_pick_idle_cpu(cast_mask(tmp), 0);
		if (cpu >= 0)
			return cpu;
	}

	if (smt_enabled) {
		cpu = scx_bpf_pick_idle_cpu(cpus, SCX_PICK_IDLE_CORE);
		if (cpu >= 0)
			return cpu;
	}
	return scx_bpf_pick_idle_cpu(cpus, 0);
}

/*
 * Idle CPU for @p: inside the primary domain first; outside it only while
 * the domain overflows, or if @p may not run in the domain at all.
 * *@saturated tells the caller the domain had no idle CPU for @p.
 */
static s32 pick_idle_cpu(struct task_struct *p, s32 prev_cpu, bool *saturated)
{
	struct scratch_ctx *sc = scratch();
	const struct cpumask *dom = domain_cpus(p, sc);
	s32 cpu;

	*saturated = false;
	if (!dom)
		return pick_idle_in(prev_cpu, p->cpus_ptr, sc);

	cpu = pick_idle_in(prev_cpu, dom, sc);
	if (cpu >= 0) {
		stat_inc(BURST_STAT_domain_place);
		return cpu;
	}
	*saturated = true;
	if (!overflow)
		return -1;
	cpu = pick_idle_in(prev_cpu, p->cpus_ptr, sc);
	if (cpu >= 0)
		stat_inc(BURST_STAT_overflow_place);
	return cpu;
}

/* May @p run in the primary domain (true when there is none)? */
static __always_inline bool wants_domain(struct task_struct *p)
{
	return domain_cpus(p, scratch()) != NULL || !primary_enabled;
}

/*
 * Burst policy wakeup preemption: the task running on @cpu is preempted if
 * its score exceeds the waker's by more than preempt_margin.
 */
static bool preempt_by_score(struct burst_task_ctx *tctx, s32 cpu)
{
	struct cpu_ctx *cctx = cpu_ctx(cpu);

	if (!cctx || !cctx->busy)
		return false;
	if (tctx->score + tunables.preempt_margin >= cctx->curr_score)
		return false;
	scx_bpf_kick_cpu(cpu, SCX_KICK_PREEMPT);
	stat_inc(BURST_STAT_preempt_score);
	return true;
}

/*
 * Deadline policy wakeup preemption (BFS): among the CPUs of @cpu's LLC
 * that @p may use, preempt the one running the latest deadline if @p's is
 * earlier.  A running SCHED_IDLE task counts as the latest of all.
 */
static bool preempt_by_deadline(struct task_struct *p, u64 deadline, s32 cpu)
{
	u32 llc = llc_of(cpu), first, nr, i;
	u64 rr = tunables.rr_interval_ns, best = 0;
	s32 victim = -1, sib = cpu_sibling[CPU_IDX(cpu)];

	first = llc_first[LLC_IDX(llc)];
	nr = llc_nr[LLC_IDX(llc)];
	if (nr > PREEMPT_SCAN_MAX)
		nr = PREEMPT_SCAN_MAX;

	bpf_for(i, 0, nr) {
		struct cpu_ctx *cctx;
		u32 idx = first + i;
		u64 key;
		s32 c;

		c = llc_cpus[CPU_IDX(idx)];
		if (!bpf_cpumask_test_cpu(c, p->cpus_ptr))
			continue;
		cctx = cpu_ctx(c);
		if (!cctx || !cctx->busy)
			continue;
		if (cctx->curr_flags & BURST_TASK_IDLE_CLASS) {
			victim = c;
			break;
		}
		/* Only a CPU running a later deadline can be preempted. */
		if (!time_before(deadline, cctx->curr_key))
			continue;
		key = cctx->curr_key -
		      burst_cache_distance(c == cpu, c == sib) * rr;
		if (victim < 0 || time_before(best, key)) {
			best = key;
			victim = c;
		}
	}
	if (victim < 0)
		return false;
	scx_bpf_kick_cpu(victim, SCX_KICK_PREEMPT);
	stat_inc(BURST_STAT_preempt_deadline);
	return true;
}

static void try_preempt(struct task_struct *p, struct burst_task_ctx *tctx,
			u32 policy, u64 key, s32 cpu)
{
	if (tctx->flags & (BURST_TASK_BATCH | BURST_TASK_IDLE_CLASS))
		return;
	if (policy == BURST_POLICY_DEADLINE) {
		if (tctx->flags & BURST_TASK_PINNED) {
			struct cpu_ctx *cctx = cpu_ctx(cpu);

			if (cctx && cctx->busy &&
			    ((cctx->curr_flags & BURST_TASK_IDLE_CLASS) ||
			     time_before(key, cctx->curr_key))) {
				scx_bpf_kick_cpu(cpu, SCX_KICK_PREEMPT);
				stat_inc(BURST_STAT_preempt_deadline);
			}
			return;
		}
		preempt_by_deadline(p, key, cpu);
		return;
	}
	preempt_by_score(tctx, cpu);
}

s32 BPF_STRUCT_OPS(burst_select_cpu, struct task_struct *p, s32 prev_cpu,
		   u64 wake_flags)
{
	struct burst_task_ctx *tctx;
	bool saturated;
	u64 slice;
	s32 cpu;

	if (is_pinned(p))
		return prev_cpu;

	tctx = task_ctx(p);
	if (!tctx)
		return prev_cpu;

	cpu = pick_idle_cpu(p, prev_cpu, &saturated);
	if (cpu < 0) {
		/* Stay inside the domain while it does not overflow. */
		if (saturated && !overflow && !in_primary(prev_cpu)) {
			struct scratch_ctx *sc = scratch();
			struct bpf_cpumask *dom = sc ? sc->dom : NULL;

			if (dom) {
				cpu = bpf_cpumask_any_distribute(cast_mask(dom));
				if (cpu < nr_cpu_ids)
					return cpu;
			}
		}
		return prev_cpu;
	}

	tctx->flags = task_flags(p);
	task_key(p, tctx, active_policy(), burst_now(), &slice);
	scx_bpf_dsq_insert(p, SCX_DSQ_LOCAL, slice, 0);
	stat_inc(BURST_STAT_idle_pick);
	stat_inc(BURST_STAT_direct);
	return cpu;
}

void BPF_STRUCT_OPS(burst_enqueue, struct task_struct *p, u64 enq_flags)
{
	struct burst_stats *st = stats_here();
	struct burst_task_ctx *tctx;
	u32 policy = active_policy();
	s32 cpu = scx_bpf_task_cpu(p), idle;
	bool saturated;
	u64 key, slice;

	stat_add(st, BURST_STAT_enqueue, 1);

	if (is_percpu_kthread(p)) {
		scx_bpf_dsq_insert(p, SCX_DSQ_LOCAL, tunables.slice_ns,
				   enq_flags);
		stat_add(st, BURST_STAT_direct, 1);
		return;
	}

	tctx = task_ctx(p);
	if (!tctx) {
		scx_bpf_error("failed to look up task ctx for pid %d", p->pid);
		return;
	}
	tctx->flags = task_flags(p);
	key = task_key(p, tctx, policy, burst_now(), &slice);

	/*
	 * The last runnable task of this CPU (SCX_OPS_ENQ_LAST) keeps it,
	 * unless this CPU is outside a primary domain the task may use and the
	 * domain does not overflow: then it waits for a domain CPU.
	 */
	if ((enq_flags & SCX_ENQ_LAST) &&
	    (in_primary(cpu) || overflow || !wants_domain(p))) {
		scx_bpf_dsq_insert(p, SCX_DSQ_LOCAL, slice, enq_flags);
		stat_add(st, BURST_STAT_direct, 1);
		return;
	}

	/*
	 * Pinned tasks, and tasks whose affinity keeps them out of the primary
	 * domain, are queued on their CPU: no domain CPU must pick them up
	 * and no other CPU outside the domain may take the LLC queue.
	 */
	if ((tctx->flags & BURST_TASK_PINNED) || !wants_domain(p)) {
		scx_bpf_dsq_insert_vtime(p, cpu_dsq(policy, cpu), slice, key,
					 enq_flags);
		if (enq_flags & SCX_ENQ_WAKEUP)
			try_preempt(p, tctx, policy, key, cpu);
		scx_bpf_kick_cpu(cpu, SCX_KICK_IDLE);
		return;
	}

	scx_bpf_dsq_insert_vtime(p, llc_dsq(policy, llc_of(cpu)), slice, key,
				 enq_flags);

	/* An idle CPU that may run it pulls it; otherwise maybe preempt. */
	idle = pick_idle_cpu(p, cpu, &saturated);
	if (saturated)
		note_saturated(burst_now(), st);
	if (idle >= 0) {
		scx_bpf_kick_cpu(idle, SCX_KICK_IDLE);
		stat_add(st, BURST_STAT_kick_idle, 1);
		return;
	}
	if (enq_flags & SCX_ENQ_WAKEUP)
		try_preempt(p, tctx, policy, key, cpu);
}

/*
 * Move the earlier head of @a and @b to the local queue; ties go to @a.
 * With @prev_key, a head must be strictly earlier than the running task
 * (which the kernel has not re-queued yet) to replace it: returns false
 * then, and the caller keeps the previous task.
 */
static __always_inline bool move_earliest(u64 a, u64 b, u32 stat_a, u32 stat_b,
					  bool have_prev, u64 prev_key)
{
	struct task_struct *ta = burst_dsq_peek(a);
	struct task_struct *tb = burst_dsq_peek(b);
	struct task_struct *head = NULL;
	bool from_a = false;

	if (ta && (!tb || !time_before(tb->scx.dsq_vtime, ta->scx.dsq_vtime))) {
		head = ta;
		from_a = true;
	} else if (tb) {
		head = tb;
	}
	if (!head)
		return false;
	if (have_prev && !time_before(head->scx.dsq_vtime, prev_key))
		return false;

	if (scx_bpf_dsq_move_to_local(from_a ? a : b)) {
		stat_inc(from_a ? stat_a : stat_b);
		return true;
	}
	/* Lost a race for the peeked head: take whatever is there. */
	if (scx_bpf_dsq_move_to_local(from_a ? b : a)) {
		stat_inc(from_a ? stat_b : stat_a);
		return true;
	}
	return false;
}

/* Pull the earliest head among the other LLCs' queues of @policy. */
static bool steal(u32 policy, u32 own_llc)
{
	u64 best_dsq = 0, best_key = 0;
	bool found = false;
	u32 i;

	bpf_for(i, 0, nr_llcs) {
		struct task_struct *t;

		if (i == own_llc || i >= BURST_MAX_LLCS)
			continue;
		t = burst_dsq_peek(llc_dsq(policy, i));
		if (!t)
			continue;
		if (!found || time_before(t->scx.dsq_vtime, best_key)) {
			best_key = t->scx.dsq_vtime;
			best_dsq = llc_dsq(policy, i);
			found = true;
		}
	}
	if (found && scx_bpf_dsq_move_to_local(best_dsq)) {
		stat_inc(BURST_STAT_dispatch_steal);
		return true;
	}
	return false;
}

void BPF_STRUCT_OPS(burst_dispatch, s32 cpu, struct task_struct *prev)
{
	u32 policy = active_policy(), old = !policy;
	u32 llc = llc_of(cpu);
	struct burst_task_ctx *ptctx = NULL;
	u64 now = burst_now(), prev_key = 0, slice;

	/* Leftovers of the policy that was active before a switch. */
	if ((scx_bpf_dsq_nr_queued(cpu_dsq(old, cpu)) ||
	     scx_bpf_dsq_nr_queued(llc_dsq(old, llc))) &&
	    move_earliest(cpu_dsq(old, cpu), llc_dsq(old, llc),
			  BURST_STAT_dispatch_drain, BURST_STAT_dispatch_drain,
			  false, 0))
		return;

	/*
	 * A previous task that still wants to run competes with the queue
	 * heads under its up-to-date key, as if it had been re-queued.
	 */
	if (prev && (prev->scx.flags & SCX_TASK_QUEUED)) {
		ptctx = task_ctx(prev);
		if (ptctx) {
			charge(prev, ptctx, now, stats_here());
			prev_key = peek_key(prev, ptctx, policy, now);
		}
	}

	/*
	 * Outside the primary domain, a CPU only runs its own queue unless
	 * the domain overflows; a previous task that may run in the domain
	 * goes back to it.
	 */
	if (!in_primary(cpu) && !overflow) {
		if (ptctx && wants_domain(prev) && !(ptctx->flags & BURST_TASK_PINNED))
			ptctx = NULL;
		if (move_earliest(cpu_dsq(policy, cpu), cpu_dsq(policy, cpu),
				  BURST_STAT_dispatch_local,
				  BURST_STAT_dispatch_local, ptctx, prev_key))
			return;
		goto keep;
	}

	if (move_earliest(cpu_dsq(policy, cpu), llc_dsq(policy, llc),
			  BURST_STAT_dispatch_local,
			  in_primary(cpu) ? BURST_STAT_dispatch_shared :
					    BURST_STAT_overflow_place,
			  ptctx, prev_key))
		return;

	/* A domain CPU with nothing waiting: the domain has room again. */
	if (primary_enabled && in_primary(cpu) &&
	    !scx_bpf_dsq_nr_queued(llc_dsq(policy, llc)))
		note_idle_capacity();

	if (!ptctx && nr_llcs > 1 && (steal(policy, llc) || steal(old, llc)))
		return;

keep:
	/* The previous task is the earliest, or nothing else is queued. */
	if (ptctx) {
		struct cpu_ctx *cctx = cpu_ctx(cpu);
		u64 key = task_key(prev, ptctx, policy, now, &slice);

		burst_set_slice(prev, slice);
		/* No ops.running for a kept task: publish its renewed key. */
		if (cctx)
			cctx->curr_key = key;
		stat_inc(BURST_STAT_keep_running);
	}
}

void BPF_STRUCT_OPS(burst_tick, struct task_struct *p)
{
	struct burst_task_ctx *tctx = task_ctx(p);
	struct cpu_ctx *cctx = cpu_ctx(scx_bpf_task_cpu(p));

	if (!tctx)
		return;
	charge(p, tctx, burst_now(), stats_here());
	if (cctx)
		cctx->curr_score = tctx->score;
}

void BPF_STRUCT_OPS(burst_running, struct task_struct *p)
{
	struct burst_stats *st = stats_here();
	struct burst_task_ctx *tctx = task_ctx(p);
	struct cpu_ctx *cctx = cpu_ctx(scx_bpf_task_cpu(p));

	stat_add(st, BURST_STAT_runs, 1);
	if (!tctx)
		return;

	tctx->last_charge = burst_now();
	tctx->nr_runs++;
	if (time_before(vtime_now, tctx->vtime))
		vtime_now = tctx->vtime;

	if (tctx->score) {
		stat_add(st, BURST_STAT_runs_scored, 1);
		stat_add(st, BURST_STAT_score_sum, tctx->score);
	}
	if (tctx->flags & BURST_TASK_IDLE_CLASS &&
	    active_policy() == BURST_POLICY_DEADLINE)
		stat_add(st, BURST_STAT_idle_class_runs, 1);

	if (cctx) {
		cctx->curr_key = active_policy() == BURST_POLICY_DEADLINE ?
				 tctx->deadline : tctx->vtime;
		cctx->curr_score = tctx->score;
		cctx->curr_flags = tctx->flags;
		cctx->busy = 1;
	}
}

void BPF_STRUCT_OPS(burst_stopping, struct task_struct *p, bool runnable)
{
	struct burst_task_ctx *tctx = task_ctx(p);
	struct cpu_ctx *cctx = cpu_ctx(scx_bpf_task_cpu(p));

	if (cctx)
		cctx->busy = 0;
	if (!tctx)
		return;
	charge(p, tctx, burst_now(), stats_here());
	/*
	 * charge() counted the slice down, so a task preempted or put to
	 * sleep keeps the rest (the kernel zeroes p->scx.slice on a preempt
	 * kick, so that is not the measure).  The burst policy restarts
	 * slices, so a later switch to deadline starts with a renewal.
	 */
	if (active_policy() != BURST_POLICY_DEADLINE)
		tctx->slice_left_ns = 0;
}

void BPF_STRUCT_OPS(burst_quiescent, struct task_struct *p, u64 deq_flags)
{
	struct burst_task_ctx *tctx;

	if (!(deq_flags & SCX_DEQ_SLEEP))
		return;
	tctx = task_ctx(p);
	if (tctx)
		restart_burst(tctx);
}

bool BPF_STRUCT_OPS(burst_yield, struct task_struct *from,
		    struct task_struct *to)
{
	struct burst_task_ctx *tctx = task_ctx(from);

	if (tctx)
		restart_burst(tctx);
	/* What the kernel does when ops.yield is not implemented. */
	burst_set_slice(from, 0);
	return false;
}

s32 BPF_STRUCT_OPS(burst_init_task, struct task_struct *p,
		   struct scx_init_task_args *args)
{
	struct burst_task_ctx *tctx;

	tctx = bpf_task_storage_get(&task_ctxs, p, 0,
				    BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!tctx)
		return -ENOMEM;

	tctx->vtime = vtime_now;
	tctx->flags = task_flags(p);

	if (args->fork) {
		struct task_struct *parent = bpf_get_current_task_btf();
		struct burst_task_ctx *ptctx = task_ctx(parent);
		u32 ppid = parent->pid;
		u64 *children = bpf_map_lookup_elem(&child_bursts, &ppid);
		u64 inherit = 0;

		if (ptctx)
			inherit = burst_effective(ptctx->prev_burst_ns,
						  ptctx->burst_ns);
		if (children)
			inherit = burst_max_u64(inherit, *children);
		tctx->prev_burst_ns = inherit;
		tctx->score = current_score(tctx);
	}
	return 0;
}

void BPF_STRUCT_OPS(burst_exit_task, struct task_struct *p,
		    struct scx_exit_task_args *args)
{
	struct burst_task_ctx *tctx = task_ctx(p);
	u32 pid = p->pid, ppid;
	u64 burst, *cached;

	bpf_map_delete_elem(&child_bursts, &pid);
	if (!tctx || args->cancelled)
		return;

	/* Fold this task's burst into its parent's child burst cache. */
	ppid = BPF_CORE_READ(p, real_parent, pid);
	burst = burst_effective(tctx->prev_burst_ns, tctx->burst_ns);
	cached = bpf_map_lookup_elem(&child_bursts, &ppid);
	if (cached)
		burst = burst_smooth(*cached, burst, tunables.burst_smoothness);
	bpf_map_update_elem(&child_bursts, &ppid, &burst, BPF_ANY);
}

static s32 create_mask(void *map, u32 key)
{
	struct bpf_cpumask *mask, *old;
	struct mask_ctx *m;

	m = bpf_map_lookup_elem(map, &key);
	if (!m)
		return -ENOENT;
	mask = bpf_cpumask_create();
	if (!mask)
		return -ENOMEM;
	old = bpf_kptr_xchg(&m->mask, mask);
	if (old)
		bpf_cpumask_release(old);
	return 0;
}

static s32 create_scratch(u32 cpu)
{
	struct scratch_ctx *sc = bpf_map_lookup_elem(&scratch_masks, &cpu);
	struct bpf_cpumask *mask;

	if (!sc)
		return -ENOENT;
	mask = bpf_cpumask_create();
	if (!mask)
		return -ENOMEM;
	mask = bpf_kptr_xchg(&sc->llc, mask);
	if (mask)
		bpf_cpumask_release(mask);
	mask = bpf_cpumask_create();
	if (!mask)
		return -ENOMEM;
	mask = bpf_kptr_xchg(&sc->dom, mask);
	if (mask)
		bpf_cpumask_release(mask);
	return 0;
}

/*
 * Applies domain_req: run by the daemon (BPF_PROG_RUN) after load and on
 * every change, so the domain switches without reloading the scheduler.
 */
SEC("syscall")
int burst_set_domain(void *ctx)
{
	struct bpf_cpumask *mask, *old;
	u32 i;

	mask = bpf_cpumask_create();
	if (!mask)
		return -ENOMEM;
	bpf_for(i, 0, nr_cpu_ids) {
		if (domain_req.bits[(i / 64) & (BURST_CPUMASK_WORDS - 1)] &
		    (1ULL << (i % 64)))
			bpf_cpumask_set_cpu(i, mask);
	}
	old = bpf_kptr_xchg(&primary_mask, mask);
	if (old)
		bpf_cpumask_release(old);
	saturated_since = 0;
	overflow = 0;
	primary_enabled = domain_req.nr_cpus > 0;
	return 0;
}

s32 BPF_STRUCT_OPS_SLEEPABLE(burst_init)
{
	u32 i, policy;
	s32 ret;

	bpf_for(policy, 0, BURST_NR_POLICIES) {
		bpf_for(i, 0, nr_llcs) {
			ret = scx_bpf_create_dsq(llc_dsq(policy, i), -1);
			if (ret) {
				scx_bpf_error("failed to create LLC queue %u: %d",
					      i, ret);
				return ret;
			}
		}
		bpf_for(i, 0, nr_cpu_ids) {
			ret = scx_bpf_create_dsq(cpu_dsq(policy, i), -1);
			if (ret) {
				scx_bpf_error("failed to create CPU queue %u: %d",
					      i, ret);
				return ret;
			}
		}
	}

	bpf_for(i, 0, nr_llcs) {
		ret = create_mask(&llc_masks, i);
		if (ret)
			return ret;
	}
	bpf_for(i, 0, nr_cpu_ids) {
		struct mask_ctx *m;
		u32 llc;

		ret = create_scratch(i);
		if (ret)
			return ret;
		llc = cpu_llc[CPU_IDX(i)];
		m = bpf_map_lookup_elem(&llc_masks, &llc);
		if (!m)
			return -ENOENT;
		bpf_rcu_read_lock();
		if (m->mask)
			bpf_cpumask_set_cpu(i, m->mask);
		bpf_rcu_read_unlock();
	}
	return 0;
}

void BPF_STRUCT_OPS(burst_exit, struct scx_exit_info *ei)
{
	exit_info.exit_code = ei->exit_code;
	bpf_probe_read_kernel_str(exit_info.reason, sizeof(exit_info.reason),
				  ei->reason);
	bpf_probe_read_kernel_str(exit_info.msg, sizeof(exit_info.msg),
				  ei->msg);
	if (ei->dump) {
		long n = bpf_probe_read_kernel_str(exit_dump, sizeof(exit_dump),
						   ei->dump);
		exit_info.dump_len = n > 0 ? n : 0;
	}
	/* Written last: the daemon polls it and then reads the rest. */
	barrier();
	exit_info.kind = ei->kind;
}

SEC(".struct_ops.link")
struct sched_ext_ops burst_ops = {
	.select_cpu	= (void *)burst_select_cpu,
	.enqueue	= (void *)burst_enqueue,
	.dispatch	= (void *)burst_dispatch,
	.tick		= (void *)burst_tick,	/* BORE charges every tick */
	.running	= (void *)burst_running,
	.stopping	= (void *)burst_stopping,
	.quiescent	= (void *)burst_quiescent, /* burst ends on sleep */
	.yield		= (void *)burst_yield,	   /* ... and on yield */
	.init_task	= (void *)burst_init_task,
	.exit_task	= (void *)burst_exit_task,
	.init		= (void *)burst_init,
	.exit		= (void *)burst_exit,
	/* ENQ_LAST: the last task of a CPU outside the primary domain is
	 * not kept there by the kernel; ops.enqueue decides. */
	.flags		= SCX_OPS_ENQ_LAST,
	.timeout_ms	= 0,		/* sched_ext's default, 30 s */
	.name		= "burst",
};
