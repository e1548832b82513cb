/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Interface shared by the scx_burst BPF scheduler and its C++ daemon.
 *
 * Fixed-width types only, constants as enums, no bool in shared structs:
 * both sides read the same bytes from the skeleton's .data/.bss and maps,
 * and the _Static_asserts below catch a layout drift at build time.
 */
#ifndef SCX_BURST_INTF_H
#define SCX_BURST_INTF_H

#if defined(__bpf__)
/* vmlinux.h provides u8..u64, s32, s64 */
#define BURST_STATIC_ASSERT _Static_assert
#else
#include <stdint.h>
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;
#ifdef __cplusplus
#define BURST_STATIC_ASSERT static_assert
#else
#define BURST_STATIC_ASSERT _Static_assert
#endif
#endif

enum burst_consts {
	BURST_MAX_CPUS		= 512,	/* sizes of per-CPU tables */
	BURST_MAX_LLCS		= 64,	/* sizes of per-LLC tables */
	BURST_CPUMASK_WORDS	= BURST_MAX_CPUS / 64,
	BURST_EXIT_REASON_LEN	= 128,
	BURST_EXIT_MSG_LEN	= 1024,
	BURST_EXIT_DUMP_MAX	= 65536,
};

/* Scheduling policies; switchable at runtime through burst_tunables. */
enum burst_policy {
	BURST_POLICY_BURST	= 0,	/* BORE burst-scored weighted vtime */
	BURST_POLICY_DEADLINE	= 1,	/* BFS virtual deadlines */
	BURST_NR_POLICIES	= 2,
};

/*
 * Dispatch queues.  Every queue exists once per policy so that switching
 * policy never mixes two key spaces (vtime vs absolute deadline) in one
 * ordered queue; the queues of the policy that is no longer active are
 * drained first by ops.dispatch.
 *
 *   id = kind << 28 | policy << 24 | index
 *
 * LLC queues take tasks that may run on several CPUs (with a primary
 * domain: the queues of the domain's LLCs take the tasks that may use
 * it); CPU queues take tasks that may run on one CPU only, and the
 * synchronous wakees waiting for that CPU (pick_sync_cpu()); outside
 * queues (per LLC) take the tasks whose affinity excludes the primary
 * domain, and are served by that LLC's CPUs outside the domain.
 */
enum burst_dsq_kind {
	BURST_DSQ_LLC		= 1,
	BURST_DSQ_CPU		= 2,
	BURST_DSQ_OUTSIDE	= 3,
};

#define BURST_DSQ_ID(kind, policy, index) \
	(((u64)(kind) << 28) | ((u64)(policy) << 24) | (u64)(index))

/*
 * Runtime tunables, one u64 per entry of tunables_table.h.  They live in
 * the BPF program's .data section, which the daemon maps and writes while
 * the scheduler runs: never rodata.  The daemon validates every value
 * against the table's limits before writing, and writes field by field
 * (each an aligned 8-byte store that BPF sees whole).
 */
struct burst_tunables {
#define BURST_TUNABLE(key, field, kind, scale, dfl, min, max, cli, help) u64 field;
#include "tunables_table.h"
#undef BURST_TUNABLE
};

enum burst_tunable_idx {
#define BURST_TUNABLE(key, field, kind, scale, dfl, min, max, cli, help) BURST_TUNABLE_##key,
#include "tunables_table.h"
#undef BURST_TUNABLE
	BURST_NR_TUNABLES,
};

/*
 * The primary domain the daemon asks for: a bitmap of CPUs (none set: no
 * domain).  The daemon writes it into .bss and runs the burst_set_domain
 * syscall program, which turns it into the cpumask the scheduler uses.
 */
struct burst_domain_req {
	u64 bits[BURST_CPUMASK_WORDS];
	u32 nr_cpus;			/* CPUs set in bits */
	u32 pad;
};

/* Why and how the scheduler left, copied from the kernel in ops.exit. */
struct burst_exit_info {
	s32 kind;			/* enum scx_exit_kind, 0 while running */
	u32 dump_len;			/* bytes valid in exit_dump[] */
	s64 exit_code;			/* SCX_ECODE_* bits or scx_bpf_exit() code */
	char reason[BURST_EXIT_REASON_LEN];
	char msg[BURST_EXIT_MSG_LEN];
};

/*
 * Per-task state, in task local storage.  The daemon reads it by pidfd for
 * --debug-tasks.
 */
struct burst_task_ctx {
	u64 burst_ns;		/* CPU time since the task last slept/yielded */
	u64 prev_burst_ns;	/* smoothed history of earlier bursts */
	u64 queued_at;		/* when it last became runnable or was queued */
	u64 vtime;		/* burst-policy virtual time */
	u64 deadline;		/* deadline-policy virtual deadline */
	u64 slice_left_ns;	/* deadline-policy remaining slice */
	u64 last_charge;	/* when run time was last accounted */
	u64 nr_runs;		/* times the task started running */
	u64 run_ns;		/* total CPU time accounted */
	u64 slept_at;		/* when it last went to sleep; 0: awake */
	u32 score;		/* burst score 0..39 */
	u32 flags;		/* BURST_TASK_* */
	s32 sync_wakee;		/* pid it last woke with SCX_WAKE_SYNC; 0: none */
	u32 pad;
};

enum burst_task_flags {
	BURST_TASK_PINNED	= 1 << 0,	/* may run on one CPU only */
	BURST_TASK_IDLE_CLASS	= 1 << 1,	/* SCHED_IDLE */
	BURST_TASK_BATCH	= 1 << 2,	/* SCHED_BATCH */
	BURST_TASK_RESCUED	= 1 << 3,	/* moved by the wait bound's rescue, not run yet */
};

/* Slots of the per-CPU stats array, from the one stats table. */
enum burst_stat_idx {
#define BURST_STAT(name, kind, group, label, desc) BURST_STAT_##name,
#include "stats_table.h"
#undef BURST_STAT
	BURST_NR_STATS,
};

/*
 * How a slot combines: SUM slots only grow (readers take differences),
 * MAX slots hold the largest value seen in the current stats epoch.
 */
enum burst_stat_kind {
	BURST_STAT_KIND_SUM	= 0,
	BURST_STAT_KIND_MAX	= 1,
};

/* Bit i set: slot i is a MAX slot. */
static const u64 burst_stat_max_mask = 0ULL
#define BURST_STAT(name, kind, group, label, desc) \
	| ((u64)BURST_STAT_KIND_##kind << BURST_STAT_##name)
#include "stats_table.h"
#undef BURST_STAT
	;
BURST_STATIC_ASSERT(BURST_NR_STATS <= 64, "burst_stat_max_mask has 64 bits");

/*
 * The value of the per-CPU stats map.  @epoch is the stats_epoch (set by
 * the daemon, in .bss) that this CPU's MAX slots belong to: the first MAX
 * update in a newer epoch zeroes them, so a reader that bumps the epoch
 * after each read gets per-interval maxima without writing the map.
 */
struct burst_stats {
	u64 cnt[BURST_NR_STATS];
	u64 epoch;
	u64 steps_now;	/* steps of the hot callback running on this CPU */
};

/*
 * Kernel interfaces with more than one form (compat_table.h): the BPF
 * side records the form each shim uses in compat_form[]; the daemon sets
 * bit BURST_COMPAT_<id> of compat_skip_new to force the fallback.
 */
enum burst_compat_id {
#define BURST_COMPAT(id, ...) BURST_COMPAT_##id,
#include "compat_table.h"
#undef BURST_COMPAT
	BURST_NR_COMPAT,
};

enum burst_compat_form {
	BURST_FORM_NONE		= 0,	/* not chosen yet (before ops.init) */
	BURST_FORM_NEW		= 1,
	BURST_FORM_OLD		= 2,
	BURST_FORM_LEGACY	= 3,	/* the 6.12 name */
};

BURST_STATIC_ASSERT(BURST_NR_COMPAT <= 64, "compat_skip_new has 64 bits");

BURST_STATIC_ASSERT(sizeof(struct burst_tunables) == 8 * BURST_NR_TUNABLES,
		    "burst_tunables: one u64 per table entry");
BURST_STATIC_ASSERT(sizeof(struct burst_domain_req) == 8 * BURST_CPUMASK_WORDS + 8,
		    "burst_domain_req layout");
BURST_STATIC_ASSERT(sizeof(struct burst_exit_info) == 16 + 128 + 1024,
	       "burst_exit_info layout");
BURST_STATIC_ASSERT(sizeof(struct burst_task_ctx) == 96, "burst_task_ctx layout");

#endif /* SCX_BURST_INTF_H */
