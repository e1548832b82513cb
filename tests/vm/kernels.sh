#!/usr/bin/env bash
# Fetch Debian kernels that have sched_ext, for booting under qemu.
#
# usage: tests/vm/kernels.sh [SUITE...]        (default: sid trixie-backports)
#
# For each suite, prints one line on stdout:  <suite> <kernel release> <vmlinuz path>
# Everything else goes to stderr.
#
# The current linux-image-cloud-amd64 of each suite is resolved through a
# private apt configuration rooted in the cache (own sources, lists, package
# cache and an empty dpkg status), so the host's apt sources are never
# touched and nothing is installed: the packages are fetched with
# `apt-get download` and unpacked with `dpkg-deb -x`.  The archive URIs are
# taken at run time from the host's debian.sources.
#
# Cache: ${SCX_BURST_CACHE:-/var/cache/scx-burst}/kernels/<suite>/<release>/
#        {vmlinuz,config,package}
# The private apt lists are refreshed at most once every
# ${SCX_BURST_LISTS_MAX_AGE:-86400} seconds (SCX_BURST_KERNELS_REFRESH=1
# forces a refresh).  Without network, the newest cached kernel is used.
# A suite that cannot provide a sched_ext kernel falls back to another
# suite's kernel (said on stderr).
set -euo pipefail

prog=kernels.sh
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/apt.sh"

default_suites=("${SCX_BURST_SUITES[@]}")
max_age=${SCX_BURST_LISTS_MAX_AGE:-86400}
force_refresh=${SCX_BURST_KERNELS_REFRESH:-0}
meta=linux-image-cloud-amd64

case "${1:-}" in
-h|--help)
	sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
	exit 0 ;;
-*) die "unknown option '$1' (usage: $0 [SUITE...])" ;;
esac

if [ $# -gt 0 ]; then suites=("$@"); else suites=("${default_suites[@]}"); fi
for s in "${suites[@]}"; do
	[[ $s =~ ^[a-z][a-z0-9.-]*$ ]] || die "bad suite name '$s'"
done

for t in apt-get apt-cache dpkg-deb flock; do
	command -v "$t" >/dev/null || die "'$t' not found"
done

apt_lock

# Refresh lists and resolve the suite's kernel.  Writes "<release> <pkgver>"
# (or "none") into $r/resolved.  Fails if the lists could not be refreshed.
refresh() {
	local suite=$1 r=$cache/apt/$1 ver dep rel
	log "$suite: refreshing package lists"
	if ! apt_update "$suite" "$r/update.log"; then
		log "$suite: cannot refresh package lists ($(grep -m1 -E '^(E|W):' "$r/update.log" || echo "see $r/update.log"))"
		return 1
	fi
	ver=$(apt_field "$meta" Version)
	if [ -z "$ver" ]; then
		log "$suite: no $meta in this suite"
		echo none > "$r/resolved"
		return 0
	fi
	dep=$(apt_field "$meta=$ver" Depends)
	rel=$(tr ',' '\n' <<<"$dep" | sed -n 's/^ *linux-image-\([^ ]*-cloud-amd64\) .*/\1/p' | head -n1)
	if [ -z "$rel" ]; then
		log "$suite: cannot find the kernel package in '$meta $ver' Depends: $dep"
		echo none > "$r/resolved"
		return 0
	fi
	echo "$rel $ver" > "$r/resolved"
}

# Newest cached kernel of a suite: prints "<release> <dir>".
newest_cached() {
	local d best=
	for d in "$cache/kernels/$1"/*/; do
		[ -f "$d/vmlinuz" ] && [ -f "$d/config" ] || continue
		if [ -z "$best" ] || [ "$d/vmlinuz" -nt "$best/vmlinuz" ]; then best=${d%/}; fi
	done
	[ -n "$best" ] && echo "$(basename "$best") $best"
}

# Download and unpack the kernel REL (package version VER) of SUITE.
download() {
	local suite=$1 rel=$2 ver=$3 dest=$cache/kernels/$1/$2 tmp pkgs p d vmlinuz config
	tmp=$(mktemp -d "$cache/kernels/.dl.XXXXXX")
	# 7.x: vmlinuz in linux-binary-<rel>, config in linux-base-<rel>;
	# older kernels: both in linux-image-<rel> under /boot.
	if [ -n "$(apt_field "linux-binary-$rel=$ver" Package)" ]; then
		pkgs=("linux-binary-$rel" "linux-base-$rel")
	else
		pkgs=("linux-image-$rel")
	fi
	log "$suite: downloading ${pkgs[*]} $ver"
	if ! (cd "$tmp" && apt-get -qq "${apt_opts[@]}" download "${pkgs[@]/%/=$ver}") >"$tmp/download.log" 2>&1; then
		log "$suite: download failed: $(grep -m1 -E '^(E|W):' "$tmp/download.log" || echo '?')"
		rm -rf "$tmp"; return 1
	fi
	mkdir "$tmp/root" "$tmp/out"
	for p in "$tmp"/*.deb; do dpkg-deb -x "$p" "$tmp/root"; done
	for d in "usr/lib/modules/$rel/vmlinuz" "boot/vmlinuz-$rel"; do
		[ -f "$tmp/root/$d" ] && { vmlinuz=$tmp/root/$d; break; }
	done
	for d in "usr/lib/modules/$rel/config" "boot/config-$rel"; do
		[ -f "$tmp/root/$d" ] && { config=$tmp/root/$d; break; }
	done
	if [ -z "${vmlinuz:-}" ] || [ -z "${config:-}" ]; then
		log "$suite: no vmlinuz or config for $rel in ${pkgs[*]}"
		rm -rf "$tmp"; return 1
	fi
	if ! grep -qx 'CONFIG_SCHED_CLASS_EXT=y' "$config"; then
		log "$suite: kernel $rel has no CONFIG_SCHED_CLASS_EXT=y"
		echo "nosched $rel $ver" > "$cache/apt/$suite/resolved"
		rm -rf "$tmp"; return 1
	fi
	mv "$vmlinuz" "$tmp/out/vmlinuz"
	mv "$config" "$tmp/out/config"
	echo "${pkgs[0]} $ver" > "$tmp/out/package"
	mkdir -p "$cache/kernels/$suite"
	rm -rf "$dest"
	mv "$tmp/out" "$dest"
	rm -rf "$tmp"
	# Keep the two newest releases of the suite.
	ls -1dt "$cache/kernels/$suite"/*/ 2>/dev/null | tail -n +3 | xargs -r rm -rf || true
	return 0
}

# Kernel of one suite: prints "<release> <vmlinuz>"; fails if there is none.
suite_kernel() {
	local suite=$1 r=$cache/apt/$1 age=-1 rel ver c
	apt_root "$suite"
	[ -f "$r/stamp" ] && age=$(( $(date +%s) - $(stat -c %Y "$r/stamp") ))
	if [ "$force_refresh" = 1 ] || [ ! -f "$r/resolved" ] || [ "$age" -lt 0 ] || [ "$age" -gt "$max_age" ]; then
		refresh "$suite" || true
	fi
	rel='' ver=''
	[ -f "$r/resolved" ] && read -r rel ver _ < "$r/resolved"
	case "$rel" in none|nosched) rel= ;; esac
	if [ -n "$rel" ]; then
		if [ -f "$cache/kernels/$suite/$rel/vmlinuz" ] && [ -f "$cache/kernels/$suite/$rel/config" ]; then
			echo "$rel $cache/kernels/$suite/$rel/vmlinuz"; return 0
		fi
		if download "$suite" "$rel" "$ver"; then
			echo "$rel $cache/kernels/$suite/$rel/vmlinuz"; return 0
		fi
	fi
	if c=$(newest_cached "$suite"); then
		log "$suite: using cached kernel ${c%% *}"
		echo "${c%% *} ${c#* }/vmlinuz"; return 0
	fi
	return 1
}

declare -A found=()
get() {
	local k
	if [ -z "${found[$1]+x}" ]; then
		if k=$(suite_kernel "$1"); then found[$1]=$k; else found[$1]=; fi
	fi
	[ -n "${found[$1]}" ]
}

rc=0
for s in "${suites[@]}"; do
	if get "$s"; then
		echo "$s ${found[$s]}"
		continue
	fi
	ok=0
	for o in "${suites[@]}" "${default_suites[@]}"; do
		[ "$o" != "$s" ] || continue
		if get "$o"; then
			log "$s: no sched_ext kernel; falling back to the $o kernel ${found[$o]%% *}"
			echo "$s ${found[$o]}"
			ok=1; break
		fi
	done
	[ "$ok" = 1 ] || { log "error: $s: no sched_ext kernel, and no other suite provides one"; rc=1; }
done
exit "$rc"
