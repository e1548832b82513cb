/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel interfaces whose form changed between the kernels scx_burst
 * loads on (Linux 6.12 and later): one entry per shim in bpf/compat.bpf.h.
 * No include guard: include it with BURST_COMPAT defined; each entry
 * expands once.
 *
 *   BURST_COMPAT(id, key, new, new_since, gated, old, old_kernels, legacy, why)
 *
 * id           enum burst_compat_id suffix; bit in compat_skip_new
 * key          name for --debug-compat and the load report
 * new          the newest form, used where the kernel has it (kfuncs or
 *              SCX_ enum values, separated by spaces: all of them)
 * new_since    the first kernel with @new
 * gated        1: @new is used only from @new_since on, even where the
 *              kfunc exists (it was broken before); 0: wherever it exists
 * old          the fallback, used where @new is missing (or, with
 *              --debug-compat, forced); "" means the shim needs no kfunc
 * old_kernels  the kernels the fallback serves
 * legacy       the 6.12 name, used after @old where neither exists
 *              (6.12 only has it; the kernel dropped it in 6.17), or ""
 * why          what changed, with the kernel commit where known
 *
 * The daemon checks before loading that every shim has a form the
 * kernel provides; the BPF side records the form it chose in
 * compat_form[] (enum burst_compat_form) for the load report.
 */
BURST_COMPAT(INSERT, "dsq-insert",
	     "scx_bpf_dsq_insert___v2", "6.19", 0,
	     "scx_bpf_dsq_insert", "6.13-6.18",
	     "scx_bpf_dispatch",
	     "6.19 made insertion report failure (bool); cc26abb1a19a (6.13) "
	     "renamed scx_bpf_dispatch")
BURST_COMPAT(INSERT_VTIME, "dsq-insert-vtime",
	     "__scx_bpf_dsq_insert_vtime", "6.19", 0,
	     "scx_bpf_dsq_insert_vtime", "6.13-6.18",
	     "scx_bpf_dispatch_vtime",
	     "c0d630ba347c (6.19) packs the arguments in a struct; "
	     "cc26abb1a19a (6.13) renamed scx_bpf_dispatch_vtime")
BURST_COMPAT(MOVE_TO_LOCAL, "dsq-move-to-local",
	     "scx_bpf_dsq_move_to_local___v2", "7.1", 0,
	     "scx_bpf_dsq_move_to_local", "6.13-7.0",
	     "scx_bpf_consume",
	     "7.1 added enqueue flags; 5209c03c8ed2 (6.13) renamed "
	     "scx_bpf_consume")
BURST_COMPAT(DSQ_MOVE, "dsq-move",
	     "scx_bpf_dsq_move scx_bpf_dsq_move_set_slice", "6.13", 0,
	     "scx_bpf_dispatch_from_dsq scx_bpf_dispatch_from_dsq_set_slice",
	     "6.12-6.16",
	     "",
	     "5cbb302880f5 (6.13) renamed scx_bpf_dispatch_from_dsq "
	     "(4c30f5ce4f7a, 6.12)")
BURST_COMPAT(PEEK, "dsq-peek",
	     "scx_bpf_dsq_peek", "7.1", 1,
	     "bpf_iter_scx_dsq_new", "6.12-7.0",
	     "",
	     "44f5c8ec5b9a (6.19) added the lock-less peek; before "
	     "2f2ea7709266 (7.1) it can miss the head of a FIFO queue, "
	     "so it is used from 7.1 on only")
BURST_COMPAT(NOW, "now",
	     "scx_bpf_now", "6.14", 0,
	     "", "6.12-6.13",
	     "",
	     "3a9910b5904d (6.14) added the rq clock; before it "
	     "bpf_ktime_get_ns()")
BURST_COMPAT(SET_SLICE, "task-set-slice",
	     "scx_bpf_task_set_slice", "6.19", 0,
	     "", "6.12-6.18",
	     "",
	     "6.19 added the kfunc (and warns on a direct write to "
	     "p->scx.slice); before it the direct write")
BURST_COMPAT(ENQ_IMMED, "enq-immed",
	     "SCX_ENQ_IMMED", "7.1", 0,
	     "", "6.12-7.0",
	     "",
	     "7.1 added SCX_ENQ_IMMED: a task moved to a local queue with it "
	     "runs at once or goes back through ops.enqueue, also when a "
	     "higher sched class preempts it; before it such a task waits "
	     "at the head of that CPU's local queue for the CPU (reenq-local "
	     "hands it back on 6.19-7.0)")
BURST_COMPAT(REENQ_LOCAL, "reenq-local",
	     "scx_bpf_reenqueue_local___v2", "6.19", 0,
	     "", "6.12-6.18",
	     "",
	     "6.19 added a deferred form callable from any callback: where "
	     "enq-immed takes its fallback (6.19-7.0), ops.cpu_release calls "
	     "it, and once the higher class's task runs the kernel hands the "
	     "task it preempted back to ops.enqueue. Before 6.19 nothing: "
	     "scx_bpf_reenqueue_local() runs while that task is still current "
	     "and, on 7.2 at least, migration-disabled by the BPF trampoline "
	     "(CONFIG_PREEMPT_RCU), and puts it back in that local queue")
