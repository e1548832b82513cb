#!/usr/bin/env bash
# Sets everything up on a fresh Debian machine and runs every test: the
# unit tier and the VM tier (both sched_ext kernels under qemu).
#   tests/run-tests.sh [extra ctest arguments, e.g. -L unit]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${SCX_BURST_BUILD:-$top/build}

"$top/tests/setup-deps.sh"
cmake -S "$top" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo > /dev/null
cmake --build "$build" -j"$(nproc)"
cd "$build"
ctest --output-on-failure -j2 --timeout 900 "$@"
