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

/* Compiler barrier: BPF has no fence instruction. */
#define barrier()	asm volatile("" ::: "memory")

/*
 * scx_bpf_error(fmt, args...): format into the kernel's exit message and
 * abort the scheduler (scx_bpf_error_bstr, 6.12+).
 */
#define scx_bpf_error(fmt, args...)					\
	({								\
		static char ___fmt[] = fmt;				\
		unsigned long long ___param[___bpf_narg(args)];		\
		_Pragma("GCC diagnostic push")				\
		_Pragma("GCC diagnostic ignored \"-Wint-conversion\"")	\
		___bpf_fill(___param, args);				\
		_Pragma("GCC diagnostic pop")				\
		scx_bpf_error_bstr(___fmt, ___param, sizeof(___param));	\
	})

/*
 * Head of a DSQ without removing it.  scx_bpf_dsq_peek() appeared in
 * 6.19; before that, the first element of a DSQ iteration (6.12+).
 */
static __always_inline struct task_struct *burst_dsq_peek(u64 dsq_id)
{
	struct bpf_iter_scx_dsq it;
	struct task_struct *p;

	if (bpf_ksym_exists(scx_bpf_dsq_peek))
		return scx_bpf_dsq_peek(dsq_id);

	if (bpf_iter_scx_dsq_new(&it, dsq_id, 0)) {
		bpf_iter_scx_dsq_destroy(&it);
		return NULL;
	}
	p = bpf_iter_scx_dsq_next(&it);
	bpf_iter_scx_dsq_destroy(&it);
	return p;
}

/*
 * scx_bpf_now() (6.14) is the rq clock, cheaper than bpf_ktime_get_ns()
 * and consistent within a scheduling event.
 */
static __always_inline u64 burst_now(void)
{
	if (bpf_ksym_exists(scx_bpf_now))
		return scx_bpf_now();
	return bpf_ktime_get_ns();
}

/*
 * Set the running task's remaining slice.  Kernels with
 * scx_bpf_task_set_slice() (the 7.2 and 7.3 ones tested here) log a
 * deprecation warning for a direct write to p->scx.slice; older ones
 * only have the direct write.
 */
static __always_inline void burst_set_slice(struct task_struct *p, u64 slice)
{
	if (bpf_ksym_exists(scx_bpf_task_set_slice))
		scx_bpf_task_set_slice(p, slice);
	else
		p->scx.slice = slice;
}

/* The iterator of the innermost bpf_for_each() (libbpf names it ___it). */
#define BPF_FOR_EACH_ITER	(&___it)

/*
 * Move the task an scx_dsq iteration is at to another DSQ.
 * scx_bpf_dsq_move() since 6.13 (commit 5cbb302880f5, "sched_ext: Rename
 * scx_bpf_dispatch[_vtime]_from_dsq*() -> scx_bpf_dsq_move[_vtime]*()");
 * 6.12 has the same kfunc as scx_bpf_dispatch_from_dsq().
 */
extern bool scx_bpf_dispatch_from_dsq___compat(struct bpf_iter_scx_dsq *it__iter,
					       struct task_struct *p, u64 dsq_id,
					       u64 enq_flags) __ksym __weak;

extern void scx_bpf_dispatch_from_dsq_set_slice___compat(struct bpf_iter_scx_dsq *it__iter,
							u64 slice) __ksym __weak;

/* The slice the next burst_dsq_move() of @it gives its task (same kernels). */
static __always_inline void burst_dsq_move_set_slice(struct bpf_iter_scx_dsq *it,
						     u64 slice)
{
	if (bpf_ksym_exists(scx_bpf_dsq_move_set_slice))
		scx_bpf_dsq_move_set_slice(it, slice);
	else if (bpf_ksym_exists(scx_bpf_dispatch_from_dsq_set_slice___compat))
		scx_bpf_dispatch_from_dsq_set_slice___compat(it, slice);
}

static __always_inline bool burst_dsq_move(struct bpf_iter_scx_dsq *it,
					   struct task_struct *p, u64 dsq_id,
					   u64 enq_flags)
{
	if (bpf_ksym_exists(scx_bpf_dsq_move))
		return scx_bpf_dsq_move(it, p, dsq_id, enq_flags);
	if (bpf_ksym_exists(scx_bpf_dispatch_from_dsq___compat))
		return scx_bpf_dispatch_from_dsq___compat(it, p, dsq_id, enq_flags);
	return false;
}

#endif /* SCX_BURST_COMPAT_BPF_H */
