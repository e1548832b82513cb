#!/usr/bin/env bash
# Prepares the VM tier: resolves and caches the sched_ext kernels, and
# builds the initramfs with the static daemon and the test scenarios.
#   prepare.sh VM_DIR DAEMON_BINARY UNIT_FILE
# UNIT_FILE is the build's scx_burst.service; it goes into the image as
# /scenarios/dist/ with dist/scx_burst.toml, so Vm.Service runs the
# unit's ExecStart and ExecReload lines with the shipped config file.
# Writes VM_DIR/kernels.txt ("suite version vmlinuz" per line) and
# VM_DIR/initramfs.cpio.zst.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
prog=prepare.sh
. "$here/../lib/common.sh"
vm_dir=$1
daemon=$2
unit=$3

mkdir -p "$vm_dir"
require_static "$daemon"
"$here/kernels.sh" "${SCX_BURST_SUITES[@]}" > "$vm_dir/kernels.txt.tmp"
mv "$vm_dir/kernels.txt.tmp" "$vm_dir/kernels.txt"
cat "$vm_dir/kernels.txt"
extra=$vm_dir/extra
rm -rf "$extra"
mkdir -p "$extra/dist"
cp -L "$here"/scenarios/* "$extra/"
cp -L "$unit" "$here/../../dist/scx_burst.toml" "$extra/dist/"
"$here/mkinitramfs.sh" "$vm_dir/initramfs.cpio.zst" "$daemon" "$extra"
