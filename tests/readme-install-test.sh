#!/usr/bin/env bash
# The README's install section is what this runs, so it cannot drift: the
# shell block under "## Install and run it as a service" is read from
# README.md and its build and package lines run as written, from the top
# of a tree (a dynamically linked build in build-pkg/, its Debian package).
# The lines that need a booted systemd machine with sched_ext (`apt
# install`, `systemctl`) are not run here; what they rely on is checked on
# the tree they name instead: the .deb file the apt line installs exists,
# and install-test.sh checks that package (contents, Depends, installed
# into a throwaway root and purged) and the unit (systemd-analyze verify).
#   tests/readme-install-test.sh [TREE]   (default: this checkout)
set -euo pipefail
top=$(cd "${1:-$(dirname "$0")/..}" && pwd)
prog=readme-install-test.sh
. "$(dirname "$0")/lib/common.sh"

block=$(awk '
	/^## Install and run it as a service/ { sec = 1; next }
	sec && /^## /                         { exit }
	sec && /^```sh$/                      { inb = 1; next }
	sec && inb && /^```$/                 { exit }
	sec && inb                            { print }
' "$top/README.md")
[ -n "$block" ] || die "README.md: no sh block under '## Install and run it as a service'"

cd "$top"
ran=0 deb=''
while IFS= read -r line; do
	case $line in
	'apt install '*)
		deb=${line#apt install }
		log "not run (needs the target machine): $line"
		;;
	systemctl\ *)
		log "not run (needs a booted systemd): $line"
		;;
	*)
		log "run: $line"
		bash -euo pipefail -c "$line" > "${TMPDIR:-/tmp}/readme-install.$$.log" 2>&1 ||
			die "README line failed: $line: $(tail -5 "${TMPDIR:-/tmp}/readme-install.$$.log")"
		ran=$((ran + 1))
		;;
	esac
done <<< "$block"
rm -f "${TMPDIR:-/tmp}/readme-install.$$.log"
[ "$ran" -ge 3 ] || die "README's install block ran only $ran commands"
[ -n "$deb" ] || die "README's install block has no 'apt install ./...deb' line"
[ -f "$deb" ] || die "README installs $deb, which its commands did not make: $(ls build-pkg/*.deb 2>/dev/null)"

# The block's build directory: the -B of its first cmake line.
pkg=$(sed -n 's/^cmake -S [^ ]* -B \([^ ]*\).*/\1/p' <<< "$block" | head -n1)
[ -d "$pkg" ] || die "no build directory from the README's cmake line"
if readelf -l "$pkg/scx_burst" | grep 'Requesting program interpreter' > /dev/null; then :; else
	die "$pkg/scx_burst is statically linked; the install build is the dynamic one"
fi
"$top/tests/install-test.sh" "$pkg"
