#!/usr/bin/env bash
# Regenerates the benchmark report in docs/ (docs/benchmarks.md, the plots
# in docs/benchmarks/ and the trace pictures in docs/benchmarks/trace/):
# the one tool that writes those files on purpose.  It runs the full
# benchmark (tests/bench/run-bench.sh, about 23 minutes) into build/bench,
# or with --reanalyze redoes the report from the logs already there, and
# copies the report into docs/ only when every boot and every section is
# complete.  Review and commit the result.
#
#   scripts/update-benchmark-docs.sh [--reanalyze] [--suites "SUITE..."]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
prog=update-benchmark-docs.sh
. "$top/tests/lib/common.sh"

out=$top/build/bench
"$top/tests/bench/run-bench.sh" --no-docs --out "$out" "$@" ||
	die "the benchmark failed: docs/ left as it was (see $out)"
[ "$(cat "$out/quick.txt" 2>/dev/null || echo 1)" = 0 ] ||
	die "$out holds a --quick run: docs/ left as it was"
"$top/tests/bench/run-bench.sh" --check "$out/results.json" > /dev/null ||
	die "results incomplete: docs/ left as it was"
install_bench_docs "$out" "$top"
log "regenerated docs/benchmarks.md and docs/benchmarks/ from $out"
