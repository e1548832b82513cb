/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scx_burst: a sched_ext scheduler that keeps a desktop responsive under
 * load by ordering tasks by how long they run without sleeping.
 *
 * 1. Burst policy (BORE, the default)
 *
 *    A task's burst is the CPU time it has used since its last sleep that
 *    ended a burst.  A sleep ends the burst when the task slept at least
 *    a quarter as long as the burst, or at least burst_reset_us; a shorter
 *    sleep only pays part of the burst back (burst_wake() in policy.h), so
 *    a task that sleeps microseconds between long CPU stretches (a fork
 *    loop waiting for its children) is judged like a hog, not by its
 *    stretches as in BORE.  burst_reset_us is 50 ms by default; 1 gives
 *    BORE's rule, every sleep ends the burst (docs/policies.md).  A yield
 *    is no sleep and changes nothing.  An
 *    ended burst is folded into a smoothed history
 *    (burst_smooth(): with smoothness 1 the mean of history and new burst)
 *    and restarts from zero; the burst the task is judged by is the larger
 *    of history and current burst.  ops.quiescent notes when the sleep
 *    starts, and ops.select_cpu or ops.runnable, whichever sees the wakeup
 *    first, settles it.  A fixed-point log2 of that burst, minus
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
 *    the score of the task running on its CPU preempts it, and is handed
 *    that CPU (head of its local queue) if its key is within one slice of
 *    key of the CPU's earliest queued task (preempt_handoff()); a kick
 *    alone would let the CPU take another task first.
 *
 * 2. Deadline policy (BFS)
 *
 *    Con Kolivas' BFS: a task's virtual deadline is now + prio_ratio(nice)
 *    / 128 * rr_interval, where prio_ratio is 128 at nice -20 and 10% more
 *    per nice level.  By default (deadline_burst) that offset is scaled by
 *    the task's burst score, in proportion to the burst the score stands
 *    for, between 1/8 (score 4 and below) and 1 (score 8 and above;
 *    burst_deadline_factor()): a task that runs in short bursts is due
 *    soon after each renewal instead of behind every queued hog, while
 *    CPU-bound tasks keep BFS's deadlines and nice ratios exactly; with
 *    --no-deadline-burst the offsets are BFS's.  Earliest deadline runs first; the slice is
 *    rr_interval and the deadline is renewed only when the slice is used
 *    up, so a task that sleeps keeps both.  A waking task preempts the CPU
 *    running the latest deadline among those it may use, if its own
 *    deadline is earlier (handed the CPU under the burst policy's rule,
 *    preempt_handoff()).  As in BFS, the victim search biases each CPU's
 *    deadline by its cache distance from the task's CPU (0 for that CPU,
 *    1 x rr_interval for its SMT sibling, 2 x for the rest of the LLC, 3 x
 *    for another LLC): among near-equal victims the task's own CPU wins,
 *    which saves an IPI and keeps the cache warm.  The search looks at the
 *    task's CPU, its sibling and one CPU per LLC, the one its LLC's CPUs
 *    publish as running the latest deadline (llc_ctx), so a wakeup costs
 *    the same on 8 or 256 CPUs.  SCHED_BATCH tasks never preempt.
 *    SCHED_IDLE tasks are queued BURST_IDLE_CLASS_DELAY_NS behind every normal deadline: they
 *    run when nothing else wants the CPU, and once every couple of seconds
 *    anyway, because sched_ext's watchdog ejects a scheduler that leaves a
 *    runnable task waiting for 30 s.
 *
 * 3. Queues
 *
 *    BFS lost ground on many-core machines because of its single global
 *    run queue lock.  Here every LLC has its own ordered queue, and every
 *    CPU has its own queue for tasks that may run on it only (and
 *    synchronous wakees that wait for it, below), so a wakeup
 *    touches one queue shared only by CPUs that share a cache.  With a
 *    primary domain, each LLC also has an outside queue for tasks whose
 *    affinity excludes the domain, served by that LLC's CPUs outside it.
 *
 *    A dispatching CPU compares the heads of the queues it serves (its
 *    own queue, its LLC's) with the running task, and also the heads
 *    of the other LLCs' queues, which must be earlier by a steal margin
 *    (one slice of key) to be pulled across.  Keys are one currency across
 *    LLCs (vtime against one clock, or absolute deadlines), so a crowded
 *    LLC's tasks fall behind and get pulled by the emptier one: equal
 *    tasks get equal CPU time across LLCs, and no CPU runs a SCHED_IDLE
 *    task or a later deadline while earlier work waits next door.  The
 *    cost is one peek per LLC queue and dispatch, for at most
 *    BURST_LLC_SCAN_MAX other LLCs per dispatch (section 6).
 *
 *    A shared queue makes a CPU take whichever task is earliest, so two CPUs
 *    serving hogs traded them about every other slice.  The warm pick
 *    (warm_take(), policy.h): when the head of its LLC's queue last ran on
 *    another CPU, a dispatching CPU takes instead the first of the next
 *    three tasks that last ran on it, if that one's key is within one slice
 *    of key of the head's (the smaller of the head's slice and its own),
 *    before anything else the CPU would run instead, and its burst score at
 *    most one step above the head's.  In the burst policy each task passes
 *    a waiting head at most once, and an interactive head is never passed
 *    over for a hog.  Both
 *    policies use the same layout; each queue exists once per policy, so
 *    a switch never
 *    mixes vtime and absolute deadlines in one ordered queue, and the
 *    queues of the policy just left are drained before anything else.
 *
 *    Idle CPU choice on wakeup: with SMT a fully idle core first (the
 *    previous CPU's, then one in its LLC, then anywhere), then the
 *    previous CPU, any idle CPU of its LLC, any idle CPU.  A task whose
 *    slice ends on a CPU with a busy sibling moves to a fully idle core
 *    if there is one.  A task sent to an idle CPU is inserted straight
 *    into its local queue.
 *
 *    A synchronous wakeup (SCX_WAKE_SYNC: the waker is about to wait for
 *    the wakee, a pipe or socket round trip) goes first to the wakee's
 *    previous CPU if that is idle and shares the waker's LLC, else to the
 *    waker's own CPU (pick_sync_cpu(), counted in wake_sync and
 *    wake_home): a pair that hands work back and forth then stays on one
 *    warm CPU instead of paying a cross-CPU wakeup each way.  There it is
 *    inserted into the local queue, behind the waker, if its key is within
 *    one slice of key of the earliest head of the queues that CPU serves
 *    (burst_handoff_window()); else, when no CPU is idle, it waits in that
 *    CPU's own queue, ordered with its other queues (wake_home).  In the
 *    LLC's queue it would be taken by whichever CPU came first: at 2 vCPUs
 *    under load that moved the pair 80 times a second, 12x EEVDF.  Why
 *    the handoff cannot strand the wakee or starve the queue: the waker's
 *    CPU must have nothing else in its local queue, must be running a
 *    task of ours (cpu_ctx busy, so not a real-time task or an interrupt
 *    whose end we cannot predict) that is not exiting, and must be one the
 *    wakee may use inside the primary domain; and the window bounds how
 *    far ahead of its turn a pair runs, each thread sleeping while the
 *    other runs so that neither builds a burst.  A local queue is served
 *    before ops.dispatch is even asked, so the wakee runs as soon as the
 *    waker stops: at once if it waits as it said it would, else when its
 *    slice ends (a slice, at most a quarter of max_wait_ms, the bound the
 *    wait bound already assumes) or it is preempted.  Nothing else can be
 *    queued ahead of it, and no rule of ours renews the waker's slice
 *    while a local task waits (keep_prev runs from ops.dispatch, which the
 *    kernel skips then).  A wakee in a CPU's own queue is served by that
 *    CPU only, at its next dispatch (within the waker's slice), and the
 *    wait bound kicks that CPU for it.  Otherwise the usual idle search
 *    runs.
 *    Per-CPU kthreads go straight to their CPU's local queue.  Tasks
 *    pinned to one CPU are never burst-penalised (they cannot be moved
 *    away from what they compete with anyway) and go to their CPU's
 *    own queue, still ordered by vtime or deadline so nice levels keep
 *    their meaning between pinned tasks.
 *
 * 4. A bound on waiting
 *
 *    No ordering rule alone can promise that every runnable task runs:
 *    a queue may end up where no CPU serves it (a domain change, an
 *    affinity change), or a task may be ordered behind work that never
 *    ends.  So a BPF timer looks at every queued task each max_wait_ms / 4,
 *    and a task queued for half of max_wait_ms is overdue: a CPU it may
 *    use is kicked, and every dispatching CPU runs overdue tasks it may
 *    run before the queue order.  A runnable task thus waits less than
 *    max_wait_ms (1 s by default, against sched_ext's 30 s watchdog) when
 *    a slice is at most a quarter of it, unless there are more runnable
 *    tasks than CPUs x bound / slice, when waits are FIFO among the
 *    overdue.  Why 1 s: long enough that the bound almost never reorders
 *    normal work (a nice-0 task behind 100 hogs on 2 CPUs waits 250 ms),
 *    short enough that a background task a desktop user is waiting on
 *    (a SCHED_IDLE indexer, a nice-19 build step) never looks hung.  max_wait_us in the
 *    stats is the longest wait each CPU saw in the interval.
 *
 * 5. Runtime settings
 *
 *    Everything the daemon may change while the scheduler runs is in the
 *    writable `tunables` in .data (one table: tunables_table.h); only the
 *    CPU topology is rodata, set at load.  A CPU going offline and coming
 *    back (suspend, an SMT switch) keeps the scheduler loaded: the
 *    ops.cpu_offline() and ops.cpu_online() callbacks take it out of and
 *    put it back into the online, LLC and primary-domain masks, and the
 *    age check then moves what is queued where no online CPU serves it (a
 *    task pinned to the CPU that went) to the kernel's global queue.  Only
 *    a CPU that was offline at load, whose LLC and SMT sibling are not in
 *    the rodata, ends the scheduler with a restart request, which the
 *    daemon honours by loading again with the new topology and the
 *    settings of the moment; hotplug_seq makes a hotplug between reading
 *    the topology and enabling the scheduler a restart too.
 *
 * 6. Bounded work per call
 *
 *    ops.select_cpu, ops.enqueue and ops.dispatch do an amount of work
 *    that grows neither with the queue lengths nor with the number of
 *    CPUs: at most BURST_LLC_SCAN_MAX other LLCs looked at per call, in
 *    a rotation, and cpumask searches the kernel does a word (64 CPUs) at
 *    a time.  Each counts its steps (queue peeks and moves, cpumask
 *    searches, preemption victims) in the stats, against a bound per
 *    callback in policy.h ("Bounded work per call").  The other callbacks
 *    have no loops.  One exception, not counted: while some task has
 *    waited half of max_wait_ms (rescue_pending, section 4), ops.dispatch
 *    walks the queues for an overdue task it may run.  That is the wait
 *    bound at work, counted as `rescue`.  Moving overdue tasks from the
 *    age-check timer instead (no walk in any callback) was tried: it
 *    moved every overdue task at once, each with a preempting kick, and
 *    in 2 of 2 quick bench runs a ping-pong pair under saturation made
 *    no round trip in a 1 s window under one policy (928 before).
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
const volatile u32 online_cpus[BURST_MAX_CPUS];	/* CPUs online at load */
const volatile u32 nr_online = 1;		/* entries in online_cpus */
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
/* The CPUs between ops.cpu_online() and ops.cpu_offline(): those online
 * at load, then kept by the two callbacks (section 5). */
private(PRIMARY) struct bpf_cpumask __kptr *online_mask;
u32 cpus_offline;		/* CPUs online at load that are not now */

/* Read by the daemon. */
struct burst_exit_info exit_info;
char exit_dump[BURST_EXIT_DUMP_MAX];
u64 stats_epoch;		/* bumped by the daemon after each stats read */

/* Debug only (--debug-error-after): raise scx_bpf_error() this long after
 * ops.init, to test how the daemon reports an error exit.  0: never. */
const volatile u64 debug_error_after_ns;
static u64 init_at;

/*
 * The wait bound.  The age check (a BPF timer, every max_wait_ns / 4)
 * looks at every queued task; one that has waited half of max_wait_ns is
 * overdue: rescue_pending is set and a CPU that may run it is kicked.
 * Every CPU's ops.dispatch then runs overdue tasks before the queue order
 * (rescue_overdue()), one per dispatch.  So whatever the queue order, the
 * primary domain, affinity or a live change do, a task runs within
 * max_wait_ns (when a slice is at most a quarter of it).
 */
u32 rescue_pending;

struct age_timer {
	struct bpf_timer timer;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct age_timer);
} age_timers SEC(".maps");

/* Burst-policy vtime clock: burst_clock_advance() in policy.h. */
static u64 vtime_now;

/* Per task: burst, vtime, deadline (the tracer shares this map). */
#include "task_ctx_map.bpf.h"

/* Per CPU, written by its owner and read by wakers on other CPUs. */
struct cpu_ctx {
	u64 curr_key;		/* running task's deadline (or vtime) */
	u32 curr_score;		/* running task's burst score */
	u32 curr_flags;		/* running task's BURST_TASK_* */
	u32 busy;		/* a task of ours is running */
	u32 llc_scan;		/* rotation over the other LLCs (policy.h) */
	u32 offline;		/* between ops.cpu_offline() and ops.cpu_online() */
	u32 pad[9];
};
_Static_assert(sizeof(struct cpu_ctx) == 64, "one cache line per CPU");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, BURST_MAX_CPUS);
	__type(key, u32);
	__type(value, struct cpu_ctx);
} cpu_ctxs SEC(".maps");

/*
 * Per LLC: the CPU that runs the latest deadline (or a SCHED_IDLE task),
 * the deadline policy's preemption victim.  A hint kept by the CPUs of the
 * LLC themselves (ops.running, ops.tick, ops.stopping), so a wakeup looks
 * at one CPU per LLC instead of scanning them all.
 */
struct llc_ctx {
	u64 latest_key;
	s32 latest_cpu;		/* -1: none known */
	u32 pad[13];
};
_Static_assert(sizeof(struct llc_ctx) == 64, "one cache line per LLC");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, BURST_MAX_LLCS);
	__type(key, u32);
	__type(value, struct llc_ctx);
} llc_ctxs SEC(".maps");

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
	/* Keep the bound check: clang may prove it redundant where the
	 * verifier cannot (an index that went through the stack). */
	barrier_var(idx);
	if (st && idx < BURST_NR_STATS)
		st->cnt[idx] += v;
}

static __always_inline void stat_inc(u32 idx)
{
	stat_add(stats_here(), idx, 1);
}

/* Raise a MAX slot to @v within the current stats epoch. */
static void stat_max(struct burst_stats *st, u32 idx, u64 v)
{
	u64 epoch = stats_epoch;
	u32 i;

	if (!st || idx >= BURST_NR_STATS)
		return;
	if (st->epoch != epoch) {
		bpf_for(i, 0, BURST_NR_STATS) {
			if (i < BURST_NR_STATS && ((burst_stat_max_mask >> i) & 1))
				st->cnt[i] = 0;
		}
		st->epoch = epoch;
	}
	if (v > st->cnt[idx])
		st->cnt[idx] = v;
}

/*
 * Steps of the hot callback running on this CPU (policy.h, "Bounded work
 * per call"): zeroed when ops.select_cpu, ops.enqueue or ops.dispatch
 * starts, added to its counters when it returns.  Callbacks do not nest
 * on a CPU (they run with interrupts off), so one slot per CPU, written
 * only by that CPU, is enough.
 */
static __always_inline void step(void)
{
	struct burst_stats *st = stats_here();

	if (st)
		st->steps_now++;
}

static __always_inline struct burst_stats *steps_begin(void)
{
	struct burst_stats *st = stats_here();

	if (st)
		st->steps_now = 0;
	return st;
}

static __always_inline void steps_end(struct burst_stats *st, u32 calls,
				      u32 steps, u32 steps_max)
{
	if (!st)
		return;
	stat_add(st, calls, 1);
	stat_add(st, steps, st->steps_now);
	stat_max(st, steps_max, st->steps_now);
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

/*
 * scx_bpf_kick_cpu() queues an irq_work on the calling CPU.  A CPU on its
 * way offline stops running its irq_work before it stops running
 * callbacks: a kick queued there then stays pending, blocks every later
 * kick from that CPU once it is back, and the kernel waits for it forever
 * when the scheduler is unloaded (free_kick_syncs() -> irq_work_sync();
 * seen on 7.3 after four CPUs went off- and online, with the unload stuck
 * in "disabling").  So a CPU between ops.cpu_offline() and
 * ops.cpu_online() kicks nothing; the age check, on an online CPU, kicks
 * for whatever waits too long meanwhile.
 */
static __always_inline void burst_kick(s32 cpu, u64 flags)
{
	struct cpu_ctx *here = cpu_ctx(bpf_get_smp_processor_id());

	if (here && here->offline)
		return;
	scx_bpf_kick_cpu(cpu, flags);
}

/*
 * Run-now moves.  A task put into a local queue to run at once on a CPU
 * that is free (an idle CPU we claimed, a fully idle core, the
 * dispatching CPU itself) goes through one of these three, which add
 * SCX_ENQ_IMMED (burst_enq_immed(): 0 before 7.1).  With it, a task that
 * cannot run at once, or that a real-time (or deadline, or stop) task
 * preempts later in that run, comes back through ops.enqueue
 * (SCX_ENQ_REENQ; reenq_unrun() tells which) instead of waiting at
 * the head of that local queue, out of every other CPU's reach, for as
 * long as the other class keeps the CPU.  Nothing else calls
 * burst_enq_immed().
 *
 * Three local inserts deliberately do without, as the kernel would hand
 * the task straight back: the synchronous handoff (insert_direct(TO_WAKER))
 * and ENQ_LAST's keep-local insert (enqueue_last()) target a CPU still
 * running a task, and the preemption handoff (preempt_handoff(),
 * SCX_ENQ_PREEMPT) would bounce whenever the victim's local queue holds
 * another task.  A per-CPU kthread's insert goes without too: no other
 * CPU could take it.
 */
static __always_inline void run_now_insert(struct task_struct *p,
					   u64 local_dsq, u64 slice,
					   u64 enq_flags)
{
	burst_dsq_insert(p, local_dsq, slice, enq_flags | burst_enq_immed());
}

/* The head of @dsq to this CPU's local queue; false if it was empty. */
static __always_inline bool run_now_take(u64 dsq)
{
	return burst_dsq_move_to_local(dsq, burst_enq_immed());
}

/* The task @it is at to this CPU's local queue; false if it went. */
static __always_inline bool run_now_move(struct bpf_iter_scx_dsq *it,
					 struct task_struct *p)
{
	return burst_dsq_move(it, p, SCX_DSQ_LOCAL, burst_enq_immed());
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

static __always_inline u64 outside_dsq(u32 policy, u32 llc)
{
	return BURST_DSQ_ID(BURST_DSQ_OUTSIDE, policy, llc);
}

static __always_inline u32 task_nice_idx(const struct task_struct *p)
{
	return burst_nice_idx(p->static_prio - 120);
}

static __always_inline bool is_pinned(const struct task_struct *p)
{
	return p->nr_cpus_allowed == 1;
}

/*
 * @p, the running task of its CPU, is in a migrate_disable() section and
 * must stay there.  Older kernels (6.12 among them) hand it to ops.dispatch
 * as prev and to ops.enqueue (SCX_ENQ_LAST) before narrowing its cpus_ptr
 * to its CPU, so nothing else tells; moving it to another CPU's local
 * queue breaks the kernel's promise to the task (newer kernels eject the
 * scheduler for it: "cannot move migration disabled").  Newer kernels
 * (7.2) narrow cpus_ptr first and queue such a task locally without
 * asking ops.enqueue.  On the older ones the BPF trampoline disables
 * migration around our program, so one level of the running task's count
 * is ours (newer ones do so only with CONFIG_PREEMPT_RCU; on those the
 * test changes nothing).
 */
static __always_inline bool cannot_migrate(const struct task_struct *p)
{
	if (!bpf_core_field_exists(p->migration_disabled))
		return false;
	return p->migration_disabled >
	       (p == (void *)bpf_get_current_task_btf() ? 1 : 0);
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

/*
 * The waker of a task: the running task.  ops.select_cpu runs in the
 * waker's context, and so does ops.runnable unless the kernel queued the
 * wakeup to the target CPU (then the running task is an unrelated one,
 * and the tests below answer no).  Read once per callback and passed down.
 */
static __always_inline struct task_struct *current_waker(void)
{
	return bpf_get_current_task_btf();
}

/* Is @p being woken by an exiting child of its own (wait4() returning)? */
static __always_inline bool woken_by_exiting_child(const struct task_struct *p,
						   const struct task_struct *waker)
{
	return (waker->flags & PF_EXITING) &&
	       BPF_CORE_READ(waker, real_parent, pid) == p->pid;
}

/*
 * Does the synchronous wakeup of @p answer one (burst_credited_sleep())?
 * True if @waker is the task @p last woke synchronously.  Records @p as
 * the waker's own last synchronous wakee either way.  A synchronous wakeup
 * from an interrupt names the interrupted task as the waker; it answers
 * nothing unless that task happens to be the one @p last woke.
 */
static bool sync_answers(struct task_struct *p, struct burst_task_ctx *tctx,
			 struct task_struct *waker)
{
	struct burst_task_ctx *wctx = task_ctx(waker);

	if (wctx)
		wctx->sync_wakee = p->pid;
	return tctx->sync_wakee && tctx->sync_wakee == waker->pid;
}

/*
 * The task woke up: its sleep ends the burst or pays part of it back
 * (burst_wake(); a wait for an exiting child, or a quick answer to a
 * synchronous wakeup of its own (@answered), pays back nothing:
 * burst_credited_sleep()).  Called by whichever of ops.select_cpu and
 * ops.runnable sees the wakeup first, so the key select_cpu computes
 * already has it.
 */
static void settle_sleep(struct task_struct *p, struct burst_task_ctx *tctx,
			 const struct task_struct *waker, u64 now, bool answered)
{
	u64 at = tctx->slept_at;

	if (!at)
		return;
	tctx->slept_at = 0;
	burst_wake(&tctx->burst_ns, &tctx->prev_burst_ns,
		   burst_credited_sleep((s64)(now - at) > 0 ? now - at : 0,
					woken_by_exiting_child(p, waker), answered,
					tunables.slice_ns),
		   tunables.burst_reset_ns, tunables.burst_smoothness);
	tctx->score = current_score(tctx);
}

/*
 * A fresh deadline for @p: rr_interval scaled by nice from @now, and by
 * the burst score under deadline_burst (far behind every normal one for
 * SCHED_IDLE).  The score here is the burst's own, without the burst
 * policy's exemptions (pinned tasks, --no-burst): it only ever brings a
 * deadline closer, and a pinned hog must not look like a short sleeper.
 */
static __always_inline u32 raw_score(const struct burst_task_ctx *tctx)
{
	return burst_score(burst_effective(tctx->prev_burst_ns, tctx->burst_ns),
			   tunables.burst_penalty_offset,
			   tunables.burst_penalty_scale);
}

static u64 fresh_deadline(struct task_struct *p, struct burst_task_ctx *tctx,
			  u64 now, u64 rr)
{
	return burst_task_deadline(now, task_nice_idx(p), rr, raw_score(tctx),
				   tunables.deadline_burst,
				   tctx->flags & BURST_TASK_IDLE_CLASS);
}

/*
 * Queue key and slice of @p under @policy.  Deadline policy: renew the
 * deadline when the slice is used up (burst_deadline_expired(), BFS), else
 * keep deadline and the remaining slice.  Burst policy: vtime, floored
 * for sleepers.
 */
static u64 task_key(struct task_struct *p, struct burst_task_ctx *tctx,
		    u32 policy, u64 now, u64 *slice)
{
	if (policy == BURST_POLICY_DEADLINE) {
		u64 rr = tunables.rr_interval_ns;

		if (burst_deadline_expired(tctx->slice_left_ns, rr)) {
			tctx->slice_left_ns = rr;
			tctx->deadline = fresh_deadline(p, tctx, now, rr);
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

		if (burst_deadline_expired(tctx->slice_left_ns, rr))
			return fresh_deadline(p, tctx, now, rr);
		return tctx->deadline;
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
	step();
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

	if (burst_saturation_step(&since, overflow, now, tunables.overflow_hold_ns)) {
		overflow = 1;
		stat_add(st, BURST_STAT_saturation, 1);
	}
	if (since != saturated_since)
		saturated_since = since;
}

static __always_inline void note_idle_capacity(void)
{
	if (saturated_since)
		saturated_since = 0;
	if (overflow)
		overflow = 0;
}

/*
 * Find and claim an idle CPU for @p among @cpus.  With SMT, a fully idle
 * core first (the previous CPU's, then one in the previous CPU's LLC, then
 * anywhere): a task alone on a core runs faster than beside a busy
 * sibling, and a move inside the LLC keeps the cache.  Then the previous
 * CPU, any idle CPU of its LLC, any idle CPU.  -1 if all are busy.
 */
static s32 pick_idle_in(s32 prev_cpu, const struct cpumask *cpus,
			struct scratch_ctx *sc)
{
	bool prev_ok = bpf_cpumask_test_cpu(prev_cpu, cpus);
	struct bpf_cpumask *in_llc = NULL;
	const struct cpumask *llc;
	s32 cpu;

	llc = llc_mask(llc_of(prev_cpu));
	/* Steps: at most BURST_STEPS_IDLE_SEARCH, one per mask operation. */
	if (llc && sc && sc->llc && nr_llcs > 1) {
		in_llc = sc->llc;
		step();
		bpf_cpumask_and(in_llc, llc, cpus);
	}

	if (smt_enabled) {
		if (prev_ok) {
			const struct cpumask *idle_smt = scx_bpf_get_idle_smtmask();
			bool whole = bpf_cpumask_test_cpu(prev_cpu, idle_smt);

			scx_bpf_put_idle_cpumask(idle_smt);
			step();
			if (whole && scx_bpf_test_and_clear_cpu_idle(prev_cpu))
				return prev_cpu;
		}
		if (in_llc) {
			step();
			cpu = scx_bpf_pick_idle_cpu(cast_mask(in_llc),
						    SCX_PICK_IDLE_CORE);
			if (cpu >= 0)
				return cpu;
		}
		step();
		cpu = scx_bpf_pick_idle_cpu(cpus, SCX_PICK_IDLE_CORE);
		if (cpu >= 0)
			return cpu;
	}

	if (prev_ok) {
		step();
		if (scx_bpf_test_and_clear_cpu_idle(prev_cpu))
			return prev_cpu;
	}
	if (in_llc) {
		step();
		cpu = scx_bpf_pick_idle_cpu(cast_mask(in_llc), 0);
		if (cpu >= 0)
			return cpu;
	}
	step();
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

/* The CPUs @p should look for a fully idle core in. */
static __always_inline const struct cpumask *core_cpus(struct task_struct *p)
{
	const struct cpumask *dom;

	if (!primary_enabled || overflow)
		return p->cpus_ptr;
	dom = domain_cpus(p, scratch());
	return dom ? dom : p->cpus_ptr;
}

/* @cpu shares its core with a busy SMT sibling. */
static __always_inline bool sibling_busy(s32 cpu)
{
	s32 sib = cpu_sibling[CPU_IDX(cpu)];
	struct cpu_ctx *cctx;

	if (!smt_enabled || sib < 0)
		return false;
	cctx = cpu_ctx(sib);
	return cctx && cctx->busy;
}

/* Is there a fully idle core @p may use?  Claims nothing. */
static bool idle_core_exists(struct task_struct *p)
{
	const struct cpumask *idle_smt = scx_bpf_get_idle_smtmask();
	bool found;

	step();
	found = bpf_cpumask_intersects(idle_smt, core_cpus(p));

	scx_bpf_put_idle_cpumask(idle_smt);
	return found;
}

/*
 * The LLC queue @p goes to from @cpu: @cpu's own, except that a task that
 * may use the primary domain, queued from a CPU outside it while the
 * domain does not overflow, goes to the queue of a domain LLC it may run
 * in: nothing is queued where no CPU would serve it.
 */
static u32 queue_llc(struct task_struct *p, s32 cpu)
{
	const struct cpumask *dom;
	u32 c;

	if (!primary_enabled || overflow || in_primary(cpu))
		return llc_of(cpu);
	dom = domain_cpus(p, scratch());
	if (!dom)
		return llc_of(cpu);
	step();
	c = bpf_cpumask_any_distribute(dom);
	return c < nr_cpu_ids ? llc_of(c) : llc_of(cpu);
}

/*
 * Burst policy wakeup preemption: the task running on @cpu is a victim if
 * its score exceeds the waker's by more than preempt_margin.
 */
static bool score_victim(struct burst_task_ctx *tctx, s32 cpu)
{
	struct cpu_ctx *cctx = cpu_ctx(cpu);

	step();
	if (!cctx || !cctx->busy)
		return false;
	return tctx->score + tunables.preempt_margin < cctx->curr_score;
}

/* The key a running task is preempted by: SCHED_IDLE ones are the latest. */
static __always_inline u64 victim_key(const struct cpu_ctx *cctx)
{
	return cctx->curr_flags & BURST_TASK_IDLE_CLASS ?
	       cctx->curr_key + BURST_IDLE_CLASS_KEY_BIAS : cctx->curr_key;
}

struct victim {
	u64 key;	/* biased by cache distance */
	s32 cpu;	/* -1: none */
};

/*
 * Is @c, at cache distance @dist, a better victim for a task with
 * @deadline than @v's?  The rule is burst_victim_key() in policy.h.
 */
static void consider_victim(struct task_struct *p, u64 deadline, s32 c,
			    u32 dist, struct victim *v)
{
	u64 rr = tunables.rr_interval_ns, key;
	struct cpu_ctx *cctx;

	step();
	if (c < 0 || c >= nr_cpu_ids || !bpf_cpumask_test_cpu(c, p->cpus_ptr))
		return;
	cctx = cpu_ctx(c);
	if (!cctx || !cctx->busy)
		return;
	if (!burst_victim_key(deadline, victim_key(cctx), dist, rr, &key))
		return;
	if (v->cpu < 0 || time_before(v->key, key)) {
		v->key = key;
		v->cpu = c;
	}
}

/*
 * Where this CPU's look at the other LLCs starts (burst_llc_scan_at()),
 * @n of them looked at now.  The start rotates only on machines with more
 * other LLCs than one call looks at; with fewer, every call looks at all
 * of them in the same order.
 */
static __always_inline u32 llc_scan_start(u32 n)
{
	struct cpu_ctx *c;
	u32 start;

	if (nr_llcs <= BURST_LLC_SCAN_MAX + 1)
		return 0;
	c = cpu_ctx(bpf_get_smp_processor_id());
	if (!c)
		return 0;
	start = c->llc_scan;
	c->llc_scan = start + n;
	return start;
}

/* The latest-deadline CPU of @llc as a victim at distance @dist. */
static __always_inline void consider_llc_victim(struct task_struct *p,
						u64 deadline, u32 llc, s32 cpu,
						s32 sib, u32 dist,
						struct victim *v)
{
	struct llc_ctx *lc = bpf_map_lookup_elem(&llc_ctxs, &llc);
	s32 c;

	if (!lc)
		return;
	c = lc->latest_cpu;
	if (c == cpu || c == sib)
		return;
	consider_victim(p, deadline, c, dist, v);
}

/*
 * Deadline policy wakeup preemption (BFS): among the CPUs @p may use, the
 * victim is the one running the latest deadline if @p's is earlier, biased
 * by cache distance.  Looks at @cpu, its SMT sibling, the latest CPU of
 * its LLC and of at most BURST_LLC_SCAN_MAX other LLCs (llc_ctx), so the
 * cost does not grow with the number of CPUs or LLCs.  -1: none.
 */
static s32 deadline_victim(struct task_struct *p, u64 deadline, s32 cpu)
{
	s32 sib = cpu_sibling[CPU_IDX(cpu)];
	u32 own = llc_of(cpu), n = burst_llc_scan_count(nr_llcs), start, k;
	struct victim v = { .cpu = -1 };

	consider_victim(p, deadline, cpu, BURST_DIST_SAME_CPU, &v);
	consider_victim(p, deadline, sib, BURST_DIST_SMT, &v);
	consider_llc_victim(p, deadline, LLC_IDX(own), cpu, sib,
			    BURST_DIST_SAME_LLC, &v);
	start = llc_scan_start(n);
	bpf_for(k, 0, n) {
		u32 i = LLC_IDX(burst_llc_scan_at(own, start, k, nr_llcs));

		consider_llc_victim(p, deadline, i, cpu, sib,
				    BURST_DIST_OTHER_LLC, &v);
	}
	return v.cpu;
}

/* Publish @cpu's running key in its LLC's latest-deadline hint. */
static void llc_hint_update(s32 cpu, const struct cpu_ctx *cctx)
{
	u32 llc = llc_of(cpu);
	struct llc_ctx *lc = bpf_map_lookup_elem(&llc_ctxs, &llc);
	u64 key = victim_key(cctx);
	struct cpu_ctx *cur;
	s32 c;

	if (!lc)
		return;
	c = lc->latest_cpu;
	cur = c >= 0 ? cpu_ctx(c) : NULL;
	if (c == cpu || !cur || !cur->busy || time_before(lc->latest_key, key)) {
		lc->latest_key = key;
		lc->latest_cpu = cpu;
	}
}

static void llc_hint_drop(s32 cpu)
{
	u32 llc = llc_of(cpu);
	struct llc_ctx *lc = bpf_map_lookup_elem(&llc_ctxs, &llc);

	if (lc && lc->latest_cpu == cpu)
		lc->latest_cpu = -1;
}

/* The earliest queue head a dispatching CPU may take. */
struct pick {
	u64 dsq;
	u64 key;	/* head's key, plus the margin for another LLC's */
	u64 next_key;	/* the runner-up's, likewise (if has_next) */
	bool found;
	bool has_next;
};

static __always_inline void consider(struct pick *pk, u64 dsq, u64 margin)
{
	struct task_struct *t;
	u64 key;

	step();
	t = burst_dsq_peek(dsq);
	if (!t)
		return;
	key = t->scx.dsq_vtime + margin;
	if (!pk->found || time_before(key, pk->key)) {
		if (pk->found) {
			pk->next_key = pk->key;
			pk->has_next = true;
		}
		pk->dsq = dsq;
		pk->key = key;
		pk->found = true;
	} else if (!pk->has_next || time_before(key, pk->next_key)) {
		pk->next_key = key;
		pk->has_next = true;
	}
}

/*
 * The earliest head of the queues @cpu serves, at most three peeks: its
 * own queue; its LLC's queue if it is in the primary domain or the domain
 * overflows; its LLC's outside queue if it is outside the domain.
 */
static __always_inline struct pick own_heads(s32 cpu, u32 policy, u32 llc)
{
	bool outside = !in_primary(cpu);
	struct pick pk = {};

	consider(&pk, cpu_dsq(policy, cpu), 0);
	if (in_primary(cpu) || overflow)
		consider(&pk, llc_dsq(policy, llc), 0);
	if (outside)
		consider(&pk, outside_dsq(policy, llc), 0);
	return pk;
}

/*
 * The counter of a task taken from @dsq by @cpu: dispatch_pin (its pinned
 * queue), overflow_place (its LLC's queue, from outside the primary
 * domain), dispatch_shared (its LLC's queue or outside queue otherwise),
 * dispatch_steal (another LLC's).  Worked out once a task was taken, not
 * carried in struct pick: a constant index in the pick would make each
 * queue's verifier states differ, and ops.dispatch's verification grows
 * fourfold with it.
 */
static __always_inline u32 taken_stat(u64 dsq, s32 cpu, u32 policy, u32 llc)
{
	if (dsq == cpu_dsq(policy, cpu))
		return BURST_STAT_dispatch_pin;
	if (dsq == llc_dsq(policy, llc))
		return in_primary(cpu) ? BURST_STAT_dispatch_shared :
					 BURST_STAT_overflow_place;
	if (dsq == outside_dsq(policy, llc))
		return BURST_STAT_dispatch_shared;
	return BURST_STAT_dispatch_steal;
}

/* Where pick_sync_cpu() puts a synchronous wakee. */
enum sync_place {
	SYNC_NONE,	/* nowhere: the usual idle search */
	SYNC_IDLE_PREV,	/* its idle previous CPU, local queue */
	SYNC_HANDOFF,	/* the waker's CPU, local queue: runs when it waits */
	SYNC_HOME,	/* the waker's CPU's own queue, in key order */
};

/*
 * A synchronous wakeup (SCX_WAKE_SYNC: the waker says it is about to wait,
 * as a pipe or socket writer waiting for the reply does): keep the pair
 * on warm CPUs instead of a distant idle one.  The wakee's previous CPU
 * if it is idle and in the waker's LLC (SYNC_IDLE_PREV), else the waker's
 * CPU if the wakee may run there, it is in the primary domain (or the
 * domain overflows) and the waker is a task of ours (cpu_ctx busy: not a
 * real-time task, an interrupt or the idle task) that is not exiting.
 * There the wakee is handed the CPU (SYNC_HANDOFF) if nothing else is in
 * its local queue and the wakee's key is not later than the heads of the
 * queues it serves (own_heads()); else it waits its turn in that CPU's
 * own queue (SYNC_HOME), which select_cpu() uses only when no idle CPU
 * could run it at once.  -1 (SYNC_NONE): the usual idle search.
 */
static s32 pick_sync_cpu(struct task_struct *p, struct burst_task_ctx *tctx,
			 const struct task_struct *waker, s32 prev_cpu,
			 u32 *place)
{
	s32 cpu = bpf_get_smp_processor_id();
	struct cpu_ctx *cctx;
	struct pick pk;
	u32 policy;

	*place = SYNC_NONE;
	if (cpu < 0 || cpu >= nr_cpu_ids ||
	    !bpf_cpumask_test_cpu(cpu, p->cpus_ptr) ||
	    !(in_primary(cpu) || overflow))
		return -1;
	if (prev_cpu != cpu && prev_cpu >= 0 && prev_cpu < nr_cpu_ids &&
	    llc_of(prev_cpu) == llc_of(cpu) &&
	    bpf_cpumask_test_cpu(prev_cpu, p->cpus_ptr) &&
	    (in_primary(prev_cpu) || overflow)) {
		step();
		if (scx_bpf_test_and_clear_cpu_idle(prev_cpu)) {
			*place = SYNC_IDLE_PREV;
			return prev_cpu;
		}
	}
	cctx = cpu_ctx(cpu);
	if (!cctx || !cctx->busy || (waker->flags & PF_EXITING))
		return -1;
	*place = SYNC_HOME;
	step();
	if (scx_bpf_dsq_nr_queued(SCX_DSQ_LOCAL))
		return cpu;
	/*
	 * A local queue is served before ops.dispatch looks at the shared
	 * ones, so a handoff there jumps every queued task: only for a wakee
	 * whose key is within one slice of key (burst_handoff_window()) of
	 * the earliest head this CPU would otherwise take.  Without a bound
	 * a pair that hands work back and forth would keep the CPU for as
	 * long as it runs (each thread sleeps while the other runs, so
	 * neither builds a burst), and the queued tasks would get it only
	 * when they became overdue; with it, the pair runs at most one slice
	 * ahead of its turn, as the warm pick lets a task do.
	 */
	policy = active_policy();
	pk = own_heads(cpu, policy, llc_of(cpu));
	if (pk.found &&
	    !burst_warm_in_window(peek_key(p, tctx, policy, burst_now()), pk.key,
				  burst_handoff_window(policy, tunables.rr_interval_ns,
						       tunables.slice_ns, p->scx.weight,
						       task_nice_idx(p))))
		return cpu;
	*place = SYNC_HANDOFF;
	return cpu;
}

/* Where ops.select_cpu puts a task it places itself (insert_direct()). */
enum direct_to {
	TO_IDLE,	/* the local queue of the idle CPU it claimed */
	TO_WAKER,	/* the local queue of the waker's CPU (SYNC_HANDOFF) */
	TO_OWN,		/* the returned CPU's own queue (SYNC_HOME) */
};

/*
 * ops.select_cpu's direct dispatch: @p goes to the queue @to names, with
 * its key and slice worked out as ops.enqueue would (queued_at for the
 * wait bound's bookkeeping).
 *
 * The local queue of an idle CPU we claimed runs the task at once: a
 * run-now insert (run_now_insert()), as ops.dispatch's moves are.  A task
 * that starts there and keeps the CPU slice after slice (keep_prev())
 * never passes another move, so this insert is its only chance at
 * SCX_ENQ_IMMED.  If that CPU got a task in the meantime (an interrupt
 * woke a per-CPU kthread there), the kernel hands ours back to
 * ops.enqueue, which places it as a wakeup (reenq_unrun()).  The
 * waker's CPU is still running the waker, so a handoff is a plain insert.
 */
static __always_inline void insert_direct(struct task_struct *p,
					  struct burst_task_ctx *tctx,
					  enum direct_to to, s32 cpu)
{
	u64 now = burst_now(), slice, key;

	tctx->flags = task_flags(p);
	tctx->queued_at = now;
	key = task_key(p, tctx, active_policy(), now, &slice);
	if (to == TO_OWN) {
		burst_dsq_insert_vtime(p, cpu_dsq(active_policy(), cpu), slice,
				       key, 0);
		return;
	}
	if (to == TO_IDLE)
		run_now_insert(p, SCX_DSQ_LOCAL, slice, 0);
	else
		burst_dsq_insert(p, SCX_DSQ_LOCAL, slice, 0);
	stat_inc(BURST_STAT_direct);
}

/*
 * A synchronous wakee the waker's CPU cannot take at once (SYNC_HOME): an
 * idle CPU if there is one (it runs now, which beats a warm cache), else
 * the waker's CPU's own queue, in key order with that CPU's other queues:
 * it waits its turn where its partner runs, instead of in the LLC's queue
 * where whichever CPU comes first would take it across, and the pair ends
 * up sharing one CPU, as a pipe round trip wants.  The wait is the one
 * the LLC's queue would give it on that CPU, and is bounded the same way:
 * the waker's CPU serves its own queue at every dispatch, and the age
 * check kicks that CPU for an overdue task (age_timerfn()).  -1: not
 * placed, the caller goes on.
 */
static s32 sync_home(struct task_struct *p, struct burst_task_ctx *tctx,
		     s32 prev_cpu, s32 cpu)
{
	bool saturated;
	s32 idle = pick_idle_cpu(p, prev_cpu, &saturated);

	if (idle >= 0) {
		insert_direct(p, tctx, TO_IDLE, idle);
		stat_inc(BURST_STAT_idle_pick);
		return idle;
	}
	if (saturated)
		note_saturated(burst_now(), stats_here());
	insert_direct(p, tctx, TO_OWN, cpu);
	stat_inc(BURST_STAT_wake_home);
	return cpu;
}

static __always_inline s32 select_cpu(struct task_struct *p, s32 prev_cpu,
				      u64 wake_flags)
{
	struct task_struct *waker = current_waker();
	struct burst_task_ctx *tctx;
	bool saturated;
	s32 cpu;

	if (is_pinned(p))
		return prev_cpu;

	tctx = task_ctx(p);
	if (!tctx)
		return prev_cpu;
	settle_sleep(p, tctx, waker, burst_now(),
		     (wake_flags & SCX_WAKE_SYNC) && sync_answers(p, tctx, waker));

	if (wake_flags & SCX_WAKE_SYNC) {
		u32 place;

		cpu = pick_sync_cpu(p, tctx, waker, prev_cpu, &place);
		if (place == SYNC_HOME)
			return sync_home(p, tctx, prev_cpu, cpu);
		if (cpu >= 0) {
			insert_direct(p, tctx, place == SYNC_IDLE_PREV ?
				      TO_IDLE : TO_WAKER, cpu);
			stat_inc(BURST_STAT_wake_sync);
			if (place == SYNC_IDLE_PREV)
				stat_inc(BURST_STAT_idle_pick);
			return cpu;
		}
	}

	cpu = pick_idle_cpu(p, prev_cpu, &saturated);
	if (cpu < 0) {
		/* Stay inside the domain while it does not overflow. */
		if (saturated && !overflow && !in_primary(prev_cpu)) {
			struct scratch_ctx *sc = scratch();
			struct bpf_cpumask *dom = sc ? sc->dom : NULL;

			/* pick_idle_cpu() left p's domain CPUs in dom. */
			if (dom) {
				step();
				cpu = bpf_cpumask_any_distribute(cast_mask(dom));
				if (cpu < nr_cpu_ids)
					return cpu;
			}
		}
		return prev_cpu;
	}

	insert_direct(p, tctx, TO_IDLE, cpu);
	stat_inc(BURST_STAT_idle_pick);
	return cpu;
}

s32 BPF_STRUCT_OPS(burst_select_cpu, struct task_struct *p, s32 prev_cpu,
		   u64 wake_flags)
{
	struct burst_stats *st = steps_begin();
	s32 cpu = select_cpu(p, prev_cpu, wake_flags);

	steps_end(st, BURST_STAT_select_calls, BURST_STAT_select_steps,
		  BURST_STAT_select_steps_max);
	return cpu;
}

/*
 * The last runnable task of @cpu whose slice ended (SCX_OPS_ENQ_LAST).  It
 * moves to a fully idle core if its SMT sibling is busy; it keeps @cpu
 * unless @cpu is outside a primary domain it may use that does not
 * overflow.  One whose migration is disabled (cannot_migrate()) keeps
 * @cpu.  False: queue it like any other.
 */
static bool enqueue_last(struct task_struct *p, s32 cpu, u64 slice,
			 u64 enq_flags, struct burst_stats *st)
{
	bool stuck = cannot_migrate(p);

	if (sibling_busy(cpu) && !stuck) {
		const struct cpumask *cpus = core_cpus(p);
		s32 core;

		step();
		core = scx_bpf_pick_idle_cpu(cpus, SCX_PICK_IDLE_CORE);

		if (core >= 0) {
			run_now_insert(p, SCX_DSQ_LOCAL_ON | core, slice,
				       enq_flags);
			burst_kick(core, SCX_KICK_IDLE);
			stat_add(st, BURST_STAT_core_move, 1);
			return true;
		}
	}
	if (in_primary(cpu) || overflow || !wants_domain(p) || stuck) {
		burst_dsq_insert(p, SCX_DSQ_LOCAL, slice, enq_flags);
		stat_add(st, BURST_STAT_direct, 1);
		return true;
	}
	return false;
}

/* One ops.enqueue call: the task, its queue key and slice, where it was. */
struct enq {
	struct task_struct *p;
	struct burst_task_ctx *tctx;
	struct burst_stats *st;
	u64 flags, key, slice, now;
	u32 policy;
	s32 cpu;
};

/* The CPU a waking task preempts (its key against theirs); -1: none. */
static s32 preempt_victim(const struct enq *e)
{
	struct cpu_ctx *cctx;

	if (e->tctx->flags & (BURST_TASK_BATCH | BURST_TASK_IDLE_CLASS))
		return -1;
	if (e->policy != BURST_POLICY_DEADLINE)
		return score_victim(e->tctx, e->cpu) ? e->cpu : -1;
	if (!(e->tctx->flags & BURST_TASK_PINNED))
		return deadline_victim(e->p, e->key, e->cpu);
	cctx = cpu_ctx(e->cpu);
	return cctx && cctx->busy && time_before(e->key, victim_key(cctx)) ?
	       e->cpu : -1;
}

/*
 * Hand @victim to the waking task that preempts it: at the head of its
 * local queue, the running task preempted (SCX_ENQ_PREEMPT), if the
 * task's key is within burst_handoff_window() of the earliest head
 * @victim serves (own_heads(), three peeks), and @victim is in the
 * primary domain, or the domain overflows, or the task may run anywhere
 * (@anywhere: it does not use the domain, or is pinned).  A kick alone
 * lets @victim take the earliest head of its queues, which may be
 * another task: the woken one then waits for whichever CPU comes next,
 * likely another.  The window bounds how far ahead of its turn a task
 * that wakes and preempts again and again runs, as for a synchronous
 * handoff.
 */
static bool preempt_handoff(const struct enq *e, s32 victim, bool anywhere)
{
	struct pick pk;

	if (!anywhere && !in_primary(victim) && !overflow)
		return false;
	pk = own_heads(victim, e->policy, llc_of(victim));
	if (pk.found &&
	    !burst_warm_in_window(e->key, pk.key,
				  burst_handoff_window(e->policy, tunables.rr_interval_ns,
						       tunables.slice_ns, e->p->scx.weight,
						       task_nice_idx(e->p))))
		return false;
	burst_dsq_insert(e->p, SCX_DSQ_LOCAL_ON | victim, e->slice,
			 e->flags | SCX_ENQ_PREEMPT);
	stat_add(e->st, BURST_STAT_preempt_handoff, 1);
	return true;
}

/*
 * Queue @e's task in @dsq and wake @idle (if any) to take it.  With no
 * idle CPU, a wakeup may preempt (preempt_victim()): it is handed the
 * victim when preempt_handoff() lets it, else queued and the victim
 * kicked.
 */
static __always_inline void place(const struct enq *e, u64 dsq, s32 idle,
				  bool anywhere)
{
	u32 won = e->policy == BURST_POLICY_DEADLINE ? BURST_STAT_preempt_deadline :
						       BURST_STAT_preempt_score;
	s32 victim = -1;

	if (idle < 0 && (e->flags & SCX_ENQ_WAKEUP)) {
		victim = preempt_victim(e);
		if (victim >= 0 && preempt_handoff(e, victim, anywhere)) {
			stat_add(e->st, won, 1);
			return;
		}
	}
	burst_dsq_insert_vtime(e->p, dsq, e->slice, e->key, e->flags);
	if (idle >= 0) {
		burst_kick(idle, SCX_KICK_IDLE);
		stat_add(e->st, BURST_STAT_kick_idle, 1);
	} else if (victim >= 0) {
		burst_kick(victim, SCX_KICK_PREEMPT);
		stat_add(e->st, won, 1);
	}
}

/* A task that may run on one CPU only: that CPU's own queue, which only
 * it serves. */
static __always_inline void queue_pinned(const struct enq *e)
{
	place(e, cpu_dsq(e->policy, e->cpu), -1, true);
	burst_kick(e->cpu, SCX_KICK_IDLE);
}

/*
 * A task whose affinity excludes the primary domain: the outside queue of
 * its LLC, served by that LLC's CPUs outside the domain (and stolen by
 * the other LLCs' ones).
 */
static __always_inline void queue_outside(const struct enq *e)
{
	place(e, outside_dsq(e->policy, llc_of(e->cpu)),
	      pick_idle_in(e->cpu, e->p->cpus_ptr, scratch()), true);
}

/*
 * Every other task: an LLC queue (a domain LLC's for a task that may use
 * the domain, queue_llc()), and an idle CPU that may run it pulls it;
 * no idle CPU in the domain starts or continues a saturation episode.
 */
static __always_inline void queue_shared(const struct enq *e)
{
	bool saturated;
	s32 idle = pick_idle_cpu(e->p, e->cpu, &saturated);

	if (saturated)
		note_saturated(e->now, e->st);
	place(e, llc_dsq(e->policy, queue_llc(e->p, e->cpu)), idle, false);
}

/*
 * Whether the kernel handed @p back to ops.enqueue (SCX_ENQ_REENQ) before
 * it ran since it was last queued: every queueing sets queued_at and
 * ops.running clears it.  So a task bounced from an SCX_ENQ_IMMED insert
 * (7.1 on), or one that waited in the local queue ops.cpu_release handed
 * back (6.19-7.0), is "unrun"; one preempted while it ran (by a higher
 * class, or core scheduling) is not.  The kernel's reason bits would not
 * do: SCX_TASK_REENQ_* exist from 7.1 only, and 7.2 marks every task of a
 * handed-back local queue alike (SCX_TASK_REENQ_KFUNC).  Not called for a
 * per-CPU kthread: its queued_at stays 0, so enqueue() counts it as
 * preempted without its task context.
 */
static __always_inline bool reenq_unrun(const struct burst_task_ctx *tctx,
					u64 enq_flags)
{
	return (enq_flags & SCX_ENQ_REENQ) && tctx && tctx->queued_at;
}

static __always_inline void enqueue(struct task_struct *p, u64 enq_flags,
				    struct burst_stats *st)
{
	struct enq e = {
		.p = p, .st = st, .flags = enq_flags,
		.policy = active_policy(), .cpu = scx_bpf_task_cpu(p),
	};
	bool unrun;

	stat_add(e.st, BURST_STAT_enqueue, 1);
	/* handed back, a per-CPU kthread was preempted (reenq_unrun()) */
	if (is_percpu_kthread(p)) {
		if (enq_flags & SCX_ENQ_REENQ)
			stat_add(e.st, BURST_STAT_requeued, 1);
		burst_dsq_insert(p, SCX_DSQ_LOCAL, tunables.slice_ns, enq_flags);
		stat_add(e.st, BURST_STAT_direct, 1);
		return;
	}

	e.tctx = task_ctx(p);
	unrun = reenq_unrun(e.tctx, enq_flags);
	if (enq_flags & SCX_ENQ_REENQ)
		stat_add(e.st, unrun ? BURST_STAT_bounced : BURST_STAT_requeued, 1);
	if (!e.tctx) {
		scx_bpf_error("failed to look up task ctx for pid %d", p->pid);
		return;
	}
	e.now = burst_now();
	e.tctx->flags = task_flags(p);
	/*
	 * A task the kernel handed back before it ran was put in a local
	 * queue to run there (at once: an idle CPU's, a fully idle core's,
	 * or by ops.dispatch; or next, by a handoff) and found that CPU
	 * taken: its wait goes on (queued_at stays, for the wait bound), and
	 * as it was chosen to run it is placed as a wakeup would be, free to
	 * preempt, whether it woke or its slice had ended.
	 */
	if (unrun)
		e.flags |= SCX_ENQ_WAKEUP;
	else
		e.tctx->queued_at = e.now;
	e.key = task_key(p, e.tctx, e.policy, e.now, &e.slice);

	if ((enq_flags & SCX_ENQ_LAST) &&
	    enqueue_last(p, e.cpu, e.slice, enq_flags, e.st))
		return;
	if (e.tctx->flags & BURST_TASK_PINNED)
		queue_pinned(&e);
	else if (!wants_domain(p))
		queue_outside(&e);
	else
		queue_shared(&e);
}

void BPF_STRUCT_OPS(burst_enqueue, struct task_struct *p, u64 enq_flags)
{
	struct burst_stats *st = steps_begin();

	enqueue(p, enq_flags, st);
	steps_end(st, BURST_STAT_enqueue_calls, BURST_STAT_enqueue_steps,
		  BURST_STAT_enqueue_steps_max);
}

/* Move the head of @dsq to this CPU's local queue: one step. */
static __always_inline bool take_from(u64 dsq)
{
	step();
	return run_now_take(dsq);
}

/*
 * Rescue: run an overdue task that may run on @cpu, found in @dsq, ahead
 * of the queue order, for a short slice (burst_rescue_slice()): the bound
 * promises progress, not a share, so a SCHED_IDLE task behind a hog gets
 * a little CPU every max_wait, not a full slice.  A subprogram: called
 * for every queue.  The walk is not counted in the dispatch steps: it
 * runs only while a task has waited half of max_wait (rescue_pending),
 * and it is the one place a hot callback looks past a queue's head
 * (section 6).  Global (not static): the verifier checks a global
 * subprogram once, on its own, instead of again from every caller state.
 */
__noinline int rescue_from(u64 dsq, s32 cpu, u64 now, u64 threshold)
{
	u64 slice = burst_rescue_slice(active_policy() == BURST_POLICY_DEADLINE ?
				       tunables.rr_interval_ns : tunables.slice_ns);
	struct task_struct *p;

	bpf_for_each(scx_dsq, p, dsq, 0) {
		struct burst_task_ctx *tctx;

		if (!bpf_cpumask_test_cpu(cpu, p->cpus_ptr))
			continue;
		tctx = task_ctx(p);
		if (!tctx || (s64)(now - tctx->queued_at) < (s64)threshold)
			continue;
		burst_dsq_move_set_slice(BPF_FOR_EACH_ITER, slice);
		if (run_now_move(BPF_FOR_EACH_ITER, p)) {
			/* counted when it runs: a bounce (ops.enqueue
			 * clears the flag) and a second rescue count once */
			tctx->flags |= BURST_TASK_RESCUED;
			return true;
		}
	}
	return false;
}

/* Any overdue task @cpu may run, from any queue of either policy. */
static bool rescue_overdue(s32 cpu, u64 now)
{
	u64 threshold = burst_overdue_ns(tunables.max_wait_ns);
	u32 policy, i;

	bpf_for(policy, 0, BURST_NR_POLICIES) {
		if (rescue_from(cpu_dsq(policy, cpu), cpu, now, threshold))
			return true;
		bpf_for(i, 0, nr_llcs) {
			if (rescue_from(llc_dsq(policy, i), cpu, now, threshold) ||
			    rescue_from(outside_dsq(policy, i), cpu, now, threshold))
				return true;
		}
	}
	return false;
}

/* Leftovers of the policy that was active before a switch go first. */
static bool drain_old_policy(s32 cpu, u32 llc, u32 old)
{
	if (take_from(cpu_dsq(old, cpu)) ||
	    take_from(llc_dsq(old, llc)) ||
	    take_from(outside_dsq(old, llc))) {
		stat_inc(BURST_STAT_dispatch_drain);
		return true;
	}
	return false;
}

/*
 * The queues @cpu serves, heads compared by key: its own queue; its
 * LLC's queue if it is in the primary domain or the domain overflows; its
 * LLC's outside queue if it is outside the domain; and the same queues of
 * the other LLCs, whose heads must be earlier by a steal margin (one slice
 * of key) to be pulled across.  So a CPU does not run later work while
 * earlier work waits in another LLC, and equal tasks get equal time across
 * LLCs, at one peek per queue.  One call peeks at the queues of at most
 * BURST_LLC_SCAN_MAX other LLCs, in a rotation (burst_llc_scan_at()):
 * beyond that many LLCs, earlier work next door is seen within
 * burst_llc_scan_rounds() dispatches instead of at once.
 */
static struct pick best_head(s32 cpu, u32 policy, u32 llc)
{
	bool shared = in_primary(cpu) || overflow;
	bool outside = !in_primary(cpu);
	u64 margin = burst_steal_margin(policy, tunables.slice_ns,
					tunables.rr_interval_ns);
	struct pick pk = own_heads(cpu, policy, llc);
	u32 n = burst_llc_scan_count(nr_llcs), start, k;

	if (!n)
		return pk;
	start = llc_scan_start(n);
	bpf_for(k, 0, n) {
		u32 i = LLC_IDX(burst_llc_scan_at(llc, start, k, nr_llcs));

		if (shared)
			consider(&pk, llc_dsq(policy, i), margin);
		if (outside)
			consider(&pk, outside_dsq(policy, i), margin);
	}
	return pk;
}

/* The previous task keeps the CPU: a new slice, its key published. */
static void keep_prev(struct task_struct *prev, struct burst_task_ctx *ptctx,
		      s32 cpu, u32 policy, u64 now)
{
	struct cpu_ctx *cctx = cpu_ctx(cpu);
	u64 slice;
	u64 key = task_key(prev, ptctx, policy, now, &slice);

	burst_set_slice(prev, slice);
	/* No ops.running for a kept task: publish its renewed key. */
	if (cctx) {
		cctx->curr_key = key;
		llc_hint_update(cpu, cctx);
	}
	stat_inc(BURST_STAT_keep_running);
}

/*
 * The previous task, if it still wants to run and competes for @cpu: it
 * is charged and its up-to-date key (as if re-queued) goes to *@key.
 * Outside a primary domain that does not overflow, one that may use the
 * domain does not compete: it goes back to the domain.  NULL otherwise.
 */
static __always_inline struct burst_task_ctx *
prev_competes(struct task_struct *prev, s32 cpu, u32 policy, u64 now, u64 *key)
{
	struct burst_task_ctx *ptctx;

	if (!prev || !(prev->scx.flags & SCX_TASK_QUEUED))
		return NULL;
	ptctx = task_ctx(prev);
	if (!ptctx)
		return NULL;
	charge(prev, ptctx, now, stats_here());
	*key = peek_key(prev, ptctx, policy, now);
	if (!in_primary(cpu) && !overflow && wants_domain(prev) &&
	    !(ptctx->flags & BURST_TASK_PINNED))
		return NULL;
	return ptctx;
}

/*
 * Warm pick (policy.h): if the head of @dsq (@cpu's LLC queue) is
 * not @cpu's task (scx_bpf_task_cpu(): where it last ran, or where its
 * wakeup placed it), move the first of the next BURST_WARM_SCAN - 1 tasks
 * that is, may run on @cpu, and that burst_warm_in_window() and
 * burst_warm_score_ok() let pass the head, if its key is also before @cap (the running task's when it competes,
 * and the runner-up queue head's) when @capped.  The score compared is
 * the one the policy orders by: the burst policy's (0 under --no-burst),
 * the deadline policy's raw burst score.  One step per task looked at.  A
 * global subprogram: the iterator stays out of ops.dispatch's own frame,
 * and the verifier checks it once rather than from each of ops.dispatch's
 * states (as a static one, it doubled ops.dispatch's verification).
 */
__noinline int warm_take(u64 dsq, s32 cpu, u32 policy, u64 cap, bool capped)
{
	bool deadline = policy == BURST_POLICY_DEADLINE;
	u64 head_key = 0, head_slice_key = 0;
	struct burst_task_ctx *tctx;
	u32 head_score = 0, n = 0;
	struct task_struct *p;
	bool moved = false;

	bpf_for_each(scx_dsq, p, dsq, 0) {
		u64 key = p->scx.dsq_vtime, window;
		u32 score;

		step();
		tctx = task_ctx(p);
		if (!tctx)
			break;
		score = deadline ? raw_score(tctx) : tctx->score;
		if (!n++) {
			/* the head is this CPU's already: nothing to gain */
			if (scx_bpf_task_cpu(p) == cpu)
				break;
			head_key = key;
			head_score = score;
			head_slice_key = burst_vtime_delta(tunables.slice_ns,
							   p->scx.weight,
							   task_nice_idx(p), score);
			continue;
		}
		/* keys are in order: none further on can pass either (no
		 * window is wider than the head's own slice of key) */
		window = burst_warm_window(policy, tunables.rr_interval_ns,
					   head_slice_key, head_slice_key);
		if (!burst_warm_in_window(key, head_key, window) ||
		    (capped && !time_before(key, cap)))
			break;
		window = burst_warm_window(policy, tunables.rr_interval_ns,
					   head_slice_key,
					   burst_vtime_delta(tunables.slice_ns,
							     p->scx.weight,
							     task_nice_idx(p), score));
		if (burst_warm_in_window(key, head_key, window) &&
		    burst_warm_score_ok(score, head_score) &&
		    scx_bpf_task_cpu(p) == cpu &&
		    bpf_cpumask_test_cpu(cpu, p->cpus_ptr) &&
		    run_now_move(BPF_FOR_EACH_ITER, p)) {
			moved = true;
			break;
		}
		if (n >= BURST_WARM_SCAN)
			break;
	}
	return moved;
}

/*
 * Move the head best_head() chose to @cpu's local queue.  If another CPU
 * took it first, the head of @cpu's own queues (pinned, then its LLC's
 * when it may serve it).  False if nothing was moved.
 */
static __always_inline bool take_head(s32 cpu, u32 policy, u32 llc,
				      const struct pick *pk)
{
	if (take_from(pk->dsq)) {
		stat_inc(taken_stat(pk->dsq, cpu, policy, llc));
		return true;
	}
	if (take_from(cpu_dsq(policy, cpu))) {
		stat_inc(BURST_STAT_dispatch_pin);
		return true;
	}
	if ((in_primary(cpu) || overflow) &&
	    take_from(llc_dsq(policy, llc))) {
		stat_inc(BURST_STAT_dispatch_shared);
		return true;
	}
	return false;
}

static __always_inline void dispatch(s32 cpu, struct task_struct *prev)
{
	u32 policy = active_policy(), llc = llc_of(cpu);
	struct burst_task_ctx *ptctx;
	u64 now = burst_now(), prev_key = 0;
	struct pick pk;

	if (drain_old_policy(cpu, llc, !policy))
		return;
	if (rescue_pending && rescue_overdue(cpu, now))
		return;

	ptctx = prev_competes(prev, cpu, policy, now, &prev_key);
	pk = best_head(cpu, policy, llc);
	if (pk.found && (!ptctx || time_before(pk.key, prev_key))) {
		u64 cap = prev_key;

		if (pk.has_next && (!ptctx || time_before(pk.next_key, cap)))
			cap = pk.next_key;
		if (pk.dsq == llc_dsq(policy, llc) &&
		    warm_take(pk.dsq, cpu, policy, cap, ptctx || pk.has_next)) {
			stat_inc(taken_stat(pk.dsq, cpu, policy, llc));
			stat_inc(BURST_STAT_warm_pick);
			return;
		}
		if (take_head(cpu, policy, llc, &pk))
			return;
	}

	/* A domain CPU with nothing it could take: the domain has room. */
	if (!pk.found && primary_enabled && in_primary(cpu))
		note_idle_capacity();

	/*
	 * The previous task is the earliest, or nothing else is queued: it
	 * keeps the CPU, unless its SMT sibling is busy, a fully idle core
	 * could take it and it may migrate (then the kernel hands it to
	 * ops.enqueue with SCX_ENQ_LAST, and enqueue_last() moves it).
	 */
	if (ptctx && !(sibling_busy(cpu) && idle_core_exists(prev) &&
		       !cannot_migrate(prev)))
		keep_prev(prev, ptctx, cpu, policy, now);
}

void BPF_STRUCT_OPS(burst_dispatch, s32 cpu, struct task_struct *prev)
{
	struct burst_stats *st = steps_begin();

	dispatch(cpu, prev);
	steps_end(st, BURST_STAT_dispatch_calls, BURST_STAT_dispatch_steps,
		  BURST_STAT_dispatch_steps_max);
}

/* The age check: see the wait bound above. */
static u64 age_period_ns(void)
{
	return tunables.max_wait_ns / 4;
}

/*
 * Kick a CPU that may run overdue @p: @owner if @p waits in that CPU's
 * own queue (only it serves that queue), else an idle one, else preempt
 * one.
 */
static void kick_for(struct task_struct *p, s32 owner)
{
	s32 cpu;

	if (owner >= 0) {
		burst_kick(owner, SCX_KICK_PREEMPT);
		return;
	}
	cpu = scx_bpf_pick_idle_cpu(p->cpus_ptr, 0);
	if (cpu >= 0) {
		burst_kick(cpu, SCX_KICK_IDLE);
		return;
	}
	cpu = scx_bpf_task_cpu(p);
	if (!bpf_cpumask_test_cpu(cpu, p->cpus_ptr))
		cpu = bpf_cpumask_any_distribute(p->cpus_ptr);
	if (cpu < nr_cpu_ids)
		burst_kick(cpu, SCX_KICK_PREEMPT);
}

/*
 * Age of the oldest task of @dsq; the first overdue one gets a CPU kicked
 * (@owner: the CPU whose own queue @dsq is, -1 for a shared one).
 */
static __noinline u64 age_scan(u64 dsq, u64 now, u64 threshold, s32 owner)
{
	struct task_struct *p;
	u64 first = now;
	bool kicked = false;

	/*
	 * No counters in the loop: the verifier follows an iterator loop
	 * until its states repeat, and a counter never repeats.  A DSQ ends,
	 * so the loop does too.
	 */
	bpf_for_each(scx_dsq, p, dsq, 0) {
		struct burst_task_ctx *tctx = task_ctx(p);

		if (!tctx || !tctx->queued_at)
			continue;
		if (time_before(tctx->queued_at, first))
			first = tctx->queued_at;
		if (!kicked && (s64)(now - tctx->queued_at) >= (s64)threshold) {
			kick_for(p, owner);
			kicked = true;
		}
	}
	return now - first;
}

/*
 * Move every task of @dsq to the kernel's global queue, which each CPU
 * serves before ops.dispatch(), including a CPU on its way offline for a
 * task queued on it; and kick a CPU for each.  Static: a global function
 * is checked as part of burst_init, which starts the age timer, in its
 * sleepable context, where the queue iterator needs an RCU lock.
 */
static __noinline int drain_to_global(u64 dsq)
{
	struct task_struct *p;

	bpf_for_each(scx_dsq, p, dsq, 0) {
		if (burst_dsq_move(BPF_FOR_EACH_ITER, p, SCX_DSQ_GLOBAL, 0)) {
			stat_inc(BURST_STAT_hotplug_moved);
			kick_for(p, -1);
		}
	}
	return 0;
}

/*
 * At each age check while a CPU is offline (the first right after
 * ops.cpu_offline()): the own queues of the CPUs that are offline, the
 * queues of an LLC with no CPU online, and the LLC queues if no CPU of the
 * primary domain is left (then no task wants the domain, and no CPU would
 * serve those queues until an overflow that never comes).  A CPU going
 * down takes no new work but still dispatches, and the kernel pushes away
 * each task it runs, so its queues are normally empty by the callback
 * (the VM test's hotplug counts none moved).  But the kernel calls no
 * ops.dispatch() on an offline run queue and waits for it to empty before
 * taking the CPU down: a task pinned to it and still queued here when it
 * went would hang the hotplug until the watchdog ended the scheduler.
 * Checked again at every age check: the order of those steps is the
 * kernel's, and may differ between versions.
 */
static void drain_offline(void)
{
	struct bpf_cpumask *onl = online_mask, *pm = primary_mask;
	bool dom_gone = primary_enabled && (!pm || bpf_cpumask_empty(cast_mask(pm)));
	const struct cpumask *llc;
	u32 policy, i;

	if (!onl)
		return;
	bpf_for(policy, 0, BURST_NR_POLICIES) {
		bpf_for(i, 0, nr_cpu_ids) {
			if (!bpf_cpumask_test_cpu(i, cast_mask(onl)) &&
			    scx_bpf_dsq_nr_queued(cpu_dsq(policy, i)))
				drain_to_global(cpu_dsq(policy, i));
		}
		bpf_for(i, 0, nr_llcs) {
			llc = llc_mask(i);
			if (llc && !bpf_cpumask_empty(llc)) {
				if (dom_gone)
					drain_to_global(llc_dsq(policy, i));
				continue;
			}
			drain_to_global(llc_dsq(policy, i));
			drain_to_global(outside_dsq(policy, i));
		}
	}
}

static int age_timerfn(void *map, int *key, struct bpf_timer *timer)
{
	u64 now = burst_now(), oldest = 0, threshold, age;
	u32 policy, i;

	if (cpus_offline)
		drain_offline();
	threshold = burst_overdue_ns(tunables.max_wait_ns);
	bpf_for(policy, 0, BURST_NR_POLICIES) {
		bpf_for(i, 0, nr_llcs) {
			age = age_scan(llc_dsq(policy, i), now, threshold, -1);
			oldest = age > oldest ? age : oldest;
			age = age_scan(outside_dsq(policy, i), now, threshold, -1);
			oldest = age > oldest ? age : oldest;
		}
		bpf_for(i, 0, nr_cpu_ids) {
			if (!scx_bpf_dsq_nr_queued(cpu_dsq(policy, i)))
				continue;
			age = age_scan(cpu_dsq(policy, i), now, threshold, i);
			oldest = age > oldest ? age : oldest;
		}
	}
	rescue_pending = oldest >= threshold;
	stat_max(stats_here(), BURST_STAT_max_wait_us, oldest / 1000);
	bpf_timer_start(timer, age_period_ns(), 0);
	return 0;
}

void BPF_STRUCT_OPS(burst_tick, struct task_struct *p)
{
	struct burst_task_ctx *tctx = task_ctx(p);
	s32 cpu = scx_bpf_task_cpu(p);
	struct cpu_ctx *cctx = cpu_ctx(cpu);
	u64 now = burst_now();

	if (debug_error_after_ns && now - init_at >= debug_error_after_ns)
		scx_bpf_error("debug: error injected by --debug-error-after");
	if (!tctx)
		return;
	charge(p, tctx, now, stats_here());
	if (cctx) {
		cctx->curr_score = tctx->score;
		llc_hint_update(cpu, cctx);
	}
}

void BPF_STRUCT_OPS(burst_runnable, struct task_struct *p, u64 enq_flags)
{
	struct burst_task_ctx *tctx = task_ctx(p);

	if (tctx)
		settle_sleep(p, tctx, current_waker(), burst_now(), false);
}

void BPF_STRUCT_OPS(burst_running, struct task_struct *p)
{
	struct burst_stats *st = stats_here();
	struct burst_task_ctx *tctx = task_ctx(p);
	s32 cpu = scx_bpf_task_cpu(p);
	struct cpu_ctx *cctx = cpu_ctx(cpu);
	struct task_struct *head;
	u64 now = burst_now();

	stat_add(st, BURST_STAT_runs, 1);
	if (!tctx)
		return;

	tctx->last_charge = now;
	tctx->nr_runs++;
	/* the deadline policy keeps the clock too, for a switch back */
	head = active_policy() == BURST_POLICY_BURST && cpu >= 0 &&
	       cpu < nr_cpu_ids ?
	       burst_dsq_peek(llc_dsq(BURST_POLICY_BURST, llc_of(cpu))) : NULL;
	vtime_now = burst_clock_advance(vtime_now, tctx->vtime, head,
					head ? head->scx.dsq_vtime : 0);
	if (tctx->queued_at) {
		if ((s64)(now - tctx->queued_at) > 0)
			stat_max(st, BURST_STAT_max_wait_us,
				 (now - tctx->queued_at) / 1000);
		tctx->queued_at = 0;
	}

	if (tctx->flags & BURST_TASK_RESCUED) {
		tctx->flags &= ~BURST_TASK_RESCUED;
		stat_add(st, BURST_STAT_rescue, 1);
	}
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
		llc_hint_update(cpu, cctx);
	}
}

void BPF_STRUCT_OPS(burst_stopping, struct task_struct *p, bool runnable)
{
	struct burst_task_ctx *tctx = task_ctx(p);
	s32 cpu = scx_bpf_task_cpu(p);
	struct cpu_ctx *cctx = cpu_ctx(cpu);

	if (cctx)
		cctx->busy = 0;
	llc_hint_drop(cpu);
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
		tctx->slept_at = burst_now() ? : 1;
}

/*
 * The child burst cache is keyed by process (tgid), one way for both
 * directions, in the spirit of BORE's inheritance by thread group: a
 * thread's burst is folded into its own process's entry when it exits,
 * and a process's (its leader's) into its parent process's.  A new
 * thread or process starts from the entry of the process that created
 * it.  So the threads of a program count for that program's later
 * threads and children, never for its parent's (say, a shell's) other
 * children.
 */
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
		u32 key = parent->tgid;
		u64 *children = bpf_map_lookup_elem(&child_bursts, &key);
		u64 inherit = 0;

		if (ptctx)
			inherit = burst_effective(ptctx->prev_burst_ns,
						  ptctx->burst_ns);
		if (children)
			inherit = burst_max_u64(inherit, *children);
		tctx->prev_burst_ns = inherit;
		tctx->score = current_score(tctx);
		tctx->vtime = burst_fork_vtime(vtime_now, tunables.slice_ns,
					       task_nice_idx(p), tctx->score);
	}
	return 0;
}

void BPF_STRUCT_OPS(burst_exit_task, struct task_struct *p,
		    struct scx_exit_task_args *args)
{
	struct burst_task_ctx *tctx = task_ctx(p);
	u32 pid = p->pid, key;
	bool leader = p->pid == p->tgid;
	u64 burst, *cached;

	if (leader)
		bpf_map_delete_elem(&child_bursts, &pid);
	if (!tctx || args->cancelled)
		return;

	key = leader ? BPF_CORE_READ(p, real_parent, tgid) : p->tgid;
	burst = burst_effective(tctx->prev_burst_ns, tctx->burst_ns);
	cached = bpf_map_lookup_elem(&child_bursts, &key);
	if (cached)
		burst = burst_smooth(*cached, burst, tunables.burst_smoothness);
	bpf_map_update_elem(&child_bursts, &key, &burst, BPF_ANY);
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

/* Is @cpu in domain_req (the CPUs the daemon asked for)? */
static __always_inline bool domain_requested(u32 cpu)
{
	return domain_req.bits[(cpu / 64) & (BURST_CPUMASK_WORDS - 1)] &
	       (1ULL << (cpu % 64));
}

/*
 * Applies domain_req: run by the daemon (BPF_PROG_RUN) after load and on
 * every change, so the domain switches without reloading the scheduler.
 * The domain in force is the CPUs asked for that are online; a CPU going
 * on- or offline later is added or taken out by burst_cpu_online() and
 * burst_cpu_offline().
 */
SEC("syscall")
int burst_set_domain(void *ctx)
{
	struct bpf_cpumask *mask, *old, *onl;
	u32 i;

	mask = bpf_cpumask_create();
	if (!mask)
		return -ENOMEM;
	bpf_rcu_read_lock();
	onl = online_mask;
	bpf_for(i, 0, nr_cpu_ids) {
		if (domain_requested(i) &&
		    (!onl || bpf_cpumask_test_cpu(i, cast_mask(onl))))
			bpf_cpumask_set_cpu(i, mask);
	}
	bpf_rcu_read_unlock();
	old = bpf_kptr_xchg(&primary_mask, mask);
	if (old)
		bpf_cpumask_release(old);
	saturated_since = 0;
	overflow = 0;
	primary_enabled = domain_req.nr_cpus > 0;
	return 0;
}

/*
 * CPU hotplug (section 5).  The kernel calls ops.cpu_offline() once a CPU
 * no longer takes new work (it then sends what is queued on it straight
 * to its local queue and never calls ops.dispatch() there) and
 * ops.cpu_online() once it does again.  Implementing both keeps the
 * scheduler loaded through a suspend/resume or an SMT switch; without
 * them the kernel ends it at every CPU that comes or goes.
 */

/* Was @cpu online at load, with its LLC and SMT sibling known? */
static bool known_at_load(s32 cpu)
{
	bool known = false;
	u32 i;

	bpf_for(i, 0, nr_online) {
		if (online_cpus[CPU_IDX(i)] == (u32)cpu) {
			known = true;
			break;
		}
	}
	return known;
}

/* Set or clear @cpu in @m, if there is one. */
static __always_inline void mask_put(struct bpf_cpumask *m, s32 cpu, bool on)
{
	if (!m)
		return;
	if (on)
		bpf_cpumask_set_cpu(cpu, m);
	else
		bpf_cpumask_clear_cpu(cpu, m);
}

/*
 * @cpu joins or leaves the masks that say where work may go: the online
 * CPUs, its LLC's CPUs and, if the daemon asked for it, the primary
 * domain.  Leaving, it also stops being a preemption target.
 */
static void cpu_set_online(s32 cpu, bool on)
{
	u32 llc = llc_of(cpu);
	struct mask_ctx *m = bpf_map_lookup_elem(&llc_masks, &llc);
	struct cpu_ctx *cctx = cpu_ctx(cpu);

	mask_put(online_mask, cpu, on);
	if (m)
		mask_put(m->mask, cpu, on);
	if (!on || domain_requested(cpu))
		mask_put(primary_mask, cpu, on);
	if (cctx)
		cctx->offline = !on;
	if (!on) {
		if (cctx)
			cctx->busy = 0;
		llc_hint_drop(cpu);
	}
	stat_inc(BURST_STAT_cpu_hotplug);
}

void BPF_STRUCT_OPS(burst_cpu_online, s32 cpu)
{
	if (cpu < 0 || cpu >= nr_cpu_ids || !known_at_load(cpu)) {
		/* Its LLC and sibling are unknown: load again, with them. */
		scx_bpf_exit(SCX_ECODE_ACT_RESTART | SCX_ECODE_RSN_HOTPLUG,
			     "CPU %d came online, it was offline at load", cpu);
		return;
	}
	cpu_set_online(cpu, true);
	if (cpus_offline)
		cpus_offline--;
}

void BPF_STRUCT_OPS(burst_cpu_offline, s32 cpu)
{
	u32 zero = 0;
	struct age_timer *at = bpf_map_lookup_elem(&age_timers, &zero);

	if (cpu < 0 || cpu >= nr_cpu_ids)
		return;
	cpu_set_online(cpu, false);
	/* What is queued where no online CPU serves it goes at once. */
	cpus_offline++;
	if (at)
		bpf_timer_start(&at->timer, 0, 0);
}

/*
 * A higher sched class took @cpu.  Where the kernel lacks SCX_ENQ_IMMED,
 * the task of ours it preempted goes back to ops.enqueue instead of
 * waiting in @cpu's local queue until the CPU comes back
 * (burst_reenq_released(): 6.19-7.0; the daemon leaves this callback out
 * elsewhere).
 */
void BPF_STRUCT_OPS(burst_cpu_release, s32 cpu, struct scx_cpu_release_args *args)
{
	burst_reenq_released();
}

static s32 start_age_timer(void)
{
	u32 zero = 0;
	struct age_timer *at = bpf_map_lookup_elem(&age_timers, &zero);
	s32 ret;

	if (!at)
		return -ENOENT;
	ret = bpf_timer_init(&at->timer, &age_timers, CLOCK_MONOTONIC);
	if (ret)
		return ret;
	ret = bpf_timer_set_callback(&at->timer, age_timerfn);
	if (ret)
		return ret;
	return bpf_timer_start(&at->timer, age_period_ns(), 0);
}

s32 BPF_STRUCT_OPS_SLEEPABLE(burst_init)
{
	struct bpf_cpumask *mask;
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
		bpf_for(i, 0, nr_llcs) {
			ret = scx_bpf_create_dsq(outside_dsq(policy, i), -1);
			if (ret) {
				scx_bpf_error("failed to create outside queue %u: %d",
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
		struct llc_ctx *lc = bpf_map_lookup_elem(&llc_ctxs, &i);

		if (lc)
			lc->latest_cpu = -1;
		ret = create_mask(&llc_masks, i);
		if (ret)
			return ret;
	}
	bpf_for(i, 0, nr_cpu_ids) {
		ret = create_scratch(i);
		if (ret)
			return ret;
	}
	mask = bpf_cpumask_create();
	if (!mask)
		return -ENOMEM;
	mask = bpf_kptr_xchg(&online_mask, mask);
	if (mask)
		bpf_cpumask_release(mask);
	/* The online and LLC masks start with the CPUs online at load. */
	bpf_for(i, 0, nr_online) {
		struct mask_ctx *m;
		u32 cpu = online_cpus[CPU_IDX(i)], llc = llc_of(cpu);

		m = bpf_map_lookup_elem(&llc_masks, &llc);
		if (!m)
			return -ENOENT;
		bpf_rcu_read_lock();
		if (m->mask)
			bpf_cpumask_set_cpu(cpu, m->mask);
		mask = online_mask;
		if (mask)
			bpf_cpumask_set_cpu(cpu, mask);
		bpf_rcu_read_unlock();
	}

	compat_record_forms();
	init_at = burst_now();
	return start_age_timer();
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
	/*
	 * Published last, by an atomic compare-and-exchange (a full barrier
	 * in the BPF memory model, as the kernel's UEI_RECORD does it): the
	 * daemon's acquire load of a non-zero kind then sees everything
	 * above.  Only the first exit record counts.
	 */
	__sync_val_compare_and_swap(&exit_info.kind, 0, ei->kind);
}

SEC(".struct_ops.link")
struct sched_ext_ops burst_ops = {
	.select_cpu	= (void *)burst_select_cpu,
	.enqueue	= (void *)burst_enqueue,
	.dispatch	= (void *)burst_dispatch,
	.tick		= (void *)burst_tick,	/* BORE charges every tick */
	.runnable	= (void *)burst_runnable, /* a sleep ends or shrinks the burst */
	.running	= (void *)burst_running,
	.stopping	= (void *)burst_stopping,
	.quiescent	= (void *)burst_quiescent, /* the sleep starts */
	/* no .yield: a yield is no sleep, the burst goes on (burst_wake()) */
	.cpu_online	= (void *)burst_cpu_online,
	.cpu_offline	= (void *)burst_cpu_offline,
	.cpu_release	= (void *)burst_cpu_release, /* 6.19-7.0 only */
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
