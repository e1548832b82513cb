// SPDX-License-Identifier: GPL-2.0
// Command-line options of scx_burst and their conversion to BPF tunables.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "policy.h"

namespace scx_burst {

struct Options {
	std::string policy = "burst";
	uint64_t slice_us = BURST_DFL_SLICE_US;
	uint32_t rr_interval_ms = BURST_DFL_RR_INTERVAL_MS;
	uint32_t burst_penalty_offset = BURST_DFL_PENALTY_OFFSET;
	uint32_t burst_penalty_scale = BURST_DFL_PENALTY_SCALE;
	uint32_t burst_smoothness = BURST_DFL_SMOOTHNESS;
	uint32_t preempt_margin = BURST_DFL_PREEMPT_MARGIN;
	bool no_burst = false;
	double stats_interval_s = 1.0;	// 0: no stats
	bool json = false;
	bool debug_tasks = false;
	int verbose = 0;
	uint32_t exit_dump_len = 0;	// 0: the kernel's default
	std::string ctl_socket = "/run/scx_burst/ctl.sock";
	std::string primary_domain = "all";	// mask, CPU list or keyword
	uint64_t overflow_hold_us = BURST_DFL_OVERFLOW_HOLD_US;
	double monitor_s = 0;		// >0: only watch a running daemon
};

// `scx_burst ctl ...`: a request to a running daemon.
struct CtlCommand {
	std::string verb;			// get, set, stats, stats_meta, raw
	std::vector<std::string> assignments;	// for set: key=value
};

// Registers every option on @app, with the range checks, and the ctl
// subcommand; returns the subcommand.
CLI::App *add_options(CLI::App &app, Options &opts, CtlCommand &ctl);

// Policy name <-> enum burst_policy; -1 for an unknown name.
int policy_from_name(const std::string &name);
const char *policy_name(uint32_t policy);

// The tunables the BPF side runs with for @opts.
burst_tunables make_tunables(const Options &opts);

}  // namespace scx_burst
