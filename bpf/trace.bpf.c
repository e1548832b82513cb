/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `scx_burst trace`: the recorder of scheduling events.
 *
 * 1. What is recorded
 *
 *    Five tp_btf programs, one per scheduler tracepoint (sched_switch,
 *    sched_wakeup, sched_wakeup_new, sched_migrate_task, sched_process_exit),
 *    each write one struct burst_trace_event (trace_event.h) into one BPF
 *    ring buffer, which the recorder drains (src/trace_record.cpp).  The
 *    tracepoints belong to the core scheduler, not to a scheduling class:
 *    the same programs record EEVDF, scx_burst or any other sched_ext
 *    scheduler, which is what makes the pictures comparable.
 *
 * 2. Bounded cost, no silent loss
 *
 *    The ring buffer's size is set at load (--ringbuf-kb); a reservation
 *    that fails because the recorder fell behind drops that event and
 *    counts it in the per-CPU `lost` array, which the recorder sums into
 *    the file header's lost_events.  An event costs one reservation and an
 *    88-byte copy; nothing else is kept in BPF (no per-task maps to grow).
 *    The programs never wake the recorder (BPF_RB_NO_WAKEUP): a wakeup
 *    per event is an irq_work and a context switch, which a switch-heavy
 *    load would pay per switch; the recorder drains every 100 ms instead,
 *    so the ring must hold 100 ms of events (16 MiB by default: 190000).
 *
 * 3. Scores under scx_burst
 *
 *    `task_ctxs` is declared exactly as in scx_burst.bpf.c.  When
 *    scx_burst is the active scheduler the recorder hands this program
 *    scx_burst's own map (bpf_map__reuse_fd before load), so each switch
 *    carries next's burst score and queue key as scx_burst's ops.running
 *    just left them; otherwise the map is this program's own, always
 *    empty, never looked up (with_scores), and slices carry
 *    BURST_TR_NO_SCORE.  Which field is the
 *    key (vtime or deadline) depends on the daemon's policy, which the
 *    recorder asks the daemon for at start (key_policy).
 *
 * Not attempted: stack traces, per-event cgroup ids, sched_waking (the
 * wakeup is recorded where the task becomes runnable, which is what the
 * waiting time is measured from).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include <scx_burst/trace_event.h>

char _license[] SEC("license") = "GPL";

/* Set at load: scx_burst runs and task_ctxs is its map. */
const volatile u32 with_scores;
/* enum burst_policy of the traced scx_burst, or BURST_NR_POLICIES: no key. */
const volatile u32 key_policy = BURST_NR_POLICIES;

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 20);	/* set at load from --ringbuf-kb */
} events SEC(".maps");

/* Failed reservations, per CPU (summed by the recorder). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, u64);
} lost SEC(".maps");

/* task_ctxs: scx_burst's task storage when it runs (reused fd), else
 * empty; the definition is the scheduler's own. */
#include "task_ctx_map.bpf.h"

static struct burst_trace_event *reserve(u32 kind)
{
	struct burst_trace_event *e;
	u32 zero = 0;
	u64 *n;

	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		n = bpf_map_lookup_elem(&lost, &zero);
		if (n)
			(*n)++;
		return NULL;
	}
	__builtin_memset(e, 0, sizeof(*e));
	e->ts_ns = bpf_ktime_get_ns();
	e->kind = kind;
	e->cpu = bpf_get_smp_processor_id();
	e->orig_cpu = e->cpu;
	e->score = BURST_TR_NO_SCORE;
	return e;
}

/* Never wakes the recorder: it drains on its own every 100 ms. */
static void submit(struct burst_trace_event *e)
{
	bpf_ringbuf_submit(e, BPF_RB_NO_WAKEUP);
}

/* comm is NUL-terminated within its 16 bytes: copied whole, no scan. */
static void fill_task(struct burst_trace_event *e, struct task_struct *p)
{
	e->pid = p->pid;
	e->tgid = p->tgid;
	e->prio = p->static_prio - 120;
	bpf_probe_read_kernel(e->comm, sizeof(e->comm), p->comm);
}

SEC("tp_btf/sched_switch")
int BPF_PROG(burst_tr_switch, bool preempt, struct task_struct *prev,
	     struct task_struct *next, unsigned int prev_state)
{
	struct burst_trace_event *e = reserve(BURST_TR_SWITCH);
	struct burst_task_ctx *tctx;

	if (!e)
		return 0;
	fill_task(e, next);
	e->prev_pid = prev->pid;
	/* A preempted task stays runnable whatever state it had set. */
	e->prev_state = preempt ? 0 : prev_state;
	e->target_cpu = e->cpu;
	bpf_probe_read_kernel(e->prev_comm, sizeof(e->prev_comm), prev->comm);
	/* Under another scheduler the lookup is left out at load. */
	tctx = with_scores ? bpf_task_storage_get(&task_ctxs, next, 0, 0) : NULL;
	if (tctx) {
		e->score = tctx->score;
		if (key_policy == BURST_POLICY_BURST)
			e->key = tctx->vtime;
		else if (key_policy == BURST_POLICY_DEADLINE)
			e->key = tctx->deadline;
	}
	submit(e);
	return 0;
}

static int wakeup(struct task_struct *p, u32 kind)
{
	struct burst_trace_event *e = reserve(kind);

	if (!e)
		return 0;
	fill_task(e, p);
	e->target_cpu = p->thread_info.cpu;
	submit(e);
	return 0;
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(burst_tr_wakeup, struct task_struct *p)
{
	return wakeup(p, BURST_TR_WAKEUP);
}

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(burst_tr_wakeup_new, struct task_struct *p)
{
	return wakeup(p, BURST_TR_WAKEUP_NEW);
}

SEC("tp_btf/sched_migrate_task")
int BPF_PROG(burst_tr_migrate, struct task_struct *p, int dest_cpu)
{
	struct burst_trace_event *e = reserve(BURST_TR_MIGRATE);

	if (!e)
		return 0;
	fill_task(e, p);
	e->orig_cpu = p->thread_info.cpu;
	e->target_cpu = dest_cpu;
	submit(e);
	return 0;
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(burst_tr_exit, struct task_struct *p)
{
	struct burst_trace_event *e = reserve(BURST_TR_EXIT);

	if (!e)
		return 0;
	fill_task(e, p);
	e->target_cpu = e->cpu;
	submit(e);
	return 0;
}
