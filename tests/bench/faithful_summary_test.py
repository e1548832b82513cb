"""Unit tests of tests/bench/faithful_summary.py (run by ctest as part of
bench_analyzer): boots and logs written here, with known numbers."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "faithful_summary.py")


def console(floor_gap_ns, lat1, lat2, eps1, eps2, extra=(), done=True, scx_rc=0):
    lines = ["@@BOOT kernel=7.2.13 ncpu=2 sched_ext=disabled",
             "@@F start ncpu=2 floor_s=3 lat_s=3 sb_s=2 cycles=1 hogs=24",
             "@@F floor cpus=2 total_ns=6000000000 gap_ns=%d gaps=10 gap_p50_us=100 "
             "gap_p90_us=500 gap_p99_us=7000 gap_max_us=9000 gap_ge1ms_share=0.5 "
             "gap_ge10ms_share=0.0" % floor_gap_ns,
             "@@F lat rep=1 window_ns=3000000000 samples=100 avg_us=%.1f p50_us=%d p90_us=1 "
             "p99_us=%d max_us=1" % (lat1[0], lat1[1], lat1[2]),
             "@@F sb rep=1 threads=2 eps=%.2f" % eps1,
             "@@F lat rep=2 window_ns=3000000000 samples=100 avg_us=%.1f p50_us=%d p90_us=1 "
             "p99_us=%d max_us=1" % (lat2[0], lat2[1], lat2[2]),
             "@@F sb rep=2 threads=2 eps=%.2f" % eps2,
             "@@F scx cycle=1 policy=burst enabled=1 disabled=1 rc=%d enable_ms=900 "
             "disable_ms=300 seq_moved=1" % scx_rc,
             "@@F scx cycle=1 policy=deadline enabled=1 disabled=1 rc=0 enable_ms=900 "
             "disable_ms=300 seq_moved=1"]
    lines += list(extra)
    if done:
        lines.append("@@F done errors=0 dmesg_bad=0 scx_messages=4")
    lines.append("@@EXIT 0")
    return "\n".join(lines) + "\n"


class FaithfulSummary(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.dir)
        os.mkdir(os.path.join(self.dir, "logs"))
        self.rows = []

    def boot(self, name, mode, text, status=0):
        with open(os.path.join(self.dir, "logs", name + ".log"), "w", encoding="utf-8") as handle:
            handle.write(text)
        self.rows.append("%s %s %d 60.0 1.5" % (name, mode, status))

    def run_summary(self):
        with open(os.path.join(self.dir, "boots.txt"), "w", encoding="utf-8") as handle:
            handle.write("\n".join(self.rows) + "\n")
        proc = subprocess.run([sys.executable, "-B", SCRIPT, self.dir], capture_output=True,
                              text=True, check=False)
        result = None
        if os.path.exists(os.path.join(self.dir, "faithful.json")):
            with open(os.path.join(self.dir, "faithful.json"), encoding="utf-8") as handle:
                result = json.load(handle)
        return proc, result

    def test_clean_boots(self):
        self.boot("a", "mttcg", console(60000000, (100, 50, 1000), (110, 60, 800), 500, 490))
        self.boot("b", "mttcg", console(30000000, (100, 50, 1000), (100, 40, 1200), 500, 510))
        self.boot("c", "single", console(2400000000, (100, 50, 1000), (200, 50, 1000), 500, 250))
        proc, result = self.run_summary()
        self.assertEqual(proc.returncode, 0, proc.stderr)
        mttcg = result["modes"]["mttcg"]
        self.assertEqual((mttcg["boots"], mttcg["failed"], mttcg["oops"]), (2, 0, 0))
        self.assertEqual((mttcg["scx_transitions"], mttcg["scx_transitions_ok"]), (4, 4))
        self.assertEqual(mttcg["stall_share"], [0.01, 0.005])
        self.assertEqual(mttcg["lat_p50_ratio"], [1.2, 0.8])
        self.assertEqual(mttcg["sb_ratio"], [0.98, 1.02])
        self.assertEqual(result["modes"]["single"]["stall_share"], [0.4])
        # the table: stall share median (min-max) in percent, ratio spreads
        self.assertIn("| 2 | 0 | 0 | 4 of 4 | 0.8 % (0.5 %–1.0 %) |", proc.stdout)
        self.assertIn("| 1.00 (0.80–1.20); 20 % (max 20 %) |", proc.stdout)
        self.assertIn("| 40.0 % |", proc.stdout)

    def test_oops_fails_the_boot(self):
        self.boot("a", "mttcg", console(60000000, (1, 1, 1), (1, 1, 1), 1, 1))
        self.boot("b", "mttcg", console(60000000, (1, 1, 1), (1, 1, 1), 1, 1,
                                        extra=["[   12.5] Oops: int3: 0000 [#1] SMP"]))
        proc, result = self.run_summary()
        self.assertEqual(proc.returncode, 1)
        self.assertIn("1 of 2 boots failed", proc.stderr)
        self.assertEqual((result["modes"]["mttcg"]["failed"], result["modes"]["mttcg"]["oops"]),
                         (1, 1))
        self.assertIn("- b: 1 kernel messages of trouble", proc.stdout)

    def test_guest_dmesg_warning_status_and_missing_done(self):
        self.boot("a", "mttcg", console(1, (1, 1, 1), (1, 1, 1), 1, 1,
                                        extra=["@@FDMESG WARNING: CPU: 1 PID: 9 at kernel/x.c"]))
        self.boot("b", "mttcg", console(1, (1, 1, 1), (1, 1, 1), 1, 1, done=False), status=124)
        self.boot("c", "icount", console(1, (1, 1, 1), (1, 1, 1), 1, 1, scx_rc=1))
        proc, result = self.run_summary()
        self.assertEqual(proc.returncode, 1)
        failed = {b["name"]: b["failed"] for b in result["boots"]}
        self.assertEqual(failed["a"], ["1 kernel messages of trouble"])
        self.assertEqual(failed["b"], ["status 124", "no 'done' record"])
        self.assertEqual(failed["c"], ["1 of 2 sched_ext enable/disable not clean"])
        self.assertEqual(result["modes"]["icount"]["scx_transitions_ok"], 1)
        self.assertEqual(result["modes"]["mttcg"]["oops"], 0)

    def test_bad_input_is_one_line(self):
        proc = subprocess.run([sys.executable, "-B", SCRIPT, os.path.join(self.dir, "none")],
                              capture_output=True, text=True, check=False)
        self.assertEqual(proc.returncode, 2)
        self.assertEqual(len(proc.stderr.splitlines()), 1, proc.stderr)
        self.assertIn("boots.txt", proc.stderr)
        self.rows.append("a warp 0 1.0 1.0")
        proc, _ = self.run_summary()
        self.assertEqual(proc.returncode, 2)
        self.assertIn("bad line 'a warp 0 1.0 1.0'", proc.stderr)


if __name__ == "__main__":
    unittest.main()
