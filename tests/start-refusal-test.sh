#!/usr/bin/env bash
# Host test: every refused start of the daemon says why in one line on
# stderr, exits 1 (README, "Exit codes and lifetime") and leaves no file behind (control socket, its
# .lock, the directories made for them).  A fake sched_ext directory
# (--debug-sched-ext-root) stands for the kernel's, so this runs on any
# kernel; nothing is ever loaded: each case is refused before the load.
# The cases past the root check run only as root (CI, tests/run-tests.sh);
# otherwise they are reported as skipped.
#   tests/start-refusal-test.sh BUILD/scx_burst
set -uo pipefail

bin=${1:?usage: $0 PATH/TO/scx_burst}
tmp=$(mktemp -d)
holder=
trap '[ -n "$holder" ] && kill "$holder" 2>/dev/null; rm -rf "$tmp"' EXIT
chmod 0755 "$tmp"
pass=0 fail=0 skip=0

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }

# fake_scx NAME STATE [OPS]: a sched_ext directory in $tmp/NAME
fake_scx() {
	mkdir -p "$tmp/$1/root"
	echo "$2" > "$tmp/$1/state"
	echo 0 > "$tmp/$1/hotplug_seq"
	[ -z "${3:-}" ] || echo "$3" > "$tmp/$1/root/ops"
}

# start CASE [--as-nobody] ARGS...: runs the daemon with its control
# socket in $tmp/CASE/run/sub/ctl.sock ($tmp/CASE empty and writable by
# all beforehand); output in $tmp/CASE.{rc,err}
start() {
	local c=$1 pre=()
	shift
	if [ "${1:-}" = --as-nobody ]; then
		pre=(setpriv --reuid=65534 --regid=65534 --clear-groups)
		shift
	fi
	mkdir -p "$tmp/$c"
	chmod 1777 "$tmp/$c"
	timeout 20 "${pre[@]}" "$bin" --stats 0 --ctl-socket "$tmp/$c/run/sub/ctl.sock" "$@" \
		> /dev/null 2> "$tmp/$c.err"
	echo $? > "$tmp/$c.rc"
}

# refused CASE REGEX [FILE...]: exit 1, one stderr line matching
# REGEX, and $tmp/CASE holds exactly FILE... (paths below it) afterwards
refused() {
	local c=$1 re=$2 rc n left want
	shift 2
	rc=$(cat "$tmp/$c.rc")
	[ "$rc" = 1 ] && ok || bad "$c: exit $rc, want 1"
	n=$(wc -l < "$tmp/$c.err")
	[ "$n" = 1 ] && ok || bad "$c: $n lines on stderr, want 1: $(cat "$tmp/$c.err")"
	grep -qE -- "$re" "$tmp/$c.err" && ok || bad "$c: stderr lacks '$re': $(cat "$tmp/$c.err")"
	left=$(cd "$tmp/$c" && find . -mindepth 1 | sort | tr '\n' ' ')
	want=$(for f in "$@"; do echo "./$f"; done | sort | tr '\n' ' ')
	[ "$left" = "$want" ] && ok || bad "$c: left '${left}', want '${want}'"
}

# --- no sched_ext in the kernel (as anyone) ---------------------------------
mkdir -p "$tmp/none"
start nosched --debug-sched-ext-root "$tmp/none"
refused nosched 'this kernel has no sched_ext'

fake_scx idle disabled
fake_scx busy enabled bpfland_1.0.x_g0123abc

if [ "$(id -u)" != 0 ]; then
	# --- not root ----------------------------------------------------------
	start notroot --debug-sched-ext-root "$tmp/idle"
	refused notroot 'must be run as root'
	skip=$((skip + 3))
	echo "start refusal: $pass passed, $fail failed, $skip skipped (the lock cases need root)"
	[ "$fail" = 0 ]
	exit
fi

if setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
	start notroot --as-nobody --debug-sched-ext-root "$tmp/idle"
	refused notroot 'must be run as root'
else
	skip=$((skip + 1))
fi

# --- another scheduler active: refused after the lock was taken --------------
start other --debug-sched-ext-root "$tmp/busy"
refused other 'another sched_ext scheduler is already active: bpfland_1.0.x_g0123abc .*systemctl stop scx.*scxctl stop.*scx_bpfland process'

# --- a bad option value only the daemon can judge, after the lock ----------
start baddomain --debug-sched-ext-root "$tmp/idle" --primary-domain 0xZZ
refused baddomain "invalid CPU mask '0xZZ'"

# --- another daemon holds the lock: its lock file stays ---------------------
mkdir -p "$tmp/second/run/sub"
lock=$tmp/second/run/sub/ctl.sock.lock
# the lock is held by the sleep itself, so killing it releases the lock;
# a blocking flock, not to give up while the loop below probes the lock
( exec 8> "$lock" && flock 8 && exec sleep 60 ) > /dev/null 2>&1 &
holder=$!
for _ in $(seq 50); do
	flock -n "$lock" true 2>/dev/null || break
	sleep 0.1
done
# "busy": should the lock be missed, the start is still refused, not loaded
start second --debug-sched-ext-root "$tmp/busy"
refused second 'another scx_burst daemon is already running' \
	run run/sub run/sub/ctl.sock.lock

echo "start refusal: $pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
