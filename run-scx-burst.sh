#!/usr/bin/env bash
# Sets everything up on a fresh Debian machine and runs scx_burst:
#   - on this machine if its kernel has sched_ext (as root), arguments
#     passed through to scx_burst;
#   - otherwise inside the test VM (a Debian sched_ext kernel under qemu)
#     with a demo load, streaming the per-CPU stats to this terminal.
#
#   ./run-scx-burst.sh [scx_burst options...]
#   DEMO_SECONDS=60 ./run-scx-burst.sh --policy deadline
# (tests/run-scx-burst.sh, its old place, still forwards here.)
set -euo pipefail
top=$(cd "$(dirname "$0")" && pwd)
build=${SCX_BURST_BUILD:-$top/build}
prog=run-scx-burst
. "$top/tests/lib/common.sh"

"$top/tests/setup-deps.sh"
build_tree "$top" "$build" scx_burst

if [ -e /sys/kernel/sched_ext/state ] && [ -z "${SCX_BURST_FORCE_VM:-}" ]; then
	exec "$build/scx_burst" "$@"
fi

log "this kernel ($(uname -r)) has no sched_ext: running scx_burst in the test VM"
vm="$build/vm"
mkdir -p "$vm"
read -r suite version vmlinuz < <("$top/tests/vm/kernels.sh" "${SCX_BURST_SUITES[@]}" | head -n 1)
scen=$(mktemp -d)
trap 'rm -rf "$scen"' EXIT
cp "$top"/tests/vm/scenarios/*.sh "$scen/"
printf '%s\n' "${@:---stats=1}" > "$scen/demo.args"
"$top/tests/vm/mkinitramfs.sh" "$vm/demo.cpio.zst" "$build/scx_burst" "$scen" > /dev/null
log "booting $suite kernel $version (qemu TCG, ${SMP:-2} vCPUs)"
exec "$top/tests/vm/run-vm.sh" --kernel "$vmlinuz" --initrd "$vm/demo.cpio.zst" \
	--smp "${SMP:-2}" --timeout $(( ${DEMO_SECONDS:-30} + 120 )) \
	-- scenario=demo demo_seconds="${DEMO_SECONDS:-30}"
