#!/usr/bin/env bash
# Check the faithful bench mode (qemu 10, multi-threaded TCG, 2 vCPUs;
# tests/bench/faithful-mode.md) over many boots: does it oops, how much of
# the time does the emulator stop a vCPU, and how far does EEVDF measured
# twice in one boot disagree with itself?
#
# usage: tests/bench/faithful-check.sh [--boots N] [--suite S] [--out DIR]
#                                      [--daemon PATH] [--no-compare]
#        tests/bench/faithful-check.sh --summarize DIR
#
#   --boots N      boots under run-vm.sh --mttcg --smp 2 (default 20; 0: only
#                  the comparison boots)
#   --suite S      kernel (tests/vm/kernels.sh suite; default sid)
#   --out DIR      logs and summary (default build/faithful): logs/,
#                  boots.txt, faithful.json, faithful.md
#   --daemon PATH  the static scx_burst to load (default: build it with
#                  cmake into ${SCX_BURST_BUILD:-build}); also $SCX_BURST_DAEMON
#   --no-compare   skip the two comparison boots, 2 vCPUs each: the host's
#                  qemu single-threaded, and single-threaded with --icount
#   --summarize DIR   redo faithful.json and faithful.md from DIR (no boots)
#
# Each boot runs tests/bench/faithful.sh (about 35 s of guest time: the
# stall floor, EEVDF twice, scx_burst enabled and disabled twice per policy
# under load, a dmesg scan; on a busy host the emulator stretches it).
# tests/bench/faithful_summary.py counts the failed boots (status, missing
# records, Oops/BUG/WARNING/int3/stall in the console or dmesg) and prints
# the table; the exit status is 1 if any boot failed.  One VM at a time;
# as root.
set -euo pipefail

prog=faithful-check.sh
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/common.sh"
top=$(cd "$here/../.." && pwd)

boots=20 suite=${SCX_BURST_SUITES[0]} out='' daemon=${SCX_BURST_DAEMON:-} compare=1 summarize=''
while [ $# -gt 0 ]; do
	case "$1" in
	--no-compare) compare=0; shift ;;
	--boots|--suite|--out|--daemon|--summarize)
		[ $# -ge 2 ] && [ -n "$2" ] || die "$1 needs a value"
		case "$1" in
		--boots) boots=$2 ;; --suite) suite=$2 ;; --out) out=$2 ;;
		--daemon) daemon=$2 ;; --summarize) summarize=$2 ;;
		esac
		shift 2 ;;
	-h|--help) usage; exit 0 ;;
	*) die "unknown argument '$1' (see $0 --help)" ;;
	esac
done
[[ $boots =~ ^(0|[1-9][0-9]{0,2})$ ]] || die "--boots must be an integer 0..999, got '$boots'"
[ "$boots" != 0 ] || [ "$compare" = 1 ] || die "--boots 0 with --no-compare leaves nothing to boot"
[[ $suite =~ ^[a-z][a-z0-9.-]*$ ]] || die "bad suite name '$suite'"
command -v python3 >/dev/null || die "'python3' not found (tests/setup-deps.sh installs it)"

summary() {
	python3 "$here/faithful_summary.py" "$1"
}
if [ -n "$summarize" ]; then
	summary "$summarize"
	exit
fi

[ -n "$out" ] || out=$top/build/faithful
for t in gcc cpio zstd; do
	command -v "$t" >/dev/null || die "'$t' not found (tests/setup-deps.sh installs it)"
done
[ "$(id -u)" -eq 0 ] || die "must run as root (tests/vm/mkinitramfs.sh, the qemu cache)"

if [ -z "$daemon" ]; then
	build=${SCX_BURST_BUILD:-$top/build}
	log "building scx_burst in $build"
	build_tree "$top" "$build" scx_burst > /dev/null
	daemon=$build/scx_burst
fi
require_static "$daemon"
# fetch qemu 10 now, so that a failure is one line before any boot
"$top/tests/vm/qemu10.sh" > /dev/null || die "no qemu 10 (tests/vm/qemu10.sh failed)"
k=$("$top/tests/vm/kernels.sh" "$suite") || die "tests/vm/kernels.sh $suite failed"
read -r _ _ vmlinuz <<< "$k"
[ -f "${vmlinuz:-}" ] || die "tests/vm/kernels.sh $suite gave no kernel"

image=$out/image logs=$out/logs
rm -rf "$image" "$logs"
mkdir -p "$image/scenarios" "$logs" || die "cannot create $out"
cp "$top/tests/vm/scenarios/lib.sh" "$here/faithful.sh" "$image/scenarios/"
gcc -O2 -Wall -Wextra -static -pthread -o "$image/scenarios/benchprobe" "$here/benchprobe.c" ||
	die "cannot build benchprobe (static glibc: libc6-dev)"
log "building the initramfs"
MKINITRAMFS_ZSTD_LEVEL=3 "$top/tests/vm/mkinitramfs.sh" "$image/initramfs.cpio.zst" \
	"$daemon" "$image/scenarios" 2>&1 | sed 's/^/  /' >&2
[ -f "$image/initramfs.cpio.zst" ] || die "no initramfs"

# boot NAME MODE [run-vm.sh flags]: one boot, a line in boots.txt:
# name mode status wall_s host_load1 (the host's load when it began)
boot() {
	local name=$1 mode=$2 rc t0 t1 load1
	shift 2
	read -r load1 _ < /proc/loadavg
	t0=$(date +%s.%N)
	set +e
	"$top/tests/vm/run-vm.sh" --kernel "$vmlinuz" --initrd "$image/initramfs.cpio.zst" \
		--smp 2 --timeout 240 --log "$logs/$name.log" "$@" -- scenario=faithful \
		< /dev/null > /dev/null 2> "$logs/$name.err"
	rc=$?
	set -e
	t1=$(date +%s.%N)
	printf '%s %s %s %.1f %s\n' "$name" "$mode" "$rc" \
		"$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" "$load1" >> "$out/boots.txt"
	log "$name: status $rc, $(tail -n1 "$logs/$name.err")"
}

: > "$out/boots.txt"
{
	echo "suite $suite"
	echo "kernel $vmlinuz"
	echo "qemu_mttcg $("$top/tests/vm/qemu10.sh" | awk '{ print $1 }')"
	echo "qemu_host $(qemu-system-x86_64 --version | sed -n '1s/^QEMU emulator version //p')"
	echo "host_cpus $(nproc)"
	echo "date $(date -u '+%Y-%m-%d %H:%M UTC')"
} > "$out/meta.txt"
i=1
while [ "$i" -le "$boots" ]; do
	boot "$suite-mttcg-$i" mttcg --mttcg
	i=$((i + 1))
done
if [ "$compare" = 1 ]; then
	boot "$suite-single-1" single
	boot "$suite-icount-1" icount --icount
fi
summary "$out"
