/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one table of the columns the daemon derives from the counters of
 * stats_table.h; the BPF side never sees them.
 *
 * BURST_RATIO(name, group, "label", numerator, denominator, "meaning") is
 * the ratio of two counters of the same row (0 when the denominator is 0).
 * The daemon shows it after the counters, with two decimals in the table
 * (the short label) and as a number in JSON (the name); stats_meta
 * describes it as "numerator / denominator", the man page as the two
 * labels and the meaning.  Derived columns neither add up nor take a
 * maximum: readers that check totals go by stats_table.h alone.  Add a
 * column here and every output picks it up.  No include guard on purpose:
 * include it with BURST_RATIO defined.
 */
BURST_RATIO(avg_score, burst, "avg_sc", score_sum, runs, "the average burst score")
BURST_RATIO(select_steps_per_call,   steps, "sel/c", select_steps, select_calls, "steps per ops.select_cpu call")
BURST_RATIO(enqueue_steps_per_call,  steps, "enq/c", enqueue_steps, enqueue_calls, "steps per ops.enqueue call")
BURST_RATIO(dispatch_steps_per_call, steps, "dsp/c", dispatch_steps, dispatch_calls, "steps per ops.dispatch call")
