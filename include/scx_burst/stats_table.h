/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one table of scx_burst's per-CPU counters.
 *
 * BURST_STAT(name, group, "label", "description") is expanded by the BPF
 * side into enum burst_stat_idx (the slots of the stats PERCPU_ARRAY) and
 * by the daemon into its table columns (the short label), JSON keys (the
 * name) and stats_meta descriptions.  Add a counter here and both sides
 * pick it up.  No include guard on purpose: include it with BURST_STAT
 * defined.
 *
 * Counters are per CPU and only ever incremented by the CPU that owns the
 * slot, so nothing is written to a cache line shared between CPUs.
 */
BURST_STAT(enqueue,          core,     "enq",     "tasks queued by ops.enqueue")
BURST_STAT(direct,           core,     "direct",  "tasks inserted straight into a local queue (idle CPU or per-CPU kthread)")
BURST_STAT(dispatch_local,   core,     "d_pin",   "tasks this CPU took from its own pinned-task queue")
BURST_STAT(dispatch_shared,  core,     "d_llc",   "tasks this CPU took from its LLC's shared queue")
BURST_STAT(dispatch_steal,   core,     "d_steal", "tasks this CPU pulled from another LLC's queue")
BURST_STAT(dispatch_drain,   core,     "d_drain", "tasks taken from the queues of the previously active policy")
BURST_STAT(keep_running,     core,     "keep",    "times the running task kept the CPU because nothing else was queued")
BURST_STAT(idle_pick,        core,     "idle",    "wakeups placed on an idle CPU")
BURST_STAT(kick_idle,        core,     "kick",    "idle CPUs woken to run a queued task")
BURST_STAT(runs,             core,     "runs",    "times a task started running")
BURST_STAT(run_ns,           core,     "run_ms",  "nanoseconds tasks ran on this CPU (shown in ms in the table)")
BURST_STAT(preempt_score,    burst,    "pre_sc",  "wakeup preemptions won by a lower burst score")
BURST_STAT(runs_scored,      burst,    "scored",  "runs of tasks with a non-zero burst score")
BURST_STAT(score_sum,        burst,    "sc_sum",  "sum of burst scores at run (score_sum / runs = average score)")
BURST_STAT(deadline_renew,   deadline, "dl_new",  "deadlines renewed after a used-up slice")
BURST_STAT(preempt_deadline, deadline, "pre_dl",  "wakeup preemptions won by an earlier deadline")
BURST_STAT(idle_class_runs,  deadline, "idle_cl", "runs of SCHED_IDLE tasks under the deadline policy")
BURST_STAT(domain_place,     domain,   "in_dom",  "tasks placed on an idle CPU of the primary domain")
BURST_STAT(overflow_place,   domain,   "ovfl",    "tasks run outside the primary domain because it was saturated")
BURST_STAT(saturation,       domain,   "sat",     "primary domain saturation episodes (overflow switched on)")
