// SPDX-License-Identifier: GPL-2.0
// What a recording says happened, built once from its events
// (trace_analyse.cpp) and drawn or summed by every output: which task ran
// on each CPU when, when each task ran and waited, its wakeup latencies,
// the number of running and waiting tasks over time and the moments
// when work waited while an online CPU was idle.  Times are ns of
// CLOCK_MONOTONIC, as recorded.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "scx_burst/trace.hpp"

namespace scx_burst::trace {

// Something that lasted from start to end (end exclusive).
struct Interval {
	uint64_t start = 0, end = 0;
	uint64_t length() const { return end - start; }
};

// A task running on a CPU.  score/key as the switch that started it
// carried them (BURST_TR_NO_SCORE, 0 when not known, e.g. already
// running when the recording began).
struct Slice {
	Interval at;
	int cpu = 0;
	size_t task = 0;	// index into Model::tasks
	uint32_t score = BURST_TR_NO_SCORE;
	uint64_t key = 0;
};

// Why a task waited (was runnable and not running).
enum class WaitCause {
	Wakeup,		// sched_wakeup / sched_wakeup_new
	Preempted,	// switched out while still runnable
	AtStart,	// already waiting when the recording began
};

struct Wait {
	Interval at;
	WaitCause cause = WaitCause::Wakeup;
	bool ended = true;	// false: still waiting when the recording ended
};

struct Task {
	int pid = 0;
	int tgid = 0;		// 0 when never seen in an event that carries it
	std::string comm;	// last seen, non-printable bytes as '?'
	std::vector<size_t> slices;	// indices into Model::slices, in time order
	std::vector<Wait> waits;	// in time order
	std::vector<uint64_t> latencies;	// wakeup -> switch-in, ns, in order
	uint64_t wakeups = 0;		// wakeups while not running or waiting
	uint64_t migrations = 0;	// sched_migrate_task events
	bool exited = false;
	uint64_t exit_ns = 0;
	uint64_t run_ns = 0;		// sum of its slices
	uint64_t wait_ns = 0;		// sum of its waits
};

struct Cpu {
	int cpu = 0;
	bool online = false;		// in the header's online_mask
	std::vector<size_t> slices;	// indices into Model::slices, in time order
	uint64_t busy_ns = 0;		// sum of its slices
	uint64_t idle_waited_ns = 0;	// idle while some task waited
};

// Running and waiting tasks from @ts until the next step.
struct CountStep {
	uint64_t ts = 0;
	int running = 0;
	int waiting = 0;
};

struct Model {
	Interval span;			// the recording, widened to its events
	std::string scheduler;
	uint64_t nr_events = 0;
	uint64_t lost_events = 0;
	uint64_t offline_cpu_events = 0;	// events from CPUs not in online_mask
	std::vector<Cpu> cpus;		// online CPUs and CPUs seen, by number
	std::vector<Task> tasks;	// by pid, then by first appearance
	std::vector<Slice> slices;	// all CPUs, ordered by end time
	std::vector<CountStep> counts;	// one step per timestamp that changes them
	std::vector<Interval> idle_waited;	// merged, in time order
	bool has_scores = false;	// some slice carries a burst score

	uint64_t idle_waited_ns() const;
};

Model build_model(const Recording &rec);

// A comparator of indices: the largest @key first, equal keys by index,
// so that an order is the same on every run.
template <typename Key>
auto most_first(Key key)
{
	return [key](size_t a, size_t b) {
		const auto ka = key(a), kb = key(b);
		return ka != kb ? ka > kb : a < b;
	};
}

// The p-th percentile (nearest rank) of @sorted, 0 if empty.
uint64_t percentile(const std::vector<uint64_t> &sorted, double p);

// The tasks the filter selects, by the order of Model::tasks.
std::vector<size_t> selected_tasks(const Model &m, const Filter &filter);

// The SVG pictures (trace_svg.cpp), each a complete document.
std::string cpus_svg(const Model &m);
std::string running_waiting_svg(const Model &m);
// @tasks: the curves to draw (already chosen and capped).
std::string latency_svg(const Model &m, const std::vector<size_t> &tasks);

}  // namespace scx_burst::trace
