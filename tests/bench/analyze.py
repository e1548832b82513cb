#!/usr/bin/env python3
"""The host side of the scx_burst benchmark (see docs/benchmarks.md).

tests/bench/bench.sh runs in the VM and prints "@@B <record> key=value..."
lines and "@@B hist <id> value:count..." histogram chunks on the console;
tests/bench/run-bench.sh saves each boot's console log.  This program
computes every statistic from those logs:

  analyze.py analyze RUN_DIR --host-cpus N --qemu-version TEXT \\
                     [--plot-data DIR] [--pictures DIR] > results.json
  analyze.py report results.json [--plot-dir benchmarks] > benchmarks.md
  analyze.py check results.json

RUN_DIR is run-bench.sh's results directory: boots.txt ("suite release boot
vcpus status wall_s" per boot), logs/SUITE-BOOT.log and the one-line files
date.txt, quick.txt, wall_s.txt, command.txt, qemu-settings.txt and
(optional) qemu-cmdline.txt.  --plot-data writes the gnuplot inputs
(lat-*.dat, tp-*.dat); --pictures the pictures and summary.json of the
traced latency windows ("@@BTRACE SCHED FILE base64-of-gzip" lines), as
SUITE-SCHED-PICTURE.svg and SUITE-SCHED-summary.json.  check prints one
line per missing result on stderr and exits 1 if anything is missing.  A log that is not a benchmark log or
has a malformed record is an error: one line on stderr, exit 2.

Python 3 standard library only.  Every number in results.json is rounded
to 6 significant digits, as the report shows them.
"""

import argparse
import base64
import binascii
import gzip
import json
import math
import os
import re
import sys

SCHEDULERS = ("eevdf", "burst", "deadline")
POLICIES = ("burst", "deadline")
DOMAIN_CONFIGS = ("eevdf", "burst", "burst_dom", "deadline", "deadline_dom")
LOADS = ("light", "medium", "heavy")
# a callback needs this many calls in both conditions for a growth ratio
MIN_GROWTH_CALLS = 50
# daemon stderr lines kept per kernel
MAX_STDERR_LINES = 20
NO_DOMAIN_GAP = ("scx_burst has no --primary-domain option yet (checked with --help in the VM); "
                 "experiment 3 not run")
OVERHEAD_LOADS = "light: 1 spinning hog; medium: 3 x nCPU; heavy: 12 x nCPU"
# the hot callbacks that count their steps (stats "steps" group), as the
# stats keys name them, and their ops
STEP_CALLBACKS = (("select", "select_cpu"), ("enqueue", "enqueue"), ("dispatch", "dispatch"))
# steps per call may grow by less than this with 4x the queue (medium ->
# heavy) and from the fewest to the most vCPUs (target 4)
STEP_GROWTH_LIMIT = 1.5
# the per-call step bounds the BPF code keeps (enum burst_step_limits)
POLICY_H = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir,
                        "include", "scx_burst", "policy.h")
# what `scx_burst trace` writes (docs/trace.md) and bench.sh sends back:
# picture name -> (file, what the report calls it)
TRACE_PICTURES = {"cpus": ("cpus.svg", "which task ran on each CPU"),
                  "running_waiting": ("running_waiting.svg", "running / waiting tasks"),
                  "latency": ("latency.svg", "wakeup latency of the cyclictest threads")}
TRACE_FILES = tuple(name for name, _ in TRACE_PICTURES.values()) + ("summary.json",)
# the traced windows: "lat" experiment 1's (the main boot), "ia" the
# saturated interactive workload's (the first mode=ia boot, an extra run)
TRACE_KINDS = ("lat", "ia")
# the parts of the saturated interactive workload, as benchprobe names
# their counters (PART_migrations) and threads (ia_PART), and what the
# report calls them
IA_PARTS = ("hogs", "fork", "render", "pp")
IA_PART_NAMES = {"hogs": "hogs", "fork": "fork workers and their children", "render": "renderer",
                 "pp": "ping-pong"}


def ia_part_key(part):
    """The metric of a part's migrations per second in the saturated runs."""
    return "sat_%s_migrations_per_s" % part


# the results node of each kind of traced window
TRACE_NODES = {"lat": "trace", "ia": "ia_trace"}
# tracer stderr lines kept per scheduler
MAX_TRACE_STDERR_LINES = 10

NUMBER_RE = re.compile(r"^-?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$")


class BenchError(Exception):
    """A problem with the input, reported as one line."""


# ---- numbers and statistics -------------------------------------------------

def parse_value(text):
    """A record's value: int or float if it reads as a number, else the text."""
    if not NUMBER_RE.match(text):
        return text
    value = float(text)
    return int(value) if value.is_integer() and abs(value) < 2**53 else value


def is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def round6(value):
    """value to 6 significant digits (None stays None), int when whole."""
    if not is_number(value):
        return None
    rounded = float("%.6g" % value)
    return int(rounded) if rounded.is_integer() and abs(rounded) < 2**53 else rounded


def number_text(value):
    """A number as the report and the plot data print it: whole numbers as
    integers, others with 6 significant digits."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return str(int(value))
    if isinstance(value, float):
        return "%.6g" % value
    return str(value)


def median(values):
    """The median of a list of numbers, None if it is empty."""
    ordered = sorted(values)
    count = len(ordered)
    if count == 0:
        return None
    if count % 2:
        return ordered[count // 2]
    return (ordered[count // 2 - 1] + ordered[count // 2]) / 2


def min_median_max(values):
    """{"min", "median", "max"} of a list (all None if it is empty)."""
    if not values:
        return {"min": None, "median": None, "max": None}
    return {"min": round6(min(values)), "median": round6(median(values)),
            "max": round6(max(values))}


def step_bounds(path=POLICY_H):
    """{callback: the most steps one call may take} from policy.h's enum
    burst_step_limits, the one definition the BPF code and the VM test use."""
    try:
        with open(path, encoding="utf-8") as handle:
            source = handle.read()
    except OSError as err:
        raise BenchError("%s: %s" % (path, err.strerror))
    match = re.search(r"enum burst_step_limits \{(.*?)\};", source, re.S)
    if match is None:
        raise BenchError("%s: no enum burst_step_limits" % path)
    body = re.sub(r"/\*.*?\*/", "", match.group(1), flags=re.S)
    values = {}
    for name, expr in re.findall(r"(BURST_\w+)\s*=\s*([^,]+),", body):
        for known in sorted(values, key=len, reverse=True):
            expr = expr.replace(known, str(values[known]))
        if not re.fullmatch(r"[0-9+* ()\t\n]+", expr):
            raise BenchError("%s: %s = %s is not a sum of products" % (path, name, expr.strip()))
        values[name] = eval("(%s)" % expr, {"__builtins__": {}})  # digits, + and * only
    return {callback: values.get("BURST_STEPS_MAX_" + callback.upper())
            for callback, _ in STEP_CALLBACKS}


def ratio(numerator, denominator):
    """numerator / denominator, None if either is missing or the denominator is 0."""
    if not is_number(numerator) or not is_number(denominator) or denominator == 0:
        return None
    return numerator / denominator


def percent(numerator, denominator):
    value = ratio(numerator, denominator)
    return None if value is None else value * 100


class Histogram:
    """Counts per value (latencies or gaps in us)."""

    def __init__(self):
        self.counts = {}

    def add(self, value, count):
        self.counts[value] = self.counts.get(value, 0) + count

    def merge(self, other):
        for value, count in other.counts.items():
            self.add(value, count)

    def sorted_items(self):
        return sorted(self.counts.items())

    @property
    def total(self):
        return sum(self.counts.values())

    def mean(self):
        total = self.total
        if total == 0:
            return None
        return sum(value * count for value, count in self.counts.items()) / total

    def maximum(self):
        return max(self.counts) if self.counts else None

    def percentile(self, quantile):
        """The smallest value with at least quantile of the samples at or
        below it (nearest rank: rank ceil(quantile * total)); None if empty."""
        total = self.total
        if total == 0:
            return None
        rank = math.ceil(quantile * total)
        seen = 0
        items = self.sorted_items()
        for value, count in items:
            seen += count
            if seen >= rank:
                return value
        return items[-1][0]

    def ccdf_points(self):
        """(value, share of samples at or above it), thinned to points at
        least 1 % apart in value (the plots are log-log) plus the last."""
        total = self.total
        items = self.sorted_items()
        points = []
        left = total
        last = None
        for index, (value, count) in enumerate(items):
            is_last = index == len(items) - 1
            if left > 0 and (last is None or value >= last * 1.01 or is_last):
                points.append((value if value > 0 else 1, left / total))
                last = value
            left -= count
        return points


def histogram_summary(histogram):
    return {"n": histogram.total, "avg": histogram.mean(), "max": histogram.maximum(),
            "p50": histogram.percentile(0.50), "p99": histogram.percentile(0.99)}


# ---- reading the logs ---------------------------------------------------------

def read_line_file(path, default=None):
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read().strip()
    except FileNotFoundError:
        if default is not None:
            return default
        raise BenchError("%s: no such file" % path)


def read_boots(run_dir):
    """The boots of boots.txt, in order: dicts suite, release, boot, smp, rc, wall_s."""
    path = os.path.join(run_dir, "boots.txt")
    boots = []
    for number, line in enumerate(read_line_file(path).splitlines(), 1):
        words = line.split()
        if len(words) != 6 or not all(is_number(parse_value(w)) for w in words[3:]):
            raise BenchError("%s:%d: expected 'suite release boot vcpus status wall_s', got '%s'"
                             % (path, number, line))
        boots.append({"suite": words[0], "release": words[1], "boot": words[2],
                      "smp": parse_value(words[3]), "rc": parse_value(words[4]),
                      "wall_s": parse_value(words[5])})
    if not boots:
        raise BenchError("%s: no boots recorded" % path)
    return boots


def parse_fields(words, where):
    """key=value words into a dict (values through parse_value)."""
    fields = {}
    for word in words:
        key, sep, value = word.partition("=")
        if not sep or not key:
            raise BenchError("%s: malformed field '%s' (truncated log?)" % (where, word))
        fields[key] = parse_value(value)
    return fields


def require(fields, keys, where):
    missing = [key for key in keys if key not in fields]
    if missing:
        raise BenchError("%s: record without %s (truncated log?)" % (where, ", ".join(missing)))


class Suite:
    """Everything the boots of one kernel suite recorded."""

    def __init__(self, name, release):
        self.name = name
        self.release = release
        self.main_smp = None
        self.boots = []               # dicts boot, vcpus, rc, wall_s, complete
        self.params = {}              # the main boot's start record
        self.floors = {}              # id -> floor record
        self.histograms = {}          # (boot, id) -> Histogram
        self.latency_runs = {}        # (sched, rep) -> lat record
        self.latency_hogs = None
        self.repeats = 0
        self.latency_window_ns = {}   # sched -> summed window
        self.counters = {}            # (exp, sched) -> {name: summed value}
        self.sysbench = {}            # (sched, rep, threads) -> events/s
        self.threads = []             # thread counts, in order of appearance
        self.domain_info = {}
        self.domain_shares = {}       # cfg -> [share]
        self.domain_ops = {}          # cfg -> [ops/s]
        self.domain_saturated = {}    # cfg -> [events/s]
        self.domain_saturated_by_rep = {}  # (cfg, rep) -> events/s
        self.overhead_windows = {}    # (smp, sched, load) -> summary
        self.overhead_programs = {}   # (smp, sched, load, prog) -> summary
        self.overhead_steps = {}      # (smp, sched, load, callback) -> {calls, steps, max}
        self.programs = []            # struct_ops programs, in order of appearance
        self.switches = {}            # to -> {"n", "set_ms", "visible_ms", "effective_ms"}
        self.switch_failures = 0
        self.switch_never_visible = 0
        self.switch_summary = {}
        self.cost = {}                # sched -> cost record
        self.error_exits = 0
        self.dmesg = {}               # message -> count
        self.daemon_stderr = []
        self.traces = {}              # (kind, sched) -> trace record (TRACE_KINDS)
        self.trace_files = {}         # (kind, sched, file) -> (first line's place, [base64 lines])
        self.trace_stderr = {}        # (kind, sched) -> [tracer stderr lines]
        self.trace_boots = {}         # kind -> the one boot whose traces are kept
        self.ia_runs = {}             # (boot, sched, rep, exp) -> ia record
        self.ia_latency = {}          # (boot, sched, rep) -> lat record of a mode=ia boot
        self.ia_floors = {}           # boot -> start floor record of a mode=ia boot
        self.ia_params = {}           # boot -> start record of a boot with ia records
        self.ia_boot_smp = {}         # boot -> vCPUs
        self.ia_schedulers = []       # schedulers with ia records, in order of appearance
        self.skips = []               # (boot, sched, why) of schedulers that could not be loaded
        self.ia_counters = {}         # (boot, sched) -> {name: summed value} over the saturated windows

    def add_record(self, boot, smp, kind, fields, where):
        handler = getattr(self, "record_" + kind, None)
        if handler is not None:
            handler(boot, smp, fields, where)

    def record_start(self, boot, smp, fields, where):
        if boot == "main":
            self.params = {k: v for k, v in fields.items() if k not in ("kernel", "mode")}
        self.ia_params[boot] = fields
        self.ia_boot_smp[boot] = smp

    def record_floor(self, boot, smp, fields, where):
        require(fields, ("id", "total_ns", "gap_ns"), where)
        if boot == "main":
            self.floors[fields["id"]] = fields
        elif fields["id"] == "start":
            self.ia_floors[boot] = fields

    def record_lat(self, boot, smp, fields, where):
        require(fields, ("sched", "rep", "valid", "window_ns"), where)
        if boot != "main":
            self.ia_latency[(boot, fields["sched"], fields["rep"])] = fields
            return
        self.latency_runs[(fields["sched"], fields["rep"])] = fields
        self.latency_hogs = fields.get("hogs")
        self.repeats = max(self.repeats, fields["rep"])
        sched = fields["sched"]
        self.latency_window_ns[sched] = self.latency_window_ns.get(sched, 0) + fields["window_ns"]

    def record_ctr(self, boot, smp, fields, where):
        require(fields, ("exp", "sched", "rep"), where)
        if fields["exp"] == "ia_sat":
            totals = self.ia_counters.setdefault((boot, fields["sched"]), {})
            for name, value in fields.items():
                if name not in ("exp", "sched", "rep"):
                    totals[name] = totals.get(name, 0) + value
            return
        if boot != "main":
            return
        totals = self.counters.setdefault((fields["exp"], fields["sched"]), {})
        for name, value in fields.items():
            if name not in ("exp", "sched", "rep"):
                totals[name] = totals.get(name, 0) + value

    def record_sb(self, boot, smp, fields, where):
        require(fields, ("sched", "rep", "threads", "eps", "valid"), where)
        if fields["valid"] == 1 and is_number(fields["eps"]):
            self.sysbench[(fields["sched"], fields["rep"], fields["threads"])] = fields["eps"]
        if fields["threads"] not in self.threads:
            self.threads.append(fields["threads"])

    def record_dom_info(self, boot, smp, fields, where):
        self.domain_info.update(fields)

    def record_dom_steady(self, boot, smp, fields, where):
        require(fields, ("cfg", "share", "ops", "valid"), where)
        if fields["valid"] == 1:
            self.domain_shares.setdefault(fields["cfg"], []).append(fields["share"])
            if is_number(fields["ops"]):
                self.domain_ops.setdefault(fields["cfg"], []).append(fields["ops"])

    def record_dom_sat(self, boot, smp, fields, where):
        require(fields, ("cfg", "rep", "eps", "valid"), where)
        if fields["valid"] == 1 and is_number(fields["eps"]):
            self.domain_saturated.setdefault(fields["cfg"], []).append(fields["eps"])
            self.domain_saturated_by_rep[(fields["cfg"], fields["rep"])] = fields["eps"]

    def record_ovh_load(self, boot, smp, fields, where):
        # one window; the windows of a load are summed, and their
        # per-window hog availability kept for the median
        require(fields, ("sched", "load", "cpus", "valid", "hogs", "elapsed_ns", "run_ns"), where)
        window = self.overhead_windows.setdefault(
            (smp, fields["sched"], fields["load"]),
            {"availability": [], "elapsed_ns": 0, "windows": 0, "valid": True})
        busy = min(fields["hogs"], fields["cpus"])
        if fields["elapsed_ns"] > 0 and busy > 0:
            window["availability"].append(fields["run_ns"] / (busy * fields["elapsed_ns"]))
        window["hogs"] = fields["hogs"]
        window["elapsed_ns"] += fields["elapsed_ns"]
        window["windows"] += 1
        if fields["valid"] != 1:
            window["valid"] = False

    def record_ovh(self, boot, smp, fields, where):
        require(fields, ("sched", "load", "prog", "run_ns", "cnt"), where)
        prog = fields["prog"]
        summary = self.overhead_programs.setdefault(
            (smp, fields["sched"], fields["load"], prog), {"run_ns": 0, "calls": 0, "per_window": []})
        summary["run_ns"] += fields["run_ns"]
        summary["calls"] += fields["cnt"]
        if fields["cnt"] > 0:
            summary["per_window"].append(fields["run_ns"] / fields["cnt"])
        if prog not in self.programs:
            self.programs.append(prog)

    def record_ovh_steps(self, boot, smp, fields, where):
        # one window: calls and steps are summed over the windows of a
        # load; max (the most one call took since the daemon started) is
        # the largest seen
        require(fields, ("sched", "load", "cb", "calls", "steps", "max"), where)
        summary = self.overhead_steps.setdefault(
            (smp, fields["sched"], fields["load"], fields["cb"]), {"calls": 0, "steps": 0, "max": None})
        summary["calls"] += fields["calls"]
        summary["steps"] += fields["steps"]
        if is_number(fields["max"]) and (summary["max"] is None or fields["max"] > summary["max"]):
            summary["max"] = fields["max"]

    def record_sw(self, boot, smp, fields, where):
        require(fields, ("to", "rc", "set_ns", "visible_ns", "effective_ns"), where)
        switch = self.switches.setdefault(
            fields["to"], {"n": 0, "set_ms": [], "visible_ms": [], "effective_ms": []})
        switch["n"] += 1
        if fields["rc"] != 0:
            self.switch_failures += 1
        switch["set_ms"].append(fields["set_ns"] / 1e6)
        if fields["visible_ns"] >= 0:
            switch["visible_ms"].append(fields["visible_ns"] / 1e6)
        else:
            self.switch_never_visible += 1
        if fields["effective_ns"] >= 0:
            switch["effective_ms"].append(fields["effective_ns"] / 1e6)

    def record_sw_sum(self, boot, smp, fields, where):
        self.switch_summary.update(fields)

    def record_cost(self, boot, smp, fields, where):
        require(fields, ("sched",), where)
        self.cost[fields["sched"]] = fields

    def record_ia(self, boot, smp, fields, where):
        require(fields, ("sched", "rep", "exp", "rc", "valid"), where)
        self.ia_runs[(boot, fields["sched"], fields["rep"], fields["exp"])] = fields
        if fields["sched"] not in self.ia_schedulers:
            self.ia_schedulers.append(fields["sched"])

    def record_skip(self, boot, smp, fields, where):
        require(fields, ("sched", "why"), where)
        self.skips.append((boot, fields["sched"], str(fields["why"])))

    def record_scx_error(self, boot, smp, fields, where):
        self.error_exits += 1

    def trace_boot(self, boot):
        """The kind of window boot's trace lines are of, or None when they
        are not kept: one boot per kind, the first that traced (the files
        of two boots would be one stream of chunks)."""
        kind = trace_kind(boot)
        if kind is None or self.trace_boots.setdefault(kind, boot) != boot:
            return None
        return kind

    def record_trace(self, boot, smp, fields, where):
        require(fields, ("sched", "rep", "rc", "started", "win_t0_ns", "win_t1_ns"), where)
        kind = self.trace_boot(boot)
        if kind is not None:
            self.traces[(kind, fields["sched"])] = dict(fields, boot=boot)

    def add_trace_line(self, kind, text, where):
        """One "@@BTRACE SCHED FILE DATA" line of a window of kind: a base64
        line of a gzipped file, or a line of the tracer's stderr (FILE
        "stderr")."""
        words = text.split(" ", 2)
        if len(words) < 2 or (words[1] != "stderr" and (len(words) < 3 or not words[2])):
            raise BenchError("%s: expected '@@BTRACE SCHED FILE DATA' (truncated log?)" % where)
        sched, name, data = (words + [""])[:3]
        if name == "stderr":
            kept = self.trace_stderr.setdefault((kind, sched), [])
            if len(kept) < MAX_TRACE_STDERR_LINES:
                kept.append(data.replace("\t", " "))
            return
        if name not in TRACE_FILES:
            raise BenchError("%s: unknown trace file '%s'" % (where, name))
        self.trace_files.setdefault((kind, sched, name), (where, []))[1].append(data)

    def trace_file(self, kind, sched, name):
        """The bytes of a file the tracer made, None if it was not sent."""
        entry = self.trace_files.get((kind, sched, name))
        if entry is None:
            return None
        where, chunks = entry
        try:
            return gzip.decompress(base64.b64decode("".join(chunks), validate=True))
        except (binascii.Error, OSError, EOFError, ValueError) as error:
            raise BenchError("%s: trace file %s of %s is not gzip in base64 (truncated log?): %s"
                             % (where, name, sched, error))

    def add_histogram(self, boot, words, where):
        if not words:
            raise BenchError("%s: histogram chunk without an id" % where)
        histogram = self.histograms.setdefault((boot, words[0]), Histogram())
        for pair in words[1:]:
            value, sep, count = pair.partition(":")
            if not sep or not value.isdigit() or not count.isdigit():
                raise BenchError("%s: malformed histogram pair '%s' (truncated log?)" % (where, pair))
            histogram.add(int(value), int(count))

    def add_dmesg(self, text, where):
        match = re.match(r"^([0-9]+) x (.*)$", text)
        if not match:
            raise BenchError("%s: expected '@@BDMESG N x message'" % where)
        message = match.group(2)
        self.dmesg[message] = self.dmesg.get(message, 0) + int(match.group(1))

    def histogram(self, boot, hist_id):
        return self.histograms.get((boot, hist_id), Histogram())


def is_ia_boot(boot):
    """Whether a boot (by name: ia1, ia2, ...) is a mode=ia boot."""
    return str(boot).startswith("ia")


def trace_kind(boot):
    """The kind of window a boot's trace records are of (TRACE_KINDS):
    experiment 1's in the main boot, the interactive workload's in a
    mode=ia boot, None elsewhere."""
    if boot == "main":
        return "lat"
    return "ia" if is_ia_boot(boot) else None


def read_log(suite, boot, path):
    """Feeds the @@B lines of one boot's console log to suite; returns
    whether the boot got to its '@@B end' record."""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            lines = handle.read().splitlines()
    except FileNotFoundError:
        raise BenchError("%s: no such file (boots.txt lists it)" % path)
    started = ended = False
    for number, line in enumerate(lines, 1):
        where = "%s:%d" % (path, number)
        if line.startswith("@@BDMESG "):
            suite.add_dmesg(line[len("@@BDMESG "):], where)
            continue
        if line.startswith("@@BTRACE "):
            kind = suite.trace_boot(boot["boot"])
            if kind is not None:
                suite.add_trace_line(kind, line[len("@@BTRACE "):], where)
            continue
        if line.startswith("@@BERR "):
            if len(suite.daemon_stderr) < MAX_STDERR_LINES:
                suite.daemon_stderr.append(line[len("@@BERR "):].replace("\t", " "))
            continue
        if not line.startswith("@@B "):
            continue
        words = line.split()
        if len(words) < 2:
            raise BenchError("%s: record without a name" % where)
        kind = words[1]
        if kind == "hist":
            suite.add_histogram(boot["boot"], words[2:], where)
            continue
        fields = parse_fields(words[2:], where)
        if kind == "start":
            started = True
            if suite.main_smp is None and boot["boot"] == "main":
                suite.main_smp = boot["smp"]
        elif kind == "end":
            ended = True
        suite.add_record(boot["boot"], boot["smp"], kind, fields, where)
    if not started:
        raise BenchError("%s: no '@@B start' record: not a benchmark log" % path)
    return ended


def read_run(run_dir):
    """The suites of a results directory, in boots.txt order."""
    suites = {}
    for boot in read_boots(run_dir):
        suite = suites.get(boot["suite"])
        if suite is None:
            suite = suites[boot["suite"]] = Suite(boot["suite"], boot["release"])
        suite.release = boot["release"]
        if boot["boot"] == "main":
            suite.main_smp = boot["smp"]
        path = os.path.join(run_dir, "logs", "%s-%s.log" % (boot["suite"], boot["boot"]))
        complete = read_log(suite, boot, path)
        suite.boots.append({"boot": boot["boot"], "vcpus": boot["smp"], "rc": boot["rc"],
                            "wall_s": boot["wall_s"], "complete": complete})
    return suites


# ---- results ------------------------------------------------------------------

def prune_empty(node):
    """Drops objects left without members (results only list what was measured)."""
    if isinstance(node, dict):
        pruned = {}
        for key, value in node.items():
            value = prune_empty(value)
            if not (isinstance(value, dict) and not value):
                pruned[key] = value
        return pruned
    return node


def stall_floor_results(suite, plot_data):
    floors = {}
    for floor_id in ("start", "end"):
        record = suite.floors.get(floor_id)
        if record is None:
            floors[floor_id] = None
            continue
        histogram = suite.histogram("main", "floor." + floor_id)
        summary = histogram_summary(histogram)
        floors[floor_id] = {
            "seconds": round6(suite.params.get("floor_s")),
            "stalled_pct": round6(percent(record["gap_ns"], record["total_ns"])),
            "gaps": summary["n"],
            "gap_p50_us": round6(summary["p50"]),
            "gap_p99_us": round6(summary["p99"]),
            "gap_max_us": round6(summary["max"]),
        }
        if floor_id == "start" and plot_data:
            write_ccdf(os.path.join(plot_data, "lat-%s-floor.dat" % suite.name), histogram)
    return floors


def repeat_ratios(values, sched, key, repeats):
    """Per-repeat ratios values[(sched, rep, key)] / values[("eevdf", rep, key)]."""
    ratios = []
    for rep in range(1, repeats + 1):
        value = ratio(values.get((sched, rep, key)), values.get(("eevdf", rep, key)))
        if value is not None:
            ratios.append(value)
    return ratios


def latency_results(suite, plot_data, medians):
    """Experiment 1; medians gets (sched, "p99"...) -> median per-repeat ratio."""
    results = {"hogs": round6(suite.latency_hogs), "threads": round6(suite.main_smp),
               "seconds": round6(suite.params.get("lat_s")), "reps": suite.repeats}
    per_repeat = {}
    for sched in SCHEDULERS:
        metrics = {"p50_us": [], "p99_us": [], "max_us": [], "avg_us": [], "samples": []}
        pooled = Histogram()
        for rep in range(1, suite.repeats + 1):
            run = suite.latency_runs.get((sched, rep))
            if run is None or run["valid"] != 1:
                continue
            histogram = suite.histogram("main", "lat.%s.%d" % (sched, rep))
            summary = histogram_summary(histogram)
            if not summary["n"]:
                continue
            pooled.merge(histogram)
            for metric, stat in (("p50_us", "p50"), ("p99_us", "p99"), ("max_us", "max"),
                                 ("avg_us", "avg"), ("samples", "n")):
                metrics[metric].append(summary[stat])
            for stat in ("p50", "p99", "max", "avg"):
                per_repeat[(sched, rep, stat)] = summary[stat]
        entry = {metric: min_median_max(values) for metric, values in metrics.items()}
        if sched != "eevdf":
            entry["ratio"] = {}
            for stat in ("p50", "p99", "max", "avg"):
                ratios = repeat_ratios(per_repeat, sched, stat, suite.repeats)
                entry["ratio"][stat] = min_median_max(ratios)
                medians[(sched, stat)] = median(ratios)
        if pooled.total and plot_data:
            write_ccdf(os.path.join(plot_data, "lat-%s-%s.dat" % (suite.name, sched)), pooled)
        window_s = suite.latency_window_ns.get(sched, 0) / 1e9
        entry["counters_per_s"] = {
            name: round6(value / window_s) if window_s > 0 else None
            for name, value in suite.counters.get(("lat", sched), {}).items()}
        results[sched] = entry
    return results


def throughput_results(suite, plot_data, ratio_medians):
    """Experiment 2; ratio_medians gets (sched, threads) -> median ratio."""
    sb_reps = suite.params.get("sb_reps")
    reps = suite.repeats if not is_number(sb_reps) else min(sb_reps, suite.repeats)
    results = {"threads": list(suite.threads), "seconds": round6(suite.params.get("sb_time")),
               "cpu_max_prime": round6(suite.params.get("sb_prime")), "reps": reps}
    rows = {threads: [number_text(threads)] for threads in suite.threads}
    for sched in SCHEDULERS:
        entry = {"eps": {}}
        for threads in suite.threads:
            values = [suite.sysbench[(sched, rep, threads)] for rep in range(1, suite.repeats + 1)
                      if (sched, rep, threads) in suite.sysbench]
            entry["eps"][str(threads)] = min_median_max(values)
            if values:
                rows[threads] += [number_text(median(values)), number_text(min(values)),
                                  number_text(max(values))]
            else:
                rows[threads] += ["?", "?", "?"]
        if sched != "eevdf":
            entry["ratio"] = {}
            for threads in suite.threads:
                ratios = repeat_ratios(suite.sysbench, sched, threads, suite.repeats)
                entry["ratio"][str(threads)] = min_median_max(ratios)
                ratio_medians[(sched, threads)] = median(ratios)
        results[sched] = entry
    if plot_data:
        with open(os.path.join(plot_data, "tp-%s.dat" % suite.name), "w", encoding="utf-8") as out:
            for threads in suite.threads:
                out.write(" ".join(rows[threads]) + "\n")
    return results


def domain_results(suite, medians):
    """Experiment 3; medians gets ("share", cfg) and ("saturated_ratio", policy)."""
    info = suite.domain_info
    if info.get("available") != 1:
        return {"available": False, "gap": NO_DOMAIN_GAP}
    results = {"available": True, "domain": str(info.get("domain", "")),
               "steady_tasks": round6(info.get("load_tasks")),
               "steady_task_load_pct": round6(info.get("load_pct")),
               "saturating_threads": round6(info.get("sat_threads"))}
    for cfg in DOMAIN_CONFIGS:
        shares = suite.domain_shares.get(cfg, [])
        ops = suite.domain_ops.get(cfg, [])
        ops_median = median(ops)
        spread = None
        if ops and ops_median is not None and ops_median > 0:
            spread = (max(ops) - min(ops)) / ops_median * 100
        results[cfg] = {
            "share_in_domain": min_median_max(shares),
            "steady_ops_per_s": min_median_max(ops),
            "steady_spread_pct": round6(spread),
            "saturated_eps": min_median_max(suite.domain_saturated.get(cfg, [])),
            "steady_counters": {name: round6(value) for name, value
                                in suite.counters.get(("dom_steady", cfg), {}).items()},
        }
        medians[("share", cfg)] = median(shares)
    for policy in POLICIES:
        ratios = []
        for rep in range(1, suite.repeats + 1):
            value = ratio(suite.domain_saturated_by_rep.get((policy + "_dom", rep)),
                          suite.domain_saturated_by_rep.get((policy, rep)))
            if value is not None:
                ratios.append(value)
        results[policy + "_dom"]["saturated_ratio_to_no_domain"] = min_median_max(ratios)
        medians[("saturated_ratio", policy)] = median(ratios)
    return results


def overhead_vcpus(suite):
    counts = [suite.main_smp] + [boot["vcpus"] for boot in suite.boots if boot["boot"].startswith("ovh")]
    return sorted(count for count in counts if count is not None)


def callback_costs(suite, smp, sched, load):
    """{prog: (ns per call as the median of the windows' averages, calls,
    pooled ns per call, run_ns)} of the callbacks called at all."""
    costs = {}
    for prog in suite.programs:
        summary = suite.overhead_programs.get((smp, sched, load, prog))
        if summary is None or summary["calls"] <= 0:
            continue
        costs[prog] = (median(summary["per_window"]), summary["calls"],
                       summary["run_ns"] / summary["calls"], summary["run_ns"])
    return costs


class Growth:
    """Per-callback ns-per-call ratios between two conditions: every ratio,
    the largest (worst) and the second largest (next)."""

    def __init__(self, before, after):
        self.ratios = {}
        self.worst = self.worst_callback = self.next = self.next_callback = None
        for prog, (ns_after, calls_after, _, _) in after.items():
            if prog not in before:
                continue
            ns_before, calls_before, _, _ = before[prog]
            if calls_before < MIN_GROWTH_CALLS or calls_after < MIN_GROWTH_CALLS:
                continue
            value = ratio(ns_after, ns_before)
            self.ratios[prog] = round6(value)
            if value is None:
                continue
            if self.worst is None or value > self.worst:
                self.next, self.next_callback = self.worst, self.worst_callback
                self.worst, self.worst_callback = value, prog
            elif self.next is None or value > self.next:
                self.next, self.next_callback = value, prog


def overhead_results(suite, worst):
    """Experiment 4; worst gets (sched, "light_to_heavy"...) -> Growth and
    (sched, "vcpus") -> (worst, callback, next, callback)."""
    vcpus = overhead_vcpus(suite)
    results = {"vcpus": vcpus, "seconds": round6(suite.params.get("ovh_s")),
               "loads": OVERHEAD_LOADS}
    costs = {}
    for smp in vcpus:
        per_smp = results.setdefault(str(smp), {})
        for sched in POLICIES:
            per_sched = per_smp.setdefault(sched, {})
            for load in LOADS:
                window = suite.overhead_windows.get((smp, sched, load))
                if window is None:
                    per_sched[load] = None
                    continue
                cost = costs[(smp, sched, load)] = callback_costs(suite, smp, sched, load)
                run_ns = sum(entry[3] for entry in cost.values())
                per_sched[load] = {
                    "hogs": round6(window["hogs"]),
                    "windows": window["windows"],
                    "hog_availability": round6(median(window["availability"])),
                    "valid": window["valid"],
                    "callbacks": {prog: {"calls": round6(calls), "ns_per_call": round6(ns),
                                         "ns_per_call_pooled": round6(pooled)}
                                  for prog, (ns, calls, pooled, _) in cost.items()},
                    "total_pct_of_cpus": round6(run_ns / (window["elapsed_ns"] * smp) * 100
                                                if window["elapsed_ns"] > 0 else None),
                    "steps": load_steps(suite, smp, sched, load),
                }
    growth_results = {"min_calls": MIN_GROWTH_CALLS}
    low, high = (vcpus[0], vcpus[-1]) if vcpus else (None, None)
    main = suite.main_smp
    for sched in POLICIES:
        entry = growth_results[sched] = {}
        for name, before, after in (("light_to_heavy", "light", "heavy"),
                                    ("medium_to_heavy", "medium", "heavy")):
            growth = Growth(costs.get((main, sched, before), {}), costs.get((main, sched, after), {}))
            entry[name] = growth.ratios
            worst[(sched, name)] = growth
        across = [None, "", None, ""]
        if low != high:
            for load in LOADS:
                growth = Growth(costs.get((low, sched, load), {}), costs.get((high, sched, load), {}))
                entry["vcpus_%s_to_%s" % (low, high)] = entry.get("vcpus_%s_to_%s" % (low, high), {})
                entry["vcpus_%s_to_%s" % (low, high)][load] = growth.ratios
                if growth.worst is not None and (across[0] is None or growth.worst > across[0]):
                    across[0:2] = [growth.worst, "%s (%s)" % (growth.worst_callback, load)]
                # the largest growth of any callback other than the worst one
                if growth.next is not None and (across[2] is None or growth.next > across[2]):
                    across[2:4] = [growth.next, "%s (%s)" % (growth.next_callback, load)]
        worst[(sched, "vcpus")] = across
        light_heavy = worst[(sched, "light_to_heavy")]
        medium_heavy = worst[(sched, "medium_to_heavy")]
        entry["worst"] = {
            "light_to_heavy": round6(light_heavy.worst),
            "light_to_heavy_callback": light_heavy.worst_callback or "",
            "medium_to_heavy": round6(medium_heavy.worst),
            "medium_to_heavy_callback": medium_heavy.worst_callback or "",
            "vcpus": round6(across[0]), "vcpus_callback": across[1],
            "vcpus_range": "%s->%s" % (number_text(low), number_text(high)),
        }
        entry["next_worst"] = {
            "light_to_heavy": round6(light_heavy.next),
            "light_to_heavy_callback": light_heavy.next_callback or "",
            "vcpus": round6(across[2]), "vcpus_callback": across[3],
        }
    results["growth"] = growth_results
    results["steps"] = step_growth(results, vcpus, worst)
    return results, (low, high)


def load_steps(suite, smp, sched, load):
    """{callback: calls, steps, steps per call, most in one call} of one
    load's windows."""
    steps = {}
    for callback, _ in STEP_CALLBACKS:
        summary = suite.overhead_steps.get((smp, sched, load, callback))
        if summary is None:
            continue
        steps[callback] = {"calls": round6(summary["calls"]), "steps": round6(summary["steps"]),
                           "steps_per_call": round6(ratio(summary["steps"], summary["calls"])),
                           "max_steps": round6(summary["max"])}
    return steps


def step_growth(overhead, vcpus, worst):
    """Target 4's numbers, per policy: the bound of each callback, the
    largest steps per call and the most steps in one call at any load and
    vCPU count, and how steps per call grow with 4x the queue (medium ->
    heavy, at every vCPU count) and from the fewest to the most vCPUs (at
    every load); worst gets (sched, "steps") -> that entry."""
    bounds = step_bounds()
    results = {"bounds": bounds, "growth_limit": STEP_GROWTH_LIMIT}
    low, high = (vcpus[0], vcpus[-1]) if vcpus else (None, None)

    def per_call(smp, sched, load, callback):
        return get(overhead, str(smp), sched, load, "steps", callback, "steps_per_call")

    for sched in POLICIES:
        entry = results[sched] = {"max_steps_per_call": {}, "max_steps": {}, "queue_growth": {},
                                  "vcpus_growth": {}, "light_to_heavy": {}}
        worst_queue = worst_vcpus = worst_light = None
        for callback, _ in STEP_CALLBACKS:
            averages, singles, queue, across, light = [], [], [], [], []
            for smp in vcpus:
                for load in LOADS:
                    value = per_call(smp, sched, load, callback)
                    if is_number(value):
                        averages.append(value)
                    most = get(overhead, str(smp), sched, load, "steps", callback, "max_steps")
                    if is_number(most):
                        singles.append(most)
                growth = ratio(per_call(smp, sched, "heavy", callback),
                               per_call(smp, sched, "medium", callback))
                if growth is not None:
                    queue.append(growth)
                growth = ratio(per_call(smp, sched, "heavy", callback),
                               per_call(smp, sched, "light", callback))
                if growth is not None:
                    light.append(growth)
            if low != high:
                for load in LOADS:
                    growth = ratio(per_call(high, sched, load, callback),
                                   per_call(low, sched, load, callback))
                    if growth is not None:
                        across.append(growth)
            entry["max_steps_per_call"][callback] = round6(max(averages) if averages else None)
            entry["max_steps"][callback] = round6(max(singles) if singles else None)
            entry["queue_growth"][callback] = round6(max(queue) if queue else None)
            entry["vcpus_growth"][callback] = round6(max(across) if across else None)
            entry["light_to_heavy"][callback] = round6(max(light) if light else None)
            for name, values in (("queue", queue), ("vcpus", across), ("light", light)):
                if values:
                    best = (max(values), callback)
                    if name == "queue" and (worst_queue is None or best[0] > worst_queue[0]):
                        worst_queue = best
                    if name == "vcpus" and (worst_vcpus is None or best[0] > worst_vcpus[0]):
                        worst_vcpus = best
                    if name == "light" and (worst_light is None or best[0] > worst_light[0]):
                        worst_light = best
        within = [entry["max_steps"][callback] is not None and bounds.get(callback) is not None
                  and entry["max_steps"][callback] <= bounds[callback]
                  for callback, _ in STEP_CALLBACKS]
        entry["worst"] = {
            "queue_growth": round6(worst_queue[0]) if worst_queue else None,
            "queue_growth_callback": worst_queue[1] if worst_queue else "",
            "vcpus_growth": round6(worst_vcpus[0]) if worst_vcpus else None,
            "vcpus_growth_callback": worst_vcpus[1] if worst_vcpus else "",
            "vcpus_range": "%s->%s" % (number_text(low), number_text(high)),
            "light_to_heavy": round6(worst_light[0]) if worst_light else None,
            "light_to_heavy_callback": worst_light[1] if worst_light else "",
            "within_bounds": all(within),
        }
        worst[(sched, "steps")] = entry
    return results


def live_switch_results(suite):
    summary = suite.switch_summary
    results = {
        "hogs": round6(summary.get("hogs")),
        "requested": sum(suite.switches.get(policy, {}).get("n", 0) for policy in ("deadline", "burst")),
        "counted_by_daemon": round6(summary.get("switches")),
        "failed_requests": suite.switch_failures,
        "never_visible": suite.switch_never_visible,
        "error_exits": round6(summary.get("exits")),
        "scheduler_stayed_enabled": summary.get("valid") == 1,
    }
    for policy in POLICIES:
        switch = suite.switches.get(policy, {"n": None, "set_ms": [], "visible_ms": [],
                                             "effective_ms": []})
        results["to_" + policy] = {
            "n": switch["n"],
            "set_ms": min_median_max(switch["set_ms"]),
            "visible_ms": min_median_max(switch["visible_ms"]),
            "effective_ms": min_median_max(switch["effective_ms"]),
        }
    return results


def daemon_cost_results(suite):
    results = {}
    for policy in POLICIES:
        cost = suite.cost.get(policy)
        if cost is None or not is_number(cost.get("elapsed_ns")):
            results[policy] = None
            continue
        elapsed = cost["elapsed_ns"]
        ticks_ns = None
        if is_number(cost.get("ticks")) and is_number(cost.get("hz")) and cost["hz"]:
            ticks_ns = cost["ticks"] / cost["hz"] * 1e9
        results[policy] = {
            "seconds": round6(elapsed / 1e9),
            "cpu_pct": round6(percent(cost.get("run_ns"), elapsed)),
            "cpu_pct_ticks": round6(percent(ticks_ns, elapsed)),
            "peak_rss_mib": round6(ratio(cost.get("hwm_kb"), 1024)),
            "rss_mib": round6(ratio(cost.get("rss_kb"), 1024)),
            "stats_lines": round6(cost.get("lines")),
            "valid": cost.get("valid") == 1,
        }
    return results


def times(value):
    """A ratio as the target details print it."""
    return "n/a" if value is None else "%.2fx" % value


def verdict(ok):
    return "yes" if ok else "no"


def target(met, detail):
    return {"met": met, "detail": detail}


def step_target(worst, sched):
    """Target 4, judged on the steps the hot callbacks count (not on the
    emulator's clock); ns per call only for information."""
    steps = worst.get((sched, "steps"))
    if steps is None or not any(is_number(value) for value in steps["max_steps"].values()):
        return target("n/a", "no steps counted")
    top = steps["worst"]
    bounds = step_bounds()
    queue, across = top["queue_growth"], top["vcpus_growth"]
    met = (top["within_bounds"] and queue is not None and queue < STEP_GROWTH_LIMIT
           and (across is None or across < STEP_GROWTH_LIMIT))
    light_heavy = worst[(sched, "light_to_heavy")]
    return target(verdict(met), (
        "most steps in one call %s (bound, policy.h); steps per call at most %s; growth with "
        "4x the queue (medium -> heavy) at most %s (%s), %s vCPUs at most %s (%s), target < %.2fx; "
        "for information: light -> heavy at most %s (%s; with every CPU busy an idle search runs "
        "to its end), ns per call light -> heavy at most %s (%s)" % (
            ", ".join("%s %s/%s" % (callback, number_text(steps["max_steps"].get(callback)),
                                    number_text(bounds.get(callback)))
                      for callback, _ in STEP_CALLBACKS),
            ", ".join("%s %s" % (callback, number_or_dash(steps["max_steps_per_call"].get(callback), "%.2f"))
                      for callback, _ in STEP_CALLBACKS),
            times(queue), top["queue_growth_callback"] or "–", top["vcpus_range"], times(across),
            top["vcpus_growth_callback"] or "not measured", STEP_GROWTH_LIMIT,
            times(top["light_to_heavy"]), top["light_to_heavy_callback"] or "–",
            times(light_heavy.worst), light_heavy.worst_callback or "–")))


def target_results(suite, latency, throughput, domain, worst, vcpu_range, cost):
    results = {name: {} for name in ("t1", "t2", "t3", "t4", "t6")}
    low, high = vcpu_range
    for sched in POLICIES:
        p99, peak, mean = (latency.get((sched, stat)) for stat in ("p99", "max", "avg"))
        if p99 is None or peak is None or mean is None:
            results["t1"][sched] = target("n/a", "no valid runs")
        else:
            results["t1"][sched] = target(
                verdict(p99 <= 0.5 and peak <= 0.5 and mean <= 1.0),
                "p99 %s, max %s (target <= 0.50x), avg %s (target <= 1.00x); median of per-repeat ratios"
                % (times(p99), times(peak), times(mean)))

        lowest = lowest_threads = None
        for threads in suite.threads:
            value = throughput.get((sched, threads))
            if value is not None and (lowest is None or value < lowest):
                lowest, lowest_threads = value, threads
        most = suite.threads[-1] if suite.threads else None
        highest = throughput.get((sched, most))
        if lowest is None or highest is None:
            results["t2"][sched] = target("n/a", "no valid runs")
        else:
            results["t2"][sched] = target(
                verdict(lowest >= 1.0 and highest >= 1.05),
                "lowest ratio %.3fx at %s threads (target >= 1.000x), %.3fx at %s threads (target >= 1.050x)"
                % (lowest, lowest_threads, highest, most))

        if suite.domain_info.get("available") != 1:
            results["t3"][sched] = target("gap", "--primary-domain not implemented yet")
        else:
            share = domain.get(("share", sched + "_dom"))
            saturated = domain.get(("saturated_ratio", sched))
            if share is None or saturated is None:
                results["t3"][sched] = target("n/a", "no valid runs")
            else:
                results["t3"][sched] = target(
                    verdict(share >= 0.99 and saturated >= 0.97),
                    "steady load %.1f%% inside the domain (target >= 99%%), saturated throughput %s "
                    "of no-domain (target >= 0.97x)" % (share * 100, times(saturated)))

        results["t4"][sched] = step_target(worst, sched)

        daemon = cost.get(sched)
        if daemon is None:
            results["t6"][sched] = target("n/a", "not measured")
        else:
            cpu, rss = daemon
            results["t6"][sched] = target(
                verdict(cpu is not None and rss is not None and cpu < 0.5 and rss < 16),
                "%.3f%% of one CPU (target < 0.5%%), peak RSS %.1f MiB (target < 16 MiB)"
                % (cpu or 0, rss or 0))

    summary = suite.switch_summary
    exits = summary.get("exits")
    stayed = summary.get("valid") == 1
    results["t5"] = {"all": target(
        verdict(suite.error_exits == 0 and stayed and suite.switch_failures == 0),
        "%d error exits in the whole boot (%s during the switches), %d failed set requests, "
        "scheduler %s" % (suite.error_exits, "?" if exits is None else number_text(exits),
                          suite.switch_failures,
                          "stayed enabled" if stayed else "did NOT stay enabled"))}
    return results


def trace_summary(suite, kind, sched, record):
    """The numbers of one traced window: summary.json's totals, and where
    the recording lay against the measured window; for the interactive
    workload also its parts' migrations (the selected tasks by comm)."""
    raw = suite.trace_file(kind, sched, "summary.json")
    if raw is None:
        return {}
    try:
        summary = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise BenchError("trace summary.json of %s (%s kernel) is not JSON: %s" % (sched, suite.name, error))
    totals = summary.get("totals") or {}
    latency = totals.get("latency_ns") or {}
    duration = summary.get("duration_ns")
    busy = totals.get("busy_ns")
    cpus = totals.get("cpus_online")
    threads = [task for task in summary.get("tasks") or [] if (task.get("latency_ns") or {}).get("count")]

    def ns_to(value, divisor):
        return round6(value / divisor) if is_number(value) else None

    def since(value, base):
        return round6((value - base) / 1e9) if is_number(value) and is_number(base) else None

    workload = {}
    if kind == "ia":
        parts = {}
        for part in IA_PARTS:
            tasks = [task for task in summary.get("tasks") or [] if task.get("comm") == "ia_" + part]
            parts[part] = {"tasks": len(tasks),
                           "migrations": sum(task.get("migrations") or 0 for task in tasks
                                             if is_number(task.get("migrations")))}
        workload = {"parts": parts, "migrations": round6(totals.get("migrations"))}
    return dict({
        "scheduler": str(summary.get("scheduler", "")),
        "seconds": ns_to(duration, 1e9),
        "start_s": since(summary.get("start_ns"), record["win_t0_ns"]),
        "end_s": since(summary.get("end_ns"), record["win_t1_ns"]),
        "events": round6(summary.get("nr_events")),
        "lost_events": round6(summary.get("lost_events")),
        "busy_pct": round6(percent(busy, duration * cpus) if is_number(duration) and is_number(cpus) else None),
        "idle_waited_ms": ns_to(totals.get("idle_waited_ns"), 1e6),
        "idle_waited_pct": round6(percent(totals.get("idle_waited_ns"), duration)),
        "wait_ms": ns_to(totals.get("wait_ns"), 1e6),
        "wakeups": round6(totals.get("wakeups")),
        "latency_p50_us": ns_to(latency.get("p50"), 1e3),
        "latency_p99_us": ns_to(latency.get("p99"), 1e3),
        "latency_max_us": ns_to(latency.get("max"), 1e3),
        "comm_threads": len(threads),
        "comm_wakeups": sum(task["latency_ns"]["count"] for task in threads),
        "comm_p99_us_max": ns_to(max((task["latency_ns"].get("p99") for task in threads
                                      if is_number(task["latency_ns"].get("p99"))), default=None), 1e3),
    }, **workload)


def ia_trace_seconds(suite):
    """The seconds of the interactive workload's traced run the mode=ia
    boots asked for (their ia_trace_s), 0 when none did."""
    asked = [params.get("ia_trace_s") for boot, params in suite.ia_params.items()
             if is_ia_boot(boot) and is_number(params.get("ia_trace_s"))]
    return max(asked, default=0)


def trace_results(suite, pictures, kind):
    """The traced windows of kind (TRACE_KINDS); writes the pictures and
    summary.json of every scheduler into the pictures directory (if
    given).  Nothing when the boots traced no such window and asked for
    none."""
    if kind == "lat":
        if not any(key[0] == kind for key in suite.traces):
            return {}
        params = suite.params
        results = {"seconds": round6(params.get("trace_s")), "rep": round6(params.get("trace_rep")),
                   "ringbuf_kb": round6(params.get("trace_kb"))}
    else:
        seconds = ia_trace_seconds(suite)
        if not seconds and not any(key[0] == kind for key in suite.traces):
            return {}
        results = {"seconds": round6(seconds)}
    for sched in SCHEDULERS:
        record = suite.traces.get((kind, sched))
        if record is None:
            continue
        entry = {"rc": record["rc"], "started": record["started"] == 1, "comm": str(record.get("comm", ""))}
        if kind == "ia":
            entry["boot"] = record["boot"]
            results.setdefault("ringbuf_kb", round6(record.get("ringbuf_kb")))
        entry.update(trace_summary(suite, kind, sched, record))
        entry["pictures"] = []
        for picture, (name, _) in TRACE_PICTURES.items():
            data = suite.trace_file(kind, sched, name)
            if data is None:
                continue
            entry["pictures"].append(picture)
            if pictures:
                with open(os.path.join(pictures, trace_picture(suite.name, sched, picture, kind)), "wb") as out:
                    out.write(data)
        if pictures and (kind, sched, "summary.json") in suite.trace_files:
            with open(os.path.join(pictures, trace_picture(suite.name, sched, "summary", kind, "json")),
                      "wb") as out:
                out.write(suite.trace_file(kind, sched, "summary.json"))
        if suite.trace_stderr.get((kind, sched)):
            entry["stderr"] = list(suite.trace_stderr[(kind, sched)])
        results[sched] = entry
    return results


def trace_picture(suite, sched, picture, kind="lat", extension="svg"):
    """The file name of a trace picture (or summary) in the pictures
    directory: SUITE-SCHED-PICTURE, SUITE-ia-SCHED-PICTURE for the
    interactive workload's window."""
    return "%s-%s%s-%s.%s" % (suite, "" if kind == "lat" else kind + "-", sched, picture, extension)


# ---- interactive workloads (issue 13) -------------------------------------------

IA_EXPERIMENTS = ("idle", "sat", "mix")
# key, what the report calls it, which way is better ("lower", "higher" or
# "" for counts shown for comparison), the report's number format
IA_METRICS = (
    ("render_wake_p50_us", "renderer wakeup delay p50, us", "lower", "%.0f"),
    ("render_wake_p99_us", "renderer wakeup delay p99, us", "lower", "%.0f"),
    ("render_resp_p50_us", "renderer response p50, us", "lower", "%.0f"),
    ("render_resp_p99_us", "renderer response p99, us", "lower", "%.0f"),
    ("render_missed", "frames missed, share of periods", "lower", "%.3f"),
    ("pp_load_p50_us", "ping-pong round trip p50 under load, us", "lower", "%.0f"),
    ("pp_load_p99_us", "ping-pong round trip p99 under load, us", "lower", "%.0f"),
    ("pp_load_rate", "ping-pong round trips/s under load", "higher", "%.0f"),
    ("fork_cpu_share", "fork workers' CPU time, s per s", "higher", "%.3f"),
    ("fork_loops_per_s", "fork workers' loops/s", "higher", "%.1f"),
    ("hogs_cpu_share", "hogs' run time, s per s", "higher", "%.3f"),
    ("sat_switches_per_s", "context switches/s (saturated)", "", "%.0f"),
    ("sat_migrations_per_s", "migrations/s (saturated)", "lower", "%.1f"),
) + tuple((ia_part_key(part), "migrations/s (saturated): %s" % IA_PART_NAMES[part], "lower", "%.1f")
          for part in IA_PARTS) + (
    ("pp_idle_p50_us", "idle ping-pong round trip p50, us", "lower", "%.0f"),
    ("pp_idle_p99_us", "idle ping-pong round trip p99, us", "lower", "%.0f"),
    ("pp_idle_rate", "idle ping-pong round trips/s", "higher", "%.0f"),
    ("idle_switches_per_s", "context switches/s (idle ping-pong)", "", "%.0f"),
    ("idle_migrations_per_s", "migrations/s (idle ping-pong)", "lower", "%.1f"),
    ("build_jobs_per_s", "build jobs/s (desktop mix)", "higher", "%.2f"),
    ("build_work_share", "build job CPU time finished, s per s", "higher", "%.3f"),
    ("mix_render_wake_p50_us", "mix: renderer wakeup delay p50, us", "lower", "%.0f"),
    ("mix_render_wake_p99_us", "mix: renderer wakeup delay p99, us", "lower", "%.0f"),
    ("mix_render_missed", "mix: frames missed, share of periods", "lower", "%.3f"),
    ("mix_pp_p50_us", "mix: ping-pong round trip p50, us", "lower", "%.0f"),
    ("mix_pp_p99_us", "mix: ping-pong round trip p99, us", "lower", "%.0f"),
    ("mix_switches_per_s", "context switches/s (desktop mix)", "", "%.0f"),
    ("mix_migrations_per_s", "migrations/s (desktop mix)", "lower", "%.1f"),
    ("lat_p50_us", "cyclictest wakeup latency p50, us", "lower", "%.0f"),
    ("lat_p99_us", "cyclictest wakeup latency p99, us", "lower", "%.0f"),
)
IA_METRIC_KEYS = tuple(metric[0] for metric in IA_METRICS)
# the targets of issue 13: name, policies, what the report calls it, and
# (metric, "<=" or ">=", limit) on the median ratio to EEVDF
IA_SATURATED = (("render_wake_p50_us", "<=", 1.0), ("render_wake_p99_us", "<=", 0.5),
                ("render_missed", "<=", 0.5), ("pp_load_p50_us", "<=", 1.0))
IA_TARGETS = (
    ("saturated", ("burst",), "renderer wakeup p50 <= 1.0x and p99 <= 0.5x, frames missed <= 0.5x, "
     "ping-pong p50 under load <= 1.0x", IA_SATURATED),
    ("idle_rate", ("burst",), "idle ping-pong rate >= 1.0x", (("pp_idle_rate", ">=", 1.0),)),
    ("peers", ("burst",), "ahead of every peer scheduler on each of the above", None),
    ("hogs", POLICIES, "hogs keep >= 0.6x next to fork workers and interactive tasks",
     (("hogs_cpu_share", ">=", 0.6),)),
    ("migrations", POLICIES, "migrations/s no more than EEVDF's",
     (("sat_migrations_per_s", "<=", 1.0), ("mix_migrations_per_s", "<=", 1.0),
      ("idle_migrations_per_s", "<=", 1.0))),
    ("p50", ("deadline",), "p50 metrics no worse than EEVDF",
     tuple((metric, "<=", 1.0) for metric in ("render_wake_p50_us", "render_resp_p50_us", "pp_load_p50_us",
                                              "pp_idle_p50_us", "mix_render_wake_p50_us", "mix_pp_p50_us",
                                              "lat_p50_us"))),
)


def share_ratio(numerator, denominator):
    """numerator / denominator for a same-boot ratio, with 0 / 0 = 1 (both
    saw none: no difference); None if either is missing or only the
    denominator is 0."""
    if is_number(numerator) and is_number(denominator) and numerator == 0 and denominator == 0:
        return 1.0
    return ratio(numerator, denominator)


def per_second(count, seconds):
    return count / seconds if is_number(count) and is_number(seconds) and seconds > 0 else None


def ia_run_metrics(suite, boot, sched, rep):
    """The metrics of one scheduler in one repeat of one boot: {key: value}
    (None where the workload did not run or was not valid)."""
    values = dict.fromkeys(IA_METRIC_KEYS)

    def summary(exp, name):
        return histogram_summary(suite.histogram(boot, "ia.%s.%s.%s.%s" % (exp, sched, number_text(rep), name)))

    for exp in IA_EXPERIMENTS:
        run = suite.ia_runs.get((boot, sched, rep, exp))
        if run is None or run["rc"] != 0 or run["valid"] != 1 or not is_number(run.get("elapsed_ns")):
            continue
        seconds = run["elapsed_ns"] / 1e9
        switches = sum(value for key, value in run.items() if key.endswith("_switches") and is_number(value))
        migrations = sum(value for key, value in run.items() if key.endswith("_migrations") and is_number(value))
        prefix = {"sat": "", "mix": "mix_", "idle": ""}[exp]
        values["%s_switches_per_s" % exp] = per_second(switches, seconds)
        values["%s_migrations_per_s" % exp] = per_second(migrations, seconds)
        if exp == "sat":
            for part in IA_PARTS:
                values[ia_part_key(part)] = per_second(run.get(part + "_migrations"), seconds)
        if "render_frames" in run:
            wake, resp = summary(exp, "render_wake"), summary(exp, "render_resp")
            values[prefix + "render_wake_p50_us"] = wake["p50"]
            values[prefix + "render_wake_p99_us"] = wake["p99"]
            if exp == "sat":
                values["render_resp_p50_us"] = resp["p50"]
                values["render_resp_p99_us"] = resp["p99"]
            # a period without a frame done in it: late frames and the
            # periods dropped while a late frame still ran
            periods = run["render_frames"] + run.get("render_dropped", 0)
            values[prefix + "render_missed"] = ratio(run["render_misses"] + run.get("render_dropped", 0),
                                                     periods)
        if "pp_trips" in run:
            rtt = summary(exp, "pp_rtt")
            name = {"sat": "pp_load", "idle": "pp_idle", "mix": "mix_pp"}[exp]
            values[name + "_p50_us"] = rtt["p50"]
            values[name + "_p99_us"] = rtt["p99"]
            if exp != "mix":
                values[name + "_rate"] = per_second(run["pp_trips"], seconds)
        if "fork_cpu_ns" in run:
            values["fork_cpu_share"] = per_second(run["fork_cpu_ns"] / 1e9, seconds)
            values["fork_loops_per_s"] = per_second(run.get("fork_loops"), seconds)
        if "hogs_run_ns" in run:
            values["hogs_cpu_share"] = per_second(run["hogs_run_ns"] / 1e9, seconds)
        if "build_jobs" in run:
            values["build_jobs_per_s"] = per_second(run["build_jobs"], seconds)
            values["build_work_share"] = per_second(run.get("build_work_ms", 0) / 1000, seconds)
    lat = (suite.latency_runs.get((sched, rep)) if boot == "main"
           else suite.ia_latency.get((boot, sched, rep)))
    if lat is not None and lat["valid"] == 1:
        cyclic = histogram_summary(suite.histogram(boot, "lat.%s.%s" % (sched, number_text(rep))))
        if cyclic["n"]:
            values["lat_p50_us"], values["lat_p99_us"] = cyclic["p50"], cyclic["p99"]
    return values


def ia_ratio_values(per_run, sched, boots):
    """The ratios a table shows for sched: {metric: [ratio]}.  Each ratio
    pairs a repeat with the EEVDF run of the same repeat in the same boot;
    with several boots, each boot's ratio is the median of its repeats and
    the list holds one per boot, else one per repeat."""
    ratios = {key: [] for key in IA_METRIC_KEYS}
    for key in IA_METRIC_KEYS:
        per_boot = []
        for boot in boots:
            reps = sorted(rep for (b, s, rep) in per_run if b == boot and s == sched)
            boot_ratios = []
            for rep in reps:
                base = per_run.get((boot, "eevdf", rep))
                if base is None:
                    continue
                value = share_ratio(per_run[(boot, sched, rep)][key], base[key])
                if value is not None:
                    boot_ratios.append(value)
            if boot_ratios:
                per_boot.append(boot_ratios)
        if len(boots) > 1:
            ratios[key] = [median(values) for values in per_boot]
        else:
            ratios[key] = [value for values in per_boot for value in values]
    return ratios


def ia_floor(suite, boots):
    """The stall floor at the start of boots: min-median-max over them."""
    stalled, p99, peak, seconds = [], [], [], []
    for boot in boots:
        record = suite.floors.get("start") if boot == "main" else suite.ia_floors.get(boot)
        if record is None:
            continue
        summary = histogram_summary(suite.histogram(boot, "floor.start"))
        value = percent(record["gap_ns"], record["total_ns"])
        if value is not None:
            stalled.append(value)
        if summary["n"]:
            p99.append(summary["p99"])
            peak.append(summary["max"])
        floor_s = (suite.ia_params.get(boot) or {}).get("floor_s")
        if is_number(floor_s):
            seconds.append(floor_s)
    return {"seconds": round6(median(seconds)), "stalled_pct": min_median_max(stalled),
            "gap_p99_us": min_median_max(p99), "gap_max_us": min_median_max(peak)}


def ia_check_text(metric, operator, limit, value):
    """One metric's part of a target's detail."""
    name = metric[:-3] if metric.endswith("_us") else metric
    if value is None:
        return "%s n/a" % name
    ok = value <= limit if operator == "<=" else value >= limit
    return "%s %s (%s %.2fx%s)" % (name, times(value), operator, limit,
                                  "" if ok else ": missed by %.2fx" % abs(value - limit))


def ia_targets(ratios, schedulers):
    """Issue 13's targets of one group: {target: {policy: {met, detail}}}
    from the median ratios (ratios[sched][metric])."""
    results = {}
    peers = [sched for sched in schedulers if sched not in SCHEDULERS]
    for name, policies, _, checks in IA_TARGETS:
        entry = results[name] = {}
        for policy in policies:
            if policy not in ratios:
                entry[policy] = target("n/a", "not run")
                continue
            mine = ratios[policy]
            if name == "peers":
                if not peers:
                    entry[policy] = target("n/a", "no peer scheduler ran")
                    continue
                parts, ok, known = [], True, True
                for peer in peers:
                    for metric, operator, _ in IA_SATURATED + (("pp_idle_rate", ">=", 1.0),):
                        value, other = mine.get(metric), ratios[peer].get(metric)
                        if value is None or other is None:
                            known = False
                            continue
                        ahead = value <= other if operator == "<=" else value >= other
                        if not ahead:
                            ok = False
                            parts.append("%s %s vs %s's %s" % (metric.replace("_us", ""), times(value),
                                                               peer, times(other)))
                entry[policy] = target(verdict(ok) if known else "n/a",
                                       "; ".join(parts) if parts else
                                       ("ahead or level on every metric" if known else "a ratio is missing"))
                continue
            values = [mine.get(metric) for metric, _, _ in checks]
            if any(value is None for value in values):
                met = "n/a"
            else:
                met = verdict(all(value <= limit if operator == "<=" else value >= limit
                                  for value, (_, operator, limit) in zip(values, checks)))
            entry[policy] = target(met, ", ".join(
                ia_check_text(metric, operator, limit, value)
                for value, (metric, operator, limit) in zip(values, checks)))
    return results


def interactive_results(suite):
    """The interactive workloads: per group of boots (the main boot; the
    mode=ia boots), per scheduler, every metric's median (min-max) and its
    ratio to EEVDF, the stall floor and the targets."""
    groups = {}
    ia_boots = [boot["boot"] for boot in suite.boots if is_ia_boot(boot["boot"])]
    for group, boots in (("main", ["main"]), ("ia", ia_boots)):
        boots = [boot for boot in boots if any(key[0] == boot for key in suite.ia_runs)]
        if not boots:
            continue
        schedulers = [sched for sched in SCHEDULERS if sched in suite.ia_schedulers] + [
            sched for sched in suite.ia_schedulers if sched not in SCHEDULERS]
        per_run = {}
        for (boot, sched, rep, _) in suite.ia_runs:
            if boot in boots:
                per_run[(boot, sched, rep)] = ia_run_metrics(suite, boot, sched, rep)
        params = suite.ia_params.get(boots[0]) or {}
        entry = {"boots": boots, "vcpus": round6(suite.ia_boot_smp.get(boots[0])),
                 "seconds": round6(params.get("ia_s")),
                 "reps": max(rep for (boot, _, rep) in per_run),
                 "schedulers": schedulers, "stall_floor": ia_floor(suite, boots)}
        medians = {}
        for sched in schedulers:
            runs = [values for (boot, s, _), values in sorted(per_run.items(), key=lambda item: str(item[0]))
                    if s == sched]
            node = entry[sched] = {}
            ratios = ia_ratio_values(per_run, sched, boots) if sched != "eevdf" else {}
            medians[sched] = {}
            for key in IA_METRIC_KEYS:
                metric = node[key] = {"value": min_median_max(
                    [values[key] for values in runs if values[key] is not None])}
                if sched != "eevdf":
                    metric["ratio"] = min_median_max(ratios[key])
                    medians[sched][key] = median(ratios[key])
            # scx_burst's counters over the saturated windows, per second
            window_s = sum(run["elapsed_ns"] for (boot, s, _, exp), run in suite.ia_runs.items()
                           if boot in boots and s == sched and exp == "sat" and is_number(run.get("elapsed_ns"))) / 1e9
            totals = {}
            for boot in boots:
                for name, value in suite.ia_counters.get((boot, sched), {}).items():
                    totals[name] = totals.get(name, 0) + value
            if totals and window_s > 0:
                node["counters_per_s"] = {name: round6(value / window_s) for name, value in sorted(totals.items())}
        entry["targets"] = ia_targets(medians, schedulers)
        groups[group] = entry
    skipped = sorted({"%s: %s" % (sched, why) for _, sched, why in suite.skips})
    return {"groups": groups, "skipped": skipped} if groups or skipped else {}


def suite_results(suite, plot_data, pictures=None):
    latency_medians, throughput_medians, domain_medians, worst = {}, {}, {}, {}
    results = {"release": suite.release, "vcpus": round6(suite.main_smp),
               "boots": suite.boots,
               "complete": all(boot["rc"] == 0 and boot["complete"] for boot in suite.boots)}
    results["stall_floor"] = stall_floor_results(suite, plot_data)
    results["latency"] = latency_results(suite, plot_data, latency_medians)
    for kind in TRACE_KINDS:
        results[TRACE_NODES[kind]] = trace_results(suite, pictures, kind)
    results["interactive"] = interactive_results(suite)
    results["throughput"] = throughput_results(suite, plot_data, throughput_medians)
    results["primary_domain"] = domain_results(suite, domain_medians)
    results["overhead"], vcpu_range = overhead_results(suite, worst)
    results["live_switch"] = live_switch_results(suite)
    results["daemon_cost"] = daemon_cost_results(suite)
    results["errors"] = {
        "scx_error_exits": suite.error_exits,
        "dmesg": ["%d x %s" % (count, message) for message, count in suite.dmesg.items()],
        "daemon_stderr": list(suite.daemon_stderr),
    }
    cost = {}
    for policy in POLICIES:
        entry = results["daemon_cost"].get(policy)
        if entry is not None:
            cost[policy] = (percent(suite.cost[policy].get("run_ns"), suite.cost[policy]["elapsed_ns"]),
                            ratio(suite.cost[policy].get("hwm_kb"), 1024))
    results["targets"] = target_results(suite, latency_medians, throughput_medians,
                                        domain_medians, worst, vcpu_range, cost)
    return results


def write_ccdf(path, histogram):
    with open(path, "w", encoding="utf-8") as out:
        for value, share in histogram.ccdf_points():
            out.write("%s %.6g\n" % (number_text(value), share))


def analyze(run_dir, host_cpus, qemu_version, plot_data=None, pictures=None):
    """results.json of a results directory, as a dict."""
    suites = read_run(run_dir)
    meta = {
        "generated": read_line_file(os.path.join(run_dir, "date.txt")),
        "quick": read_line_file(os.path.join(run_dir, "quick.txt")) == "1",
        "command": read_line_file(os.path.join(run_dir, "command.txt")),
        "host_cpus": host_cpus,
        "qemu_version": qemu_version,
        "qemu_settings": read_line_file(os.path.join(run_dir, "qemu-settings.txt")),
        "qemu_cmdline": read_line_file(os.path.join(run_dir, "qemu-cmdline.txt"), "unknown"),
        "wall_s": round6(parse_value(read_line_file(os.path.join(run_dir, "wall_s.txt")))),
        "suites": list(suites),
    }
    for directory in (plot_data, pictures):
        if directory:
            os.makedirs(directory, exist_ok=True)
    kernels = {name: suite_results(suite, plot_data, pictures) for name, suite in suites.items()}
    return prune_empty({"meta": meta, "kernels": kernels})


# ---- the report -----------------------------------------------------------------

def get(node, *path):
    """node[path[0]][path[1]]..., None where anything is missing."""
    for key in path:
        if not isinstance(node, dict) or key not in node:
            return None
        node = node[key]
    return node


def text(value):
    """A string as is, a number as results.json spells it, '' for nothing."""
    if value is None or isinstance(value, (dict, list)):
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return number_text(value)
    return value


def number_or_dash(value, spec):
    """value formatted with spec, '–' if it is not a number."""
    return spec % value if is_number(value) else "–"


def range_text(triple, spec, divisor=1):
    """'median (min–max)' of a {min, median, max} triple divided by divisor,
    just the median when min and max agree, '–' without a median."""
    if not is_number(get(triple, "median")):
        return "–"
    low, mid, high = triple.get("min"), triple["median"], triple.get("max")
    if low == high:
        return spec % (mid / divisor)
    return (spec + " (" + spec + "–" + spec + ")") % (mid / divisor, low / divisor, high / divisor)


def met_text(node):
    met = text(get(node, "met"))
    return {"yes": "**met**", "no": "**missed**", "": "–"}.get(met, met)


def scheduler_name(sched):
    return "EEVDF" if sched == "eevdf" else "scx_burst " + sched


TARGET_NAMES = (
    ("1", "p99 and max latency at most half of EEVDF's, average no worse"),
    ("2", "at least EEVDF's events/s at every thread count, +5 % at 16 threads"),
    ("3", "primary domain: >= 99 % of the steady load inside, saturated throughput >= 97 % of no domain"),
    ("4", "hot callbacks' steps per call within a constant bound, growing < 1.5x with 4x the queue and 2->8 vCPUs"),
    ("6", "daemon under 0.5 % of one CPU and 16 MiB RSS"),
)


def report_header(results, lines):
    meta = results.get("meta", {})
    lines += [
        "# Benchmarks",
        "",
        "<!-- Generated by tests/bench/run-bench.sh from build/bench/results.json; do not edit by hand. -->",
        "",
        "Generated %s by `%s`%s.  Whole suite: %s s of wall time on a host with %s CPUs." % (
            text(meta.get("generated")), text(meta.get("command")),
            " (**quick mode: tiny durations, noisy**)" if meta.get("quick") is True else "",
            number_or_dash(meta.get("wall_s"), "%.0f"), text(meta.get("host_cpus"))),
        "",
        "scx_burst against the kernel's default scheduler (EEVDF, nothing loaded), in one",
        "qemu boot per kernel: every experiment runs first under EEVDF, then under",
        "`scx_burst --policy burst`, then `--policy deadline`, with the same workload and",
        "settings, and the three are interleaved in every repeat (EEVDF, burst, deadline,",
        "EEVDF, burst, deadline, ...).  Ratios are scx_burst over the EEVDF run of the same",
        "repeat in the same boot; the tables give the median of those ratios and, in",
        "parentheses, their min–max over the repeats.  Absolute numbers under emulation",
        "mean little (everything runs many times slower than on hardware and one host",
        "thread executes every vCPU in turn); compare ratios only.",
        "",
        "## Running it",
        "",
        "    tests/bench/run-bench.sh            # full suite, both kernels, ~23 min; rewrites this file",
        "    tests/bench/run-bench.sh --quick    # ~5 min smoke run, one kernel, writes build/bench only",
        "",
        "Results go to `build/bench/results.json` (`--out DIR` to change), the console",
        "logs of every boot to `build/bench/logs/`.  `--daemon PATH` benchmarks a given static",
        "`scx_burst` instead of building one; `--check FILE` validates a results file;",
        "`--ia-boots K` sets the number of interactive-workload boots per kernel (default 3);",
        "`--jobs N` sets how many `--icount` boots run at once (default: the host's CPUs; their guest",
        "time counts instructions, so running beside each other changes only their wall time),",
        "while the faithful-mode boots always run alone;",
        "`--reanalyze` rebuilds results and report from the saved logs (`tests/bench/analyze.py`,",
        "unit-tested on saved logs as `bench_analyzer`).  ctest runs the",
        "quick mode as `bench_smoke` (label `vm`), which checks the JSON but never touches",
        "this file.",
        "",
        "## Setup",
        "",
        "| kernel suite | release | vCPUs (main boot) | boots (vCPUs: wall s) |",
        "|---|---|---|---|",
    ]
    for name, kernel in suites_of(results):
        boots = []
        for boot in kernel.get("boots") or []:
            status = "" if boot.get("rc") == 0 else ", **status %s**" % text(boot.get("rc"))
            boots.append("%s (%s: %.0f%s)" % (boot.get("boot"), text(boot.get("vcpus")),
                                               boot.get("wall_s") or 0, status))
        lines.append("| %s | %s | %s | %s |" % (name, text(kernel.get("release")),
                                                 text(kernel.get("vcpus")), ", ".join(boots)))
    lines += [
        "",
        "- qemu: %s (`tests/vm/run-vm.sh`)." % text(meta.get("qemu_settings")),
        "- %s." % text(meta.get("qemu_version")),
        "- Command line of the first boot: `%s`." % text(meta.get("qemu_cmdline")),
        "- Guest: the busybox initramfs of `tests/vm/mkinitramfs.sh` plus bpftool, the",
        "  scenario `tests/bench/bench.sh` and its helper `tests/bench/benchprobe.c`.",
        "",
    ]


def suites_of(results):
    """(suite, kernel results) in the order of meta.suites."""
    kernels = results.get("kernels") or {}
    return [(name, kernels.get(name) or {}) for name in get(results, "meta", "suites") or []]


def trace_link(kernel, suite, sched, picture, plot_dir, kind="lat"):
    """The link of a trace picture, None if it was not recorded."""
    if picture not in (get(kernel, TRACE_NODES[kind], sched, "pictures") or []):
        return None
    return "%s/trace/%s" % (plot_dir, trace_picture(suite, sched, picture, kind))


def missed_latency_note(kernel, suite, sched, plot_dir):
    """Where a missed target 1 points: the running/waiting picture of that
    scheduler's traced window."""
    link = trace_link(kernel, suite, sched, "running_waiting", plot_dir)
    if get(kernel, "targets", "t1", sched, "met") != "no" or link is None:
        return ""
    return "; what the CPUs did: [running / waiting](%s) (experiment 1, traced window)" % link


def report_targets(results, lines, plot_dir):
    lines += ["## Targets (issue 5)", "",
              "| # | target | kernel | burst | deadline |", "|---|---|---|---|---|"]
    suites = suites_of(results)
    for number, description in TARGET_NAMES:
        for index, (name, kernel) in enumerate(suites):
            node = get(kernel, "targets", "t" + number)
            notes = {sched: missed_latency_note(kernel, name, sched, plot_dir) if number == "1" else ""
                     for sched in POLICIES}
            lines.append("| %s | %s | %s | %s: %s%s | %s: %s%s |" % (
                number, description if index == 0 else "", name,
                met_text(get(node, "burst")), text(get(node, "burst", "detail")), notes["burst"],
                met_text(get(node, "deadline")), text(get(node, "deadline", "detail")), notes["deadline"]))
    for index, (name, kernel) in enumerate(suites):
        node = get(kernel, "targets", "t5", "all")
        lines.append("| 5 | %s | %s | %s: %s | |" % (
            "live switch: no watchdog exits" if index == 0 else "", name,
            met_text(node), text(get(node, "detail"))))
    lines += ["",
              "Target 4 is judged on the steps ops.select_cpu, ops.enqueue and ops.dispatch count",
              "themselves (queue peeks and moves, cpumask searches, preemption victims), which",
              "do not depend on the emulator; experiment 4 has them and, for information, the",
              "ns per call, into which the emulator mixes its stalls.", ""]


def ms_text(value):
    return "%.1f" % (value / 1000) if is_number(value) else "–"


def report_latency(results, lines, plot_dir):
    lines += ["## 1. Interactive latency under saturation", ""]
    for index, (name, kernel) in enumerate(suites_of(results)):
        latency = kernel.get("latency") or {}
        if index == 0:
            lines += [
                "`cyclictest --policy=other -t %s -d 0 -i 1000 -v` (one unpinned SCHED_OTHER thread per"
                % text(latency.get("threads")),
                "vCPU, 1 ms interval) started first, then `stress-ng --cpu %s` (12 x nCPU hogs); only"
                % text(latency.get("hogs")),
                "the samples taken while every hog runs count (a %s s window), %s repeats."
                % (text(latency.get("seconds")), text(latency.get("reps"))),
                "Wakeup latency in ms: median (min–max) over the repeats.",
                "",
            ]
        lines += ["### %s kernel (%s)" % (name, text(kernel.get("release"))), "",
                  "| scheduler | p50 | p99 | max | average | samples | ratio p50 | ratio p99 | ratio max | ratio avg |",
                  "|---|---|---|---|---|---|---|---|---|---|"]
        for sched in SCHEDULERS:
            entry = latency.get(sched) or {}
            ratios = ["1"] * 4 if sched == "eevdf" else [
                range_text(get(entry, "ratio", stat), "%.2f") for stat in ("p50", "p99", "max", "avg")]
            lines.append("| %s | %s | %s | %s | %s | %s | %s |" % (
                scheduler_name(sched), range_text(entry.get("p50_us"), "%.1f", 1000),
                range_text(entry.get("p99_us"), "%.1f", 1000), range_text(entry.get("max_us"), "%.0f", 1000),
                range_text(entry.get("avg_us"), "%.1f", 1000), range_text(entry.get("samples"), "%.0f"),
                " | ".join(ratios)))
        floor = kernel.get("stall_floor") or {}
        start, end = floor.get("start") or {}, floor.get("end") or {}
        lines += [
            "| *emulator stall floor* | gap p50 %s | gap p99 %s | gap max %s | stalled %s %% of the time "
            "| %s gaps | | | | |" % (ms_text(start.get("gap_p50_us")), ms_text(start.get("gap_p99_us")),
                                     ms_text(start.get("gap_max_us")),
                                     number_or_dash(start.get("stalled_pct"), "%.0f"),
                                     number_or_dash(start.get("gaps"), "%.0f")),
            "",
            "Stall floor: one spinner pinned to every vCPU and nothing else running (so the",
            "guest scheduler has no choice to make) saw its vCPU stop for the gaps above, in ms",
            "(%s s at the start of the boot; at the end: gap p99 %s, max %s, stalled %s %%).  Those gaps are"
            % (number_or_dash(start.get("seconds"), "%.0f"), ms_text(end.get("gap_p99_us")),
               ms_text(end.get("gap_max_us")), number_or_dash(end.get("stalled_pct"), "%.0f")),
            "the emulator running the other vCPUs; they lie under every latency above and",
            "dominate p99 and max.",
            "",
            "![wakeup latency, %s](%s/latency-%s.svg)" % (name, plot_dir, name),
            "",
        ]
        # the scheduler's own counters during the windows
        counters = sorted({counter for sched in SCHEDULERS
                           for counter in (get(latency, sched, "counters_per_s") or {})})
        if counters:
            lines += ["scx_burst's counters during the windows (per second, all repeats):", "",
                      "| counter | burst | deadline |", "|---|---|---|"]
            for counter in counters:
                burst = get(latency, "burst", "counters_per_s", counter)
                deadline = get(latency, "deadline", "counters_per_s", counter)
                if is_rate_counter(counter) and (is_positive(burst) or is_positive(deadline)):
                    lines.append("| %s | %s | %s |" % (counter, number_or_dash(burst, "%.1f"),
                                                       number_or_dash(deadline, "%.1f")))
            lines.append("")
        report_trace(kernel, name, lines, plot_dir)


def is_rate_counter(name):
    """A counter that adds up over time, so per second means something: not
    run_ns, and not the per-interval maxima (max_wait_us, *_steps_max)."""
    return name != "run_ns" and not name.startswith("max_") and not name.endswith("_max")


IA_GROUP_TITLES = {
    "main": "main boot: %s vCPUs, single-threaded TCG with icount, %s repeat(s)",
    "ia": "boots %s: %s vCPUs, the interactive emulator mode, one ratio per boot",
}


def ia_scheduler_title(sched):
    return scheduler_name(sched) if sched in SCHEDULERS else sched


def report_interactive(results, lines, plot_dir):
    lines += [
        "## Interactive workloads (issue 13)",
        "",
        "`benchprobe ia` ([benchprobe.c](../tests/bench/benchprobe.c)) runs each workload for a",
        "fixed window whose parts start and end together, under every scheduler in turn,",
        "interleaved as above:",
        "",
        "- *saturated*: a frame-paced renderer (60 Hz: it sleeps to each 16.667 ms period's",
        "  start with an absolute deadline, then spins 4 ms of its own CPU time) and a pipe",
        "  ping-pong between two threads, beside nCPU fork workers (fork, a 100 us child,",
        "  waitpid, then 5 ms of CPU: the stress-ng --fork pattern) and 3 x nCPU spinning",
        "  hogs.  They are three processes: the renderer with the ping-pong, the fork",
        "  workers (the desktop mix's build slots), the hogs; so the interactive threads",
        "  share no memory or library locks with the forks, as on a desktop.  *Wakeup",
        "  delay* is the actual wake minus the period's start, *response* the period's",
        "  start to the work done; a period",
        "  *missed* has no frame done within it (late frames, and periods dropped while a",
        "  late frame still ran).  The fork workers' throughput is their own CPU time, the",
        "  hogs' their run time without the emulator's gaps (as experiment 4's hogs).",
        "  The ping-pong's first round trip counts from the window's start, so a ping",
        "  that cannot begin in the window is one long round trip, not none.",
        "- *idle*: the ping-pong alone; its round trips per second.",
        "- *desktop mix*: a parallel build (2 x nCPU job slots, each forking one job after",
        "  the other, jobs of 20-200 ms of CPU from a fixed pseudo-random sequence; jobs",
        "  finished per second) with the renderer and the ping-pong.",
        "- The cyclictest latency of experiment 1 in the same boots.",
        "",
        "They run in two emulator modes, never compared with each other: in the main boot",
        "(single-threaded TCG with icount at 4 vCPUs, as experiments 1-6, where every vCPU",
        "stops most of the time) and in boots of their own at 2 vCPUs that run only the",
        "stall floor, experiment 1 and these workloads, in the emulator mode of the Setup",
        "line above (meant to be the faithful one: one host thread per vCPU), several boots",
        "so that each ratio is a median over boots.",
        "",
        "Context switches and migrations per second are `nr_switches` and",
        "`se.nr_migrations` of `/proc/.../sched` summed over the workload's tasks (the",
        "forked children read their own before they exit): counts that do not depend on the",
        "emulator's clock.  Percentiles are nearest-rank over each run's histogram (us,",
        "3 significant digits above 1 ms).  Ratios pair each run with the EEVDF run of the",
        "same repeat in the same boot (0 / 0 counts as 1); with several boots the ratio of",
        "a boot is the median of its repeats, and the table gives the median of the boots'",
        "ratios (min–max over boots), else the median (min–max) over repeats.  The absolute",
        "columns are medians over all runs.  Schedulers other than EEVDF and scx_burst",
        "(peers loaded by the scenario's `peer.sh`) get a column of their own when they ran.",
        "",
    ]
    any_group = False
    for name, kernel in suites_of(results):
        interactive = kernel.get("interactive") or {}
        for group in ("main", "ia"):
            entry = get(interactive, "groups", group)
            if not entry:
                continue
            any_group = True
            schedulers = entry.get("schedulers") or []
            others = [sched for sched in schedulers if sched != "eevdf"]
            boots = entry.get("boots") or []
            title = IA_GROUP_TITLES[group] % (
                (text(entry.get("vcpus")), text(entry.get("reps"))) if group == "main"
                else (", ".join(boots), text(entry.get("vcpus"))))
            lines += ["### %s kernel, %s" % (name, title), "",
                      "| metric | %s | %s |" % (" | ".join(ia_scheduler_title(s) for s in schedulers),
                                              " | ".join("%s / EEVDF" % s for s in others)),
                      "|---|%s" % ("---|" * (len(schedulers) + len(others)))]
            for key, label, better, spec in IA_METRICS:
                values = [number_or_dash(get(entry, sched, key, "value", "median"), spec) for sched in schedulers]
                ratios = [range_text(get(entry, sched, key, "ratio"), "%.2f") for sched in others]
                if all(value == "–" for value in values):
                    continue
                lines.append("| %s%s | %s | %s |" % (label, {"lower": " ↓", "higher": " ↑"}.get(better, ""),
                                                      " | ".join(values), " | ".join(ratios)))
            counters = sorted({counter for sched in schedulers
                               for counter in (get(entry, sched, "counters_per_s") or {})})
            policies = [sched for sched in POLICIES if sched in schedulers]
            rows = []
            for counter in counters:
                values = [get(entry, sched, "counters_per_s", counter) for sched in policies]
                if is_rate_counter(counter) and any(is_positive(value) for value in values):
                    rows.append("| %s | %s |" % (counter, " | ".join(number_or_dash(value, "%.1f")
                                                                      for value in values)))
            if rows:
                lines += ["", "scx_burst's counters over the saturated runs (read just before and just after each "
                          "run, per second of its window):", "",
                          "| counter | %s |" % " | ".join(policies), "|---|%s" % ("---|" * len(policies))] + rows
            floor = entry.get("stall_floor") or {}
            lines += [
                "",
                "Emulator stall floor beside this table (a pinned spinner per vCPU, nothing else, "
                "%s s at the start of %s): stalled %s %% of the time, gap p99 %s ms, max %s ms%s."
                % (number_or_dash(floor.get("seconds"), "%.0f"), "each boot" if len(boots) > 1 else "the boot",
                   range_text(floor.get("stalled_pct"), "%.1f"), range_text(floor.get("gap_p99_us"), "%.1f", 1000),
                   range_text(floor.get("gap_max_us"), "%.1f", 1000),
                   " (median, min–max over the boots)" if len(boots) > 1 else ""),
                "",
                "| target (issue 13) | burst | deadline |",
                "|---|---|---|",
            ]
            for target_name, policies, description, _ in IA_TARGETS:
                cells = []
                for policy in POLICIES:
                    node = get(entry, "targets", target_name, policy)
                    note = ""
                    if group == "ia" and target_name == "migrations" and get(node, "met") == "no":
                        link = trace_link(kernel, name, policy, "cpus", plot_dir, "ia")
                        if link is not None:
                            note = ("; by part in the rows above; where they ran: [which task ran on "
                                    "each CPU](%s) (the saturated workload traced, below)" % link)
                    cells.append("%s: %s%s" % (met_text(node), text(get(node, "detail")), note) if node else "")
                lines.append("| %s | %s | %s |" % (description, cells[0], cells[1]))
            lines.append("")
            if group == "ia":
                report_ia_trace(kernel, name, lines, plot_dir)
        if interactive.get("skipped"):
            lines += ["%s kernel: schedulers that could not be loaded: %s." % (
                name, "; ".join("`%s`" % item for item in interactive["skipped"])), ""]
    if not any_group:
        lines += ["Not run (this run's bench.sh sent no `@@B ia` record).", ""]


def seconds_against(value, edge):
    """Where a recording's edge lay against the window's edge."""
    if not is_number(value):
        return "? s from %s" % edge
    return "%.2f s %s %s" % (abs(value), "before" if value < 0 else "after", edge)


def trace_line(entry, window=True):
    """The one line of a traced window's summary; @window: where the
    recording lay against the measured window it traced."""
    if entry.get("rc") != 0:
        line = "**the tracer failed** (exit status %s%s)" % (
            text(entry.get("rc")), "" if entry.get("started") else ", never began recording")
        if entry.get("stderr"):
            line += ": " + " / ".join("`%s`" % message for message in entry["stderr"])
        return line
    if not is_number(entry.get("seconds")):
        return "no summary.json came back"
    lost = entry.get("lost_events")
    span = (" (from %s to %s)" % (seconds_against(entry.get("start_s"), "the window opened"),
                                  seconds_against(entry.get("end_s"), "it closed")) if window else "")
    return (
        "`%s`, %.2f s recorded%s, %s events, %s; CPUs busy %s; "
        "**idle while work waited %s ms** (%s of the time); wakeup latency p50 %s, "
        "p99 %s, max %s over %s wakeups (all tasks); %s %s threads woke: %s wakeups, "
        "worst p99 %s" % (
            text(entry.get("scheduler")), entry["seconds"], span,
            number_or_dash(entry.get("events"), "%.0f"),
            ("**%s lost events**" % number_or_dash(lost, "%.0f")) if lost != 0 else "0 lost events",
            number_or_dash(entry.get("busy_pct"), "%.1f %%"),
            number_or_dash(entry.get("idle_waited_ms"), "%.1f"),
            number_or_dash(entry.get("idle_waited_pct"), "%.1f %%"),
            latency_text(entry.get("latency_p50_us")), latency_text(entry.get("latency_p99_us")),
            latency_text(entry.get("latency_max_us")), number_or_dash(entry.get("wakeups"), "%.0f"),
            number_or_dash(entry.get("comm_threads"), "%d"), text(entry.get("comm")).replace(",", ", "),
            number_or_dash(entry.get("comm_wakeups"), "%.0f"), latency_text(entry.get("comm_p99_us_max"))))


def latency_text(value):
    """A wakeup latency in us: in us below 1 ms, else in ms."""
    if not is_number(value):
        return "–"
    return "%.0f us" % value if value < 1000 else "%.1f ms" % (value / 1000)


def trace_pictures_table(kernel, name, lines, plot_dir, kind, latency_title):
    """The pictures of a traced window, a column per scheduler."""
    lines += ["| picture | %s |" % " | ".join(scheduler_name(sched) for sched in SCHEDULERS),
              "|---|---|---|---|"]
    for picture, (_, title) in TRACE_PICTURES.items():
        title = latency_title if picture == "latency" else title
        cells = []
        for sched in SCHEDULERS:
            link = trace_link(kernel, name, sched, picture, plot_dir, kind)
            cells.append("not recorded" if link is None else "[![%s: %s](%s)](%s)" % (
                scheduler_name(sched), title, link, link))
        lines.append("| %s | %s |" % (title, " | ".join(cells)))
    lines.append("")


def report_ia_trace(kernel, name, lines, plot_dir):
    """The saturated interactive workload's traced run: its pictures, its
    parts' migrations and a line per scheduler from its summary.json."""
    trace = kernel.get(TRACE_NODES["ia"]) or {}
    if not trace:
        return
    lines += ["#### %s kernel: the saturated workload traced" % name, ""]
    if not any(sched in trace for sched in SCHEDULERS):
        lines += ["Not traced (the boots asked for %s s, and no `@@B trace` record came)."
                  % text(trace.get("seconds")), ""]
        return
    traced = [trace[sched] for sched in SCHEDULERS if sched in trace]
    comms = "".join(" --comm %s" % comm for comm in str(traced[0].get("comm", "")).split(",") if comm)
    lines += [
        "`scx_burst trace --duration %s --ringbuf-kb %s%s`" % (text(trace.get("seconds")),
                                                            text(trace.get("ringbuf_kb")), comms),
        "of one more run of the saturated workload under EEVDF and both policies in boot %s," % text(
            traced[0].get("boot")),
        "after the measured repeats and not among them (the tracer's own work would",
        "weigh on a measured run): started once the hogs ran, the workload stopped after the",
        "recording.  benchprobe names its threads by part (`ia_PART`), so the summary gives each",
        "part's migrations (`sched_migrate_task` events of the part's tasks; the fork children",
        "carry their worker's name).  Pictures as in experiment 1; *wakeup latency*: the",
        "workload's threads with the most wakeups (the ping-pong's, the fork workers', the",
        "renderer's).",
        "",
    ]
    trace_pictures_table(kernel, name, lines, plot_dir, "ia", "wakeup latency of the workload's threads")
    lines += ["| migrations/s in the recording | %s |" % " | ".join(scheduler_name(sched) for sched in SCHEDULERS),
              "|---|---|---|---|"]
    for part in IA_PARTS + ("all",):
        cells = []
        for sched in SCHEDULERS:
            seconds = get(trace, sched, "seconds")
            count = (get(trace, sched, "migrations") if part == "all"
                     else get(trace, sched, "parts", part, "migrations"))
            cells.append(number_or_dash(per_second(count, seconds), "%.1f"))
        lines.append("| %s | %s |" % ("every task of the guest" if part == "all" else IA_PART_NAMES[part],
                                      " | ".join(cells)))
    lines.append("")
    for sched in SCHEDULERS:
        entry = trace.get(sched)
        lines.append("- %s: %s." % (scheduler_name(sched),
                                    "not traced" if entry is None else trace_line(entry, window=False)))
    lines.append("")


def report_trace(kernel, name, lines, plot_dir):
    """The pictures of experiment 1's traced window, side by side, and a
    line per scheduler from its summary.json."""
    trace = kernel.get("trace") or {}
    lines += ["#### %s kernel: one window traced" % name, ""]
    if not any(sched in trace for sched in SCHEDULERS):
        lines += ["Not traced (this run's bench.sh sent no `@@B trace` record).", ""]
        return
    lines += [
        "`scx_burst trace --duration %s --ringbuf-kb %s --comm cyclictest` during repeat %s of"
        % (text(trace.get("seconds")), text(trace.get("ringbuf_kb")), text(trace.get("rep"))),
        "every scheduler ([trace.md](trace.md)): started once every hog ran, with the window",
        "opened as soon as it recorded, so that loading the tracer is not in the window; its",
        "work after the recording (detaching, making the pictures) is, as one more task.",
        "*Which task ran*: a row per CPU, a colour per task (by burst score under scx_burst);",
        "*running / waiting*: running tasks blue, waiting ones orange, red behind them where",
        "a CPU was idle while a task waited; *wakeup latency*: the share of each cyclictest",
        "thread's wakeups that ran within x.  Each picture links to itself at full size.",
        "",
    ]
    trace_pictures_table(kernel, name, lines, plot_dir, "lat", TRACE_PICTURES["latency"][1])
    for sched in SCHEDULERS:
        entry = trace.get(sched)
        lines.append("- %s: %s." % (scheduler_name(sched), "not traced" if entry is None else trace_line(entry)))
    lines.append("")


def is_positive(value):
    return is_number(value) and value > 0


def report_throughput(results, lines, plot_dir):
    lines += ["## 2. Throughput vs threads", ""]
    for index, (name, kernel) in enumerate(suites_of(results)):
        throughput = kernel.get("throughput") or {}
        if index == 0:
            lines += [
                "`sysbench cpu --threads=T --time=%s --cpu-max-prime=%s`, events per second (median of"
                % (text(throughput.get("seconds")), text(throughput.get("cpu_max_prime"))),
                "%s repeats), no other load.  Under single-threaded TCG with icount every vCPU shares"
                % text(throughput.get("reps")),
                "one instruction budget, so the curve is flat: it shows scheduling overhead and",
                "fairness losses, not parallel scaling.",
                "",
            ]
        lines += ["### %s kernel" % name, "",
                  "| # of threads | EEVDF | burst | deadline | burst / EEVDF | deadline / EEVDF |",
                  "|---|---|---|---|---|---|"]
        for threads in throughput.get("threads") or []:
            key = text(threads)
            lines.append("| %s | %s | %s | %s | %s | %s |" % (
                key, *(number_or_dash(get(throughput, sched, "eps", key, "median"), "%.2f")
                       for sched in SCHEDULERS),
                *(range_text(get(throughput, sched, "ratio", key), "%.3f") for sched in POLICIES)))
        lines += ["", "![throughput vs threads, %s](%s/throughput-%s.svg)" % (name, plot_dir, name), ""]


DOMAIN_COUNTER_RE = re.compile(r"(domain|overflow|saturation)[^.]*$")


def report_domain(results, lines):
    lines += ["## 3. Primary domain", ""]
    for name, kernel in suites_of(results):
        domain = kernel.get("primary_domain") or {}
        lines += ["### %s kernel" % name, ""]
        if domain.get("available") is not True:
            lines += [
                "**Gap:** %s.  The harness runs it as soon as `scx_burst --help` lists" % text(domain.get("gap")),
                "`--primary-domain`: a steady load of nCPU/2 stress-ng workers at 50 % (below the",
                "domain's capacity, domain = first half of the CPUs), share of CPU time inside",
                "the domain from /proc/stat and run-to-run spread of its bogo ops/s; then",
                "sysbench at 2 x nCPU threads with and without the domain.",
                "",
            ]
            continue
        lines += [
            "`--primary-domain %s`; steady load `stress-ng --cpu %s --cpu-load %s` (below the"
            % (text(domain.get("domain")), text(domain.get("steady_tasks")),
               text(domain.get("steady_task_load_pct"))),
            "domain's capacity); its share inside the domain is the domain CPUs' share of all busy",
            "CPU time in /proc/stat during the run, which also counts the stress-ng parent, the",
            "benchmark shell and kernel threads (so it understates the load's own share a",
            "little); saturating load `sysbench cpu --threads=%s`.  Median (min–max) over the repeats."
            % text(domain.get("saturating_threads")),
            "",
            "| configuration | share of steady load in domain | steady ops/s | spread (max-min)/median "
            "| saturated events/s | saturated vs no domain |",
            "|---|---|---|---|---|---|",
        ]
        for cfg in DOMAIN_CONFIGS:
            entry = domain.get(cfg) or {}
            lines.append("| %s | %s | %s | %s | %s | %s |" % (
                cfg, range_text(entry.get("share_in_domain"), "%.3f"),
                range_text(entry.get("steady_ops_per_s"), "%.1f"),
                number_or_dash(entry.get("steady_spread_pct"), "%.1f %%"),
                range_text(entry.get("saturated_eps"), "%.1f"),
                range_text(entry.get("saturated_ratio_to_no_domain"), "%.2f") if cfg.endswith("_dom") else ""))
        lines.append("")
        counters = []
        for cfg in DOMAIN_CONFIGS[1:]:
            for counter, value in sorted((get(domain, cfg, "steady_counters") or {}).items()):
                if DOMAIN_COUNTER_RE.search(counter) and is_positive(value):
                    counters.append("%s %s %s" % (cfg, counter, text(value)))
        if counters:
            lines += ["Domain counters of scx_burst over the steady runs (all repeats): %s."
                      % ", ".join(counters), ""]


def callbacks_measured(overhead, sched):
    names = set()
    for smp in overhead.get("vcpus") or []:
        for load in LOADS:
            names.update(get(overhead, text(smp), sched, load, "callbacks") or {})
    return sorted(names)


def report_overhead(results, lines):
    suites = suites_of(results)
    first = suites[0][1] if suites else {}
    lines += [
        "## 4. Scheduler overhead per callback",
        "",
        "`kernel.bpf_stats_enabled=1`; for every struct_ops program of scx_burst,",
        "run_time_ns / run_cnt (from `bpftool prog show`) over a window of spinning hogs:",
        "*light* = 1 hog, *medium* = 3 x nCPU hogs (every CPU busy, short queues), *heavy* =",
        "12 x nCPU hogs (every CPU busy, long queues); at every vCPU count listed (the",
        "main boot gives one, boots that run only this experiment the others).  ns per",
        "call of guest time, the median over %s windows of %s s of each window's average;" % (
            text(get(first, "overhead", text(first.get("vcpus")), "burst", "light", "windows")),
            text(get(first, "overhead", "seconds"))),
        "only callbacks with at least 50 calls in both conditions count for a growth ratio.",
        "",
        "Reading these under single-threaded TCG: the emulator runs one vCPU at a time",
        "and the guest clock runs on meanwhile, so a callback that spins on a lock held",
        "by a vCPU the emulator is not running is charged the whole wait (lock-holder",
        "preemption, milliseconds; on hardware the holder runs and the wait is short).",
        "Callbacks that never wait for another CPU are not inflated in practice (the",
        "emulator's switches are rare next to their microsecond runs): compare their",
        "rows across columns.  A callback whose cost grows with the number of busy",
        "vCPUs but not from medium to heavy waits on other CPUs; one that grows from",
        "medium to heavy scales with queue length.",
        "",
        "The hot callbacks also count their own *steps* (`select_*`, `enqueue_*`,",
        "`dispatch_*` in the stats, [stats.md](stats.md)), read with `scx_burst ctl stats`",
        "before and after each window: a queue peek or move, a cpumask search (an idle-CPU",
        "pick or test, an and; the kernel walks a mask 64 CPUs at a time), a preemption",
        "victim looked at.  A step count is the same under any emulator.  *steps/call* is",
        "the windows' steps over their calls; *most* is the most steps one call took since",
        "the daemon started (it covers the load and the loads before it); *bound* is the",
        "most any call can take, added up from the code in `include/scx_burst/policy.h`",
        "(`BURST_STEPS_MAX_*`).  No hot callback walks a queue (overdue tasks are found by",
        "the age-check timer) or looks at more than `BURST_LLC_SCAN_MAX` other LLCs, so",
        "none can grow with the queue length or the number of CPUs.",
        "",
    ]
    for name, kernel in suites:
        overhead = kernel.get("overhead") or {}
        main = text(kernel.get("vcpus"))
        vcpus = [text(count) for count in overhead.get("vcpus") or []]
        lines += ["### %s kernel" % name, ""]
        for sched in POLICIES:
            callbacks = callbacks_measured(overhead, sched)
            growth = get(overhead, "growth", sched) or {}
            lines += ["%s policy, %s vCPUs: ns per call (calls)" % (sched, main), "",
                      "| callback | light | medium | heavy | light -> heavy | medium -> heavy |",
                      "|---|---|---|---|---|---|"]
            for callback in callbacks:
                cells = []
                for load in LOADS:
                    entry = get(overhead, main, sched, load, "callbacks", callback) or {}
                    if is_number(entry.get("ns_per_call")):
                        cells.append("%.0f (%d)" % (entry["ns_per_call"], entry.get("calls") or 0))
                    else:
                        cells.append("–")
                cells.append(number_or_dash(get(growth, "light_to_heavy", callback), "%.2fx"))
                cells.append(number_or_dash(get(growth, "medium_to_heavy", callback), "%.2fx"))
                lines.append("| %s | %s |" % (callback, " | ".join(cells)))
            lines += ["| *all callbacks, % of CPU time* | " + " | ".join(
                number_or_dash(get(overhead, main, sched, load, "total_pct_of_cpus"), "%.2f %%")
                for load in LOADS) + " | | |", ""]
            bounds = get(overhead, "steps", "bounds") or {}
            header = "| callback |" + "".join(" %s %s |" % (v, load) for v in vcpus for load in LOADS)
            lines += ["%s policy: steps per call (most in one call)" % sched, "",
                      header + " bound | 4x queue | %s vCPUs |" % text(get(
                          overhead, "steps", sched, "worst", "vcpus_range")),
                      "|---|" + "---|" * (len(vcpus) * len(LOADS)) + "---|---|---|"]
            for callback, op in STEP_CALLBACKS:
                cells = []
                for smp in vcpus:
                    for load in LOADS:
                        entry = get(overhead, smp, sched, load, "steps", callback) or {}
                        cells.append("%s (%s)" % (number_or_dash(entry.get("steps_per_call"), "%.2f"),
                                                  number_or_dash(entry.get("max_steps"), "%.0f"))
                                     if is_number(entry.get("steps_per_call")) else "–")
                cells.append(number_or_dash(bounds.get(callback), "%.0f"))
                cells.append(number_or_dash(get(overhead, "steps", sched, "queue_growth", callback), "%.2fx"))
                cells.append(number_or_dash(get(overhead, "steps", sched, "vcpus_growth", callback), "%.2fx"))
                lines.append("| %s | %s |" % (op, " | ".join(cells)))
            lines.append("")
            if len(vcpus) > 1:
                span = text(get(growth, "worst", "vcpus_range"))
                across = get(growth, "vcpus_" + span.replace("->", "_to_", 1)) or {}
                header = "| callback |" + "".join(" %s light | %s heavy |" % (v, v) for v in vcpus)
                lines += ["%s policy by vCPU count: ns per call" % sched, "",
                          header + " %s light | %s heavy |" % (span, span),
                          "|---|" + "---|---|" * len(vcpus) + "---|---|"]
                for callback in callbacks:
                    cells = [number_or_dash(get(overhead, smp, sched, load, "callbacks", callback,
                                                "ns_per_call"), "%.0f")
                             for smp in vcpus for load in ("light", "heavy")]
                    cells += [number_or_dash(get(across, load, callback), "%.2fx") for load in ("light", "heavy")]
                    lines.append("| %s | %s |" % (callback, " | ".join(cells)))
                lines += ["| *all callbacks, % of CPU time* | " + " | ".join(
                    number_or_dash(get(overhead, smp, sched, load, "total_pct_of_cpus"), "%.2f %%")
                    for smp in vcpus for load in ("light", "heavy")) + " | | |", ""]


def report_live_switch(results, lines):
    lines += [
        "## 5. Live policy switch",
        "",
        "Under `stress-ng --cpu 2xnCPU`, alternating `scx_burst ctl set policy=...` requests;",
        "*set* is the request's round trip, *visible* the time from the request until a",
        "`scx_burst --json ctl stats` reply shows the new policy, *effective* until a",
        "reply shows tasks drained from the old policy's queues (polled, so never less",
        "than one client round trip).  Every time includes starting the client processes",
        "under load.  ms, median (min–max).",
        "",
        "| kernel | switch | n | set | visible | effective | daemon's switch count | failed requests | error exits |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name, kernel in suites_of(results):
        switch = kernel.get("live_switch") or {}
        for index, sched in enumerate(POLICIES):
            entry = switch.get("to_" + sched) or {}
            first = index == 0
            lines.append("| %s | to %s | %s | %s | %s | %s | %s | %s | %s |" % (
                name, sched, number_or_dash(entry.get("n"), "%d"),
                range_text(entry.get("set_ms"), "%.0f"), range_text(entry.get("visible_ms"), "%.0f"),
                range_text(entry.get("effective_ms"), "%.0f"),
                "%s of %s" % (number_or_dash(switch.get("counted_by_daemon"), "%d"),
                              number_or_dash(switch.get("requested"), "%d")) if first else "",
                number_or_dash(switch.get("failed_requests"), "%d") if first else "",
                number_or_dash(switch.get("error_exits"), "%d") if first else ""))
    lines.append("")


def report_daemon_cost(results, lines):
    lines += [
        "## 6. Daemon cost",
        "",
        "`scx_burst --stats 1 --json` streaming per-CPU stats every second, no other load;",
        "CPU time from /proc/PID/schedstat (and utime+stime ticks of /proc/PID/stat), peak",
        "RSS = VmHWM (includes loading the BPF object).  Emulated CPU time is inflated",
        "several times over compared to hardware.",
        "",
        "| kernel | policy | window s | CPU % of one CPU | (from ticks) | peak RSS MiB | RSS MiB | stats lines |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, kernel in suites_of(results):
        for sched in POLICIES:
            cost = get(kernel, "daemon_cost", sched) or {}
            lines.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
                name, sched, number_or_dash(cost.get("seconds"), "%.0f"),
                number_or_dash(cost.get("cpu_pct"), "%.3f"), number_or_dash(cost.get("cpu_pct_ticks"), "%.3f"),
                number_or_dash(cost.get("peak_rss_mib"), "%.1f"), number_or_dash(cost.get("rss_mib"), "%.1f"),
                number_or_dash(cost.get("stats_lines"), "%d")))
    lines.append("")


def report_errors(results, lines):
    lines += ["## Scheduler errors seen", ""]
    for name, kernel in suites_of(results):
        errors = kernel.get("errors") or {}
        lines.append("- %s: %s error exits of scx_burst (all boots of this kernel)."
                     % (name, number_or_dash(errors.get("scx_error_exits"), "%d")))
        if errors.get("dmesg"):
            lines.append("  Kernel messages:")
            lines += ["  - `%s`" % message for message in errors["dmesg"]]
        if errors.get("daemon_stderr"):
            lines.append("  Daemon stderr of the failed runs (first lines):")
            lines += ["  - `%s`" % message for message in errors["daemon_stderr"]]
    lines.append("")


# The cost of `scx_burst trace` is measured by its own scenario
# (tests/vm/scenarios/trace-overhead.sh), not by these boots; its section
# is kept next to this file and copied into every report.
TRACING_OVERHEAD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tracing-overhead.md")


def report_tracing_overhead(lines):
    with open(TRACING_OVERHEAD, encoding="utf-8") as handle:
        lines += handle.read().rstrip("\n").split("\n") + [""]


# Which qemu mode each experiment runs in, and why, with the check of the
# faithful mode (tests/bench/faithful-check.sh, its own boots): kept next to
# this file and copied into every report, after the setup.
FAITHFUL_MODE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "faithful-mode.md")


def report_faithful_mode(lines):
    with open(FAITHFUL_MODE, encoding="utf-8") as handle:
        lines += handle.read().rstrip("\n").split("\n") + [""]


def report(results, plot_dir="benchmarks"):
    """docs/benchmarks.md of a results.json, as a string."""
    lines = []
    report_header(results, lines)
    report_faithful_mode(lines)
    report_targets(results, lines, plot_dir)
    report_latency(results, lines, plot_dir)
    report_interactive(results, lines, plot_dir)
    report_throughput(results, lines, plot_dir)
    report_domain(results, lines)
    report_overhead(results, lines)
    report_live_switch(results, lines)
    report_daemon_cost(results, lines)
    report_tracing_overhead(lines)
    report_errors(results, lines)
    return "\n".join(lines) + "\n"


# ---- the check ------------------------------------------------------------------

MISSING = object()


def lookup(results, path):
    """The value at a dotted path, MISSING if there is none."""
    node = results
    for key in path.split("."):
        if isinstance(node, dict) and key in node:
            node = node[key]
        elif isinstance(node, list) and key.isdigit() and int(key) < len(node):
            node = node[int(key)]
        else:
            return MISSING
    return node


# what check requires of every interactive group (ratios only where EEVDF
# cannot have measured 0)
IA_CHECKED = ("render_wake_p50_us", "render_wake_p99_us", "render_missed", "pp_load_p50_us", "pp_idle_p50_us",
              "pp_idle_rate", "fork_cpu_share", "hogs_cpu_share", "sat_migrations_per_s", "build_jobs_per_s",
              "lat_p50_us")
IA_CHECKED_RATIOS = ("render_wake_p50_us", "pp_load_p50_us", "pp_idle_p50_us", "pp_idle_rate",
                     "fork_cpu_share", "hogs_cpu_share")


class Checker:
    """Collects what a results.json lacks, one message per item."""

    def __init__(self, results):
        self.results = results
        self.problems = []

    def need_number(self, path, what):
        value = lookup(self.results, path)
        if value is MISSING or isinstance(value, dict) or (isinstance(value, list) and value):
            self.problems.append("%s missing (%s)" % (path, what))
        elif value is None:
            self.problems.append("%s is null (%s)" % (path, what))
        elif isinstance(value, list):
            self.problems.append("%s is [] (%s)" % (path, what))
        elif not is_number(value):
            self.problems.append("%s is not a number (%s)" % (path, what))

    def check_meta(self):
        types = {"generated": str, "quick": bool, "command": str, "host_cpus": (int, float),
                 "qemu_version": str, "qemu_settings": str, "qemu_cmdline": str, "suites": list}
        for key, kind in types.items():
            value = lookup(self.results, "meta." + key)
            if value is MISSING or not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
                self.problems.append("meta.%s missing or not a %s" % (key, getattr(kind, "__name__", "number")))

    def check_kernel(self, suite):
        kernel = "kernels." + suite
        self.need_number(kernel + ".vcpus", "vCPU count")
        for boot in lookup(self.results, kernel + ".boots") or []:
            if isinstance(boot, dict) and (boot.get("rc") != 0 or boot.get("complete") is not True):
                self.problems.append("%s.boots: boot %s %s" % (
                    kernel, boot.get("boot"), "ended with status %s" % text(boot.get("rc"))
                    if boot.get("rc") != 0 else "ended before its '@@B end' record"))
        self.need_number(kernel + ".stall_floor.start.stalled_pct", "emulator stall floor")
        self.need_number(kernel + ".stall_floor.start.gap_p99_us", "emulator stall floor")
        threads = lookup(self.results, kernel + ".throughput.threads")
        threads = threads if isinstance(threads, list) else []
        for index, sched in enumerate(SCHEDULERS):
            for metric in ("avg_us", "max_us", "p99_us", "p50_us"):
                self.need_number("%s.latency.%s.%s.median" % (kernel, sched, metric), "experiment 1, " + sched)
            if sched != "eevdf":
                self.need_number("%s.latency.%s.ratio.p99.median" % (kernel, sched), "experiment 1 ratio, " + sched)
            self.check_trace(kernel, sched)
            if not threads and index == 0:
                self.problems.append("%s.throughput.threads: none (experiment 2)" % kernel)
            for count in threads:
                self.need_number("%s.throughput.%s.eps.%s.median" % (kernel, sched, text(count)),
                                 "experiment 2, " + sched)
                if sched != "eevdf":
                    self.need_number("%s.throughput.%s.ratio.%s.median" % (kernel, sched, text(count)),
                                     "experiment 2 ratio, " + sched)
        domain = kernel + ".primary_domain"
        available = lookup(self.results, domain + ".available")
        if not isinstance(available, bool):
            self.problems.append("%s.available missing (experiment 3)" % domain)
        elif not available:
            gap = lookup(self.results, domain + ".gap")
            if not isinstance(gap, str) or not gap:
                self.problems.append("%s.gap: unavailable without a stated gap (experiment 3)" % domain)
        else:
            for cfg in reversed(DOMAIN_CONFIGS):
                self.need_number("%s.%s.share_in_domain.median" % (domain, cfg), "experiment 3, " + cfg)
                self.need_number("%s.%s.saturated_eps.median" % (domain, cfg), "experiment 3, " + cfg)
        vcpus = lookup(self.results, kernel + ".overhead.vcpus")
        vcpus = vcpus if isinstance(vcpus, list) else []
        if len(vcpus) < 2:
            self.problems.append("%s.overhead.vcpus: fewer than 2 vCPU counts (experiment 4)" % kernel)
        for sched in POLICIES:
            for count in vcpus:
                for load in reversed(LOADS):
                    prefix = "%s.overhead.%s.%s.%s" % (kernel, text(count), sched, load)
                    self.need_number(prefix + ".total_pct_of_cpus", "experiment 4, " + sched)
                    callbacks = lookup(self.results, prefix + ".callbacks")
                    if not isinstance(callbacks, dict) or not any(
                            is_number(get(entry, "ns_per_call")) for entry in callbacks.values()):
                        self.problems.append("%s.callbacks: no callback measured (experiment 4)" % prefix)
            for count in vcpus:
                for load in reversed(LOADS):
                    prefix = "%s.overhead.%s.%s.%s.steps" % (kernel, text(count), sched, load)
                    missing = [callback for callback, _ in STEP_CALLBACKS
                               if not is_number(lookup(self.results, "%s.%s.steps_per_call" % (prefix, callback)))
                               or not is_number(lookup(self.results, "%s.%s.max_steps" % (prefix, callback)))]
                    if missing:
                        self.problems.append("%s: no steps per call of %s (experiment 4 steps)"
                                             % (prefix, ", ".join(missing)))
            for callback, _ in STEP_CALLBACKS:
                self.need_number("%s.overhead.steps.bounds.%s" % (kernel, callback), "target 4 bound")
            self.need_number("%s.overhead.steps.%s.worst.queue_growth" % (kernel, sched),
                             "target 4 steps growth, " + sched)
            self.need_number("%s.overhead.growth.%s.worst.light_to_heavy" % (kernel, sched),
                             "experiment 4 growth, " + sched)
            self.need_number("%s.overhead.growth.%s.worst.vcpus" % (kernel, sched),
                             "experiment 4 growth, " + sched)
            self.need_number("%s.live_switch.to_%s.visible_ms.median" % (kernel, sched), "experiment 5, to " + sched)
            self.need_number("%s.live_switch.to_%s.set_ms.median" % (kernel, sched), "experiment 5, to " + sched)
            self.need_number("%s.daemon_cost.%s.cpu_pct" % (kernel, sched), "experiment 6, " + sched)
            self.need_number("%s.daemon_cost.%s.peak_rss_mib" % (kernel, sched), "experiment 6, " + sched)
        self.need_number(kernel + ".live_switch.error_exits", "experiment 5 watchdog exits")
        self.check_interactive(kernel)

    def check_interactive(self, kernel):
        """The interactive workloads: the main boot's group, and the mode=ia
        boots' group when the run booted any, with numbers for EEVDF and
        both policies (peers are optional)."""
        groups = ["main"]
        boots = lookup(self.results, kernel + ".boots")
        if isinstance(boots, list) and any(isinstance(boot, dict) and is_ia_boot(boot.get("boot", ""))
                                           for boot in boots):
            groups.append("ia")
        for group in groups:
            prefix = "%s.interactive.groups.%s" % (kernel, group)
            what = "interactive workloads, %s" % ("main boot" if group == "main" else "ia boots")
            if lookup(self.results, prefix) is MISSING:
                self.problems.append("%s missing (%s)" % (prefix, what))
                continue
            for sched in SCHEDULERS:
                for metric in IA_CHECKED:
                    self.need_number("%s.%s.%s.value.median" % (prefix, sched, metric), "%s, %s" % (what, sched))
                    if sched != "eevdf" and metric in IA_CHECKED_RATIOS:
                        self.need_number("%s.%s.%s.ratio.median" % (prefix, sched, metric),
                                         "%s ratio, %s" % (what, sched))
            self.need_number(prefix + ".stall_floor.stalled_pct.median", what + ", stall floor")
        # the saturated workload's traced run, when the ia boots asked for one
        seconds = lookup(self.results, kernel + ".ia_trace.seconds")
        if is_number(seconds) and seconds > 0:
            for sched in SCHEDULERS:
                self.check_trace(kernel, sched, "ia")

    def check_trace(self, kernel, sched, kind="lat"):
        """A traced window (experiment 1's, or the interactive workload's):
        the tracer succeeded, its summary has numbers and every picture
        came back."""
        trace = "%s.%s.%s" % (kernel, TRACE_NODES[kind], sched)
        what = ("experiment 1 trace, " if kind == "lat" else "interactive workload trace, ") + sched
        status = lookup(self.results, trace + ".rc")
        if status is MISSING:
            self.problems.append("%s missing (%s)" % (trace, what))
            return
        if status != 0:
            self.problems.append("%s.rc: the tracer exited with status %s (%s)" % (trace, text(status), what))
        for key in ("lost_events", "idle_waited_ms", "latency_p50_us", "latency_p99_us"):
            self.need_number("%s.%s" % (trace, key), what)
        if kind == "ia":
            for part in IA_PARTS:
                self.need_number("%s.parts.%s.migrations" % (trace, part), what)
                tasks = lookup(self.results, "%s.parts.%s.tasks" % (trace, part))
                if not is_number(tasks) or tasks < 1:
                    self.problems.append("%s.parts.%s.tasks: no task of the part in the recording (%s)"
                                         % (trace, part, what))
        pictures = lookup(self.results, trace + ".pictures")
        pictures = pictures if isinstance(pictures, list) else []
        for picture in TRACE_PICTURES:
            if picture not in pictures:
                self.problems.append("%s.pictures: no %s picture (%s)" % (trace, picture, what))

    def run(self):
        self.check_meta()
        suites = lookup(self.results, "meta.suites")
        suites = [suite for suite in suites if isinstance(suite, str)] if isinstance(suites, list) else []
        if not suites:
            self.problems.append("meta.suites: no kernel")
        for suite in suites:
            self.check_kernel(suite)
        return self.problems


def check(results):
    """What results lacks: a list of messages, empty when every section is there."""
    return Checker(results).run()


# ---- the command line -------------------------------------------------------------

def load_results(path):
    try:
        with open(path, encoding="utf-8") as handle:
            results = json.load(handle)
    except FileNotFoundError:
        raise BenchError("%s: no such file" % path)
    except ValueError as error:
        raise BenchError("%s is not valid JSON: %s" % (path, error))
    if not isinstance(results, dict):
        raise BenchError("%s: not a results object" % path)
    return results


def command_analyze(args):
    results = analyze(args.run_dir, args.host_cpus, args.qemu_version, args.plot_data, args.pictures)
    text_out = json.dumps(results, indent=2, ensure_ascii=False) + "\n"
    if args.output:
        with open(args.output, "w", encoding="utf-8") as out:
            out.write(text_out)
    else:
        sys.stdout.write(text_out)
    return 0


def command_report(args):
    sys.stdout.write(report(load_results(args.results), args.plot_dir))
    return 0


def command_check(args):
    problems = check(load_results(args.results))
    for problem in problems:
        print("%s: check: %s" % (args.results, problem), file=sys.stderr)
    return 1 if problems else 0


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog="analyze.py", description="The host side of the scx_burst benchmark (docs/benchmarks.md).")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("analyze", help="results.json of a run-bench.sh results directory")
    run.add_argument("run_dir", help="results directory: boots.txt, logs/, date.txt, ...")
    run.add_argument("--host-cpus", type=int, required=True, help="CPUs of the host that ran the boots")
    run.add_argument("--qemu-version", required=True, help="first line of qemu-system-x86_64 --version")
    run.add_argument("--plot-data", help="write the gnuplot inputs (lat-*.dat, tp-*.dat) here")
    run.add_argument("--pictures", help="write the traced windows' pictures and summary.json here")
    run.add_argument("-o", "--output", help="write results.json here instead of stdout")
    run.set_defaults(handler=command_analyze)
    rep = commands.add_parser("report", help="docs/benchmarks.md of a results.json")
    rep.add_argument("results")
    rep.add_argument("--plot-dir", default="benchmarks", help="where the report links the plots")
    rep.set_defaults(handler=command_report)
    chk = commands.add_parser("check", help="exit 1, naming each, if results.json lacks a result")
    chk.add_argument("results")
    chk.set_defaults(handler=command_check)
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    try:
        return args.handler(args)
    except BenchError as error:
        print("analyze.py: error: %s" % error, file=sys.stderr)
        return 2
    except OSError as error:
        print("analyze.py: error: %s" % error, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
