/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one table of scx_burst's runtime tunables.
 *
 * BURST_TUNABLE(key, field, kind, scale, dfl, min, max, cli, help)
 *
 *   key    protocol name (`ctl get/set`, docs); its unit is in the name
 *   field  the u64 in struct burst_tunables that BPF reads
 *   kind   UINT (a number), BOOL (on by default; the CLI flag turns it
 *          off), POLICY (a name of enum burst_policy)
 *   scale  field = value * scale (1000 turns a key in us into ns)
 *   dfl, min, max   in the key's unit; min/max bound `ctl set` and the CLI
 *   cli    the command-line flag(s), CLI11 syntax
 *   help   one line for --help, the docs table and stats_meta
 *
 * Expanded by intf.h into struct burst_tunables, by the BPF program into
 * its defaults, and by the daemon (tunables.hpp) into its CLI options,
 * `ctl get/set` with range checks, the whole-struct copy into the running
 * program and the docs table (tunables_markdown(), checked against
 * docs/tunables.md by a unit test).  Add a tunable here, then use its
 * field in BPF: nothing else.  No include guard on purpose: include it
 * with BURST_TUNABLE defined.
 */
BURST_TUNABLE(policy, policy, POLICY, 1, BURST_POLICY_BURST, 0, BURST_NR_POLICIES - 1,
	      "--policy", "burst: BORE burst-scored vtime; deadline: BFS virtual deadlines")
BURST_TUNABLE(burst_enabled, burst_enabled, BOOL, 1, 1, 0, 1,
	      "--no-burst", "burst scores order tasks (--no-burst: plain weighted vtime, BORE's sched_bore=0)")
BURST_TUNABLE(deadline_burst, deadline_burst, BOOL, 1, 1, 0, 1,
	      "--no-deadline-burst", "deadline policy: scale deadline offsets by burst score 1/8..1 (--no-deadline-burst: BFS's offsets)")
BURST_TUNABLE(slice_us, slice_ns, UINT, 1000, 5000, 100, 100000,
	      "-s,--slice-us", "burst policy time slice (us); an answer to a synchronous wakeup sooner than this is no sleep (docs/policies.md)")
BURST_TUNABLE(rr_interval_ms, rr_interval_ns, UINT, 1000000, 6, 1, 1000,
	      "--rr-interval-ms", "deadline policy time slice, BFS rr_interval (ms)")
BURST_TUNABLE(burst_penalty_offset, burst_penalty_offset, UINT, 1, 18, 0, 64,
	      "--burst-penalty-offset", "log2(ns) of burst tolerated before any penalty")
BURST_TUNABLE(burst_penalty_scale, burst_penalty_scale, UINT, 1, 1292, 0, 4096,
	      "--burst-penalty-scale", "score steps per doubling of burst, x1024")
BURST_TUNABLE(burst_smoothness, burst_smoothness, UINT, 1, 1, 0, BURST_MAX_SMOOTHNESS,
	      "--burst-smoothness", "burst history averaging: a new burst weighs 2^-N")
BURST_TUNABLE(burst_reset_us, burst_reset_ns, UINT, 1000, 50000, 1, 10000000,
	      "--burst-reset-us", "a sleep this long ends the burst; a shorter one only if it lasted a quarter of the burst, else it shrinks it (us; 1: every sleep ends it, BORE's rule; see docs/policies.md)")
BURST_TUNABLE(preempt_margin, preempt_margin, UINT, 1, 3, 0, 39,
	      "--preempt-margin", "burst score gap a waking task needs to preempt")
BURST_TUNABLE(overflow_hold_us, overflow_hold_ns, UINT, 1000, 5000, 0, 1000000,
	      "--overflow-hold-us", "how long the primary domain stays saturated before it overflows (us)")
BURST_TUNABLE(max_wait_ms, max_wait_ns, UINT, 1000000, 1000, 50, 10000,
	      "--max-wait-ms", "bound on how long a runnable task waits: older ones run ahead of the queue order (ms)")
