"""Unit tests of tests/bench/analyze.py on the saved logs of fixtures/.

  python3 -m unittest discover -s tests/bench -p '*_test.py'
"""

import base64
import gzip
import io
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import analyze  # noqa: E402

FIXTURES = os.path.join(HERE, "fixtures")
HOST_CPUS = 2
QEMU_VERSION = "QEMU emulator version 7.2.22 (Debian 1:7.2+dfsg-7+deb12u18+b3)"


def assert_same_results(test, actual, expected, path="results"):
    """Equal structure and strings; numbers equal to 6 significant digits
    (the awk rounded intermediate averages to 6 digits, this does not)."""
    if isinstance(expected, dict):
        test.assertIsInstance(actual, dict, path)
        test.assertEqual(sorted(actual), sorted(expected), path)
        for key in expected:
            assert_same_results(test, actual[key], expected[key], path + "." + key)
    elif isinstance(expected, list):
        test.assertIsInstance(actual, list, path)
        test.assertEqual(len(actual), len(expected), path)
        for index, (mine, theirs) in enumerate(zip(actual, expected)):
            assert_same_results(test, mine, theirs, "%s.%d" % (path, index))
    elif analyze.is_number(expected):
        test.assertTrue(analyze.is_number(actual), "%s: %r" % (path, actual))
        test.assertTrue(math.isclose(actual, expected, rel_tol=2e-5),
                        "%s: %r, expected %r" % (path, actual, expected))
    else:
        test.assertEqual(actual, expected, path)


class FixtureTest(unittest.TestCase):
    """The analyzer against what the awk pipeline made of the same logs."""

    def run_fixture(self, name, pictures=None):
        fixture = os.path.join(FIXTURES, name)
        plots = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, plots)
        results = analyze.analyze(fixture, HOST_CPUS, QEMU_VERSION, plots, pictures)
        # what is written is what is read back
        results = json.loads(json.dumps(results))
        with open(os.path.join(fixture, "expected", "results.json"), encoding="utf-8") as handle:
            expected = json.load(handle)
        assert_same_results(self, results, expected)

        for plot in sorted(os.listdir(os.path.join(fixture, "expected", "plot-data"))):
            with open(os.path.join(fixture, "expected", "plot-data", plot), encoding="utf-8") as handle:
                expected_plot = handle.read()
            with open(os.path.join(plots, plot), encoding="utf-8") as handle:
                self.assertEqual(handle.read(), expected_plot, plot)
        self.assertEqual(sorted(os.listdir(plots)),
                         sorted(os.listdir(os.path.join(fixture, "expected", "plot-data"))))

        with open(os.path.join(fixture, "expected", "benchmarks.md"), encoding="utf-8") as handle:
            self.assertEqual(analyze.report(results).splitlines(), handle.read().splitlines())

        with open(os.path.join(fixture, "expected", "check.out"), encoding="utf-8") as handle:
            expected_check = [line.split(": check: ", 1)[1] for line in handle.read().splitlines()]
        self.assertEqual(analyze.check(results), expected_check)
        return results

    def test_quick_run(self):
        results = self.run_fixture("quick-sid")
        self.assertEqual(results["meta"]["suites"], ["sid"])
        self.assertTrue(results["kernels"]["sid"]["complete"])

    def test_quick_run_with_a_traced_window(self):
        pictures = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, pictures)
        results = self.run_fixture("quick-trace", pictures)
        trace = results["kernels"]["sid"]["trace"]
        self.assertEqual((trace["seconds"], trace["rep"], trace["ringbuf_kb"]), (2, 1, 16384))
        for sched in analyze.SCHEDULERS:
            self.assertEqual(trace[sched]["rc"], 0, sched)
            self.assertEqual(trace[sched]["lost_events"], 0, sched)
            self.assertEqual(trace[sched]["pictures"], ["cpus", "running_waiting", "latency"], sched)
            for picture in trace[sched]["pictures"]:
                with open(os.path.join(pictures, "sid-%s-%s.svg" % (sched, picture)), encoding="utf-8") as handle:
                    svg = handle.read()
                self.assertTrue(svg.lstrip().startswith(("<svg", "<?xml")), (sched, picture))
                self.assertTrue(svg.rstrip().endswith("</svg>"), (sched, picture))
            with open(os.path.join(pictures, "sid-%s-summary.json" % sched), encoding="utf-8") as handle:
                summary = json.load(handle)
            self.assertEqual(summary["lost_events"], trace[sched]["lost_events"])
        self.assertEqual(trace["eevdf"]["scheduler"], "EEVDF")
        self.assertTrue(trace["burst"]["scheduler"].startswith("burst_"))

    def test_quick_run_counting_steps(self):
        results = self.run_fixture("quick-steps")
        # run before bench.sh ran the interactive workloads: all it lacks
        self.assertEqual([p for p in analyze.check(results) if ".interactive." not in p], [])
        overhead = results["kernels"]["sid"]["overhead"]
        self.assertEqual(overhead["steps"]["bounds"], analyze.step_bounds())
        for sched in analyze.POLICIES:
            self.assertTrue(overhead["steps"][sched]["worst"]["within_bounds"], sched)
            for smp in ("2", "4"):
                for load in analyze.LOADS:
                    steps = overhead[smp][sched][load]["steps"]
                    self.assertEqual(sorted(steps), ["dispatch", "enqueue", "select"])
                    for entry in steps.values():
                        self.assertGreater(entry["calls"], 0)
                        self.assertAlmostEqual(entry["steps_per_call"], entry["steps"] / entry["calls"], places=4)
        self.assertIn(results["kernels"]["sid"]["targets"]["t4"]["burst"]["met"], ("yes", "no"))

    def test_quick_run_with_the_interactive_workloads(self):
        results = self.run_fixture("quick-ia")
        sid = results["kernels"]["sid"]
        self.assertTrue(sid["complete"])
        # the ia boot runs no overhead windows: the vCPU counts are main's and ovh2's
        self.assertEqual(sid["overhead"]["vcpus"], [2, 4])
        for group in ("main", "ia"):
            entry = sid["interactive"]["groups"][group]
            self.assertEqual(entry["schedulers"], list(analyze.SCHEDULERS), group)
            for sched in analyze.SCHEDULERS:
                self.assertGreater(entry[sched]["pp_idle_rate"]["value"]["median"], 0, (group, sched))
        self.assertEqual(sid["interactive"]["groups"]["ia"]["boots"], ["ia1"])

    def test_quick_run_with_the_saturated_workload_traced(self):
        pictures = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, pictures)
        results = self.run_fixture("quick-ia-trace", pictures)
        sid = results["kernels"]["sid"]
        self.assertEqual(analyze.check(results), [])
        trace = sid["ia_trace"]
        self.assertEqual((trace["seconds"], trace["ringbuf_kb"]), (1, 16384))
        for sched in analyze.SCHEDULERS:
            entry = trace[sched]
            self.assertEqual((entry["rc"], entry["boot"], entry["lost_events"]), (0, "ia1", 0), sched)
            # benchprobe's thread names tell the parts apart: one renderer,
            # two ping-pong threads, 3 x nCPU hogs at 2 vCPUs
            parts = entry["parts"]
            self.assertEqual([parts[part]["tasks"] for part in ("render", "pp", "hogs")], [1, 2, 6], sched)
            self.assertGreater(parts["fork"]["tasks"], 2, sched)
            self.assertLessEqual(sum(part["migrations"] for part in parts.values()), entry["migrations"], sched)
            for picture in entry["pictures"]:
                with open(os.path.join(pictures, "sid-ia-%s-%s.svg" % (sched, picture)), encoding="utf-8") as handle:
                    self.assertTrue(handle.read().rstrip().endswith("</svg>"), (sched, picture))
            with open(os.path.join(pictures, "sid-ia-%s-summary.json" % sched), encoding="utf-8") as handle:
                self.assertEqual(json.load(handle)["lost_events"], 0)
        # the measured runs' parts add up to their total
        ia = sid["interactive"]["groups"]["ia"]
        for sched in ia["schedulers"]:
            parts = sum(ia[sched][analyze.ia_part_key(part)]["value"]["median"] for part in analyze.IA_PARTS)
            self.assertAlmostEqual(parts, ia[sched]["sat_migrations_per_s"]["value"]["median"], places=4)
        # the missed migration target points at the traced run
        report = analyze.report(results)
        self.assertIn("where they ran: [which task ran on each CPU](benchmarks/trace/sid-ia-burst-cpus.svg)", report)
        self.assertIn("#### sid kernel: the saturated workload traced", report)

    def test_a_missing_trace_of_the_saturated_workload_fails_the_check(self):
        run_dir = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, run_dir)
        shutil.copytree(os.path.join(FIXTURES, "quick-ia-trace"), run_dir, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("expected"))
        log = os.path.join(run_dir, "logs", "sid-ia1.log")
        with open(log, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
        with open(log, "w", encoding="utf-8") as handle:
            handle.write("\n".join(line for line in lines if not line.startswith(
                ("@@B trace sched=deadline", "@@BTRACE deadline "))) + "\n")
        results = analyze.analyze(run_dir, 2, "qemu")
        self.assertEqual(analyze.check(results), [
            "kernels.sid.ia_trace.deadline missing (interactive workload trace, deadline)"])
        self.assertIn("- scx_burst deadline: not traced.", analyze.report(results))

    def test_a_trace_without_the_workload_fails_the_check(self):
        # a recording in which no thread had the workload's names (it had
        # ended, or failed to start) has numbers, but none of the parts
        results = json.loads(json.dumps(analyze.analyze(os.path.join(FIXTURES, "quick-ia-trace"), 2, "qemu")))
        for part in analyze.IA_PARTS:
            results["kernels"]["sid"]["ia_trace"]["burst"]["parts"][part] = {"tasks": 0, "migrations": 0}
        self.assertEqual(analyze.check(results), [
            "kernels.sid.ia_trace.burst.parts.%s.tasks: no task of the part in the recording "
            "(interactive workload trace, burst)" % part for part in analyze.IA_PARTS])

    def test_two_kernels_with_errors_and_a_timed_out_boot(self):
        results = self.run_fixture("two-kernels")
        trixie = results["kernels"]["trixie-backports"]
        self.assertFalse(trixie["complete"])
        self.assertEqual(trixie["latency"]["reps"], 2)
        self.assertEqual(trixie["latency"]["deadline"]["samples"]["min"],
                         trixie["latency"]["deadline"]["samples"]["max"])
        self.assertEqual(trixie["errors"]["scx_error_exits"], 1)
        self.assertEqual(trixie["targets"]["t5"]["all"]["met"], "no")


def trace_lines(sched, files):
    """bench.sh's trace_send output for files {name: bytes}: a "@@BTRACE
    SCHED FILE" line per 76 base64 characters of each gzipped file."""
    lines = []
    for name, data in files.items():
        encoded = base64.b64encode(gzip.compress(data)).decode("ascii")
        lines += ["@@BTRACE %s %s %s" % (sched, name, encoded[i:i + 76]) for i in range(0, len(encoded), 76)]
    return lines


def trace_summary(sched, lost=0):
    """A summary.json of a 2 s recording that began 0.1 s before a window
    opening at 10 s, with one cyclictest thread."""
    return json.dumps({
        "schema": 1, "scheduler": sched, "start_ns": 9900000000, "end_ns": 11900000000,
        "duration_ns": 2000000000, "nr_events": 5000, "lost_events": lost,
        "tasks": [{"pid": 7, "comm": "cyclictest", "latency_ns": {"count": 40, "p50": 2000, "p99": 900000}},
                  {"pid": 6, "comm": "cyclictest", "latency_ns": {"count": 0}}],
        "totals": {"cpus_online": 4, "busy_ns": 7000000000, "wait_ns": 30000000000, "wakeups": 400,
                   "idle_waited_ns": 150000000,
                   "latency_ns": {"count": 400, "p50": 3000, "p99": 1500000, "max": 2000000}},
    }).encode("utf-8")


class TraceSectionTest(unittest.TestCase):
    """The traced window of experiment 1: "@@B trace" records and
    "@@BTRACE" files in the main boot's log."""

    def run_dir_with(self, extra_lines, quick="quick-sid"):
        run_dir = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, run_dir)
        shutil.copytree(os.path.join(FIXTURES, quick), run_dir, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("expected"))
        log = os.path.join(run_dir, "logs", "sid-main.log")
        with open(log, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
        end = next(i for i, line in enumerate(lines) if line.startswith("@@B end "))
        with open(log, "w", encoding="utf-8") as handle:
            handle.write("\n".join(lines[:end] + extra_lines + lines[end:]) + "\n")
        return run_dir

    def traced(self, sched, lost=0, svg=b"<svg xmlns='http://www.w3.org/2000/svg'/>\n"):
        files = {name: svg for name in ("cpus.svg", "running_waiting.svg", "latency.svg")}
        files["summary.json"] = trace_summary("EEVDF" if sched == "eevdf" else "burst_x", lost)
        return (["@@B trace sched=%s rep=1 rc=0 started=1 seconds=2 ringbuf_kb=16384 comm=cyclictest "
                 "win_t0_ns=10000000000 win_t1_ns=13000000000" % sched] + trace_lines(sched, files))

    def test_parsed_written_rendered_and_checked(self):
        run_dir = self.run_dir_with(self.traced("eevdf") + self.traced("burst") + self.traced("deadline", lost=3))
        pictures = os.path.join(run_dir, "pictures")
        results = json.loads(json.dumps(analyze.analyze(run_dir, 2, "qemu", None, pictures)))
        deadline = results["kernels"]["sid"]["trace"]["deadline"]
        self.assertEqual(deadline["lost_events"], 3)
        self.assertEqual(deadline["idle_waited_ms"], 150)
        self.assertEqual(deadline["idle_waited_pct"], 7.5)
        self.assertEqual(deadline["busy_pct"], 87.5)
        self.assertEqual((deadline["latency_p50_us"], deadline["latency_p99_us"]), (3, 1500))
        self.assertEqual((deadline["start_s"], deadline["end_s"]), (-0.1, -1.1))
        self.assertEqual((deadline["comm_threads"], deadline["comm_wakeups"], deadline["comm_p99_us_max"]),
                         (1, 40, 900))
        self.assertEqual(deadline["pictures"], ["cpus", "running_waiting", "latency"])
        self.assertEqual(sorted(os.listdir(pictures)), sorted(
            "sid-%s-%s" % (sched, name) for sched in analyze.SCHEDULERS
            for name in ("cpus.svg", "running_waiting.svg", "latency.svg", "summary.json")))
        with open(os.path.join(pictures, "sid-burst-running_waiting.svg"), encoding="utf-8") as handle:
            self.assertEqual(handle.read(), "<svg xmlns='http://www.w3.org/2000/svg'/>\n")

        report = analyze.report(results).splitlines()
        self.assertIn("| picture | EEVDF | scx_burst burst | scx_burst deadline |", report)
        row = next(line for line in report if line.startswith("| running / waiting tasks |"))
        self.assertIn("[![scx_burst deadline: running / waiting tasks](benchmarks/trace/sid-deadline-"
                      "running_waiting.svg)](benchmarks/trace/sid-deadline-running_waiting.svg)", row)
        line = next(line for line in report if line.startswith("- scx_burst deadline: "))
        self.assertIn("**3 lost events**", line)
        self.assertIn("from 0.10 s before the window opened to 1.10 s before it closed", line)
        self.assertIn("**idle while work waited 150.0 ms** (7.5 % of the time)", line)
        self.assertIn("wakeup latency p50 3 us, p99 1.5 ms, max 2.0 ms over 400 wakeups", line)
        # quick-sid misses target 1 with deadline: the row points to its picture
        target = next(line for line in report if line.startswith("| 1 |"))
        self.assertIn("what the CPUs did: [running / waiting](benchmarks/trace/sid-deadline-running_waiting.svg)",
                      target)
        self.assertEqual([p for p in analyze.check(results) if ".trace." in p], [])

    def test_check_names_a_failed_tracer_and_missing_pictures(self):
        failed = ["@@B trace sched=burst rep=1 rc=1 started=0 seconds=2 ringbuf_kb=16384 comm=cyclictest "
                  "win_t0_ns=1 win_t1_ns=2", "@@BTRACE burst stderr scx_burst: error: cannot attach"]
        run_dir = self.run_dir_with(self.traced("eevdf")[:1] + failed)
        results = analyze.analyze(run_dir, 2, "qemu")
        problems = [p for p in analyze.check(results) if ".trace." in p]
        self.assertIn("kernels.sid.trace.burst.rc: the tracer exited with status 1 (experiment 1 trace, burst)",
                      problems)
        self.assertIn("kernels.sid.trace.eevdf.pictures: no latency picture (experiment 1 trace, eevdf)", problems)
        self.assertIn("kernels.sid.trace.deadline missing (experiment 1 trace, deadline)", problems)
        report = analyze.report(results)
        self.assertIn("- scx_burst burst: **the tracer failed** (exit status 1, never began recording): "
                      "`scx_burst: error: cannot attach`.", report)

    def test_cut_base64_is_one_line_error(self):
        lines = self.traced("eevdf")
        lines[2] = lines[2][:-3]
        run_dir = self.run_dir_with(lines)
        status = subprocess.run([sys.executable, os.path.join(HERE, "analyze.py"), "analyze", run_dir,
                                 "--host-cpus", "2", "--qemu-version", "qemu"], capture_output=True, text=True)
        self.assertEqual(status.returncode, 2)
        self.assertEqual(len(status.stderr.splitlines()), 1, status.stderr)
        self.assertIn("is not gzip in base64 (truncated log?)", status.stderr)


class StatisticsTest(unittest.TestCase):
    """Small cases worked out by hand."""

    def histogram(self, counts):
        histogram = analyze.Histogram()
        for value, count in counts.items():
            histogram.add(value, count)
        return histogram

    def test_median(self):
        self.assertIsNone(analyze.median([]))
        self.assertEqual(analyze.median([3]), 3)
        self.assertEqual(analyze.median([5, 1, 3]), 3)
        self.assertEqual(analyze.median([4, 1, 3, 2]), 2.5)

    def test_min_median_max(self):
        self.assertEqual(analyze.min_median_max([2, 9, 4]), {"min": 2, "median": 4, "max": 9})
        self.assertEqual(analyze.min_median_max([]), {"min": None, "median": None, "max": None})

    def test_percentile_is_nearest_rank(self):
        # 1..100 once each: p50 is the 50th value, p99 the 99th
        histogram = self.histogram({value: 1 for value in range(1, 101)})
        self.assertEqual(histogram.percentile(0.50), 50)
        self.assertEqual(histogram.percentile(0.99), 99)
        # 10 samples: rank ceil(9.9) = 10 for p99, ceil(5) = 5 for p50
        histogram = self.histogram({1: 5, 2: 4, 100: 1})
        self.assertEqual(histogram.percentile(0.50), 1)
        self.assertEqual(histogram.percentile(0.99), 100)
        self.assertIsNone(analyze.Histogram().percentile(0.5))

    def test_histogram_summary(self):
        summary = analyze.histogram_summary(self.histogram({10: 3, 40: 1}))
        self.assertEqual(summary, {"n": 4, "avg": 17.5, "max": 40, "p50": 10, "p99": 40})

    def test_ccdf_thins_close_values_and_keeps_the_last(self):
        histogram = self.histogram({0: 1, 100: 1, 100.5: 1, 200: 1})
        # 0 is drawn at 1 (log axes); 100.5 is within 1 % of 100
        self.assertEqual(histogram.ccdf_points(), [(1, 1.0), (100, 0.75), (200, 0.25)])

    def test_ratio(self):
        self.assertEqual(analyze.ratio(3, 2), 1.5)
        self.assertIsNone(analyze.ratio(3, 0))
        self.assertIsNone(analyze.ratio(None, 2))
        self.assertIsNone(analyze.ratio("nan", 2))

    def test_repeat_ratios_pair_each_repeat_with_eevdf(self):
        values = {("eevdf", 1, 4): 100, ("burst", 1, 4): 110,
                  ("eevdf", 2, 4): 200, ("burst", 2, 4): 180,
                  ("burst", 3, 4): 50}          # no EEVDF run in repeat 3
        self.assertEqual(analyze.repeat_ratios(values, "burst", 4, 3), [1.1, 0.9])

    def test_round6(self):
        self.assertEqual(analyze.round6(4139746420), 4139750000)
        self.assertEqual(analyze.round6(86.854912), 86.8549)
        self.assertIsNone(analyze.round6(None))
        self.assertIsNone(analyze.round6(float("nan")))

    def test_growth_needs_enough_calls_and_keeps_the_two_largest(self):
        before = {"a": (100, 60, 0, 0), "b": (100, 60, 0, 0), "c": (100, 60, 0, 0), "rare": (100, 10, 0, 0)}
        after = {"a": (150, 60, 0, 0), "b": (120, 60, 0, 0), "c": (300, 60, 0, 0), "rare": (900, 60, 0, 0)}
        growth = analyze.Growth(before, after)
        self.assertEqual(growth.ratios, {"a": 1.5, "b": 1.2, "c": 3})
        self.assertEqual((growth.worst, growth.worst_callback), (3, "c"))
        self.assertEqual((growth.next, growth.next_callback), (1.5, "a"))


class StepsTest(unittest.TestCase):
    """Target 4: the steps the hot callbacks count, against the bounds of
    policy.h."""

    def header(self, body):
        handle = tempfile.NamedTemporaryFile("w", suffix=".h", delete=False, encoding="utf-8")
        self.addCleanup(os.unlink, handle.name)
        handle.write("enum burst_limits { BURST_MAX_SCORE = 39, };\n"
                     "enum burst_step_limits {\n" + body + "};\n")
        handle.close()
        return handle.name

    def test_bounds_are_read_from_the_enum_with_names_and_comments(self):
        path = self.header("\tBURST_LLC_SCAN_MAX = 4,\n"
                           "\t/* not a bound: BURST_STEPS_MAX_SELECT = 99, */\n"
                           "\tBURST_STEPS_IDLE_SEARCH = 7,\n"
                           "\tBURST_STEPS_MAX_SELECT = 2 + 2 * BURST_STEPS_IDLE_SEARCH,\n"
                           "\tBURST_STEPS_MAX_ENQUEUE = 1 +\n\t\t\t\tBURST_LLC_SCAN_MAX,\n"
                           "\tBURST_STEPS_MAX_DISPATCH = 3 * (1 + BURST_LLC_SCAN_MAX),\n")
        self.assertEqual(analyze.step_bounds(path), {"select": 16, "enqueue": 5, "dispatch": 15})

    def test_a_bound_that_is_not_a_constant_is_an_error(self):
        path = self.header("\tBURST_STEPS_MAX_SELECT = nr_cpu_ids * 2,\n")
        with self.assertRaises(analyze.BenchError):
            analyze.step_bounds(path)
        with self.assertRaises(analyze.BenchError):
            analyze.step_bounds(path + ".missing")

    def test_the_repository_bounds_are_numbers(self):
        bounds = analyze.step_bounds()
        self.assertEqual(sorted(bounds), ["dispatch", "enqueue", "select"])
        self.assertTrue(all(isinstance(value, int) and value > 0 for value in bounds.values()), bounds)

    def overhead(self, per_call, most=None):
        """2 and 4 vCPUs, both policies; per_call(smp, load, callback)."""
        overhead = {}
        for smp in (2, 4):
            for sched in analyze.POLICIES:
                for load in analyze.LOADS:
                    overhead.setdefault(str(smp), {}).setdefault(sched, {})[load] = {"steps": {
                        callback: {"calls": 1000, "steps": 1000 * per_call(smp, load, callback),
                                   "steps_per_call": per_call(smp, load, callback),
                                   "max_steps": (most or {}).get(callback, 6)}
                        for callback, _ in analyze.STEP_CALLBACKS}}
        return overhead

    def judge(self, overhead):
        worst = {(sched, "light_to_heavy"): analyze.Growth({}, {}) for sched in analyze.POLICIES}
        steps = analyze.step_growth(overhead, [2, 4], worst)
        return steps, analyze.step_target(worst, "burst")

    def test_flat_steps_within_the_bounds_meet_the_target(self):
        # light 3, medium 5, heavy 5.5 steps per call; 4 vCPUs the same
        steps, verdict = self.judge(self.overhead(
            lambda smp, load, callback: {"light": 3, "medium": 5, "heavy": 5.5}[load]))
        self.assertEqual(verdict["met"], "yes", verdict["detail"])
        worst = steps["burst"]["worst"]
        self.assertAlmostEqual(worst["queue_growth"], 1.1)
        self.assertAlmostEqual(worst["vcpus_growth"], 1.0)
        self.assertAlmostEqual(worst["light_to_heavy"], 5.5 / 3, places=5)
        self.assertTrue(worst["within_bounds"])
        self.assertEqual(steps["burst"]["max_steps_per_call"]["dispatch"], 5.5)
        self.assertIn("dispatch 6/%d" % analyze.step_bounds()["dispatch"], verdict["detail"])

    def test_steps_that_grow_with_the_queue_miss_the_target(self):
        steps, verdict = self.judge(self.overhead(
            lambda smp, load, callback: 8 if (load, callback) == ("heavy", "dispatch") else 4))
        self.assertEqual(verdict["met"], "no")
        self.assertEqual((steps["burst"]["worst"]["queue_growth"],
                          steps["burst"]["worst"]["queue_growth_callback"]), (2, "dispatch"))
        self.assertIn("(medium -> heavy) at most 2.00x (dispatch)", verdict["detail"])

    def test_steps_that_grow_with_the_cpus_miss_the_target(self):
        steps, verdict = self.judge(self.overhead(lambda smp, load, callback: smp))
        self.assertEqual(verdict["met"], "no")
        self.assertEqual(steps["burst"]["worst"]["vcpus_growth"], 2)

    def test_one_call_over_its_bound_misses_the_target(self):
        over = analyze.step_bounds()["enqueue"] + 1
        steps, verdict = self.judge(self.overhead(lambda smp, load, callback: 4, {"enqueue": over}))
        self.assertFalse(steps["burst"]["worst"]["within_bounds"])
        self.assertEqual(verdict["met"], "no")
        self.assertIn("enqueue %d/" % over, verdict["detail"])

    def test_no_steps_counted_is_not_a_verdict(self):
        worst = {(sched, "light_to_heavy"): analyze.Growth({}, {}) for sched in analyze.POLICIES}
        analyze.step_growth({}, [], worst)
        self.assertEqual(analyze.step_target(worst, "burst")["met"], "n/a")

class InteractiveTest(unittest.TestCase):
    """The interactive workloads (issue 13): metrics, ratios and targets
    worked out by hand."""

    def suite_with(self, lines_by_boot):
        """A Suite fed "@@B" lines per boot ({boot: (vcpus, [line])})."""
        suite = analyze.Suite("sid", "7.2")
        for boot, (smp, lines) in lines_by_boot.items():
            suite.boots.append({"boot": boot, "vcpus": smp, "rc": 0, "wall_s": 1, "complete": True})
            for number, line in enumerate(lines, 1):
                words = line.split()
                where = "%s:%d" % (boot, number)
                if words[1] == "hist":
                    suite.add_histogram(boot, words[2:], where)
                else:
                    suite.add_record(boot, smp, words[1], analyze.parse_fields(words[2:], where), where)
        return suite

    def runs(self, sched, rep, wake, rtt, idle_trips, hogs_ns, migrations=4):
        """The three workloads of one scheduler in one repeat: every
        renderer wake took `wake` us, every loaded round trip `rtt` us."""
        return [
            "@@B ia sched=%s rep=%d exp=idle rc=0 valid=1 elapsed_ns=2000000000 pp_trips=%d "
            "pp_switches=100 pp_migrations=%d" % (sched, rep, idle_trips, migrations),
            "@@B hist ia.idle.%s.%d.pp_rtt 20:%d" % (sched, rep, idle_trips),
            "@@B ia sched=%s rep=%d exp=sat rc=0 valid=1 elapsed_ns=2000000000 render_frames=8 "
            "render_misses=1 render_dropped=2 pp_trips=100 fork_workers=2 fork_loops=10 "
            "fork_cpu_ns=500000000 hogs_n=6 hogs_run_ns=%d render_switches=30 render_migrations=2 "
            "pp_switches=200 pp_migrations=0 fork_switches=50 fork_migrations=%d hogs_switches=20 "
            "hogs_migrations=0" % (sched, rep, hogs_ns, migrations),
            "@@B hist ia.sat.%s.%d.render_wake %d:9 5000:1" % (sched, rep, wake),
            "@@B hist ia.sat.%s.%d.render_resp 4000:10" % (sched, rep),
            "@@B hist ia.sat.%s.%d.pp_rtt %d:100" % (sched, rep, rtt),
            "@@B ia sched=%s rep=%d exp=mix rc=0 valid=1 elapsed_ns=4000000000 render_frames=240 "
            "render_misses=0 render_dropped=0 pp_trips=50 build_slots=4 build_jobs=10 build_work_ms=1000 "
            "render_switches=1 render_migrations=0 build_switches=3 build_migrations=0" % (sched, rep),
            "@@B hist ia.mix.%s.%d.render_wake 30:240" % (sched, rep),
        ]

    def test_metrics_of_one_run(self):
        suite = self.suite_with({"main": (4, self.runs("eevdf", 1, 100, 300, 400, 3000000000))})
        values = analyze.ia_run_metrics(suite, "main", "eevdf", 1)
        # 10 wakes: p50 is the 5th (100 us), p99 the 10th (5000 us)
        self.assertEqual((values["render_wake_p50_us"], values["render_wake_p99_us"]), (100, 5000))
        # 1 late frame + 2 dropped periods of 8 frames + 2 dropped
        self.assertEqual(values["render_missed"], 0.3)
        self.assertEqual(values["mix_render_missed"], 0)
        self.assertEqual(values["pp_idle_rate"], 200)
        self.assertEqual(values["pp_load_rate"], 50)
        self.assertEqual(values["pp_load_p50_us"], 300)
        self.assertEqual(values["fork_cpu_share"], 0.25)
        self.assertEqual(values["fork_loops_per_s"], 5)
        self.assertEqual(values["hogs_cpu_share"], 1.5)
        # (30 + 200 + 50 + 20) switches, (2 + 0 + 4 + 0) migrations in 2 s
        self.assertEqual(values["sat_switches_per_s"], 150)
        self.assertEqual(values["sat_migrations_per_s"], 3)
        self.assertEqual(values["build_jobs_per_s"], 2.5)
        self.assertEqual(values["build_work_share"], 0.25)
        self.assertEqual(values["mix_render_wake_p50_us"], 30)
        self.assertIsNone(values["lat_p50_us"])

    def test_ratios_are_same_boot_and_several_boots_give_one_per_boot(self):
        # boot ia1: two repeats, burst wakes at 50 and 150 us against EEVDF's
        # 100: ratios 0.5 and 1.5, boot median 1.0; boot ia2: 0.2
        suite = self.suite_with({
            "ia1": (2, self.runs("eevdf", 1, 100, 300, 400, 2000000000) + self.runs("burst", 1, 50, 300, 400, 1000000000)
                    + self.runs("eevdf", 2, 100, 300, 400, 2000000000) + self.runs("burst", 2, 150, 300, 400, 1000000000)),
            "ia2": (2, self.runs("eevdf", 1, 500, 300, 400, 2000000000) + self.runs("burst", 1, 100, 300, 600, 2000000000)
                    + ["@@B ctr exp=ia_sat sched=burst rep=1 enqueue=300 runs=6"]),
        })
        results = analyze.interactive_results(suite)
        group = results["groups"]["ia"]
        self.assertEqual(group["boots"], ["ia1", "ia2"])
        self.assertEqual(group["reps"], 2)
        wake = group["burst"]["render_wake_p50_us"]
        self.assertEqual(wake["ratio"], {"min": 0.2, "median": 0.6, "max": 1})
        self.assertEqual(wake["value"], {"min": 50, "median": 100, "max": 150})
        # hogs: 0.5, 0.5 in ia1, 1.0 in ia2
        self.assertEqual(group["burst"]["hogs_cpu_share"]["ratio"], {"min": 0.5, "median": 0.75, "max": 1})
        # no missed frames in the mix under either: 0 / 0 is 1
        self.assertEqual(group["burst"]["mix_render_missed"]["ratio"]["median"], 1)
        self.assertNotIn("main", results["groups"])
        # 300 enqueues over the three saturated windows of 2 s
        self.assertEqual(group["burst"]["counters_per_s"], {"enqueue": 50, "runs": 1})
        self.assertNotIn("counters_per_s", group["eevdf"])
        # one boot: the ratios are per repeat
        suite = self.suite_with({"main": (4, self.runs("eevdf", 1, 100, 300, 400, 2000000000)
                                           + self.runs("burst", 1, 50, 300, 400, 1000000000)
                                           + self.runs("eevdf", 2, 100, 300, 400, 2000000000)
                                           + self.runs("burst", 2, 150, 300, 400, 1000000000))})
        wake = analyze.interactive_results(suite)["groups"]["main"]["burst"]["render_wake_p50_us"]
        self.assertEqual(wake["ratio"], {"min": 0.5, "median": 1, "max": 1.5})

    def test_targets_say_by_how_much(self):
        ratios = {"burst": {"render_wake_p50_us": 0.8, "render_wake_p99_us": 0.75, "render_missed": 0.5,
                            "pp_load_p50_us": 1.0, "pp_idle_rate": 1.1, "hogs_cpu_share": 0.45,
                            "sat_migrations_per_s": 1, "mix_migrations_per_s": 0.5, "idle_migrations_per_s": 2},
                  "simple": {"render_wake_p50_us": 0.9, "render_wake_p99_us": 0.5, "render_missed": 0.6,
                             "pp_load_p50_us": 1.2, "pp_idle_rate": 1.0}}
        targets = analyze.ia_targets(ratios, ["eevdf", "burst", "simple"])
        self.assertEqual(targets["saturated"]["burst"]["met"], "no")
        self.assertEqual(targets["saturated"]["burst"]["detail"],
                         "render_wake_p50 0.80x (<= 1.00x), render_wake_p99 0.75x (<= 0.50x: missed by 0.25x), "
                         "render_missed 0.50x (<= 0.50x), pp_load_p50 1.00x (<= 1.00x)")
        self.assertEqual(targets["idle_rate"]["burst"]["met"], "yes")
        self.assertEqual(targets["hogs"]["burst"]["detail"], "hogs_cpu_share 0.45x (>= 0.60x: missed by 0.15x)")
        self.assertEqual(targets["migrations"]["burst"]["met"], "no")
        self.assertEqual(targets["peers"]["burst"]["met"], "no")
        self.assertEqual(targets["peers"]["burst"]["detail"], "render_wake_p99 0.75x vs simple's 0.50x")
        self.assertEqual(targets["hogs"]["deadline"]["met"], "n/a")
        self.assertEqual(analyze.ia_targets(ratios, ["eevdf", "burst"])["peers"]["burst"]["detail"],
                         "no peer scheduler ran")

    def test_a_peer_is_a_column_and_a_skipped_one_is_named(self):
        suite = self.suite_with({"ia1": (2, ["@@B start mode=ia ncpu=2 ia_s=2 floor_s=1",
                                             "@@B floor id=start cpus=2 total_ns=1000 gap_ns=250 gaps=1",
                                             "@@B hist floor.start 3000:1"]
                                            + self.runs("eevdf", 1, 100, 300, 400, 2000000000)
                                            + self.runs("simple", 1, 300, 600, 200, 1000000000)
                                            + ["@@B skip sched=qmap why=peer_on_failed state=disabled"])})
        suite.release = "7.2"
        results = {"meta": {"suites": ["sid"]}, "kernels": {"sid": json.loads(json.dumps(
            {"interactive": analyze.interactive_results(suite)}))}}
        group = results["kernels"]["sid"]["interactive"]["groups"]["ia"]
        self.assertEqual(group["schedulers"], ["eevdf", "simple"])
        self.assertEqual(group["simple"]["pp_idle_rate"]["ratio"]["median"], 0.5)
        self.assertEqual(group["stall_floor"]["stalled_pct"]["median"], 25)
        lines = []
        analyze.report_interactive(results, lines, "benchmarks")
        self.assertIn("| metric | EEVDF | simple | simple / EEVDF |", lines)
        self.assertIn("| renderer wakeup delay p50, us ↓ | 100 | 300 | 3.00 |", lines)
        self.assertIn("sid kernel: schedulers that could not be loaded: `qmap: peer_on_failed`.", lines)
        self.assertTrue(any("stalled 25.0 % of the time, gap p99 3.0 ms" in line for line in lines))

    def test_check_requires_the_section(self):
        with open(os.path.join(FIXTURES, "quick-sid", "expected", "results.json"), encoding="utf-8") as handle:
            results = json.load(handle)
        problems = analyze.check(results)
        self.assertIn("kernels.sid.interactive.groups.main missing (interactive workloads, main boot)", problems)
        results["kernels"]["sid"]["boots"].append({"boot": "ia1", "vcpus": 2, "rc": 0, "complete": True})
        self.assertIn("kernels.sid.interactive.groups.ia missing (interactive workloads, ia boots)",
                      analyze.check(results))


class BadInputTest(unittest.TestCase):
    """Bad input: one line naming the problem on stderr, exit status 2."""

    def run_dir_with(self, log_text):
        run_dir = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, run_dir)
        shutil.copytree(os.path.join(FIXTURES, "quick-sid"), run_dir, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("expected"))
        with open(os.path.join(run_dir, "logs", "sid-main.log"), "w", encoding="utf-8") as handle:
            handle.write(log_text)
        return run_dir

    def run_analyzer(self, *args):
        process = subprocess.run([sys.executable, os.path.join(HERE, "analyze.py"), *args],
                                 capture_output=True, text=True)
        return process.returncode, process.stdout, process.stderr

    def assert_one_line_error(self, args, fragment):
        status, stdout, stderr = self.run_analyzer(*args)
        self.assertEqual(status, 2, stderr)
        self.assertEqual(stdout, "")
        self.assertEqual(len(stderr.splitlines()), 1, stderr)
        self.assertTrue(stderr.startswith("analyze.py: error: "), stderr)
        self.assertIn(fragment, stderr)

    def analyze_args(self, run_dir):
        return ["analyze", run_dir, "--host-cpus", "2", "--qemu-version", "qemu"]

    def test_record_cut_in_the_middle(self):
        with open(os.path.join(FIXTURES, "quick-sid", "logs", "sid-main.log"), encoding="utf-8") as handle:
            lines = handle.read().splitlines()
        cut = next(i for i, line in enumerate(lines) if line.startswith("@@B sb "))
        run_dir = self.run_dir_with("\n".join(lines[:cut] + ["@@B sb sched=eevdf rep=1 thr"]) + "\n")
        self.assert_one_line_error(self.analyze_args(run_dir), "sid-main.log:%d: malformed field 'thr'" % (cut + 1))

    def test_histogram_cut_in_the_middle(self):
        run_dir = self.run_dir_with("@@B start mode=main ncpu=4\n@@B hist lat.eevdf.1 12:3 14\n")
        self.assert_one_line_error(self.analyze_args(run_dir), "malformed histogram pair '14'")

    def test_not_a_benchmark_log(self):
        run_dir = self.run_dir_with("[    1.0] Linux version 7.2\nKernel panic\n")
        self.assert_one_line_error(self.analyze_args(run_dir), "no '@@B start' record")

    def test_missing_log(self):
        with open(os.path.join(FIXTURES, "quick-sid", "logs", "sid-main.log"), encoding="utf-8") as handle:
            run_dir = self.run_dir_with(handle.read())
        os.remove(os.path.join(run_dir, "logs", "sid-ovh2.log"))
        self.assert_one_line_error(self.analyze_args(run_dir), "sid-ovh2.log: no such file")

    def test_log_that_stops_early_is_analyzed_and_fails_the_check(self):
        with open(os.path.join(FIXTURES, "quick-sid", "logs", "sid-main.log"), encoding="utf-8") as handle:
            lines = handle.read().splitlines()
        cut = next(i for i, line in enumerate(lines) if line.startswith("@@B sw "))
        run_dir = self.run_dir_with("\n".join(lines[:cut]) + "\n")
        results = analyze.analyze(run_dir, 2, "qemu")
        self.assertFalse(results["kernels"]["sid"]["complete"])
        problems = analyze.check(results)
        self.assertIn("kernels.sid.boots: boot main ended before its '@@B end' record", problems)
        self.assertIn("kernels.sid.live_switch.to_burst.visible_ms.median is null (experiment 5, to burst)",
                      problems)

    def test_invalid_json_for_report_and_check(self):
        bad = os.path.join(tempfile.mkdtemp(), "results.json")
        self.addCleanup(shutil.rmtree, os.path.dirname(bad))
        with open(bad, "w", encoding="utf-8") as handle:
            handle.write('{"meta": {"suites": ["sid"]')
        self.assert_one_line_error(["check", bad], "is not valid JSON")
        self.assert_one_line_error(["report", bad], "is not valid JSON")

    def test_check_of_an_empty_object(self):
        problems = analyze.check({})
        self.assertIn("meta.suites: no kernel", problems)

    def test_check_exit_status(self):
        # quick-steps was run before bench.sh ran the interactive
        # workloads, quick-ia before the callbacks counted their steps;
        # quick-trace also before bench.sh ran the interactive workloads,
        # quick-sid also before it traced a window: that is all they lack
        status, _, stderr = self.run_analyzer(
            "check", os.path.join(FIXTURES, "quick-steps", "expected", "results.json"))
        self.assertEqual(status, 1)
        self.assertEqual([line for line in stderr.splitlines() if ".interactive." not in line], [])
        status, _, stderr = self.run_analyzer(
            "check", os.path.join(FIXTURES, "quick-ia", "expected", "results.json"))
        self.assertEqual(status, 1)
        self.assertEqual([line for line in stderr.splitlines() if "step" not in line], [])
        status, _, stderr = self.run_analyzer(
            "check", os.path.join(FIXTURES, "quick-trace", "expected", "results.json"))
        self.assertEqual(status, 1)
        self.assertEqual([line for line in stderr.splitlines()
                          if ".interactive." not in line and "step" not in line], [])
        status, _, stderr = self.run_analyzer(
            "check", os.path.join(FIXTURES, "quick-sid", "expected", "results.json"))
        self.assertEqual(status, 1)
        self.assertEqual([line for line in stderr.splitlines()
                          if ".trace." not in line and ".interactive." not in line
                          and "step" not in line], [])
        status, _, stderr = self.run_analyzer(
            "check", os.path.join(FIXTURES, "two-kernels", "expected", "results.json"))
        self.assertEqual(status, 1)
        self.assertIn("boot ovh8 ended with status 124", stderr)


if __name__ == "__main__":
    unittest.main()
