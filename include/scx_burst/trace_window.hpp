// SPDX-License-Identifier: GPL-2.0
// The events a `scx_burst trace` recording keeps (trace_record.cpp): those
// of its window [start_ns, end_ns], and at most max_events of them, so the
// recorder's memory (88 bytes an event) and the outputs stay bounded
// whatever --duration says.  Pure, unit-tested (trace_window_test.cpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "trace_event.h"

namespace scx_burst::trace {

struct EventWindow {
	uint64_t start_ns = 0;
	uint64_t end_ns = UINT64_MAX;
	uint64_t max_events = UINT64_MAX;
	// the earliest event of the window refused because max_events were
	// kept already; UINT64_MAX: none
	uint64_t first_refused_ns = UINT64_MAX;
	std::vector<burst_trace_event> events;

	// An event as the ring buffer hands it over: records arrive almost,
	// not exactly, in time order (one ring for all CPUs).
	void add(const burst_trace_event &e)
	{
		if (e.ts_ns < start_ns || e.ts_ns > end_ns)
			return;
		if (events.size() < max_events)
			events.push_back(e);
		else
			first_refused_ns = std::min(first_refused_ns, e.ts_ns);
	}

	// Whether the cap refused an event: the recording should stop.
	bool full() const { return first_refused_ns != UINT64_MAX; }

	// The events of the window sorted by time, and its end: end_ns, or
	// at the cap just before the earliest refused event, with the kept
	// events after it dropped, so that every event of the window's span
	// is in it (none refused), as without the cap.
	std::vector<burst_trace_event> finish(uint64_t &end)
	{
		std::stable_sort(events.begin(), events.end(),
				 [](const auto &a, const auto &b) { return a.ts_ns < b.ts_ns; });
		end = end_ns;
		if (full())	// never before the start (a refused event at start_ns)
			end = std::max(std::min(end, first_refused_ns ? first_refused_ns - 1 : 0),
				       start_ns);
		auto cut = std::upper_bound(events.begin(), events.end(), end,
					    [](uint64_t t, const auto &e) { return t < e.ts_ns; });
		events.erase(cut, events.end());
		return std::move(events);
	}
};

// One drain of the ring buffer.  libbpf's ring_buffer__consume() returns
// only once the ring is empty, so a recorder slower than the events (a
// loaded machine, its own share of a CPU under hogs) drained for as long
// as they came: --duration, the signals and the cap were looked at only
// after it, and a 4 s recording ran 74 s (the bench's 4-vCPU boot, 48
// hogs).  The recorder's callback asks after every event whether to go
// on: every check_every events this looks at the clock and says stop once
// until_ns has come; the recording loop then looks at everything again.
// Pure (the clock is passed in), unit-tested (trace_window_test.cpp).
struct DrainLimit {
	uint64_t until_ns = UINT64_MAX;
	uint32_t check_every = 256;	// a clock read costs more than an event
	uint32_t since_check = 0;

	template <class Clock> bool go_on(Clock &&now_ns)
	{
		if (++since_check < check_every)
			return true;
		since_check = 0;
		return now_ns() < until_ns;
	}
};

}  // namespace scx_burst::trace
