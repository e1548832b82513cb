// SPDX-License-Identifier: GPL-2.0
#include "scx_burst/options.hpp"

#include "scx_burst/ctl.hpp"

namespace scx_burst {

CLI::App *add_options(CLI::App &app, Options &o, CtlCommand &ctl)
{
	add_tunable_options(app, o.tunables);
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
	app.add_option("--ctl-socket", o.ctl_socket,
		       "control socket of the daemon (mode 0600)")
		->capture_default_str();
	app.add_option("--monitor", o.monitor_s,
		       "stream a running daemon's stats every SECONDS; loads nothing")
		->check(CLI::Range(0.05, 3600.0));

	app.add_option("--debug-error-after", o.debug_error_after_s,
		       "debug: make the BPF side raise scx_bpf_error() SECONDS after "
		       "loading, to test the error exit")
		->check(CLI::Range(0.001, 3600.0))
		->group("Debug");
	app.add_option("--debug-compat", o.debug_compat,
		       "debug: use the older form of these kernel interfaces where the "
		       "kernel still has it (all, or a comma-separated list of "
		       "dsq-insert, dsq-peek, ...; docs/kernels.md)")
		->group("Debug");
	app.add_option("--debug-sched-ext-root", o.sched_ext_root,
		       "debug: read sched_ext's state from DIR instead, to test the "
		       "refusals without the kernel's")
		->capture_default_str()
		->group("Debug");

	// The verbs are the protocol's requests (ctl_requests()) and raw.
	std::vector<std::string> verbs;
	std::string verb_help;
	for (const auto &r : ctl_requests()) {
		verbs.push_back(r.name);
		verb_help += std::string(r.name) + (r.takes_assignments ? " key=value..." : "") +
			     " (" + r.help + "); ";
	}
	verbs.push_back("raw");
	verb_help += "raw 'JSON' (one request line, as is)";
	CLI::App *sub = app.add_subcommand("ctl", "talk to a running daemon: " + verb_help);
	sub->fallthrough();	/* ctl stats --json, ctl get --ctl-socket P */
	sub->add_option("verb", ctl.verb, "the request")
		->required()
		->check(CLI::IsMember(verbs));
	sub->add_option("assignments", ctl.assignments,
			"for set: policy=deadline rr_interval_ms=4 ...; for raw: one request line");
	return sub;
}

}  // namespace scx_burst
