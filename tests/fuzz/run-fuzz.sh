#!/usr/bin/env bash
# Runs one libFuzzer target for a bounded time, as the unit tier does:
#   run-fuzz.sh BINARY SEED_DIR WORK_DIR
# The checked-in seeds are read, never written: what the fuzzer finds new
# goes to WORK_DIR/corpus (kept between runs in the same build directory),
# a crashing input to WORK_DIR/crashes/ (the run then fails and prints
# how to reproduce it).  FUZZ_SECONDS (default 5) bounds the run.
set -euo pipefail
bin=$1 seeds=$2 work=$3
secs=${FUZZ_SECONDS:-5}

mkdir -p "$work/corpus" "$work/crashes"
status=0
"$bin" -max_total_time="$secs" -runs=10000000 -timeout=10 -rss_limit_mb=2048 \
	-print_final_stats=1 -artifact_prefix="$work/crashes/" \
	"$work/corpus" "$seeds" || status=$?
if [ "$status" -ne 0 ]; then
	echo "run-fuzz: $(basename "$bin") failed; reproduce with:" >&2
	for f in "$work"/crashes/*; do
		[ -e "$f" ] && echo "  $bin $f" >&2
	done
fi
exit "$status"
