// SPDX-License-Identifier: GPL-2.0
// `scx_burst trace` outputs from a recording made here with a known
// schedule on three CPUs: the summary's exact numbers, trace.json's
// tracks, well-formed SVGs with a row per CPU, the add-up invariants,
// events.bin round trip and its refusals, and byte-identical reruns.
//
// The schedule (ms since the start; CPUs 0-2 online):
//   cpu0: hog (already running) 0-10.5, preempted by sleeper 10.5-11,
//         hog 11-90.3 (score 39), preempted by late 90.3-100 (score 5)
//   cpu1: idle, late 5-8 (was waiting at the start), idle,
//         sleeper 50.2-50.7 (migrated 0 -> 1 at 50), idle
//   cpu2: idle, worker 20.1-60 (wakeup_new at 20, exits at 60), idle
//   sleeper woken at 10 and 50 (latency 0.5, 0.2); late woken at 90
//   (0.3); never woken at 95, still waiting at the end (100).
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "scx_burst/trace.hpp"

namespace {

using namespace scx_burst;
using namespace scx_burst::trace;
namespace fs = std::filesystem;
using nlohmann::json;

constexpr uint64_t kStart = 1'000'000'000;	// CLOCK_MONOTONIC of the start
constexpr uint64_t kMs = 1'000'000;
constexpr uint64_t kUs = 1'000;

uint64_t at(double ms)
{
	return kStart + static_cast<uint64_t>(ms * 1000 + 0.5) * kUs;
}

burst_trace_event event(uint32_t kind, double ms, uint32_t cpu, int pid, const char *comm,
			int tgid)
{
	burst_trace_event e{};
	e.ts_ns = at(ms);
	e.kind = kind;
	e.cpu = cpu;
	e.pid = pid;
	e.tgid = tgid;
	e.orig_cpu = cpu;
	e.score = BURST_TR_NO_SCORE;
	std::strncpy(e.comm, comm, sizeof(e.comm));
	return e;
}

burst_trace_event sw(double ms, uint32_t cpu, int prev, const char *prev_comm, uint32_t state,
		     int next, const char *comm, int tgid, uint32_t score)
{
	auto e = event(BURST_TR_SWITCH, ms, cpu, next, comm, tgid);
	e.prev_pid = prev;
	e.prev_state = state;
	std::strncpy(e.prev_comm, prev_comm, sizeof(e.prev_comm));
	e.score = score;
	e.key = next ? 1000 + next : 0;
	return e;
}

burst_trace_event wake(uint32_t kind, double ms, uint32_t cpu, int pid, const char *comm,
		       int tgid, uint32_t target)
{
	auto e = event(kind, ms, cpu, pid, comm, tgid);
	e.target_cpu = target;
	return e;
}

constexpr int kHog = 100, kSleeper = 200, kWorker = 300, kLate = 400, kNever = 500;
constexpr const char *kWorkerComm = "<work&er>";

Recording fixture()
{
	Recording r;
	r.header.magic = BURST_TR_FILE_MAGIC;
	r.header.version = BURST_TR_FILE_VERSION;
	r.header.nr_cpus = 4;
	r.header.start_ns = kStart;
	r.header.end_ns = at(100);
	r.header.lost_events = 7;
	r.header.online_mask[0] = 0b111;
	std::strcpy(r.header.scheduler, "burst_test");
	auto mig = event(BURST_TR_MIGRATE, 50, 0, kSleeper, "sleeper", kSleeper);
	mig.orig_cpu = 0;
	mig.target_cpu = 1;
	r.events = {
		sw(5, 1, 0, "swapper/1", 0, kLate, "late", kLate, 10),
		sw(8, 1, kLate, "late", 1, 0, "swapper/1", 0, BURST_TR_NO_SCORE),
		wake(BURST_TR_WAKEUP, 10, 0, kSleeper, "sleeper", kSleeper, 0),
		sw(10.5, 0, kHog, "hog", 0, kSleeper, "sleeper", kSleeper, 2),
		sw(11, 0, kSleeper, "sleeper", 1, kHog, "hog", kHog, 39),
		wake(BURST_TR_WAKEUP_NEW, 20, 0, kWorker, kWorkerComm, kHog, 2),
		sw(20.1, 2, 0, "swapper/2", 0, kWorker, kWorkerComm, kHog, 20),
		mig,
		wake(BURST_TR_WAKEUP, 50, 0, kSleeper, "sleeper", kSleeper, 1),
		sw(50.2, 1, 0, "swapper/1", 0, kSleeper, "sleeper", kSleeper, 3),
		sw(50.7, 1, kSleeper, "sleeper", 1, 0, "swapper/1", 0, BURST_TR_NO_SCORE),
		event(BURST_TR_EXIT, 60, 2, kWorker, kWorkerComm, kHog),
		// prev_state 0 after the exit: still a dead task, not a preempted one.
		sw(60, 2, kWorker, kWorkerComm, 0, 0, "swapper/2", 0, BURST_TR_NO_SCORE),
		wake(BURST_TR_WAKEUP, 90, 1, kLate, "late", kLate, 0),
		sw(90.3, 0, kHog, "hog", 0, kLate, "late", kLate, 5),
		wake(BURST_TR_WAKEUP, 95, 2, kNever, "never", kNever, 2),
	};
	r.header.nr_events = r.events.size();
	return r;
}

std::string slurp(const fs::path &p)
{
	std::ifstream in(p, std::ios::binary);
	std::stringstream s;
	s << in.rdbuf();
	return s.str();
}

class Trace : public testing::Test {
protected:
	void SetUp() override
	{
		dir_ = fs::temp_directory_path() / ("scx_burst_trace_test." + std::to_string(getpid()));
		fs::remove_all(dir_);
		fs::create_directories(dir_);
	}
	void TearDown() override { fs::remove_all(dir_); }

	// write_outputs into dir_/@sub; the table it printed.
	std::string outputs(const Recording &rec, const Filter &f = {}, const std::string &sub = "out")
	{
		std::ostringstream table;
		auto r = write_outputs(rec, f, dir_ / sub, table);
		EXPECT_TRUE(r) << (r ? "" : r.error().msg);
		return table.str();
	}
	json summary(const std::string &sub = "out") const
	{
		return json::parse(slurp(dir_ / sub / "summary.json"));
	}
	const json &task(const json &s, int pid) const
	{
		for (const auto &t : s["tasks"])
			if (t["pid"] == pid)
				return t;
		ADD_FAILURE() << "no task " << pid;
		return s;
	}

	fs::path dir_;
};

TEST_F(Trace, SummaryHasTheFixturesNumbers)
{
	outputs(fixture());
	const json s = summary();
	EXPECT_EQ(s["schema"], 1);
	EXPECT_EQ(s["scheduler"], "burst_test");
	EXPECT_EQ(s["duration_ns"], 100 * kMs);
	EXPECT_EQ(s["nr_events"], 16);
	EXPECT_EQ(s["lost_events"], 7);
	EXPECT_EQ(s["offline_cpu_events"], 0);
	EXPECT_EQ(s["has_scores"], true);

	ASSERT_EQ(s["cpus"].size(), 3u);
	const uint64_t busy[] = {100 * kMs, 3500 * kUs, 39900 * kUs};
	const uint64_t waited[] = {0, 16300 * kUs, 16100 * kUs};
	const uint64_t slices[] = {4, 2, 1};
	for (int c = 0; c < 3; c++) {
		const json &cpu = s["cpus"][c];
		EXPECT_EQ(cpu["cpu"], c);
		EXPECT_EQ(cpu["online"], true);
		EXPECT_EQ(cpu["busy_ns"], busy[c]) << "cpu " << c;
		EXPECT_EQ(cpu["idle_waited_ns"], waited[c]) << "cpu " << c;
		EXPECT_EQ(cpu["slices"], slices[c]) << "cpu " << c;
		EXPECT_DOUBLE_EQ(cpu["busy_share"].get<double>(), busy[c] / 1e8);
	}

	ASSERT_EQ(s["tasks"].size(), 5u);
	struct Want {
		int pid, tgid;
		const char *comm;
		uint64_t run, wait, wakeups, lat_count, p50, p99, max, migrations;
		bool exited;
	};
	const Want want[] = {
		{kHog, kHog, "hog", 89800 * kUs, 10200 * kUs, 0, 0, 0, 0, 0, 0, false},
		{kSleeper, kSleeper, "sleeper", 1 * kMs, 700 * kUs, 2, 2, 200 * kUs, 500 * kUs,
		 500 * kUs, 1, false},
		{kWorker, kHog, kWorkerComm, 39900 * kUs, 100 * kUs, 1, 1, 100 * kUs, 100 * kUs,
		 100 * kUs, 0, true},
		{kLate, kLate, "late", 12700 * kUs, 5300 * kUs, 1, 1, 300 * kUs, 300 * kUs,
		 300 * kUs, 0, false},
		{kNever, kNever, "never", 0, 5 * kMs, 1, 0, 0, 0, 0, 0, false},
	};
	for (const auto &w : want) {
		const json &t = task(s, w.pid);
		EXPECT_EQ(t["tgid"], w.tgid) << w.pid;
		EXPECT_EQ(t["comm"], w.comm) << w.pid;
		EXPECT_EQ(t["runtime_ns"], w.run) << w.pid;
		EXPECT_EQ(t["wait_ns"], w.wait) << w.pid;
		EXPECT_EQ(t["wakeups"], w.wakeups) << w.pid;
		EXPECT_EQ(t["latency_ns"]["count"], w.lat_count) << w.pid;
		EXPECT_EQ(t["latency_ns"]["p50"], w.p50) << w.pid;
		EXPECT_EQ(t["latency_ns"]["p99"], w.p99) << w.pid;
		EXPECT_EQ(t["latency_ns"]["max"], w.max) << w.pid;
		EXPECT_EQ(t["migrations"], w.migrations) << w.pid;
		EXPECT_EQ(t["exited"], w.exited) << w.pid;
	}
	EXPECT_EQ(task(s, kWorker)["exit_ns"], 60 * kMs + kStart);
	EXPECT_TRUE(task(s, kHog)["exit_ns"].is_null());

	const json &tot = s["totals"];
	EXPECT_EQ(tot["tasks"], 5);
	EXPECT_EQ(tot["tasks_shown"], 5);
	EXPECT_EQ(tot["cpus_online"], 3);
	EXPECT_EQ(tot["busy_ns"], 143400 * kUs);
	EXPECT_EQ(tot["runtime_ns"], 143400 * kUs);
	EXPECT_EQ(tot["wait_ns"], 21300 * kUs);
	EXPECT_EQ(tot["wakeups"], 5);
	EXPECT_EQ(tot["migrations"], 1);
	EXPECT_EQ(tot["latency_ns"]["count"], 4);
	EXPECT_EQ(tot["latency_ns"]["p50"], 200 * kUs);
	EXPECT_EQ(tot["latency_ns"]["p99"], 500 * kUs);
	EXPECT_EQ(tot["latency_ns"]["max"], 500 * kUs);
	EXPECT_EQ(tot["idle_waited_ns"], 16300 * kUs);
}

TEST_F(Trace, TableShowsCpusTasksAndTotals)
{
	const std::string table = outputs(fixture());
	EXPECT_NE(table.find("scheduler burst_test, 0.100 s, 16 events, 7 lost"), std::string::npos)
		<< table;
	EXPECT_NE(table.find("    1     3.5       3.500           16.300        2"),
		  std::string::npos) << table;
	EXPECT_NE(table.find("     200      200 sleeper                1.000       0.700        2"
			     "     200.0     500.0     500.0      1"), std::string::npos) << table;
	EXPECT_NE(table.find("total: 5 tasks, run 143.400 ms, wait 21.300 ms, 5 wakeups (p50 200.0 "
			     "us, p99 500.0 us, max 500.0 us), 1 migrations, idle while work "
			     "waited 16.300 ms"), std::string::npos) << table;
}

// Per task running + waiting fit in the recording; per CPU busy time is
// the sum of its slices in trace.json; tasks' runtime sums to CPUs' busy.
TEST_F(Trace, TimesAddUp)
{
	outputs(fixture());
	const json s = summary();
	const json tj = json::parse(slurp(dir_ / "out" / "trace.json"));
	const uint64_t len = s["duration_ns"];
	uint64_t runtime = 0, busy = 0;
	for (const auto &t : s["tasks"]) {
		EXPECT_LE(t["runtime_ns"].get<uint64_t>() + t["wait_ns"].get<uint64_t>(), len)
			<< t["pid"];
		runtime += t["runtime_ns"].get<uint64_t>();
	}
	std::map<int, double> track_us;	// CPU track -> sum of its slices
	for (const auto &e : tj["traceEvents"])
		if (e["ph"] == "X" && e["cat"] == "cpu")
			track_us[e["tid"].get<int>() - (1 << 22)] += e["dur"].get<double>();
	for (const auto &c : s["cpus"]) {
		busy += c["busy_ns"].get<uint64_t>();
		EXPECT_NEAR(track_us[c["cpu"]] * 1e3, c["busy_ns"].get<double>(), 1.0) << c["cpu"];
	}
	EXPECT_EQ(runtime, busy);
	EXPECT_EQ(s["totals"]["runtime_ns"], s["totals"]["busy_ns"]);
}

TEST_F(Trace, TraceJsonHasCpuAndTaskTracksAndCounters)
{
	outputs(fixture());
	const json tj = json::parse(slurp(dir_ / "out" / "trace.json"));
	ASSERT_TRUE(tj["traceEvents"].is_array());
	EXPECT_EQ(tj["otherData"]["lost_events"], 7);
	std::set<std::string> thread_names;
	std::map<std::string, int> cpu_slices;
	int counters = 0, running = 0, waiting = 0, exits = 0;
	json first_hog;
	for (const auto &e : tj["traceEvents"]) {
		if (e["ph"] == "M" && e["name"] == "thread_name")
			thread_names.insert(e["args"]["name"].get<std::string>());
		if (e["ph"] == "X" && e["cat"] == "cpu") {
			cpu_slices[std::to_string(e["tid"].get<int>() - (1 << 22))]++;
			if (e["args"]["pid"] == kHog && first_hog.is_null())
				first_hog = e;
		}
		if (e["ph"] == "X" && e["cat"] == "task")
			(e["name"] == "running" ? running : waiting)++;
		if (e["ph"] == "C") {
			counters++;
			EXPECT_EQ(e["name"], "tasks");
			EXPECT_TRUE(e["args"].contains("running") && e["args"].contains("waiting"));
		}
		if (e["ph"] == "i")
			exits++;
	}
	for (const char *n : {"CPU 0", "CPU 1", "CPU 2", "hog 100", "sleeper 200",
			      "<work&er> 300", "late 400", "never 500"})
		EXPECT_TRUE(thread_names.contains(n)) << n;
	EXPECT_EQ(cpu_slices, (std::map<std::string, int>{{"0", 4}, {"1", 2}, {"2", 1}}));
	EXPECT_EQ(running, 7);
	EXPECT_EQ(waiting, 8);
	EXPECT_EQ(exits, 1);
	// One point per change of (running, waiting); see the schedule above.
	EXPECT_EQ(counters, 13);
	// The hog ran before the first switch: no score; ts/dur in us.
	EXPECT_TRUE(first_hog["args"]["score"].is_null());
	EXPECT_DOUBLE_EQ(first_hog["ts"].get<double>(), 0.0);
	EXPECT_DOUBLE_EQ(first_hog["dur"].get<double>(), 10500.0);
}

// A minimal well-formedness check: one root, balanced tags, quoted
// attributes, known entities, no raw '<' or '&' in text.  Returns "" or
// what is wrong.
std::string xml_problem(const std::string &x)
{
	std::vector<std::string> stack;
	size_t i = x.rfind("?>", 200);
	i = i == std::string::npos ? 0 : i + 2;
	int roots = 0;
	auto entity_ok = [&](size_t p) {
		for (const char *e : {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"})
			if (x.compare(p, std::strlen(e), e) == 0)
				return true;
		return false;
	};
	while (i < x.size()) {
		if (x[i] == '&' && !entity_ok(i))
			return "bad entity at " + std::to_string(i);
		if (x[i] != '<') {
			if (stack.empty() && !isspace(static_cast<unsigned char>(x[i])))
				return "text outside the root at " + std::to_string(i);
			i++;
			continue;
		}
		size_t end = i + 1;
		char quote = 0;
		for (; end < x.size(); end++) {
			if (quote) {
				if (x[end] == quote)
					quote = 0;
				else if (x[end] == '<')
					return "'<' in an attribute at " + std::to_string(end);
				else if (x[end] == '&' && !entity_ok(end))
					return "bad entity in an attribute at " + std::to_string(end);
			} else if (x[end] == '"' || x[end] == '\'') {
				quote = x[end];
			} else if (x[end] == '>') {
				break;
			} else if (x[end] == '<') {
				return "'<' inside a tag at " + std::to_string(end);
			}
		}
		if (end == x.size())
			return "unterminated tag";
		std::string tag = x.substr(i + 1, end - i - 1);
		i = end + 1;
		if (tag[0] == '/') {
			if (stack.empty() || stack.back() != tag.substr(1))
				return "unbalanced </" + tag.substr(1) + ">";
			stack.pop_back();
			continue;
		}
		const bool empty = tag.back() == '/';
		std::string name = tag.substr(0, tag.find_first_of(" \t\n/"));
		// Attributes: name="value" pairs only.
		std::string attrs = tag.substr(name.size(), tag.size() - name.size() - (empty ? 1 : 0));
		size_t a = 0;
		while (a < attrs.size()) {
			while (a < attrs.size() && isspace(static_cast<unsigned char>(attrs[a])))
				a++;
			if (a == attrs.size())
				break;
			size_t eq = attrs.find('=', a);
			if (eq == std::string::npos || attrs[eq + 1] != '"')
				return "unquoted attribute in <" + name + ">";
			size_t close = attrs.find('"', eq + 2);
			if (close == std::string::npos)
				return "unterminated attribute in <" + name + ">";
			a = close + 1;
		}
		if (stack.empty() && ++roots > 1)
			return "more than one root";
		if (!empty)
			stack.push_back(name);
	}
	return stack.empty() && roots == 1 ? "" : "unclosed <" + (stack.empty() ? "" : stack.back()) + ">";
}

size_t count(const std::string &s, const std::string &what)
{
	size_t n = 0;
	for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1))
		n++;
	return n;
}

bool xmllint_ok(const fs::path &file)
{
	if (std::system("command -v xmllint >/dev/null 2>&1") != 0)
		return true;	// not installed: the checker above stands alone
	std::string cmd = "xmllint --noout '" + file.string() + "'";
	return std::system(cmd.c_str()) == 0;
}

TEST_F(Trace, SvgsAreWellFormedWithARowPerCpu)
{
	EXPECT_EQ(xml_problem("<a><b x=\"1\"/></a>"), "");
	EXPECT_NE(xml_problem("<a><b></a>"), "");
	EXPECT_NE(xml_problem("<a>x & y</a>"), "");
	EXPECT_NE(xml_problem("<a x=1/>"), "");

	outputs(fixture());
	for (const char *name : {"cpus.svg", "running_waiting.svg", "latency.svg"}) {
		const std::string svg = slurp(dir_ / "out" / name);
		EXPECT_EQ(xml_problem(svg), "") << name;
		EXPECT_TRUE(xmllint_ok(dir_ / "out" / name)) << name;
		EXPECT_NE(svg.find("<svg xmlns=\"http://www.w3.org/2000/svg\""), std::string::npos);
		EXPECT_NE(svg.find("time"), std::string::npos) << name << ": no axis label";
	}
	const std::string cpus = slurp(dir_ / "out" / "cpus.svg");
	EXPECT_EQ(count(cpus, "class=\"cpu-row\""), 3u);
	for (int c = 0; c < 3; c++)
		EXPECT_NE(cpus.find("data-cpu=\"" + std::to_string(c) + "\""), std::string::npos);
	EXPECT_NE(cpus.find("burst score"), std::string::npos);	// scores recorded

	const std::string rw = slurp(dir_ / "out" / "running_waiting.svg");
	EXPECT_NE(rw.find("idle while work waited"), std::string::npos);
	EXPECT_NE(rw.find("(16.300 ms)"), std::string::npos);
	EXPECT_EQ(count(rw, "class=\"running\""), 1u);
	EXPECT_EQ(count(rw, "class=\"waiting\""), 1u);

	// Curves of the three tasks with wakeup latencies; comm escaped.
	const std::string lat = slurp(dir_ / "out" / "latency.svg");
	EXPECT_EQ(count(lat, "class=\"cdf\""), 3u);
	EXPECT_NE(lat.find("&lt;work&amp;er&gt; (300)"), std::string::npos);
	EXPECT_EQ(lat.find("<work&er>"), std::string::npos);
}

TEST_F(Trace, WithoutScoresCpusAreColouredByTask)
{
	Recording r = fixture();
	for (auto &e : r.events)
		e.score = BURST_TR_NO_SCORE;
	outputs(r);
	EXPECT_EQ(summary()["has_scores"], false);
	const std::string cpus = slurp(dir_ / "out" / "cpus.svg");
	EXPECT_EQ(xml_problem(cpus), "");
	EXPECT_EQ(cpus.find("burst score"), std::string::npos);
	EXPECT_NE(cpus.find("&lt;work&amp;er&gt; (300)"), std::string::npos);
	EXPECT_NE(cpus.find("hog (100)"), std::string::npos);
	EXPECT_NE(cpus.find("other tasks"), std::string::npos);
}

TEST_F(Trace, FilterSelectsTasksNotCpuFigures)
{
	Filter f{.pids = {kHog}, .comms = {}};
	EXPECT_TRUE(f.matches(kHog, kHog, "hog"));
	EXPECT_TRUE(f.matches(kWorker, kHog, "x"));	// by tgid
	EXPECT_FALSE(f.matches(kSleeper, kSleeper, "sleeper"));
	EXPECT_TRUE(Filter{}.matches(1, 1, "any"));
	Filter c{.pids = {}, .comms = {"late"}};
	EXPECT_TRUE(c.matches(kLate, kLate, "late"));
	EXPECT_FALSE(c.matches(kLate, kLate, "lat"));

	outputs(fixture(), f);
	const json s = summary();
	ASSERT_EQ(s["tasks"].size(), 2u);
	EXPECT_EQ(s["tasks"][0]["pid"], kHog);
	EXPECT_EQ(s["tasks"][1]["pid"], kWorker);
	EXPECT_EQ(s["totals"]["tasks"], 5);
	EXPECT_EQ(s["totals"]["tasks_shown"], 2);
	EXPECT_EQ(s["totals"]["busy_ns"], 143400 * kUs);
	EXPECT_EQ(s["filter"]["pids"], json::array({kHog}));
	const std::string lat = slurp(dir_ / "out" / "latency.svg");
	EXPECT_EQ(count(lat, "class=\"cdf\""), 1u);	// the worker; the hog never woke
}

TEST_F(Trace, SameRecordingSameBytes)
{
	const std::string t1 = outputs(fixture(), {}, "a");
	const std::string t2 = outputs(fixture(), {}, "b");
	EXPECT_EQ(t1, t2);
	for (const char *name :
	     {"trace.json", "cpus.svg", "running_waiting.svg", "latency.svg", "summary.json"}) {
		const std::string a = slurp(dir_ / "a" / name);
		EXPECT_FALSE(a.empty()) << name;
		EXPECT_EQ(a, slurp(dir_ / "b" / name)) << name;
	}
}

TEST_F(Trace, RecordingRoundTrips)
{
	const Recording r = fixture();
	const fs::path file = dir_ / "events.bin";
	ASSERT_TRUE(write_recording(file, r));
	EXPECT_EQ(fs::file_size(file),
		  sizeof(burst_trace_file_header) + r.events.size() * sizeof(burst_trace_event));
	auto back = read_recording(file);
	ASSERT_TRUE(back) << back.error().msg;
	EXPECT_EQ(std::memcmp(&back->header, &r.header, sizeof(r.header)), 0);
	ASSERT_EQ(back->events.size(), r.events.size());
	EXPECT_EQ(std::memcmp(back->events.data(), r.events.data(),
			      r.events.size() * sizeof(burst_trace_event)), 0);
	ASSERT_TRUE(write_recording(dir_ / "again.bin", *back));
	EXPECT_EQ(slurp(file), slurp(dir_ / "again.bin"));
}

TEST_F(Trace, BadRecordingsAreRefusedWithOneLine)
{
	const fs::path file = dir_ / "events.bin";
	auto refused = [&](const std::string &bytes, const std::string &what) {
		std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
		auto r = read_recording(file);
		if (r) {
			ADD_FAILURE() << "accepted, expected: " << what;
			return;
		}
		EXPECT_EQ(r.error().msg.rfind(file.string() + ": ", 0), 0u) << r.error().msg;
		EXPECT_NE(r.error().msg.find(what), std::string::npos) << r.error().msg;
		EXPECT_EQ(r.error().msg.find('\n'), std::string::npos) << r.error().msg;
	};
	ASSERT_TRUE(write_recording(file, fixture()));
	const std::string good = slurp(file);
	const size_t hdr = sizeof(burst_trace_file_header), ev = sizeof(burst_trace_event);

	refused("", "truncated");
	refused(good.substr(0, hdr - 1), "truncated");
	refused(good.substr(0, good.size() - 1), "truncated");
	refused(good.substr(0, good.size() - ev), "truncated: the header says 16 events, the file holds 15");
	refused(good + good.substr(hdr, ev), "nr_events mismatch: the header says 16 events, the file holds 17");

	std::string bad = good;
	bad[0] ^= 1;
	refused(bad, "bad magic");
	bad = good;
	bad[offsetof(burst_trace_file_header, version)] = 9;
	refused(bad, "unknown version 9");

	Recording r = fixture();
	std::swap(r.events[3], r.events[4]);
	ASSERT_TRUE(write_recording(dir_ / "x.bin", r));
	refused(slurp(dir_ / "x.bin"), "unordered timestamps: event 4");
	r = fixture();
	r.events[2].kind = 77;
	ASSERT_TRUE(write_recording(dir_ / "x.bin", r));
	refused(slurp(dir_ / "x.bin"), "event 2: unknown kind 77");
	r = fixture();
	r.events[2].cpu = BURST_MAX_CPUS;
	ASSERT_TRUE(write_recording(dir_ / "x.bin", r));
	refused(slurp(dir_ / "x.bin"), "event 2: cpu 512 out of range");

	auto missing = read_recording(dir_ / "nope.bin");
	ASSERT_FALSE(missing);
	EXPECT_NE(missing.error().msg.find("nope.bin: cannot open"), std::string::npos);
}

// An event from a CPU outside online_mask: counted, its CPU listed as
// offline and never idle; a task switched in there still runs.
TEST_F(Trace, EventsFromOfflineCpusAreCountedNotIdle)
{
	Recording r = fixture();
	r.events.push_back(sw(97, 5, 0, "swapper/5", 0, kNever, "never", kNever, 1));
	r.header.nr_events = r.events.size();
	outputs(r);
	const json s = summary();
	EXPECT_EQ(s["offline_cpu_events"], 1);
	ASSERT_EQ(s["cpus"].size(), 4u);
	EXPECT_EQ(s["cpus"][3]["cpu"], 5);
	EXPECT_EQ(s["cpus"][3]["online"], false);
	EXPECT_EQ(s["cpus"][3]["busy_ns"], 3 * kMs);
	EXPECT_EQ(s["cpus"][3]["idle_waited_ns"], 0);
	EXPECT_EQ(task(s, kNever)["latency_ns"]["p50"], 2 * kMs);
	EXPECT_EQ(s["totals"]["runtime_ns"], s["totals"]["busy_ns"]);
	EXPECT_EQ(count(slurp(dir_ / "out" / "cpus.svg"), "class=\"cpu-row\""), 4u);
}

// One CPU: a wakeup of a running task is no wakeup; a pid that exits and
// comes back with sched_wakeup_new is a new task; CPU 1 is online but
// never switches: its state is unknown, so it is neither busy nor idle.
TEST_F(Trace, PidReuseRunningWakeupsAndSilentCpus)
{
	Recording r;
	r.header.start_ns = kStart;
	r.header.end_ns = at(10);
	r.header.online_mask[0] = 0b11;
	std::strcpy(r.header.scheduler, "EEVDF");
	r.events = {
		sw(1, 0, 0, "swapper/0", 0, 600, "a", 600, BURST_TR_NO_SCORE),
		wake(BURST_TR_WAKEUP, 2, 0, 600, "a", 600, 0),
		event(BURST_TR_EXIT, 3, 0, 600, "a", 600),
		sw(3, 0, 600, "a", 0x80, 0, "swapper/0", 0, BURST_TR_NO_SCORE),
		wake(BURST_TR_WAKEUP_NEW, 5, 0, 600, "b", 600, 0),
		sw(6, 0, 0, "swapper/0", 0, 600, "b", 600, BURST_TR_NO_SCORE),
	};
	r.header.nr_events = r.events.size();
	outputs(r);
	const json s = summary();
	ASSERT_EQ(s["tasks"].size(), 2u);
	const json &a = s["tasks"][0], &b = s["tasks"][1];
	EXPECT_EQ(a["comm"], "a");
	EXPECT_EQ(a["pid"], 600);
	EXPECT_EQ(a["runtime_ns"], 2 * kMs);
	EXPECT_EQ(a["wait_ns"], 1 * kMs);	// runnable before it first ran
	EXPECT_EQ(a["wakeups"], 0);
	EXPECT_EQ(a["exited"], true);
	EXPECT_EQ(b["comm"], "b");
	EXPECT_EQ(b["pid"], 600);
	EXPECT_EQ(b["runtime_ns"], 4 * kMs);
	EXPECT_EQ(b["wait_ns"], 1 * kMs);
	EXPECT_EQ(b["wakeups"], 1);
	EXPECT_EQ(b["latency_ns"]["max"], 1 * kMs);
	EXPECT_EQ(b["exited"], false);
	ASSERT_EQ(s["cpus"].size(), 2u);
	EXPECT_EQ(s["cpus"][0]["busy_ns"], 6 * kMs);
	// Idle 0-1 while "a" waited, 5-6 while "b" did.
	EXPECT_EQ(s["cpus"][0]["idle_waited_ns"], 2 * kMs);
	EXPECT_EQ(s["cpus"][1]["online"], true);
	EXPECT_EQ(s["cpus"][1]["busy_ns"], 0);
	EXPECT_EQ(s["cpus"][1]["idle_waited_ns"], 0);
	EXPECT_EQ(s["totals"]["idle_waited_ns"], 2 * kMs);
}

// A long busy recording: the pictures stay small (pixel columns), the
// outputs still add up.
TEST_F(Trace, LongRecordingGivesBoundedPictures)
{
	Recording r;
	r.header.start_ns = kStart;
	r.header.online_mask[0] = 0b11;
	std::strcpy(r.header.scheduler, "EEVDF");
	// Each CPU round-robins three tasks of its own, preempting each,
	// and idles briefly every eleventh switch.
	constexpr int kSwitches = 40000;
	int cur[2] = {0, 0}, turn[2] = {0, 0};
	uint64_t ts = kStart;
	for (int i = 0; i < kSwitches; i++) {
		ts += 1000 + (i % 7) * 300;
		const int cpu = i % 2;
		int next = 0;
		if (i % 11 != 0)
			next = 1000 + 3 * cpu + turn[cpu]++ % 3;
		auto e = sw(0, cpu, cur[cpu], "t", 0, next, "t", next, BURST_TR_NO_SCORE);
		e.ts_ns = ts;
		r.events.push_back(e);
		cur[cpu] = next;
	}
	r.header.end_ns = ts + 1000;
	r.header.nr_events = r.events.size();
	outputs(r);
	for (const char *name : {"cpus.svg", "running_waiting.svg", "latency.svg"}) {
		const auto size = fs::file_size(dir_ / "out" / name);
		EXPECT_LT(size, 200u * 1024) << name;
		EXPECT_EQ(xml_problem(slurp(dir_ / "out" / name)), "") << name;
	}
	const json s = summary();
	EXPECT_EQ(s["tasks"].size(), 6u);
	EXPECT_EQ(s["totals"]["runtime_ns"], s["totals"]["busy_ns"]);
	EXPECT_GT(s["totals"]["idle_waited_ns"].get<uint64_t>(), 0u);
	for (const auto &t : s["tasks"])
		EXPECT_LE(t["runtime_ns"].get<uint64_t>() + t["wait_ns"].get<uint64_t>(),
			  s["duration_ns"].get<uint64_t>());
}

}  // namespace
