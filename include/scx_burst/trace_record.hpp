// SPDX-License-Identifier: GPL-2.0
// `scx_burst trace`: record scheduling events with BPF (bpf/trace.bpf.c)
// for a while, then write what trace.hpp makes of them; or, with --from,
// make it again from a saved events.bin without recording.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "error.hpp"
#include "options.hpp"
#include "trace.hpp"

namespace scx_burst::trace {

struct TraceOptions {
	double duration_s = 10;
	std::string out_dir = "scx_burst-trace";
	Filter filter;
	// The ring buffer between BPF and the recorder: a power of two, at
	// least a page.  Sized for ~0.1 s of events of a busy 64-CPU machine.
	uint32_t ringbuf_kb = 16384;
	// Events kept at most (88 bytes each): 1M is 84 MiB (about twice
	// that at peak: the vector's growth, the sort), 200 s of a busy 4-CPU
	// machine; the recording ends early when it is reached.
	uint64_t max_events = 1000000;
	std::string from;	// re-analyse this events.bin, record nothing
};

// Registers `trace` and its options on @app; returns the subcommand.
CLI::App *add_trace_command(CLI::App &app, TraceOptions &t);

// Runs `trace`: returns an exit code of exit_code.hpp.  @opts gives the
// daemon's control socket (asked for its policy under scx_burst).
int run_trace(const Options &opts, const TraceOptions &t);

}  // namespace scx_burst::trace
