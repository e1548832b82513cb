#!/usr/bin/env bash
# Host test of tests/setup-deps.sh --print-plan: the plan it makes for
# bookworm, trixie and unstable from a fake os-release, and the one clear
# line it refuses other systems with.  Calls no apt, needs no root.
#   tests/setup-deps-test.sh
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }

# os_release NAME LINES...: writes $tmp/NAME
os_release() {
	local name=$1
	shift
	printf '%s\n' "$@" > "$tmp/$name"
}

# plan NAME: runs the plan of $tmp/NAME into $tmp/NAME.{out,err,rc}
plan() {
	"$here/setup-deps.sh" --print-plan --os-release "$tmp/$1" \
		> "$tmp/$1.out" 2> "$tmp/$1.err"
	echo $? > "$tmp/$1.rc"
}

expect_rc() {	# NAME RC
	local rc
	rc=$(cat "$tmp/$1.rc")
	[ "$rc" = "$2" ] && ok || bad "$1: exit $rc, want $2; stderr: $(cat "$tmp/$1.err")"
}
has() {		# NAME REGEX: a line of the plan matches
	grep -qE -- "$2" "$tmp/$1.out" && ok || bad "$1: no line matching '$2' in: $(cat "$tmp/$1.out")"
}
lacks() {	# NAME REGEX: no line of the plan matches
	grep -qE -- "$2" "$tmp/$1.out" && bad "$1: unexpected '$2' in: $(cat "$tmp/$1.out")" || ok
}
installs() {	# NAME PKG: an install step names PKG
	awk -v p="$2" '$1 ~ /^install/ { for (i = 2; i <= NF; i++) if ($i == p) f = 1 }
		END { exit !f }' "$tmp/$1.out" && ok || bad "$1: $2 not installed by: $(cat "$tmp/$1.out")"
}
one_err_line() {	# NAME REGEX
	local n
	n=$(wc -l < "$tmp/$1.err")
	[ "$n" = 1 ] && ok || bad "$1: $n lines on stderr, want 1: $(cat "$tmp/$1.err")"
	grep -qE -- "$2" "$tmp/$1.err" && ok || bad "$1: stderr lacks '$2': $(cat "$tmp/$1.err")"
	[ ! -s "$tmp/$1.out" ] && ok || bad "$1: printed a plan: $(cat "$tmp/$1.out")"
}

os_release bookworm 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"' 'NAME="Debian GNU/Linux"' \
	'VERSION_ID="12"' 'VERSION="12 (bookworm)"' 'VERSION_CODENAME=bookworm' 'ID=debian'
os_release trixie 'PRETTY_NAME="Debian GNU/Linux 13 (trixie)"' 'NAME="Debian GNU/Linux"' \
	'VERSION_ID="13"' 'VERSION="13 (trixie)"' 'VERSION_CODENAME=trixie' 'ID=debian'
# testing and unstable: no VERSION_ID, the codename is testing's
os_release sid 'PRETTY_NAME="Debian GNU/Linux forky/sid"' 'NAME="Debian GNU/Linux"' \
	'VERSION_CODENAME=forky' 'ID=debian'
os_release bullseye 'PRETTY_NAME="Debian GNU/Linux 11 (bullseye)"' 'VERSION_ID="11"' \
	'VERSION_CODENAME=bullseye' 'ID=debian'
os_release ubuntu 'NAME="Ubuntu"' 'VERSION_ID="24.04"' 'VERSION_CODENAME=noble' \
	'ID=ubuntu' 'ID_LIKE=debian'
os_release nocodename 'NAME="Debian GNU/Linux"' 'ID=debian'

for r in bookworm trixie sid bullseye ubuntu nocodename; do plan $r; done
plan missing	# no such file

expect_rc bookworm 0
has bookworm '^codename bookworm$'
has bookworm '^add-suite bookworm-backports$'
has bookworm '^install-from bookworm-backports .*\blibbpf-dev\b'
has bookworm '^install-from bookworm-backports .*\bbpftool\b'
has bookworm '^install .*\bclang-19\b'
lacks bookworm '^install .*\bclang\b( |$)'
lacks bookworm '^install .*\blibbpf-dev\b'

for r in trixie sid; do
	expect_rc $r 0
	lacks $r 'bookworm'
	lacks $r '^add-suite'
	lacks $r '^install-from'
	has $r '^install .*\bclang llvm lld\b'
	has $r '^install .*\blibbpf-dev\b'
	has $r '^install .*\bbpftool\b'
	lacks $r '\bclang-[0-9]+'
done
has trixie '^codename trixie$'
has sid '^codename forky$'

# every plan installs the same build, test and VM tools
for r in bookworm trixie sid; do
	for p in cmake g++ libcli11-dev libspdlog-dev nlohmann-json3-dev libgtest-dev \
		 qemu-system-x86 busybox-static stress-ng dpkg-dev systemd man-db file \
		 libxml2-utils; do
		installs $r $p
	done
done

for r in bullseye ubuntu nocodename missing; do
	expect_rc $r 1
done
one_err_line bullseye 'too old'
one_err_line ubuntu 'ID=ubuntu'
one_err_line nocodename 'VERSION_CODENAME'
one_err_line missing 'cannot read'

echo "setup-deps plan: $pass passed, $fail failed"
[ "$fail" = 0 ]
