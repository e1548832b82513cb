#!/usr/bin/env bash
# Sets everything up on a fresh Debian machine and runs every test: the
# unit tier and the VM tier (both sched_ext kernels under qemu).
#   tests/run-tests.sh [extra ctest arguments, e.g. -L unit]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${SCX_BURST_BUILD:-$top/build}

prog=run-tests.sh
. "$top/tests/lib/common.sh"

"$top/tests/setup-deps.sh"
build_tree "$top" "$build"
cd "$build"
ctest --output-on-failure -j2 --timeout 900 "$@"
