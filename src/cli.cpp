// SPDX-License-Identifier: GPL-2.0
#include "scx_burst/options.hpp"

namespace scx_burst {

int policy_from_name(const std::string &name)
{
	if (name == "burst")
		return BURST_POLICY_BURST;
	if (name == "deadline")
		return BURST_POLICY_DEADLINE;
	return -1;
}

const char *policy_name(uint32_t policy)
{
	switch (policy) {
	case BURST_POLICY_BURST:
		return "burst";
	case BURST_POLICY_DEADLINE:
		return "deadline";
	default:
		return "unknown";
	}
}

CLI::App *add_options(CLI::App &app, Options &o, CtlCommand &ctl)
{
	app.add_option("--policy", o.policy,
		       "burst: BORE burst-scored vtime; deadline: BFS virtual deadlines")
		->check(CLI::IsMember({"burst", "deadline"}))
		->capture_default_str();
	app.add_option("-s,--slice-us", o.slice_us, "burst policy time slice (us)")
		->check(CLI::Range((uint64_t)BURST_MIN_SLICE_US, (uint64_t)BURST_MAX_SLICE_US))
		->capture_default_str();
	app.add_option("--rr-interval-ms", o.rr_interval_ms,
		       "deadline policy time slice, BFS rr_interval (ms)")
		->check(CLI::Range((uint32_t)BURST_MIN_RR_INTERVAL_MS, (uint32_t)BURST_MAX_RR_INTERVAL_MS))
		->capture_default_str();
	app.add_option("--burst-penalty-offset", o.burst_penalty_offset,
		       "log2(ns) of burst tolerated before any penalty")
		->check(CLI::Range((uint32_t)0, (uint32_t)BURST_MAX_PENALTY_OFFSET))
		->capture_default_str();
	app.add_option("--burst-penalty-scale", o.burst_penalty_scale,
		       "score steps per doubling of burst, x1024")
		->check(CLI::Range((uint32_t)0, (uint32_t)BURST_MAX_PENALTY_SCALE))
		->capture_default_str();
	app.add_option("--burst-smoothness", o.burst_smoothness,
		       "burst history averaging: a new burst weighs 2^-N")
		->check(CLI::Range((uint32_t)0, (uint32_t)BURST_MAX_SMOOTHNESS))
		->capture_default_str();
	app.add_option("--preempt-margin", o.preempt_margin,
		       "burst score gap a waking task needs to preempt")
		->check(CLI::Range((uint32_t)0, (uint32_t)BURST_MAX_PREEMPT_MARGIN))
		->capture_default_str();
	app.add_flag("--no-burst", o.no_burst,
		     "ignore burst scores: plain weighted vtime");
	app.add_option("--stats", o.stats_interval_s,
		       "print per-CPU stats every SECONDS (0: off)")
		->check(CLI::Range(0.0, 3600.0))
		->capture_default_str();
	app.add_flag("--json", o.json, "stats as one JSON object per line");
	app.add_flag("--debug-tasks", o.debug_tasks,
		     "add every task's burst score to the stats");
	app.add_option("--exit-dump-len", o.exit_dump_len,
		       "bytes of kernel debug dump kept on an error exit (0: default)")
		->check(CLI::Range((uint32_t)0, (uint32_t)BURST_EXIT_DUMP_MAX))
		->capture_default_str();
	app.add_flag("-v,--verbose", o.verbose, "more logs (twice: libbpf debug)");
	app.add_option("--primary-domain", o.primary_domain,
		       "CPUs that take work first, others only on overflow: hex mask "
		       "(0x00fff), CPU list (0-5,12) or all|performance|powersave|auto")
		->capture_default_str();
	app.add_option("--overflow-hold-us", o.overflow_hold_us,
		       "how long the primary domain must stay saturated before overflowing")
		->check(CLI::Range((uint64_t)0, (uint64_t)BURST_MAX_OVERFLOW_HOLD_US))
		->capture_default_str();
	app.add_option("--ctl-socket", o.ctl_socket,
		       "control socket of the daemon (mode 0600)")
		->capture_default_str();
	app.add_option("--monitor", o.monitor_s,
		       "stream a running daemon's stats every SECONDS; loads nothing")
		->check(CLI::Range(0.05, 3600.0));

	CLI::App *sub = app.add_subcommand(
		"ctl", "talk to a running daemon: get | set key=value... | stats | "
		       "stats_meta | raw 'JSON'");
	sub->fallthrough();	/* ctl stats --json, ctl get --ctl-socket P */
	sub->add_option("verb", ctl.verb, "get, set, stats, stats_meta or raw")
		->required()
		->check(CLI::IsMember({"get", "set", "stats", "stats_meta", "raw"}));
	sub->add_option("assignments", ctl.assignments,
			"for set: policy=deadline rr_interval_ms=4 ...; for raw: one request line");
	return sub;
}

burst_tunables make_tunables(const Options &o)
{
	burst_tunables t{};
	t.policy = policy_from_name(o.policy) < 0 ? BURST_POLICY_BURST :
						    policy_from_name(o.policy);
	t.burst_enabled = !o.no_burst;
	t.slice_ns = o.slice_us * 1000ULL;
	t.rr_interval_ns = o.rr_interval_ms * 1000000ULL;
	t.burst_penalty_offset = o.burst_penalty_offset;
	t.burst_penalty_scale = o.burst_penalty_scale;
	t.burst_smoothness = o.burst_smoothness;
	t.preempt_margin = o.preempt_margin;
	t.overflow_hold_ns = o.overflow_hold_us * 1000ULL;
	return t;
}

}  // namespace scx_burst
