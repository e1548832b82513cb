// SPDX-License-Identifier: GPL-2.0
// From a recording's events to the model (trace_model.hpp), and from the
// model to trace.json, summary.json and the summary table.  Pure: the
// same recording gives the same bytes.
#include "trace_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <ostream>
#include <unordered_map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace scx_burst::trace {

namespace {

using nlohmann::json;

// A recorded string (comm, scheduler name) of at most @max bytes as shown
// everywhere: printable ASCII, anything else as '?', so that JSON and SVG
// never see invalid UTF-8 or control characters.
std::string printable(const char *c, size_t max)
{
	std::string s(c, strnlen(c, max));
	for (char &ch : s)
		if (static_cast<unsigned char>(ch) < 0x20 || static_cast<unsigned char>(ch) > 0x7e)
			ch = '?';
	return s;
}

bool online_in(const burst_trace_file_header &h, uint32_t cpu)
{
	return cpu < BURST_MAX_CPUS && (h.online_mask[cpu / 64] >> (cpu % 64) & 1);
}

bool mask_empty(const burst_trace_file_header &h)
{
	return std::ranges::all_of(h.online_mask, [](uint64_t w) { return w == 0; });
}

// The event state machine: which task each CPU runs, what each task
// is doing, and the slices and waits closed so far.
class Builder {
public:
	explicit Builder(const Recording &rec) : rec_(rec)
	{
		const auto &h = rec.header;
		m_.span = {h.start_ns, h.end_ns};
		if (!rec.events.empty()) {
			m_.span.start = std::min(m_.span.start, rec.events.front().ts_ns);
			m_.span.end = std::max(m_.span.end, rec.events.back().ts_ns);
		}
		m_.scheduler = printable(h.scheduler, sizeof(h.scheduler));
		m_.nr_events = rec.events.size();
		m_.lost_events = h.lost_events;
		const bool all = mask_empty(h);	// no mask recorded: every CPU seen is online
		for (uint32_t c = 0; c < BURST_MAX_CPUS; c++) {
			cpu_[c].online = all ? false : online_in(h, c);
			cpu_[c].present = cpu_[c].online;
		}
		all_online_ = all;
	}

	Model run()
	{
		for (const auto &e : rec_.events)
			event(e);
		finish();
		return std::move(m_);
	}

private:
	enum class St { Unknown, Sleeping, Waiting, Running, Dead };

	struct TaskState {
		St st = St::Unknown;
		int cpu = -1;		// Running: where
		uint64_t since = 0;	// Waiting: since when
		WaitCause cause = WaitCause::Wakeup;
	};

	struct CpuState {
		bool present = false;
		bool online = false;
		bool seen_switch = false;
		uint64_t known_from = 0;	// what it ran is known from here on
		bool busy = false;		// runs cur (else idle or unknown)
		size_t cur = 0;
		uint64_t since = 0;
		uint32_t score = BURST_TR_NO_SCORE;
		uint64_t key = 0;
	};

	size_t task(int pid, int tgid, const char *comm, bool fresh)
	{
		auto it = by_pid_.find(pid);
		if (it == by_pid_.end() || (fresh && state_[it->second].st == St::Dead)) {
			m_.tasks.push_back(Task{.pid = pid});
			state_.emplace_back();
			it = by_pid_.insert_or_assign(pid, m_.tasks.size() - 1).first;
		}
		Task &t = m_.tasks[it->second];
		if (tgid > 0)
			t.tgid = tgid;
		if (comm && comm[0])
			t.comm = printable(comm, BURST_TR_COMM_LEN);
		return it->second;
	}

	void close_slice(int cpu, uint64_t ts)
	{
		CpuState &cs = cpu_[cpu];
		if (!cs.busy)
			return;
		cs.busy = false;
		if (ts > cs.since) {
			m_.slices.push_back(Slice{{cs.since, ts}, cpu, cs.cur, cs.score, cs.key});
			m_.tasks[cs.cur].slices.push_back(m_.slices.size() - 1);
		}
	}

	void close_wait(size_t t, uint64_t ts, bool ended)
	{
		TaskState &s = state_[t];
		if (ts > s.since)
			m_.tasks[t].waits.push_back(Wait{{s.since, ts}, s.cause, ended});
		if (ended && s.cause == WaitCause::Wakeup)
			m_.tasks[t].latencies.push_back(ts - s.since);
	}

	void switch_event(const burst_trace_event &e)
	{
		CpuState &cs = cpu_[e.cpu];
		const uint64_t ts = e.ts_ns;
		if (!cs.seen_switch) {
			cs.seen_switch = true;
			cs.known_from = ts;
			if (e.prev_pid == 0) {
				cs.known_from = m_.span.start;
			} else {
				size_t p = task(e.prev_pid, 0, e.prev_comm, false);
				if (state_[p].st == St::Unknown) {	// running since the start
					cs.known_from = m_.span.start;
					cs.busy = true;
					cs.cur = p;
					cs.since = m_.span.start;
					cs.score = BURST_TR_NO_SCORE;
					cs.key = 0;
					state_[p] = {St::Running, static_cast<int>(e.cpu), 0, {}};
				}
			}
		}
		if (cs.busy) {
			size_t p = cs.cur;
			close_slice(e.cpu, ts);
			TaskState &ps = state_[p];
			if (ps.st == St::Running && ps.cpu == static_cast<int>(e.cpu)) {
				if (m_.tasks[p].exited)
					ps = {St::Dead, -1, 0, {}};
				else if (m_.tasks[p].pid == e.prev_pid && e.prev_state == 0)
					ps = {St::Waiting, -1, ts, WaitCause::Preempted};
				else
					ps = {St::Sleeping, -1, 0, {}};
			}
		}
		if (e.pid == 0)
			return;
		size_t n = task(e.pid, e.tgid, e.comm, false);
		TaskState &ns = state_[n];
		switch (ns.st) {
		case St::Waiting:
			close_wait(n, ts, true);
			break;
		case St::Unknown:	// runnable since before the start
			ns.since = m_.span.start;
			ns.cause = WaitCause::AtStart;
			close_wait(n, ts, true);
			break;
		case St::Running:	// lost the switch-out on the other CPU
			if (ns.cpu != static_cast<int>(e.cpu))
				close_slice(ns.cpu, ts);
			break;
		case St::Sleeping:
		case St::Dead:
			break;
		}
		ns = {St::Running, static_cast<int>(e.cpu), 0, {}};
		cs.busy = true;
		cs.cur = n;
		cs.since = ts;
		cs.score = e.score;
		cs.key = e.key;
		if (e.score != BURST_TR_NO_SCORE)
			m_.has_scores = true;
	}

	void event(const burst_trace_event &e)
	{
		CpuState &cs = cpu_[e.cpu];
		cs.present = true;
		if (all_online_)
			cs.online = true;
		if (!cs.online)
			m_.offline_cpu_events++;
		switch (e.kind) {
		case BURST_TR_SWITCH:
			switch_event(e);
			break;
		case BURST_TR_WAKEUP:
		case BURST_TR_WAKEUP_NEW: {
			if (e.pid == 0)
				break;
			size_t t = task(e.pid, e.tgid, e.comm, e.kind == BURST_TR_WAKEUP_NEW);
			TaskState &s = state_[t];
			if (s.st == St::Running || s.st == St::Waiting || s.st == St::Dead)
				break;
			s = {St::Waiting, -1, e.ts_ns, WaitCause::Wakeup};
			m_.tasks[t].wakeups++;
			break;
		}
		case BURST_TR_MIGRATE:
			if (e.pid != 0)
				m_.tasks[task(e.pid, e.tgid, e.comm, false)].migrations++;
			break;
		case BURST_TR_EXIT:
			if (e.pid != 0) {
				Task &t = m_.tasks[task(e.pid, e.tgid, e.comm, false)];
				t.exited = true;
				t.exit_ns = e.ts_ns;
			}
			break;
		}
	}

	void finish()
	{
		const uint64_t end = m_.span.end;
		for (uint32_t c = 0; c < BURST_MAX_CPUS; c++)
			close_slice(c, end);
		for (size_t t = 0; t < state_.size(); t++)
			if (state_[t].st == St::Waiting)
				close_wait(t, end, false);

		// Tasks by pid, then in order of appearance.
		std::vector<size_t> order(m_.tasks.size());
		for (size_t i = 0; i < order.size(); i++)
			order[i] = i;
		std::ranges::sort(order, {}, [&](size_t i) { return std::pair(m_.tasks[i].pid, i); });
		std::vector<size_t> new_index(order.size());
		std::vector<Task> tasks;
		for (size_t i = 0; i < order.size(); i++) {
			new_index[order[i]] = i;
			tasks.push_back(std::move(m_.tasks[order[i]]));
		}
		m_.tasks = std::move(tasks);
		for (auto &s : m_.slices)
			s.task = new_index[s.task];

		for (uint32_t c = 0; c < BURST_MAX_CPUS; c++)
			if (cpu_[c].present)
				m_.cpus.push_back(Cpu{.cpu = static_cast<int>(c), .online = cpu_[c].online});
		std::vector<int> cpu_index(BURST_MAX_CPUS, -1);
		for (size_t i = 0; i < m_.cpus.size(); i++)
			cpu_index[m_.cpus[i].cpu] = static_cast<int>(i);
		// Slices are stored as they end; each CPU's end in time order.
		for (size_t i = 0; i < m_.slices.size(); i++) {
			const Slice &s = m_.slices[i];
			Cpu &c = m_.cpus[cpu_index[s.cpu]];
			c.slices.push_back(i);
			c.busy_ns += s.at.length();
			m_.tasks[s.task].run_ns += s.at.length();
		}
		for (auto &t : m_.tasks)
			for (const auto &w : t.waits)
				t.wait_ns += w.at.length();
		counts();
	}

	// Running and waiting over time, and idle-while-waiting, swept from
	// the slices, the waits and each online CPU's idle gaps.
	void counts()
	{
		struct Delta {
			uint64_t ts;
			int running, waiting, idle;
		};
		std::vector<Delta> d;
		for (const auto &s : m_.slices) {
			d.push_back({s.at.start, 1, 0, 0});
			d.push_back({s.at.end, -1, 0, 0});
		}
		for (const auto &t : m_.tasks)
			for (const auto &w : t.waits) {
				d.push_back({w.at.start, 0, 1, 0});
				d.push_back({w.at.end, 0, -1, 0});
			}
		// Idle gaps of each online CPU whose state is known.
		std::vector<std::vector<Interval>> idle(m_.cpus.size());
		for (size_t i = 0; i < m_.cpus.size(); i++) {
			const CpuState &cs = cpu_[m_.cpus[i].cpu];
			if (!cs.online || !cs.seen_switch)
				continue;
			uint64_t t = cs.known_from;
			auto gap = [&](uint64_t until) {
				if (until > t) {
					idle[i].push_back({t, until});
					d.push_back({t, 0, 0, 1});
					d.push_back({until, 0, 0, -1});
				}
			};
			for (size_t s : m_.cpus[i].slices) {
				const Slice &sl = m_.slices[s];
				gap(sl.at.start);
				t = std::max(t, sl.at.end);
			}
			gap(m_.span.end);
		}
		std::ranges::sort(d, {}, &Delta::ts);	// a group's sum: order within it is moot

		std::vector<Interval> waited;	// some task waiting
		int running = 0, waiting = 0, idle_cpus = 0;
		bool overload = false;
		uint64_t overload_since = 0;
		m_.counts.push_back({m_.span.start, 0, 0});
		for (size_t i = 0; i < d.size();) {
			const uint64_t ts = d[i].ts;
			const bool had_wait = waiting > 0;
			for (; i < d.size() && d[i].ts == ts; i++) {
				running += d[i].running;
				waiting += d[i].waiting;
				idle_cpus += d[i].idle;
			}
			if (!had_wait && waiting > 0)
				waited.push_back({ts, ts});
			if (had_wait && waiting == 0)
				waited.back().end = ts;
			const bool now = waiting > 0 && idle_cpus > 0;
			if (now && !overload)
				overload_since = ts;
			if (!now && overload)
				m_.idle_waited.push_back({overload_since, ts});
			overload = now;
			CountStep &last = m_.counts.back();
			if (last.running == running && last.waiting == waiting)
				continue;
			if (last.ts == ts)
				last = {ts, running, waiting};
			else
				m_.counts.push_back({ts, running, waiting});
		}
		// Everything ends at the end of the span: no step to zero there.
		if (m_.counts.size() > 1 && m_.counts.back().ts == m_.span.end)
			m_.counts.pop_back();
		// Per CPU: its idle gaps within the times some task waited.
		for (size_t i = 0; i < m_.cpus.size(); i++) {
			size_t w = 0;
			for (const auto &g : idle[i]) {
				while (w < waited.size() && waited[w].end <= g.start)
					w++;
				for (size_t k = w; k < waited.size() && waited[k].start < g.end; k++) {
					uint64_t a = std::max(g.start, waited[k].start);
					uint64_t b = std::min(g.end, waited[k].end);
					if (b > a)
						m_.cpus[i].idle_waited_ns += b - a;
				}
			}
		}
	}

	const Recording &rec_;
	Model m_;
	std::vector<TaskState> state_;			// by index into m_.tasks
	std::unordered_map<int, size_t> by_pid_;	// pid -> its newest task
	std::vector<CpuState> cpu_ = std::vector<CpuState>(BURST_MAX_CPUS);
	bool all_online_ = false;
};

double ms(uint64_t ns)
{
	return static_cast<double>(ns) / 1e6;
}

double us_since(const Model &m, uint64_t ns)
{
	return static_cast<double>(ns - m.span.start) / 1e3;
}

std::string dump(const json &j)
{
	return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

// Track ids of trace.json: CPUs are threads of one process above any
// real pid (PID_MAX_LIMIT is 2^22) so that they never share a track
// with a task.
constexpr int kCpuProcess = 1 << 22;

const char *cause_name(WaitCause c)
{
	switch (c) {
	case WaitCause::Wakeup:
		return "wakeup";
	case WaitCause::Preempted:
		return "preempted";
	case WaitCause::AtStart:
		return "at start";
	}
	return "";
}

json score_json(uint32_t score)
{
	return score == BURST_TR_NO_SCORE ? json(nullptr) : json(score);
}

void write_trace_json(const Model &m, const std::vector<size_t> &sel, std::ostream &o)
{
	bool first = true;
	auto put = [&](const json &j) {
		o << (first ? "\n" : ",\n") << dump(j);
		first = false;
	};
	// traceEvents first and no displayTimeUnit: Perfetto's JSON importer
	// stops at a top-level key it does not know and reads ts in ns, not
	// us, when displayTimeUnit is "ns".
	o << "{\"traceEvents\":[";
	put({{"ph", "M"}, {"name", "process_name"}, {"pid", kCpuProcess}, {"tid", 0},
	     {"args", {{"name", "CPUs"}}}});
	put({{"ph", "M"}, {"name", "process_sort_index"}, {"pid", kCpuProcess}, {"tid", 0},
	     {"args", {{"sort_index", -1}}}});
	for (const auto &c : m.cpus) {
		const int tid = kCpuProcess + c.cpu;
		put({{"ph", "M"}, {"name", "thread_name"}, {"pid", kCpuProcess}, {"tid", tid},
		     {"args", {{"name", fmt::format("CPU {}{}", c.cpu, c.online ? "" : " (offline)")}}}});
		put({{"ph", "M"}, {"name", "thread_sort_index"}, {"pid", kCpuProcess}, {"tid", tid},
		     {"args", {{"sort_index", c.cpu}}}});
		for (size_t i : c.slices) {
			const Slice &s = m.slices[i];
			const Task &t = m.tasks[s.task];
			put({{"ph", "X"}, {"cat", "cpu"}, {"name", t.comm}, {"pid", kCpuProcess},
			     {"tid", tid}, {"ts", us_since(m, s.at.start)},
			     {"dur", static_cast<double>(s.at.length()) / 1e3},
			     {"args", {{"pid", t.pid}, {"comm", t.comm}, {"score", score_json(s.score)},
				       {"key", s.key}}}});
		}
	}
	std::map<int, bool> named;	// processes named so far
	for (size_t ti : sel) {
		const Task &t = m.tasks[ti];
		const int proc = t.tgid > 0 ? t.tgid : t.pid;
		if (!named[proc]) {
			named[proc] = true;
			put({{"ph", "M"}, {"name", "process_name"}, {"pid", proc}, {"tid", proc},
			     {"args", {{"name", fmt::format("tgid {}", proc)}}}});
		}
		put({{"ph", "M"}, {"name", "thread_name"}, {"pid", proc}, {"tid", t.pid},
		     {"args", {{"name", fmt::format("{} {}", t.comm, t.pid)}}}});
		// Runs and waits never overlap: merge them in time order.
		size_t r = 0, w = 0;
		while (r < t.slices.size() || w < t.waits.size()) {
			const bool run = w == t.waits.size() ||
					 (r < t.slices.size() &&
					  m.slices[t.slices[r]].at.start < t.waits[w].at.start);
			if (run) {
				const Slice &s = m.slices[t.slices[r++]];
				put({{"ph", "X"}, {"cat", "task"}, {"name", "running"}, {"pid", proc},
				     {"tid", t.pid}, {"ts", us_since(m, s.at.start)},
				     {"dur", static_cast<double>(s.at.length()) / 1e3},
				     {"args", {{"cpu", s.cpu}, {"score", score_json(s.score)},
					       {"key", s.key}}}});
			} else {
				const Wait &wt = t.waits[w++];
				put({{"ph", "X"}, {"cat", "task"}, {"name", "waiting"}, {"pid", proc},
				     {"tid", t.pid}, {"ts", us_since(m, wt.at.start)},
				     {"dur", static_cast<double>(wt.at.length()) / 1e3},
				     {"args", {{"cause", cause_name(wt.cause)}, {"ended", wt.ended}}}});
			}
		}
		if (t.exited)
			put({{"ph", "i"}, {"cat", "task"}, {"name", "exit"}, {"s", "t"}, {"pid", proc},
			     {"tid", t.pid}, {"ts", us_since(m, t.exit_ns)}});
	}
	for (const auto &c : m.counts)
		put({{"ph", "C"}, {"name", "tasks"}, {"pid", kCpuProcess}, {"ts", us_since(m, c.ts)},
		     {"args", {{"running", c.running}, {"waiting", c.waiting}}}});
	o << "\n],\"otherData\":"
	  << dump({{"scheduler", m.scheduler}, {"lost_events", m.lost_events},
		   {"start_ns", m.span.start}, {"end_ns", m.span.end}})
	  << "}\n";
}

json latency_json(const Task &t)
{
	std::vector<uint64_t> l = t.latencies;
	std::ranges::sort(l);
	return {{"count", l.size()}, {"p50", percentile(l, 50)}, {"p99", percentile(l, 99)},
		{"max", l.empty() ? 0 : l.back()}};
}

json summary_json(const Model &m, const Filter &filter, const std::vector<size_t> &sel)
{
	const uint64_t len = m.span.length();
	json j;
	j["schema"] = 1;
	j["scheduler"] = m.scheduler;
	j["start_ns"] = m.span.start;
	j["end_ns"] = m.span.end;
	j["duration_ns"] = len;
	j["nr_events"] = m.nr_events;
	j["lost_events"] = m.lost_events;
	j["offline_cpu_events"] = m.offline_cpu_events;
	j["has_scores"] = m.has_scores;
	j["filter"] = {{"pids", filter.pids}, {"comms", filter.comms}};

	json cpus = json::array();
	uint64_t busy = 0;
	for (const auto &c : m.cpus) {
		busy += c.busy_ns;
		cpus.push_back({{"cpu", c.cpu}, {"online", c.online}, {"slices", c.slices.size()},
				{"busy_ns", c.busy_ns},
				{"busy_share", len ? static_cast<double>(c.busy_ns) / len : 0.0},
				{"idle_waited_ns", c.idle_waited_ns}});
	}
	j["cpus"] = cpus;

	json tasks = json::array();
	for (size_t i : sel) {
		const Task &t = m.tasks[i];
		tasks.push_back({{"pid", t.pid}, {"tgid", t.tgid}, {"comm", t.comm},
				 {"runtime_ns", t.run_ns}, {"wait_ns", t.wait_ns},
				 {"wakeups", t.wakeups}, {"latency_ns", latency_json(t)},
				 {"migrations", t.migrations}, {"slices", t.slices.size()},
				 {"exited", t.exited},
				 {"exit_ns", t.exited ? json(t.exit_ns) : json(nullptr)}});
	}
	j["tasks"] = tasks;

	std::vector<uint64_t> all_lat;
	uint64_t runtime = 0, wait = 0, wakeups = 0, migrations = 0;
	for (const auto &t : m.tasks) {
		runtime += t.run_ns;
		wait += t.wait_ns;
		wakeups += t.wakeups;
		migrations += t.migrations;
		all_lat.insert(all_lat.end(), t.latencies.begin(), t.latencies.end());
	}
	std::ranges::sort(all_lat);
	j["totals"] = {{"tasks", m.tasks.size()}, {"tasks_shown", sel.size()},
		       {"cpus_online", std::ranges::count_if(m.cpus, &Cpu::online)},
		       {"busy_ns", busy}, {"runtime_ns", runtime}, {"wait_ns", wait},
		       {"wakeups", wakeups}, {"migrations", migrations},
		       {"latency_ns", {{"count", all_lat.size()}, {"p50", percentile(all_lat, 50)},
				       {"p99", percentile(all_lat, 99)},
				       {"max", all_lat.empty() ? 0 : all_lat.back()}}},
		       {"idle_waited_ns", m.idle_waited_ns()}};
	return j;
}

// The table on the out stream: header line, CPUs, the tasks with the most
// runtime (all of them are in summary.json), totals.
constexpr size_t kTableTasks = 20;

void write_table(const Model &m, const json &s, std::ostream &o)
{
	o << fmt::format("scheduler {}, {:.3f} s, {} events, {} lost\n", m.scheduler,
			 ms(m.span.length()) / 1e3, m.nr_events, m.lost_events);
	if (m.offline_cpu_events)
		o << fmt::format("{} events came from CPUs outside the online mask\n",
				 m.offline_cpu_events);
	o << fmt::format("{:>5} {:>7} {:>11} {:>16} {:>8}\n", "cpu", "busy%", "busy_ms",
			 "idle_waited_ms", "slices");
	for (const auto &c : s["cpus"])
		o << fmt::format("{:>5} {:>7.1f} {:>11.3f} {:>16.3f} {:>8}{}\n", c["cpu"].get<int>(),
				 100.0 * c["busy_share"].get<double>(), ms(c["busy_ns"]),
				 ms(c["idle_waited_ns"]), c["slices"].get<uint64_t>(),
				 c["online"].get<bool>() ? "" : "  (offline)");
	// Most runtime first, then as in summary.json.
	std::vector<size_t> rows(s["tasks"].size());
	for (size_t i = 0; i < rows.size(); i++)
		rows[i] = i;
	std::ranges::sort(rows, most_first([&](size_t i) {
		return s["tasks"][i]["runtime_ns"].get<uint64_t>();
	}));
	o << fmt::format("{:>8} {:>8} {:<16} {:>11} {:>11} {:>8} {:>9} {:>9} {:>9} {:>6}\n", "pid",
			 "tgid", "comm", "run_ms", "wait_ms", "wakeups", "p50_us", "p99_us",
			 "max_us", "migr");
	for (size_t i = 0; i < rows.size() && i < kTableTasks; i++) {
		const json &t = s["tasks"][rows[i]];
		const json &l = t["latency_ns"];
		o << fmt::format("{:>8} {:>8} {:<16} {:>11.3f} {:>11.3f} {:>8} {:>9.1f} {:>9.1f} "
				 "{:>9.1f} {:>6}\n", t["pid"].get<int>(), t["tgid"].get<int>(),
				 t["comm"].get<std::string>(), ms(t["runtime_ns"]), ms(t["wait_ns"]),
				 t["wakeups"].get<uint64_t>(), l["p50"].get<uint64_t>() / 1e3,
				 l["p99"].get<uint64_t>() / 1e3, l["max"].get<uint64_t>() / 1e3,
				 t["migrations"].get<uint64_t>());
	}
	if (rows.size() > kTableTasks)
		o << fmt::format("({} more tasks in summary.json)\n", rows.size() - kTableTasks);
	const json &tot = s["totals"];
	const json &l = tot["latency_ns"];
	o << fmt::format("total: {} tasks, run {:.3f} ms, wait {:.3f} ms, {} wakeups "
			 "(p50 {:.1f} us, p99 {:.1f} us, max {:.1f} us), {} migrations, "
			 "idle while work waited {:.3f} ms\n",
			 tot["tasks"].get<uint64_t>(), ms(tot["runtime_ns"]), ms(tot["wait_ns"]),
			 tot["wakeups"].get<uint64_t>(), l["p50"].get<uint64_t>() / 1e3,
			 l["p99"].get<uint64_t>() / 1e3, l["max"].get<uint64_t>() / 1e3,
			 tot["migrations"].get<uint64_t>(), ms(tot["idle_waited_ns"]));
}

Result<void> write_file(const std::filesystem::path &file, const std::string &text)
{
	std::ofstream f(file, std::ios::binary | std::ios::trunc);
	f << text;
	f.flush();
	if (!f)
		return fail(file.string() + ": cannot write");
	return {};
}

// The latency curves: the selected tasks with wakeups, most wakeups
// first, at most this many.
constexpr size_t kLatencyCurves = 8;

}  // namespace

uint64_t Model::idle_waited_ns() const
{
	uint64_t sum = 0;
	for (const auto &i : idle_waited)
		sum += i.length();
	return sum;
}

Model build_model(const Recording &rec)
{
	return Builder(rec).run();
}

uint64_t percentile(const std::vector<uint64_t> &sorted, double p)
{
	if (sorted.empty())
		return 0;
	auto rank = static_cast<size_t>(std::ceil(p / 100.0 * sorted.size()));
	return sorted[std::clamp<size_t>(rank, 1, sorted.size()) - 1];
}

std::vector<size_t> selected_tasks(const Model &m, const Filter &filter)
{
	std::vector<size_t> sel;
	for (size_t i = 0; i < m.tasks.size(); i++)
		if (filter.matches(m.tasks[i].pid, m.tasks[i].tgid, m.tasks[i].comm))
			sel.push_back(i);
	return sel;
}

Result<void> write_outputs(const Recording &rec, const Filter &filter,
			   const std::filesystem::path &dir, std::ostream &out)
{
	std::error_code ec;
	std::filesystem::create_directories(dir, ec);
	if (ec)
		return fail(dir.string() + ": cannot create: " + ec.message());
	const Model m = build_model(rec);
	const auto sel = selected_tasks(m, filter);

	{
		std::ofstream f(dir / "trace.json", std::ios::binary | std::ios::trunc);
		write_trace_json(m, sel, f);
		f.flush();
		if (!f)
			return fail((dir / "trace.json").string() + ": cannot write");
	}
	std::vector<size_t> curves;
	for (size_t i : sel)
		if (!m.tasks[i].latencies.empty())
			curves.push_back(i);
	std::ranges::sort(curves, most_first([&](size_t i) { return m.tasks[i].latencies.size(); }));
	if (curves.size() > kLatencyCurves)
		curves.resize(kLatencyCurves);

	const json summary = summary_json(m, filter, sel);
	for (const auto &[name, text] :
	     {std::pair{"cpus.svg", cpus_svg(m)},
	      std::pair{"running_waiting.svg", running_waiting_svg(m)},
	      std::pair{"latency.svg", latency_svg(m, curves)},
	      std::pair{"summary.json", summary.dump(1, '\t', false, json::error_handler_t::replace) + "\n"}}) {
		if (auto r = write_file(dir / name, text); !r)
			return r;
	}
	write_table(m, summary, out);
	return {};
}

}  // namespace scx_burst::trace
