// SPDX-License-Identifier: GPL-2.0
// Command-line options of scx_burst (the tunables come from their table).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "error.hpp"
#include "sysfs.hpp"
#include "tunables.hpp"

namespace scx_burst {

// The config file read when --config names none: /etc/scx_burst/scx_burst.toml
// for an install under /usr (the sysconfdir of the build's prefix).
#ifndef SCX_BURST_CONFIG_FILE
#define SCX_BURST_CONFIG_FILE "/etc/scx_burst/scx_burst.toml"
#endif
inline constexpr const char *kDefaultConfigFile = SCX_BURST_CONFIG_FILE;

struct Options {
	burst_tunables tunables = default_tunables();	// tunables_table.h
	// 0: no stats; left out, 1 when stdout is a terminal and 0 otherwise
	// (a service does not fill the journal with tables).
	double stats_interval_s = 1.0;
	bool json = false;
	bool debug_tasks = false;
	int verbose = 0;
	uint32_t exit_dump_len = 0;	// 0: the kernel's default
	std::string ctl_socket = "/run/scx_burst/ctl.sock";
	std::string primary_domain = "all";	// mask, CPU list or keyword
	double monitor_s = 0;		// >0: only watch a running daemon
	double debug_error_after_s = 0;	// >0: BPF raises an error this late (tests)
	std::string debug_compat;	// compat shims forced to their fallback
	std::string sched_ext_root = SysfsPaths{}.sched_ext;	// tests: a fake one
	// Tests: a fake /sys where domain keywords are resolved (capacities,
	// power profile), with no D-Bus; empty: the system's.
	std::string sysfs_root;
	std::string config_file = kDefaultConfigFile;	// read if it exists
	std::vector<std::string> args;	// the command line, for SIGHUP's re-read
};

// `scx_burst ctl ...`: a request to a running daemon.
struct CtlCommand {
	std::string verb;			// get, set, stats, stats_meta, raw
	std::vector<std::string> assignments;	// for set: key=value
};

// Registers every option on @app, with the range checks, --config (the
// TOML file whose keys are the long option names; the command line
// overrides it) and the ctl subcommand; returns the subcommand.
CLI::App *add_options(CLI::App &app, Options &opts, CtlCommand &ctl);

// Where the daemon resolves domain keywords: the system's, or the tree of
// --debug-sysfs-root.
SysfsPaths domain_paths(const Options &opts);

// Parses @args (the command line without argv[0]) as main() does, the
// config file included: what SIGHUP applies.  The error is CLI11's
// message, as main() prints it ("--slice-us: Value 5 not in range ...").
Result<Options> parse_options(const std::vector<std::string> &args);

// The options a config file sets, as "key = value" lines in the order of
// --help: the tunables (@t) and the primary domain (@domain), the
// settings `ctl save` writes.
std::vector<std::pair<std::string, std::string>> config_settings(const burst_tunables &t,
								  const std::string &domain);

// Writes @settings into the config file @path: a key's line is replaced
// (or its commented-out example uncommented), missing keys are appended,
// comments and other lines are kept.  Atomic (a rename in the same
// directory), which is created if missing.
Result<> save_config(const std::string &path,
		     const std::vector<std::pair<std::string, std::string>> &settings);

}  // namespace scx_burst
