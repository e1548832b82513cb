/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers and kernel-version shims for scx_burst's BPF side.
 *
 * Kfunc prototypes come from vmlinux.h (bpftool >= 7.5 emits them, all
 * __weak, so a kfunc missing from the running kernel resolves to NULL and
 * can be tested with bpf_ksym_exists()).  Each shim names the kernel it is
 * for.
 */
#ifndef SCX_BURST_COMPAT_BPF_H
#define SCX_BURST_COMPAT_BPF_H

/* Not in vmlinux.h: these are #defines in the kernel. */
#define SCHED_BATCH		3
#define SCHED_IDLE		5
#define PF_EXITING		0x00000004
#define PF_KTHREAD		0x00200000
#define ENOENT			2
#define ENOMEM			12
#define CLOCK_MONOTONIC		1

#define BPF_STRUCT_OPS(name, args...)					\
	SEC("struct_ops/" #name) BPF_PROG(name, ##args)
#define BPF_STRUCT_OPS_SLEEPABLE(name, args...)				\
	SEC("struct_ops.s/" #name) BPF_PROG(name, ##args)

/* u64 time comparison that survives wrap-around (kernel time_before()). */
static __always_inline bool time_before(u64 a, u64 b)
{
	return (s64)(a - b) < 0;
}

/* A const cpumask view of a bpf_cpumask (what the kfuncs take). */
static __always_inline const struct cpumask *cast_mask(struct bpf_cpumask *m)
{
	return (const struct cpumask *)m;
}

/* bpf_for() and bpf_ksym_exists() come from libbpf's bpf_helpers.h. */

/*
 * BURST_BSTR(CALL, fmt, args...): CALL, an expression that may use
 * ___fmt (the format) and ___param/sizeof(___param) (the arguments as
 * the kernel's *_bstr kfuncs take them).
 */
#define BURST_BSTR(call, fmt, args...)					\
	({								\
		static char ___fmt[] = fmt;				\
		unsigned long long ___param[___bpf_narg(args)];		\
		_Pragma("GCC diagnostic push")				\
		_Pragma("GCC diagnostic ignored \"-Wint-conversion\"")	\
		___bpf_fill(___param, args);				\
		_Pragma("GCC diagnostic pop")				\
		call;							\
	})

/*
 * scx_bpf_error(fmt, args...): format into the kernel's exit message and
 * abort the scheduler (scx_bpf_error_bstr, 6.12+).
 */
#define scx_bpf_error(fmt, args...)					\
	BURST_BSTR(scx_bpf_error_bstr(___fmt, ___param, sizeof(___param)), \
		   fmt, ##args)

/*
 * scx_bpf_exit(code, fmt, args...): end the scheduler with @code in the
 * exit record (scx_bpf_exit_bstr, 6.12+); SCX_ECODE_ACT_RESTART in @code
 * makes the daemon load it again.
 */
#define scx_bpf_exit(code, fmt, args...)				\
	BURST_BSTR(scx_bpf_exit_bstr(code, ___fmt, ___param,		\
				     sizeof(___param)), fmt, ##args)

/*
 * Kernel-version shims, one per entry of compat_table.h (which names the
 * kernels and commits).  Each has a compat_form_<ID>() that picks the
 * form from what the running kernel has (bpf_ksym_exists(), resolved by
 * libbpf at load) and from compat_skip_new (read-only data): both are
 * constants to the verifier, so it only walks the chosen form and a
 * kfunc the kernel lacks is never called.  ops.init records every
 * choice in compat_form[] for the daemon's load report.
 *
 * The extern names carry a ___burst flavour where vmlinux.h (7.2) lacks
 * the kfunc or declares it with another prototype: libbpf strips the
 * last ___suffix and binds the kernel function of that name.
 */

/* Set by the daemon (--debug-compat): bit BURST_COMPAT_<ID> skips that
 * shim's new form, so kernels that still have the fallback run it. */
const volatile u64 compat_skip_new;
/* enum burst_compat_form per shim, written by ops.init. */
u8 compat_form[BURST_NR_COMPAT];

extern int LINUX_KERNEL_VERSION __kconfig;

static __always_inline bool compat_new_ok(enum burst_compat_id id)
{
	return !(compat_skip_new & (1ULL << id));
}

/* 6.19+ returns bool; 6.12 names (dropped in 6.17). */
extern bool scx_bpf_dsq_insert___v2___burst(struct task_struct *p, u64 dsq_id,
					    u64 slice, u64 enq_flags) __ksym __weak;
extern void scx_bpf_dispatch___burst(struct task_struct *p, u64 dsq_id,
				     u64 slice, u64 enq_flags) __ksym __weak;
extern void scx_bpf_dispatch_vtime___burst(struct task_struct *p, u64 dsq_id,
					   u64 slice, u64 vtime,
					   u64 enq_flags) __ksym __weak;
extern bool scx_bpf_dsq_move_to_local___v2___burst(u64 dsq_id,
						   u64 enq_flags) __ksym __weak;
extern bool scx_bpf_consume___burst(u64 dsq_id) __ksym __weak;
extern bool scx_bpf_dispatch_from_dsq___burst(struct bpf_iter_scx_dsq *it__iter,
					      struct task_struct *p, u64 dsq_id,
					      u64 enq_flags) __ksym __weak;
extern void scx_bpf_dispatch_from_dsq_set_slice___burst(struct bpf_iter_scx_dsq *it__iter,
							u64 slice) __ksym __weak;
/* 6.19+, deferred (libbpf would read the bare ___v2 as a flavour) */
extern void scx_bpf_reenqueue_local___v2___burst(void) __ksym __weak;

static __always_inline u8 compat_form_INSERT(void)
{
	if (compat_new_ok(BURST_COMPAT_INSERT) &&
	    bpf_ksym_exists(scx_bpf_dsq_insert___v2___burst))
		return BURST_FORM_NEW;
	if (bpf_ksym_exists(scx_bpf_dsq_insert))
		return BURST_FORM_OLD;
	return BURST_FORM_LEGACY;
}

/* Queue @p on a FIFO DSQ (or a local one). */
static __always_inline void burst_dsq_insert(struct task_struct *p, u64 dsq_id,
					     u64 slice, u64 enq_flags)
{
	switch (compat_form_INSERT()) {
	case BURST_FORM_NEW:
		scx_bpf_dsq_insert___v2___burst(p, dsq_id, slice, enq_flags);
		break;
	case BURST_FORM_OLD:
		scx_bpf_dsq_insert(p, dsq_id, slice, enq_flags);
		break;
	default:
		scx_bpf_dispatch___burst(p, dsq_id, slice, enq_flags);
	}
}

static __always_inline u8 compat_form_INSERT_VTIME(void)
{
	if (compat_new_ok(BURST_COMPAT_INSERT_VTIME) &&
	    bpf_ksym_exists(__scx_bpf_dsq_insert_vtime))
		return BURST_FORM_NEW;
	if (bpf_ksym_exists(scx_bpf_dsq_insert_vtime))
		return BURST_FORM_OLD;
	return BURST_FORM_LEGACY;
}

/* Queue @p on an ordered DSQ at @vtime. */
static __always_inline void burst_dsq_insert_vtime(struct task_struct *p,
						   u64 dsq_id, u64 slice,
						   u64 vtime, u64 enq_flags)
{
	struct scx_bpf_dsq_insert_vtime_args args = {
		.dsq_id = dsq_id, .slice = slice, .vtime = vtime,
		.enq_flags = enq_flags,
	};

	switch (compat_form_INSERT_VTIME()) {
	case BURST_FORM_NEW:
		__scx_bpf_dsq_insert_vtime(p, &args);
		break;
	case BURST_FORM_OLD:
		scx_bpf_dsq_insert_vtime(p, dsq_id, slice, vtime, enq_flags);
		break;
	default:
		scx_bpf_dispatch_vtime___burst(p, dsq_id, slice, vtime, enq_flags);
	}
}

static __always_inline u8 compat_form_MOVE_TO_LOCAL(void)
{
	if (compat_new_ok(BURST_COMPAT_MOVE_TO_LOCAL) &&
	    bpf_ksym_exists(scx_bpf_dsq_move_to_local___v2___burst))
		return BURST_FORM_NEW;
	if (bpf_ksym_exists(scx_bpf_dsq_move_to_local))
		return BURST_FORM_OLD;
	return BURST_FORM_LEGACY;
}

static __always_inline u8 compat_form_ENQ_IMMED(void)
{
	if (compat_new_ok(BURST_COMPAT_ENQ_IMMED) &&
	    bpf_core_enum_value_exists(enum scx_enq_flags, SCX_ENQ_IMMED))
		return BURST_FORM_NEW;
	return BURST_FORM_OLD;
}

/*
 * A task of ours that a higher sched class (real-time, deadline, stop)
 * preempts must not wait at the head of that CPU's local queue, out of
 * every other CPU's reach, until the CPU comes back.  The new form:
 * SCX_ENQ_IMMED, for every insert into a local queue that means "run
 * now" on a CPU that is free; such a task runs there at once or goes
 * back through ops.enqueue (SCX_ENQ_REENQ), also when it is preempted
 * later in that run.  The fallback: 0, and ops.cpu_release hands the
 * local queue back where the kernel has the deferred re-enqueue
 * (burst_reenq_released(), 6.19-7.0); before 6.19 the task waits for the
 * CPU.
 */
static __always_inline u64 burst_enq_immed(void)
{
	if (compat_form_ENQ_IMMED() == BURST_FORM_NEW)
		return bpf_core_enum_value(enum scx_enq_flags, SCX_ENQ_IMMED);
	return 0;
}

static __always_inline u8 compat_form_REENQ_LOCAL(void)
{
	if (compat_new_ok(BURST_COMPAT_REENQ_LOCAL) &&
	    bpf_ksym_exists(scx_bpf_reenqueue_local___v2___burst))
		return BURST_FORM_NEW;
	return BURST_FORM_OLD;
}

/*
 * Whether ops.cpu_release re-enqueues: on kernels without SCX_ENQ_IMMED
 * that have the deferred re-enqueue (6.19-7.0).  The daemon leaves
 * ops.cpu_release out where this is false (wants_cpu_release(),
 * kernel_check.hpp: the same rule on the expected forms).
 */
static __always_inline bool burst_reenq_on_release(void)
{
	return compat_form_ENQ_IMMED() == BURST_FORM_OLD &&
	       compat_form_REENQ_LOCAL() == BURST_FORM_NEW;
}

/*
 * A higher sched class took this CPU (ops.cpu_release): the tasks in its
 * local queue, the one it preempted first, back to ops.enqueue
 * (SCX_ENQ_REENQ, counted as requeued), once the kernel has switched to
 * the higher class's task.  Deferred, so the preempted task is no longer
 * current, nor migration-disabled by this callback's trampoline, and the
 * kernel does not put it straight back in the same local queue.  A task
 * that waited there without running yet keeps its wait (reenq_unrun()).
 * Once per loss of the CPU (the kernel calls ops.cpu_release again only
 * once sched_ext has had the CPU back); a task put in that local queue
 * later (a per-CPU kthread) waits for the CPU as it must.
 */
static __always_inline void burst_reenq_released(void)
{
	if (burst_reenq_on_release())
		scx_bpf_reenqueue_local___v2___burst();
}

/* Run the head of @dsq_id next on this CPU; false if it was empty.
 * @enq_flags reach the kernel in the newest form only. */
static __always_inline bool burst_dsq_move_to_local(u64 dsq_id, u64 enq_flags)
{
	switch (compat_form_MOVE_TO_LOCAL()) {
	case BURST_FORM_NEW:
		return scx_bpf_dsq_move_to_local___v2___burst(dsq_id, enq_flags);
	case BURST_FORM_OLD:
		return scx_bpf_dsq_move_to_local(dsq_id);
	default:
		return scx_bpf_consume___burst(dsq_id);
	}
}

static __always_inline u8 compat_form_DSQ_MOVE(void)
{
	if (compat_new_ok(BURST_COMPAT_DSQ_MOVE) &&
	    bpf_ksym_exists(scx_bpf_dsq_move))
		return BURST_FORM_NEW;
	return BURST_FORM_OLD;
}

/* The iterator of the innermost bpf_for_each() (libbpf names it ___it). */
#define BPF_FOR_EACH_ITER	(&___it)

/* The slice the next burst_dsq_move() of @it gives its task. */
static __always_inline void burst_dsq_move_set_slice(struct bpf_iter_scx_dsq *it,
						     u64 slice)
{
	if (compat_form_DSQ_MOVE() == BURST_FORM_NEW)
		scx_bpf_dsq_move_set_slice(it, slice);
	else
		scx_bpf_dispatch_from_dsq_set_slice___burst(it, slice);
}

/* Move the task an scx_dsq iteration is at to another DSQ. */
static __always_inline bool burst_dsq_move(struct bpf_iter_scx_dsq *it,
					   struct task_struct *p, u64 dsq_id,
					   u64 enq_flags)
{
	if (compat_form_DSQ_MOVE() == BURST_FORM_NEW)
		return scx_bpf_dsq_move(it, p, dsq_id, enq_flags);
	return scx_bpf_dispatch_from_dsq___burst(it, p, dsq_id, enq_flags);
}

static __always_inline u8 compat_form_PEEK(void)
{
	if (compat_new_ok(BURST_COMPAT_PEEK) &&
	    bpf_ksym_exists(scx_bpf_dsq_peek) &&
	    LINUX_KERNEL_VERSION >= KERNEL_VERSION(7, 1, 0))
		return BURST_FORM_NEW;
	return BURST_FORM_OLD;
}

/* Head of a DSQ without removing it: the lock-less peek, or the first
 * element of an iteration. */
static __always_inline struct task_struct *burst_dsq_peek(u64 dsq_id)
{
	struct bpf_iter_scx_dsq it;
	struct task_struct *p = NULL;

	if (compat_form_PEEK() == BURST_FORM_NEW)
		return scx_bpf_dsq_peek(dsq_id);
	if (!bpf_iter_scx_dsq_new(&it, dsq_id, 0))
		p = bpf_iter_scx_dsq_next(&it);
	bpf_iter_scx_dsq_destroy(&it);
	return p;
}

static __always_inline u8 compat_form_NOW(void)
{
	if (compat_new_ok(BURST_COMPAT_NOW) && bpf_ksym_exists(scx_bpf_now))
		return BURST_FORM_NEW;
	return BURST_FORM_OLD;
}

/* The rq clock: cheaper than bpf_ktime_get_ns() and consistent within a
 * scheduling event. */
static __always_inline u64 burst_now(void)
{
	if (compat_form_NOW() == BURST_FORM_NEW)
		return scx_bpf_now();
	return bpf_ktime_get_ns();
}

static __always_inline u8 compat_form_SET_SLICE(void)
{
	if (compat_new_ok(BURST_COMPAT_SET_SLICE) &&
	    bpf_ksym_exists(scx_bpf_task_set_slice))
		return BURST_FORM_NEW;
	return BURST_FORM_OLD;
}

/* Set the running task's remaining slice. */
static __always_inline void burst_set_slice(struct task_struct *p, u64 slice)
{
	if (compat_form_SET_SLICE() == BURST_FORM_NEW)
		scx_bpf_task_set_slice(p, slice);
	else
		p->scx.slice = slice;
}

/* For ops.init: record the form of every shim. */
static __always_inline void compat_record_forms(void)
{
#define BURST_COMPAT(id, ...) compat_form[BURST_COMPAT_##id] = compat_form_##id();
#include <scx_burst/compat_table.h>
#undef BURST_COMPAT
}

#endif /* SCX_BURST_COMPAT_BPF_H */
