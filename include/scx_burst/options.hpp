// SPDX-License-Identifier: GPL-2.0
// Command-line options of scx_burst (the tunables come from their table).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "sysfs.hpp"
#include "tunables.hpp"

namespace scx_burst {

struct Options {
	burst_tunables tunables = default_tunables();	// tunables_table.h
	double stats_interval_s = 1.0;	// 0: no stats
	bool json = false;
	bool debug_tasks = false;
	int verbose = 0;
	uint32_t exit_dump_len = 0;	// 0: the kernel's default
	std::string ctl_socket = "/run/scx_burst/ctl.sock";
	std::string primary_domain = "all";	// mask, CPU list or keyword
	double monitor_s = 0;		// >0: only watch a running daemon
	double debug_error_after_s = 0;	// >0: BPF raises an error this late (tests)
	std::string debug_compat;	// compat shims forced to their fallback
	std::string sched_ext_root = kSchedExtRoot;	// tests: a fake one
};

// `scx_burst ctl ...`: a request to a running daemon.
struct CtlCommand {
	std::string verb;			// get, set, stats, stats_meta, raw
	std::vector<std::string> assignments;	// for set: key=value
};

// Registers every option on @app, with the range checks, and the ctl
// subcommand; returns the subcommand.
CLI::App *add_options(CLI::App &app, Options &opts, CtlCommand &ctl);

}  // namespace scx_burst
