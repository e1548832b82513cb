/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one table of scx_burst's per-CPU counters.
 *
 * BURST_STAT(name, SUM, kind, group, "label", "description") is expanded by the
 * BPF side into enum burst_stat_idx (the slots of the stats PERCPU_ARRAY)
 * and by the daemon into its table columns (the short label), JSON keys
 * (the name) and stats_meta descriptions.  kind is SUM (a counter: readers
 * take differences, totals add up) or MAX (the largest value of the
 * interval: totals take the largest CPU's).  Add a counter here and both
 * sides pick it up.  No include guard on purpose: include it with
 * BURST_STAT defined.
 *
 * Counters are per CPU and only ever incremented by the CPU that owns the
 * slot, so nothing is written to a cache line shared between CPUs.
 */
BURST_STAT(enqueue,          SUM, core,     "enq",     "tasks queued by ops.enqueue")
BURST_STAT(direct,           SUM, core,     "direct",  "tasks inserted straight into a local queue (idle CPU or per-CPU kthread)")
BURST_STAT(dispatch_pin,     SUM, core,     "d_pin",   "tasks this CPU took from its own queue (tasks pinned to it, synchronous wakees waiting for it)")
BURST_STAT(dispatch_shared,  SUM, core,     "d_llc",   "tasks this CPU took from its LLC's shared queue")
BURST_STAT(dispatch_steal,   SUM, core,     "d_steal", "tasks this CPU pulled from another LLC's queue")
BURST_STAT(warm_pick,        SUM, core,     "warm",    "of d_llc: tasks taken ahead of the queue's head because they last ran on this CPU (policy.h, warm pick)")
BURST_STAT(dispatch_drain,   SUM, core,     "d_drain", "tasks taken from the queues of the previously active policy")
BURST_STAT(keep_running,     SUM, core,     "keep",    "times the running task kept the CPU because nothing else was queued")
BURST_STAT(wake_sync,        SUM, core,     "w_sync",  "synchronous wakeups placed on the waker's CPU or the wakee's idle previous CPU in the waker's LLC")
BURST_STAT(wake_home,        SUM, core,     "w_home",  "synchronous wakeups queued on the waker's CPU's own queue: it could not take the wakee at once and no CPU was idle")
BURST_STAT(idle_pick,        SUM, core,     "idle",    "wakeups placed on an idle CPU")
BURST_STAT(kick_idle,        SUM, core,     "kick",    "idle CPUs woken to run a queued task")
BURST_STAT(preempt_handoff,  SUM, core,     "pre_ho",  "of pre_sc and pre_dl: preempting wakeups handed the CPU they preempt (its local queue), their key within one slice of key of its queues' heads")
BURST_STAT(runs,             SUM, core,     "runs",    "times a task started running")
BURST_STAT(run_ns,           SUM, core,     "run_ms",  "nanoseconds tasks ran on this CPU (shown in ms in the table)")
BURST_STAT(preempt_score,    SUM, burst,    "pre_sc",  "wakeup preemptions won by a lower burst score")
BURST_STAT(runs_scored,      SUM, burst,    "scored",  "runs of tasks with a non-zero burst score")
BURST_STAT(score_sum,        SUM, burst,    "sc_sum",  "sum of burst scores at run (score_sum / runs = average score)")
BURST_STAT(deadline_renew,   SUM, deadline, "dl_new",  "deadlines renewed after a used-up slice")
BURST_STAT(preempt_deadline, SUM, deadline, "pre_dl",  "wakeup preemptions won by an earlier deadline")
BURST_STAT(idle_class_runs,  SUM, deadline, "idle_cl", "runs of SCHED_IDLE tasks under the deadline policy")
BURST_STAT(domain_place,     SUM, domain,   "in_dom",  "tasks placed on an idle CPU of the primary domain")
BURST_STAT(overflow_place,   SUM, domain,   "ovfl",    "tasks run outside the primary domain because it was saturated")
BURST_STAT(saturation,       SUM, domain,   "sat",     "primary domain saturation episodes (overflow switched on)")
BURST_STAT(cpu_hotplug,      SUM, core,     "hotplug", "CPUs that went offline or came online while the scheduler ran (ops.cpu_offline, ops.cpu_online)")
BURST_STAT(hotplug_moved,    SUM, core,     "hp_move", "tasks moved from the queues of an offline CPU, or of an LLC with no CPU online, to the kernel's global queue")
BURST_STAT(core_move,        SUM, core,     "core_mv", "tasks moved off a CPU whose SMT sibling is busy to a fully idle core")
BURST_STAT(requeued,         SUM, core,     "requeue", "tasks a higher sched class (or core scheduling) preempted that the kernel gave back to ops.enqueue (SCX_ENQ_REENQ; compat_table.h, enq-immed and reenq-local)")
BURST_STAT(bounced,          SUM, core,     "bounce",  "tasks inserted to run in a local queue whose CPU turned out taken, given back to ops.enqueue before they ran")
BURST_STAT(rescue,           SUM, wait,     "rescue",  "tasks run ahead of the queue order because they had waited half of max_wait_ms (counted when they start running)")
BURST_STAT(max_wait_us,      MAX, wait,     "maxw_us", "longest runnable wait seen on this CPU in the interval, in us (waits that ended here, and still-running waits seen by the age check)")
BURST_STAT(select_calls,       SUM, steps, "c_sel",   "ops.select_cpu calls")
BURST_STAT(select_steps,       SUM, steps, "s_sel",   "steps ops.select_cpu took (queue looks, cpumask searches; policy.h, BURST_STEPS_MAX_SELECT)")
BURST_STAT(select_steps_max,   MAX, steps, "w_sel",   "most steps one ops.select_cpu call took in the interval")
BURST_STAT(enqueue_calls,      SUM, steps, "c_enq",   "ops.enqueue calls")
BURST_STAT(enqueue_steps,      SUM, steps, "s_enq",   "steps ops.enqueue took (cpumask searches, preemption victims; policy.h, BURST_STEPS_MAX_ENQUEUE)")
BURST_STAT(enqueue_steps_max,  MAX, steps, "w_enq",   "most steps one ops.enqueue call took in the interval")
BURST_STAT(dispatch_calls,     SUM, steps, "c_dsp",   "ops.dispatch calls")
BURST_STAT(dispatch_steps,     SUM, steps, "s_dsp",   "steps ops.dispatch took (queue peeks and moves, cpumask searches; policy.h, BURST_STEPS_MAX_DISPATCH)")
BURST_STAT(dispatch_steps_max, MAX, steps, "w_dsp",   "most steps one ops.dispatch call took in the interval")
