#!/usr/bin/env bash
# Host test of tests/bench/peers.sh without network or build: bad arguments
# and a kernel missing from the cache each give one stderr line and a
# non-zero exit with nothing created; a complete cached peers directory is
# printed as it is, and an incomplete one (no config) is not taken for
# complete.  Runs on a throwaway cache (SCX_BURST_CACHE).
#   tests/bench/peers-test.sh
set -uo pipefail

peers=$(cd "$(dirname "$0")" && pwd)/peers.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export SCX_BURST_CACHE=$tmp/cache
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }

# refused CASE PATTERN ARGS...: exit != 0, exactly one stderr line matching
# PATTERN, nothing on stdout
refused() {
	local name=$1 pat=$2 rc
	shift 2
	"$peers" "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	if [ "$rc" = 0 ]; then bad "$name: exit 0"; return; fi
	if [ "$(wc -l < "$tmp/err")" != 1 ] || ! grep -q -- "$pat" "$tmp/err"; then
		bad "$name: stderr is not one line matching '$pat': $(cat "$tmp/err")"; return
	fi
	[ ! -s "$tmp/out" ] || { bad "$name: stdout: $(cat "$tmp/out")"; return; }
	ok
}

refused no-args 'usage: .*SUITE RELEASE'
refused one-arg 'usage: .*SUITE RELEASE' sid
refused three-args 'usage: .*SUITE RELEASE' sid 7.2.13 x
refused bad-option "unknown option '-x'" -x
refused bad-suite "bad suite name 'Sid!'" 'Sid!' 7.2.13+deb14-cloud-amd64
refused bad-release "bad kernel release 'x.y'" sid x.y
refused no-kernel 'no kernel sid/7.2.13+deb14-cloud-amd64 in .*run tests/vm/kernels.sh sid first' \
	sid 7.2.13+deb14-cloud-amd64
[ ! -e "$SCX_BURST_CACHE" ] && ok || bad "refused calls created $SCX_BURST_CACHE"

if "$peers" --help > "$tmp/help" 2>&1 && grep -q 'usage: tests/bench/peers.sh SUITE RELEASE' "$tmp/help"; then
	ok
else
	bad "--help: $(head -n3 "$tmp/help")"
fi

# A complete cache entry is printed at once: PATH has only what that takes
# (no apt, no make, no compiler).
mkdir "$tmp/bin"
for t in dirname mkdir flock rm; do ln -s "$(command -v "$t")" "$tmp/bin/$t"; done
rel=7.2.13+deb14-cloud-amd64
k=$SCX_BURST_CACHE/kernels/sid/$rel d=$SCX_BURST_CACHE/peers/sid/$rel
mkdir -p "$k" "$d"
: > "$k/vmlinuz"; : > "$k/config"; echo "linux-binary-$rel 7.2.13-1" > "$k/package"
echo 'linux-source-7.2 7.2.13-1' > "$d/package"; : > "$d/config"; : > "$d/scx_simple"
out=$(PATH=$tmp/bin "$(command -v bash)" "$peers" sid "$rel" 2> "$tmp/err")
if [ $? = 0 ] && [ "$out" = "$d" ] && [ ! -s "$tmp/err" ]; then ok; else
	bad "cached: rc or output wrong: '$out' $(cat "$tmp/err")"
fi

# Without config the entry is incomplete: rebuilt (here: refused at the
# first missing tool, apt-get).
rm "$d/config"
PATH=$tmp/bin "$(command -v bash)" "$peers" sid "$rel" > "$tmp/out" 2> "$tmp/err"
if [ $? != 0 ] && grep -q "'apt-get' not found" "$tmp/err" && [ ! -e "$d" ]; then ok; else
	bad "incomplete entry was taken for complete: $(cat "$tmp/out" "$tmp/err")"
fi

echo "peers-test: $pass passed, $fail failed"
[ "$fail" = 0 ]
