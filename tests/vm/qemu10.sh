#!/usr/bin/env bash
# The qemu of the faithful bench mode: qemu 10 or later, whose
# multi-threaded TCG (one host thread per vCPU) loads and unloads sched_ext
# schedulers cleanly, where bookworm's qemu 7.2 oopsed the guest at
# sched_ext's text patching (tests/bench/faithful-mode.md).
#
# usage: tests/vm/qemu10.sh
#
# Prints one line on stdout:  <version> <qemu-system-x86_64 path> [args...]
# where args (e.g. -L DIR) must come before the other qemu arguments.
# Everything else goes to stderr; exit 1 with one line if there is none.
#
# - If the host's qemu-system-x86_64 is 10 or later (Debian 13 and later),
#   that one, with no extra args.
# - Otherwise (Debian 12) qemu-system-x86, qemu-system-data and seabios of
#   bookworm-backports (tests/setup-deps.sh adds that suite on bookworm),
#   fetched with `apt-get download` and unpacked with `dpkg-deb -x` into
#   ${SCX_BURST_CACHE:-/var/cache/scx-burst}/qemu/<version>/, never
#   installed: the VM tests keep the host's qemu.  The binary runs with
#   `-L <its share/qemu> -L <its share/seabios>`; TCG is built into it (no
#   modules), and its shared libraries are the ones the host's qemu 7.2
#   already pulled in (checked with ldd: a missing one is named).
#   Without apt or network, the newest cached version is used.
set -euo pipefail

prog=qemu10.sh
. "$(dirname "$0")/../lib/common.sh"

case "${1:-}" in
-h|--help)
	sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
	exit 0 ;;
'') ;;
*) die "unknown argument '$1' (usage: $0)" ;;
esac

suite=bookworm-backports
pkgs=(qemu-system-x86 qemu-system-data seabios)
cache=${SCX_BURST_CACHE:-/var/cache/scx-burst}/qemu

# major version of a qemu binary's --version, empty if it does not run
major_of() {
	"$1" --version 2>/dev/null | sed -n '1s/^QEMU emulator version \([0-9]*\)\..*/\1/p'
}

# Debian 13 and later: the host's own qemu is new enough.
if host=$(command -v qemu-system-x86_64); then
	m=$(major_of "$host")
	if [ -n "$m" ] && [ "$m" -ge 10 ]; then
		echo "$("$host" --version | sed -n '1s/^QEMU emulator version \([^ ]*\).*/\1/p') $host"
		exit 0
	fi
fi

# print_cached DIR: the output line for an unpacked version, 1 if unusable
print_cached() {
	local d=$1 bin=$1/root/usr/bin/qemu-system-x86_64 missing
	[ -x "$bin" ] && [ -f "$d/root/usr/share/seabios/bios-256k.bin" ] || return 1
	missing=$(ldd "$bin" 2>/dev/null | awk '/not found/ { printf "%s%s", sep, $1; sep = " " }')
	[ -z "$missing" ] ||
		die "$bin needs libraries this machine lacks: $missing (apt-get install the bookworm packages that ship them)"
	[ -n "$(major_of "$bin")" ] || die "$bin does not run ('$bin --version' failed)"
	echo "$(basename "$d") $bin -L $d/root/usr/share/qemu -L $d/root/usr/share/seabios"
}

newest_cached() {
	local d best=''
	for d in "$cache"/*/; do
		[ -x "$d/root/usr/bin/qemu-system-x86_64" ] || continue
		if [ -z "$best" ] || [ "$d" -nt "$best" ]; then best=$d; fi
	done
	[ -n "$best" ] && echo "${best%/}"
}

for t in apt-cache apt-get dpkg-deb flock ldd; do
	command -v "$t" >/dev/null || die "'$t' not found"
done
mkdir -p "$cache" || die "cannot create $cache"
exec 9>"$cache/.lock"
flock 9 || die "cannot lock $cache/.lock"

# The candidate version in the host's apt lists ("" if the suite is not
# configured or the lists lack it).
ver=$(apt-cache show --no-all-versions "qemu-system-x86/$suite" 2>/dev/null |
	sed -n 's/^Version: //p' | head -n1)
if [ -z "$ver" ]; then
	if d=$(newest_cached); then
		log "no qemu-system-x86 in $suite in apt's lists; using the cached $(basename "$d")"
		print_cached "$d" || die "cached $d is incomplete; remove it"
		exit 0
	fi
	die "no qemu-system-x86 in $suite in apt's lists and none cached (run tests/setup-deps.sh, which adds $suite on Debian 12, then apt-get update)"
fi
dir=$cache/${ver#*:}
if print_cached "$dir"; then exit 0; fi

log "fetching qemu ${ver#*:} from $suite into $dir"
tmp=$(mktemp -d "$cache/.dl.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
if ! (cd "$tmp" && apt-get download -qq "${pkgs[@]/%//$suite}") > "$tmp/download.log" 2>&1; then
	if d=$(newest_cached); then
		log "download failed ($(grep -m1 -E '^(E|W):' "$tmp/download.log" || echo '?')); using the cached $(basename "$d")"
		print_cached "$d" || die "cached $d is incomplete; remove it"
		exit 0
	fi
	die "cannot download ${pkgs[*]} from $suite: $(grep -m1 -E '^E:' "$tmp/download.log" || tail -n1 "$tmp/download.log")"
fi
mkdir "$tmp/out" "$tmp/out/root"
for p in "$tmp"/*.deb; do
	dpkg-deb -x "$p" "$tmp/out/root" || die "cannot unpack $(basename "$p")"
done
rm -rf "$tmp/out/root/usr/share/doc" "$tmp/out/root/usr/share/man"
rm -rf "$dir"
mv "$tmp/out" "$dir"
# Keep the two newest versions.
ls -1dt "$cache"/*/ 2>/dev/null | tail -n +3 | xargs -r rm -rf || true
print_cached "$dir" || die "$dir: the unpacked packages lack qemu-system-x86_64 or bios-256k.bin"
