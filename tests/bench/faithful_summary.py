#!/usr/bin/env python3
"""Summary of tests/bench/faithful-check.sh's boots.

usage: faithful_summary.py DIR

Reads DIR/boots.txt ("name mode status wall_s host_load1" per boot),
DIR/meta.txt and DIR/logs/NAME.log (the console of each boot, with the
"@@F" records of tests/bench/faithful.sh), writes DIR/faithful.json and
DIR/faithful.md and prints the latter.  A boot fails if run-vm.sh's status
is not 0, a record is missing, the scenario counted an error, a sched_ext
enable/disable cycle was not clean (enabled, disabled, daemon exit 0), or a kernel
message of trouble (Oops, BUG, WARNING, int3, a stall, a lockup, a call
trace) is in the console or in the guest's dmesg.  Exit status 1 if any
boot failed or there is none, 2 on unreadable input (one line on stderr).
"""

import json
import os
import re
import statistics
import sys

TROUBLE = re.compile(r"Oops|BUG:|WARNING:|int3|(^|[^a-z])stall|soft lockup|hard LOCKUP|"
                     r"Call Trace|general protection")
OOPS = re.compile(r"Oops|BUG:|int3|general protection")
MODES = ("mttcg", "single", "icount")
MODE_NAMES = {
    "mttcg": "qemu 10, multi-threaded TCG (`--mttcg`)",
    "single": "host qemu, single-threaded TCG",
    "icount": "host qemu, single-threaded TCG, `--icount`",
}


class InputError(Exception):
    pass


def fields(words):
    out = {}
    for word in words:
        key, sep, value = word.partition("=")
        if not sep:
            continue
        try:
            out[key] = float(value) if "." in value or "e" in value else int(value)
        except ValueError:
            out[key] = value
    return out


def read_boot(path):
    """The records of one console log."""
    boot = {"floor": None, "lat": {}, "sb": {}, "scx": [], "done": None, "trouble": [],
            "errors": []}
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            lines = handle.read().split("\n")
    except OSError as err:
        raise InputError("%s: %s" % (path, err.strerror)) from err
    for line in lines:
        if line.startswith("@@F "):
            words = line.split()
            record, values = words[1], fields(words[2:])
            if record == "floor":
                boot["floor"] = values
            elif record in ("lat", "sb") and "rep" in values:
                boot[record][values["rep"]] = values
            elif record == "scx":
                boot["scx"].append(values)
            elif record == "done":
                boot["done"] = values
            elif record == "error":
                boot["errors"].append(line[4:])
        elif line.startswith("@@FDMESG "):
            boot["trouble"].append(line[len("@@FDMESG "):])
        elif not line.startswith("@@") and TROUBLE.search(line):
            boot["trouble"].append(line)
    return boot


def clean(scx):
    """An enable/disable cycle that enabled, disabled and exited 0."""
    return scx.get("enabled") == 1 and scx.get("disabled") == 1 and scx.get("rc") == 0


def med_range(values, fmt):
    values = [v for v in values if v is not None]
    if not values:
        return "-"
    if len(values) == 1:
        return fmt % values[0]
    return "%s (%s–%s)" % (fmt % statistics.median(values), fmt % min(values), fmt % max(values))


def ratio(boot, record, key):
    first, second = boot[record].get(1, {}).get(key), boot[record].get(2, {}).get(key)
    if not isinstance(first, (int, float)) or not isinstance(second, (int, float)) or first <= 0:
        return None
    return second / first


def summarize(directory):
    boots_file = os.path.join(directory, "boots.txt")
    try:
        with open(boots_file, encoding="utf-8") as handle:
            rows = [line.split() for line in handle if line.strip()]
    except OSError as err:
        raise InputError("%s: %s" % (boots_file, err.strerror)) from err
    meta = {}
    try:
        with open(os.path.join(directory, "meta.txt"), encoding="utf-8") as handle:
            for line in handle:
                key, _, value = line.strip().partition(" ")
                meta[key] = value
    except OSError:
        pass
    boots = []
    for row in rows:
        if len(row) != 5 or row[1] not in MODES:
            raise InputError("%s: bad line '%s'" % (boots_file, " ".join(row)))
        name, mode, status, wall, load1 = row
        boot = read_boot(os.path.join(directory, "logs", name + ".log"))
        boot.update(name=name, mode=mode, status=int(status), wall_s=float(wall),
                    host_load1=float(load1))
        reasons = []
        if boot["status"] != 0:
            reasons.append("status %d" % boot["status"])
        if boot["done"] is None:
            reasons.append("no 'done' record")
        if boot["floor"] is None or len(boot["lat"]) < 2 or len(boot["sb"]) < 2 or not boot["scx"]:
            reasons.append("records missing")
        if boot["errors"]:
            reasons.append("%d scenario errors" % len(boot["errors"]))
        unclean = [s for s in boot["scx"] if not clean(s)]
        if unclean:
            reasons.append("%d of %d sched_ext enable/disable not clean"
                           % (len(unclean), len(boot["scx"])))
        if boot["trouble"]:
            reasons.append("%d kernel messages of trouble" % len(boot["trouble"]))
        boot["failed"] = reasons
        boot["oops"] = any(OOPS.search(line) for line in boot["trouble"])
        boots.append(boot)

    modes = {}
    for mode in MODES:
        mine = [b for b in boots if b["mode"] == mode]
        if not mine:
            continue
        floors = [b["floor"] for b in mine if b["floor"] and b["floor"].get("total_ns")]
        transitions = [s for b in mine for s in b["scx"]]
        modes[mode] = {
            "boots": len(mine),
            "failed": sum(1 for b in mine if b["failed"]),
            "oops": sum(1 for b in mine if b["oops"]),
            "scx_transitions": len(transitions),
            "scx_transitions_ok": sum(1 for s in transitions if clean(s)),
            "stall_share": [f["gap_ns"] / f["total_ns"] for f in floors],
            "gap_p50_us": [f.get("gap_p50_us") for f in floors],
            "gap_p99_us": [f.get("gap_p99_us") for f in floors],
            "gap_max_us": [f.get("gap_max_us") for f in floors],
            "lat_p50_ratio": [ratio(b, "lat", "p50_us") for b in mine],
            "lat_p99_ratio": [ratio(b, "lat", "p99_us") for b in mine],
            "lat_avg_ratio": [ratio(b, "lat", "avg_us") for b in mine],
            "sb_ratio": [ratio(b, "sb", "eps") for b in mine],
            "host_load1": [b["host_load1"] for b in mine],
            "wall_s": [b["wall_s"] for b in mine],
        }
    result = {"meta": meta, "modes": modes,
              "boots": [{k: b[k] for k in ("name", "mode", "status", "wall_s", "host_load1",
                                           "failed", "oops", "trouble", "errors", "floor",
                                           "lat", "sb", "scx")} for b in boots]}
    return result


def spread(values):
    """Median and largest distance of a ratio from 1, as percentages."""
    values = [v for v in values if v is not None]
    if not values:
        return "-"
    dist = [abs(v - 1) * 100 for v in values]
    return "%.0f %% (max %.0f %%)" % (statistics.median(dist), max(dist))


def markdown(result):
    lines = []
    meta = result["meta"]
    lines.append("tests/bench/faithful-check.sh: %s kernel, 2 vCPUs, qemu %s (mttcg) and %s (host), "
                 "%s host CPUs, %s." % (meta.get("suite", "?"), meta.get("qemu_mttcg", "?"),
                                        meta.get("qemu_host", "?"), meta.get("host_cpus", "?"),
                                        meta.get("date", "?")))
    lines.append("")
    lines.append("| mode | boots | failed | with an oops | sched_ext enable+disable ok | "
                 "vCPU stopped (share) | gap p50 / p99 / max (ms) | host load (1 min) |")
    lines.append("|---|---|---|---|---|---|---|---|")
    for mode, m in result["modes"].items():
        lines.append("| %s | %d | %d | %d | %d of %d | %s | %s / %s / %s | %s |" % (
            MODE_NAMES[mode], m["boots"], m["failed"], m["oops"], m["scx_transitions_ok"],
            m["scx_transitions"], med_range([100 * s for s in m["stall_share"]], "%.1f %%"),
            med_range([v / 1000 for v in m["gap_p50_us"] if v is not None], "%.2f"),
            med_range([v / 1000 for v in m["gap_p99_us"] if v is not None], "%.1f"),
            med_range([v / 1000 for v in m["gap_max_us"] if v is not None], "%.0f"),
            med_range(m["host_load1"], "%.1f")))
    lines.append("")
    lines.append("EEVDF against itself (second run / first run in the same boot; "
                 "median (min–max) over boots, then the median and largest distance from 1):")
    lines.append("")
    lines.append("| mode | cyclictest p50 | cyclictest p99 | cyclictest avg | sysbench events/s |")
    lines.append("|---|---|---|---|---|")
    for mode, m in result["modes"].items():
        lines.append("| %s | %s | %s | %s | %s |" % (
            MODE_NAMES[mode],
            *("%s; %s" % (med_range(m[k], "%.2f"), spread(m[k]))
              for k in ("lat_p50_ratio", "lat_p99_ratio", "lat_avg_ratio", "sb_ratio"))))
    failed = [b for b in result["boots"] if b["failed"]]
    if failed:
        lines.append("")
        lines.append("Failed boots:")
        for b in failed:
            lines.append("- %s: %s" % (b["name"], "; ".join(b["failed"])))
            lines += ["  - `%s`" % t for t in b["trouble"][:5]]
    return "\n".join(lines) + "\n"


def main(argv):
    if len(argv) != 2 or argv[1].startswith("-"):
        print("usage: faithful_summary.py DIR", file=sys.stderr)
        return 2
    try:
        result = summarize(argv[1])
    except InputError as err:
        print("faithful_summary.py: error: %s" % err, file=sys.stderr)
        return 2
    text = markdown(result)
    with open(os.path.join(argv[1], "faithful.json"), "w", encoding="utf-8") as handle:
        json.dump(result, handle, indent=1, sort_keys=True)
    with open(os.path.join(argv[1], "faithful.md"), "w", encoding="utf-8") as handle:
        handle.write(text)
    sys.stdout.write(text)
    if not result["boots"]:
        print("faithful_summary.py: no boots in %s" % argv[1], file=sys.stderr)
        return 1
    failed = sum(m["failed"] for m in result["modes"].values())
    if failed:
        print("faithful_summary.py: %d of %d boots failed" % (failed, len(result["boots"])),
              file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
