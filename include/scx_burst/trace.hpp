// SPDX-License-Identifier: GPL-2.0
// `scx_burst trace`: a recording of scheduling events (events.bin, the
// records of trace_event.h) and what is made of it: trace.json
// (Chrome/Perfetto trace events), cpus.svg, running_waiting.svg,
// latency.svg, summary.json and a summary on stdout.
//
// Recording (trace_record.cpp) needs root and BPF; everything made of a
// recording (trace_analyse.cpp, trace_svg.cpp) is pure and deterministic:
// the same events.bin gives the same bytes, which the unit tests rely on.
#pragma once

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

#include "scx_burst/error.hpp"
#include "scx_burst/trace_event.h"

namespace scx_burst::trace {

struct Recording {
	burst_trace_file_header header{};
	std::vector<burst_trace_event> events;	// ordered by ts_ns
};

// events.bin: header, then header.nr_events records.  Reading refuses a
// bad magic, an unknown version, a truncated file or unordered events
// with one line naming the file and what is wrong.
Result<Recording> read_recording(const std::filesystem::path &file);
Result<void> write_recording(const std::filesystem::path &file, const Recording &rec);

// Which tasks get their own tracks, latency curves and summary rows.  CPU
// tracks, counters and per-CPU figures always cover every task.  Empty =
// every task.
struct Filter {
	std::vector<int> pids;		// pid or tgid
	std::vector<std::string> comms;	// exact comm
	bool matches(int pid, int tgid, const std::string &comm) const;
};

// Everything `trace` writes into @dir (created if missing): trace.json,
// cpus.svg, running_waiting.svg, latency.svg, summary.json; the summary
// table goes to @out.
Result<void> write_outputs(const Recording &rec, const Filter &filter,
			   const std::filesystem::path &dir, std::ostream &out);

}  // namespace scx_burst::trace
