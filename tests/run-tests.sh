#!/usr/bin/env bash
# Sets everything up on a fresh Debian machine and runs every test: the
# unit tier (with the fuzz targets' bounded runs), the VM tier (both
# sched_ext kernels under qemu), then the unit tier again under ASan and
# UBSan from a second build directory (SCX_BURST_SANITIZE=ON, only
# unit_tests is built there).
#   tests/run-tests.sh [extra ctest arguments, e.g. -L unit]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${SCX_BURST_BUILD:-$top/build}
san=$build-sanitize

prog=run-tests.sh
. "$top/tests/lib/common.sh"

"$top/tests/setup-deps.sh"
build_tree "$top" "$build"
cmake -S "$top" -B "$san" -DCMAKE_BUILD_TYPE=Debug -DSCX_BURST_SANITIZE=ON \
	-DSCX_BURST_VM_TESTS=OFF -DSCX_BURST_FUZZ=OFF > /dev/null
cmake --build "$san" -j"$(nproc)" --target unit_tests

status=0
(cd "$build" && ctest --output-on-failure -j2 --timeout 900 "$@") || status=$?
echo "run-tests: the unit tier under ASan and UBSan ($san)"
UBSAN_OPTIONS=print_stacktrace=1 "$san/tests/unit_tests" || status=$?
exit "$status"
