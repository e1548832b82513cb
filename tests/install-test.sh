#!/usr/bin/env bash
# Host test of the install: `cmake --install` into a DESTDIR and the tree it
# makes, the unit under `systemd-analyze verify`, scx_burst(8) rendered by
# `man -l` and naming every option --help lists, and the Debian package
# (cpack -G DEB) inspected, installed into a throwaway root, removed and
# purged.  The tree is packaged as configured (static or not, any prefix);
# it needs no root and changes nothing outside a temporary directory.
#   tests/install-test.sh BUILD_DIR
set -uo pipefail
# With pipefail, `producer | grep -q` fails when grep exits at the first
# match and the producer then dies of SIGPIPE: grep a file, or let grep
# read everything (> /dev/null).

build=$(cd "${1:?usage: $0 BUILD_DIR}" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
check() {	# DESCRIPTION COMMAND...: the command succeeds
	local what=$1
	shift
	"$@" > "$tmp/out" 2>&1 && ok || bad "$what: $(head -c 2000 "$tmp/out")"
}
cache() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt"; }

prefix=$(cache CMAKE_INSTALL_PREFIX)
[ -n "$prefix" ] || { echo "no CMAKE_INSTALL_PREFIX in $build/CMakeCache.txt" >&2; exit 1; }
# GNUInstallDirs: /etc for the prefix /usr, <prefix>/etc otherwise.
etc=$prefix/etc
[ "$prefix" = /usr ] && etc=/etc

# 1. cmake --install into a DESTDIR.
dest=$tmp/dest
check "cmake --install" env DESTDIR="$dest" cmake --install "$build"
for f in sbin/scx_burst lib/systemd/system/scx_burst.service share/man/man8/scx_burst.8.gz \
	 share/doc/scx_burst/README.md share/doc/scx_burst/control.md; do
	[ -f "$dest$prefix/$f" ] && ok || bad "not installed: $prefix/$f"
done
[ -x "$dest$prefix/sbin/scx_burst" ] && ok || bad "scx_burst is not executable"
conf=$etc/scx_burst/scx_burst.toml
[ -f "$dest$conf" ] && ok || bad "not installed: $conf"
unit=$dest$prefix/lib/systemd/system/scx_burst.service
grep -qx "ExecStart=$prefix/sbin/scx_burst" "$unit" && ok ||
	bad "ExecStart is not $prefix/sbin/scx_burst: $(grep ExecStart "$unit")"
grep -qx "ReadWritePaths=-$etc/scx_burst" "$unit" && ok || bad "ReadWritePaths is not $etc/scx_burst"
# The binary looks for the installed config file by default.
"$dest$prefix/sbin/scx_burst" --help > "$tmp/help0" 2>&1
grep -qF "$conf" "$tmp/help0" && ok ||
	bad "--help does not name $conf as the default config"
# The shipped config file, as installed, is read without an error.
# (--help-man exits right after the file is read.)
check "the installed config parses" "$dest$prefix/sbin/scx_burst" --config "$dest$conf" \
	--help-man stats

# 2. The unit.  verify needs the ExecStart binary and the man page of
# Documentation=: the installed ones, through a copy whose ExecStart
# names the DESTDIR's binary.
if command -v systemd-analyze > /dev/null; then
	mkdir -p "$tmp/unit"
	sed "s|^ExecStart=.*|ExecStart=$dest$prefix/sbin/scx_burst|" "$unit" \
		> "$tmp/unit/scx_burst.service"
	MANPATH=$dest$prefix/share/man SYSTEMD_LOG_LEVEL=warning \
		systemd-analyze verify "$tmp/unit/scx_burst.service" > "$tmp/verify" 2>&1
	rc=$?
	[ "$rc" = 0 ] && [ ! -s "$tmp/verify" ] && ok ||
		bad "systemd-analyze verify: exit $rc: $(cat "$tmp/verify")"
	for key in Type=notify ConditionPathIsDirectory=/sys/kernel/sched_ext \
		   Restart=on-failure ProtectSystem=strict RuntimeDirectory=scx_burst; do
		grep -qx "$key" "$unit" && ok || bad "the unit lacks $key"
	done
	grep -q '^Conflicts=.*scx.service' "$unit" && ok || bad "the unit lacks Conflicts=scx.service"
	grep -q '^CapabilityBoundingSet=.*CAP_BPF' "$unit" && ok || bad "the unit lacks CAP_BPF"
else
	bad "systemd-analyze not found (tests/setup-deps.sh installs systemd)"
fi

# 3. The man page renders without warnings and names every option --help
# lists.
page=$dest$prefix/share/man/man8/scx_burst.8.gz
MANWIDTH=80 man --warnings -l "$page" > "$tmp/man.txt" 2> "$tmp/man.err"
[ -s "$tmp/man.txt" ] && [ ! -s "$tmp/man.err" ] && ok ||
	bad "man -l: $(cat "$tmp/man.err")"
# man -l output may hyphenate or justify; compare on words.
tr -s ' \n' '\n\n' < "$tmp/man.txt" | sed 's/[,.;]$//' > "$tmp/man.words"
"$dest$prefix/sbin/scx_burst" --config /dev/null --help > "$tmp/help.txt"
opts=$(grep -oE '(^|[ ,])--?[A-Za-z][A-Za-z-]*' "$tmp/help.txt" | sed 's/^[ ,]//' | sort -u)
[ "$(wc -w <<<"$opts")" -gt 15 ] && ok || bad "too few options in --help: $opts"
for o in $opts; do
	grep -qxF -- "$o" "$tmp/man.words" && ok || bad "scx_burst(8) does not name $o"
done
for s in "CONFIGURATION FILE" CONTROL STATS SERVICE FILES "EXIT STATUS" EXAMPLES; do
	grep -qx "$s" "$tmp/man.txt" && ok || bad "scx_burst(8) has no $s section"
done

# 4. The Debian package.
cpack -G DEB --config "$build/CPackConfig.cmake" -B "$tmp/pkg" > "$tmp/cpack.log" 2>&1 ||
	bad "cpack: $(tail -20 "$tmp/cpack.log")"
deb=$(ls "$tmp"/pkg/scx-burst_*.deb 2>/dev/null | head -n1)
if [ -n "$deb" ]; then
	ok
	dpkg-deb -I "$deb" > "$tmp/info"
	for f in "Package: scx-burst" "Section: admin" "Maintainer:"; do
		grep -qF " $f" "$tmp/info" && ok || bad "control lacks $f: $(cat "$tmp/info")"
	done
	# A dynamically linked binary declares the libraries' packages.
	if file -L "$dest$prefix/sbin/scx_burst" | grep 'dynamically linked' > /dev/null; then
		for p in libbpf1 libc6; do
			grep -qE "^ Depends:.*\b$p\b" "$tmp/info" && ok || bad "Depends lacks $p"
		done
		# The libbpf the build needs at load, not only the symbols' 0.8.
		min=$(sed -n 's/^SCX_BURST_LIBBPF_MIN:[A-Z]*=//p' "$build/CMakeCache.txt")
		grep -qF "libbpf1 (>= 1:${min:-?})" "$tmp/info" && ok ||
			bad "Depends lacks libbpf1 (>= 1:${min:-?}): $(grep Depends "$tmp/info")"
	fi
	dpkg-deb -f "$deb" conffiles > /dev/null 2>&1
	dpkg-deb --ctrl-tarfile "$deb" | tar -xO ./conffiles | grep -x "$conf" > /dev/null && ok ||
		bad "$conf is not a conffile"
	dpkg-deb -c "$deb" | awk '{print $NF}' | sed 's|^\./|/|' > "$tmp/contents"
	for f in "$prefix/sbin/scx_burst" "$prefix/lib/systemd/system/scx_burst.service" "$conf" \
		 "$prefix/share/man/man8/scx_burst.8.gz" "$prefix/share/doc/scx_burst/README.md"; do
		grep -qx "$f" "$tmp/contents" && ok || bad "the package lacks $f"
	done

	# Install, remove, purge in a throwaway root: dependencies are not
	# there, the maintainer scripts run outside a chroot and see no
	# systemd under $DPKG_ROOT.
	root=$tmp/root
	mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates"
	: > "$root/var/lib/dpkg/status"
	dpkg=(dpkg --root="$root" --log=/dev/null --force-not-root --force-depends
	      --force-script-chrootless)
	check "dpkg -i" "${dpkg[@]}" -i "$deb"
	for f in "$prefix/sbin/scx_burst" "$conf" "$prefix/lib/systemd/system/scx_burst.service"; do
		[ -f "$root$f" ] && ok || bad "not installed by dpkg: $f"
	done
	"${dpkg[@]}" -s scx-burst 2>/dev/null | grep -x 'Status: install ok installed' > /dev/null && ok ||
		bad "dpkg -s: not installed"
	check "dpkg -r" "${dpkg[@]}" -r scx-burst
	[ ! -e "$root$prefix/sbin/scx_burst" ] && ok || bad "dpkg -r left the binary"
	[ -f "$root$conf" ] && ok || bad "dpkg -r removed the conffile"
	check "dpkg -P" "${dpkg[@]}" -P scx-burst
	left=$(find "$root" -mindepth 1 -not -path "$root/var/lib/dpkg*" -type f)
	[ -z "$left" ] && ok || bad "dpkg -P left: $left"
	[ ! -e "$root$etc/scx_burst" ] && ok || bad "dpkg -P left $etc/scx_burst"
else
	bad "cpack made no scx-burst_*.deb"
fi

echo "install-test: $pass passed, $fail failed"
[ "$fail" = 0 ]
