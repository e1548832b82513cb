#!/usr/bin/env bash
# Build the kernel's own sched_ext example schedulers (the peers the
# benchmark runs beside EEVDF and scx_burst) for one test kernel.
#
# usage: tests/bench/peers.sh SUITE RELEASE
#
# SUITE and RELEASE name a kernel that tests/vm/kernels.sh fetched (the
# first two fields of its output).  Prints the directory that holds the
# peers; everything else goes to stderr.
#
# Debian's linux-source-X.Y of exactly that kernel's package version is
# fetched through SUITE's private apt root (tests/lib/apt.sh), and only what
# the build of tools/sched_ext needs is unpacked from its tarball:
#   tools/{sched_ext,lib,include,build,scripts,bpf,arch},
#   kernel/bpf/disasm.[ch] (bpftool), scripts/bpf_doc.py (libbpf).
# tools/sched_ext's Makefile builds the tree's own libbpf and bpftool, then
# scx_simple, scx_qmap, scx_central and scx_flatcg against the kernel's BTF
# (vmlinux/gen-vmlinux-h.sh --btf) with the newest clang-NN on PATH
# ($SCX_BURST_PEERS_CLANG overrides); each is then linked statically (the
# test VM has no shared libraries for them).  Nothing of the source is kept.
# -fno-builtin-memset: clang 19 merges the three NULL stores of scx_qmap's
# qmap_fifo_remove() (7.2, 7.3) into a memset of an arena pointer and emits
# it without the addr_space_cast that it gives plain stores, and the verifier
# refuses qmap_dequeue ("R7 invalid mem access 'scalar'"); with memset not a
# builtin, the stores stay stores and get the cast.
#
# Cache: ${SCX_BURST_CACHE:-/var/cache/scx-burst}/peers/<suite>/<release>/
#   scx_<name>    the static binaries (debug info stripped)
#   package       "linux-source-X.Y <version>", the compiler
#   config        the kernel's config (libbpf resolves the peers' __kconfig
#                 externs from /boot/config-<release>; peer.sh puts it there)
#   failed        "<name> <first error line>" per peer that did not build
#   logs/         the build output, one file per peer
# A directory with package and config is complete and is reused as it is (a
# second call is instant); remove it to rebuild.  The two newest releases of a suite are
# kept.  A peer that fails to build is named on stderr and left out; the
# script fails (and caches nothing) only if none builds.  A cold build takes
# 95-125 s on a busy 2-core machine (fetching 165 MB, unpacking, libbpf and
# bpftool twice each, the four peers).
set -euo pipefail

prog=peers.sh
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/tests/lib/common.sh"
. "$top/tests/lib/apt.sh"
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

case "${1:-}" in
-h|--help) usage; exit 0 ;;
-*) die "unknown option '$1' (usage: $0 SUITE RELEASE)" ;;
esac
[ $# -eq 2 ] || die "usage: $0 SUITE RELEASE (as tests/vm/kernels.sh prints them)"
suite=$1 rel=$2
[[ $suite =~ ^[a-z][a-z0-9.-]*$ ]] || die "bad suite name '$suite'"
[[ $rel =~ ^([0-9]+\.[0-9]+)[.0-9]*[-+a-z0-9.]*$ ]] || die "bad kernel release '$rel'"
xy=${BASH_REMATCH[1]}
peers=(scx_simple scx_qmap scx_central scx_flatcg)
members=(tools/sched_ext tools/lib tools/include tools/build tools/scripts
	tools/bpf tools/arch kernel/bpf/disasm.c kernel/bpf/disasm.h scripts/bpf_doc.py)

kdir=$cache/kernels/$suite/$rel
dest=$cache/peers/$suite/$rel
[ -f "$kdir/vmlinuz" ] && [ -f "$kdir/package" ] && [ -f "$kdir/config" ] ||
	die "no kernel $suite/$rel in $cache/kernels (run tests/vm/kernels.sh $suite first)"

mkdir -p "$cache/peers" || die "cannot create $cache/peers"
exec 8>"$cache/peers/.lock" || die "cannot open $cache/peers/.lock"
flock 8 || die "cannot lock $cache/peers/.lock"
if [ -f "$dest/package" ] && [ -f "$dest/config" ]; then
	echo "$dest"
	exit 0
fi
rm -rf "$dest"

for t in apt-get apt-cache dpkg-deb tar xz make gcc python3 strip objcopy bpftool zstd; do
	command -v "$t" >/dev/null || die "'$t' not found (tests/setup-deps.sh installs it)"
done
clang=${SCX_BURST_PEERS_CLANG:-$(compgen -c clang- | grep -E '^clang-[0-9]+$' |
	sort -t- -k2 -n | tail -n1)}
[ -n "$clang" ] || clang=clang
command -v "$clang" >/dev/null || die "'$clang' not found (tests/setup-deps.sh installs clang)"

read -r _ ver _ < "$kdir/package"
[ -n "$ver" ] || die "$kdir/package: no package version"
src_pkg=linux-source-$xy
t0=$(date +%s)

work=$(mktemp -d "$cache/peers/.work.XXXXXX")
trap 'rm -rf "$work"' EXIT

# ---- fetch (under the apt roots' lock) ---------------------------------------
apt_lock
apt_root "$suite"
if [ -z "$(apt_field "$src_pkg=$ver" Package)" ]; then
	log "$suite: $src_pkg $ver not in the package lists; refreshing them"
	apt_update "$suite" "$work/update.log" ||
		die "$suite: cannot refresh package lists ($(grep -m1 -E '^(E|W):' "$work/update.log" || echo '?'))"
	[ -n "$(apt_field "$src_pkg=$ver" Package)" ] ||
		die "$suite: $src_pkg $ver (the version of kernel $rel) is not in the archive any more; refresh the kernel: SCX_BURST_KERNELS_REFRESH=1 tests/vm/kernels.sh $suite"
fi
log "$suite: downloading $src_pkg $ver"
(cd "$work" && apt-get -qq "${apt_opts[@]}" download "$src_pkg=$ver") > "$work/download.log" 2>&1 ||
	die "$suite: cannot download $src_pkg $ver: $(grep -m1 -E '^(E|W):' "$work/download.log" || echo '?')"
exec 9>&-

# ---- unpack what the build needs --------------------------------------------
deb=$(ls "$work"/"$src_pkg"_*.deb)
mkdir "$work/src"
log "$suite: unpacking ${members[*]}"
dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/src/$src_pkg.tar.xz" |
	tar -xJ -C "$work/src" --strip-components=1 "${members[@]/#/$src_pkg/}" ||
	die "$suite: cannot unpack ${members[*]} from $deb"
rm -f "$deb"
"$top/vmlinux/gen-vmlinux-h.sh" --btf "$kdir/vmlinuz" "$work/vmlinux.btf" 2> "$work/btf.log" ||
	die "$suite: $(tail -n1 "$work/btf.log")"

# ---- build ------------------------------------------------------------------
stage=$work/stage
mkdir -p "$stage/logs" "$work/out"
: > "$stage/failed"
obj=$work/out/build/obj
built=()
for p in "${peers[@]}"; do
	plog=$stage/logs/$p.log
	log "$suite: building $p"
	if make -C "$work/src/tools/sched_ext" -j"$(nproc)" CLANG="$clang -fno-builtin-memset" \
		VMLINUX_BTF="$work/vmlinux.btf" O="$work/out" "$p" > "$plog" 2>&1 &&
	   gcc -static -o "$stage/$p" "$obj/sched_ext/$p.o" "$obj/libbpf/libbpf.a" \
		-lelf -lz -lpthread >> "$plog" 2>&1 &&
	   strip --strip-debug "$stage/$p"; then
		built+=("$p")
	else
		why=$(grep -m1 -E 'error:|Error [0-9]|undefined reference' "$plog" || tail -n1 "$plog")
		echo "$p $why" >> "$stage/failed"
		log "$suite: $p did not build: $why (log: logs/$p.log)"
		rm -f "$stage/$p"
	fi
done
if [ ${#built[@]} -eq 0 ]; then
	mkdir -p "$cache/peers/$suite"
	rm -rf "$cache/peers/$suite/failed-$rel"
	mv "$stage/logs" "$cache/peers/$suite/failed-$rel"
	die "$suite: no peer built from $src_pkg $ver (logs: $cache/peers/$suite/failed-$rel)"
fi
cp "$kdir/config" "$stage/config"
printf '%s %s\n%s\n' "$src_pkg" "$ver" "$("$clang" --version | head -n1)" > "$stage/package"

mkdir -p "$cache/peers/$suite"
mv "$stage" "$dest"
# Keep the two newest releases of the suite.
rm -rf "$cache/peers/$suite/failed-$rel"
ls -1dt "$cache/peers/$suite"/[0-9]*/ 2>/dev/null | tail -n +3 | xargs -r rm -rf || true
log "$suite: built ${built[*]} for $rel in $(( $(date +%s) - t0 )) s"
echo "$dest"
