/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One scheduling event of `scx_burst trace`, as the tracer's BPF programs
 * (bpf/trace.bpf.c) write it to the ring buffer and as the recording file
 * (events.bin) stores it; the analyser (trace outputs: trace.json, the SVG
 * pictures, summary.json) reads only this.  Fixed-width fields, no padding
 * holes: the same bytes on both sides, checked by the asserts below.
 *
 * events.bin = struct burst_trace_file_header, then
 *              header.nr_events x struct burst_trace_event, ordered by ts_ns.
 */
#ifndef SCX_BURST_TRACE_EVENT_H
#define SCX_BURST_TRACE_EVENT_H

#include "intf.h"

enum burst_trace_kind {
	BURST_TR_SWITCH		= 1,	/* sched_switch: prev -> next on cpu */
	BURST_TR_WAKEUP		= 2,	/* sched_wakeup: pid became runnable, target_cpu */
	BURST_TR_WAKEUP_NEW	= 3,	/* sched_wakeup_new: a new task, target_cpu */
	BURST_TR_MIGRATE	= 4,	/* sched_migrate_task: pid orig_cpu -> target_cpu */
	BURST_TR_EXIT		= 5,	/* sched_process_exit (thread exit) */
};

enum burst_trace_consts {
	BURST_TR_COMM_LEN	= 16,
	BURST_TR_NO_SCORE	= 0xffffffffu,	/* score not known (not scx_burst) */
	BURST_TR_FILE_VERSION	= 1,
};

/* "SCXBTRC1" little-endian */
#define BURST_TR_FILE_MAGIC 0x3143525442584353ull

struct burst_trace_event {
	u64 ts_ns;		/* CLOCK_MONOTONIC (bpf_ktime_get_ns) */
	u64 key;		/* switch: next's vtime/deadline under scx_burst, else 0 */
	u32 kind;		/* enum burst_trace_kind */
	u32 cpu;		/* CPU the event was seen on */
	s32 pid;		/* switch: next; wakeup*, migrate, exit: the task */
	s32 prev_pid;		/* switch: prev; else 0 */
	s32 tgid;		/* thread group of pid */
	u32 prev_state;		/* switch: 0 = prev still runnable (preempted) */
	u32 target_cpu;		/* wakeup*: where it will run; migrate: dest */
	u32 orig_cpu;		/* migrate: source; else cpu */
	u32 score;		/* switch: next's burst score 0..39, or BURST_TR_NO_SCORE */
	s32 prio;		/* switch: next's static_prio - 120 (nice); wakeup: woken's */
	char comm[BURST_TR_COMM_LEN];		/* pid's comm */
	char prev_comm[BURST_TR_COMM_LEN];	/* switch: prev's comm */
};

struct burst_trace_file_header {
	u64 magic;		/* BURST_TR_FILE_MAGIC */
	u32 version;		/* BURST_TR_FILE_VERSION */
	u32 nr_cpus;		/* possible CPUs when recorded */
	u64 start_ns;		/* CLOCK_MONOTONIC when recording began */
	u64 end_ns;		/* ... and ended */
	u64 nr_events;		/* events that follow */
	u64 lost_events;	/* ring buffer reservations that failed */
	u64 online_mask[BURST_CPUMASK_WORDS];	/* CPUs online during the recording */
	char scheduler[64];	/* "EEVDF" or the sched_ext ops name */
};

BURST_STATIC_ASSERT(sizeof(struct burst_trace_event) == 88, "burst_trace_event layout");
BURST_STATIC_ASSERT(sizeof(struct burst_trace_file_header) == 48 + 8 * BURST_CPUMASK_WORDS + 64,
		    "burst_trace_file_header layout");

#endif /* SCX_BURST_TRACE_EVENT_H */
