#!/usr/bin/env bash
# Prepares the VM tier: resolves and caches the sched_ext kernels, and
# builds the initramfs with the static daemon and the test scenarios.
#   prepare.sh VM_DIR DAEMON_BINARY
# Writes VM_DIR/kernels.txt ("suite version vmlinuz" per line) and
# VM_DIR/initramfs.cpio.zst.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
prog=prepare.sh
. "$here/../lib/common.sh"
vm_dir=$1
daemon=$2

mkdir -p "$vm_dir"
require_static "$daemon"
"$here/kernels.sh" "${SCX_BURST_SUITES[@]}" > "$vm_dir/kernels.txt.tmp"
mv "$vm_dir/kernels.txt.tmp" "$vm_dir/kernels.txt"
cat "$vm_dir/kernels.txt"
"$here/mkinitramfs.sh" "$vm_dir/initramfs.cpio.zst" "$daemon" "$here/scenarios"
