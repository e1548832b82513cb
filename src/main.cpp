// SPDX-License-Identifier: GPL-2.0
// scx_burst: parse the command line and hand over to the daemon.
// The design is described at the top of bpf/scx_burst.bpf.c.
// Every way out goes through exit_code.hpp: one line on stderr for an
// error, and one of its exit codes.
#include <exception>

#include <CLI/CLI.hpp>

#include "scx_burst/ctl_client.hpp"
#include "scx_burst/daemon.hpp"
#include "scx_burst/exit_code.hpp"
#include "scx_burst/log.hpp"
#include "scx_burst/options.hpp"
#include "scx_burst/trace_record.hpp"
#include "scx_burst/version.hpp"

namespace {

int run(int argc, char **argv)
{
	scx_burst::Options opts;
	scx_burst::CtlCommand ctl;
	scx_burst::trace::TraceOptions trace;
	CLI::App app{"scx_burst: a sched_ext scheduler that orders tasks by "
		     "burst time (BORE) or BFS virtual deadlines.\n"
		     "Design notes: bpf/scx_burst.bpf.c (top of file), docs/.",
		     "scx_burst"};

	app.set_version_flag("-V,--version", scx_burst::version_line());
	CLI::App *ctl_cmd = scx_burst::add_options(app, opts, ctl);
	CLI::App *trace_cmd = scx_burst::trace::add_trace_command(app, trace);
	try {
		app.parse(argc, argv);
	} catch (const CLI::ParseError &e) {
		return scx_burst::parse_exit(app, e);
	}
	opts.args.assign(argv + 1, argv + argc);	// SIGHUP parses them again

	scx_burst::setup_logging(opts.verbose);
	if (ctl_cmd->parsed())
		return scx_burst::run_ctl(opts, ctl);
	if (trace_cmd->parsed())
		return scx_burst::trace::run_trace(opts, trace);
	if (opts.monitor_s > 0)
		return scx_burst::run_monitor(opts);
	return scx_burst::run_daemon(opts);
}

}  // namespace

int main(int argc, char **argv)
{
	scx_burst::setup_logging(0);
	try {
		return run(argc, argv);
	} catch (const std::exception &e) {
		return scx_burst::fail_with(e.what());
	}
}
