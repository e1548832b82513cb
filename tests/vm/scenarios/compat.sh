# Kernel-interface fallbacks (docs/kernels.md), on the 2x2x2 shape of the
# shape scenarios.  scx_burst runs with every compat shim forced to the
# older form this kernel still has (--debug-compat all):
#   FAIL_*   forcing a form the kernel lacks, or an unknown name, is
#            refused before anything is loaded
#   EQUAL    12 equal busy loops under the burst policy: equal CPU time
#   NICE     after `ctl set policy=deadline` (the old policy's queues are
#            drained): 24 nice-0, 4 nice-19 and 8 SCHED_IDLE loops
#   VERIFIER_NEW, VERIFIER_OLD
#            the verifier's statistics of every program (scx_burst -v),
#            with the newest forms and with every shim forced (idle)
# Each window is compat_window seconds (default 20) after 2 s of warm-up.
# The host (vm_test.cpp, Vm.Compat) asserts on the tags.
. /scenarios/lib.sh
trap kill_hogs EXIT
secs=${compat_window:-20}
shape_tags

seq0=$(enable_seq)
scx_burst --debug-compat dsq-move --stats 0 > /tmp/f1.out 2> /tmp/f1.err
tag FAIL_MISSING_RC $?
send_file FAIL_MISSING_ERR /tmp/f1.err
scx_burst --debug-compat nosuch --stats 0 > /tmp/f2.out 2> /tmp/f2.err
tag FAIL_UNKNOWN_RC $?
send_file FAIL_UNKNOWN_ERR /tmp/f2.err
tag FAIL_SEQ $seq0 $(enable_seq) $(state)

# verifier_stats TAG ARGS...: load and enable with -v, stop, and send the
# daemon's "verifier:" lines
verifier_stats() {
	_tag=$1
	shift
	scx_burst -v --stats 0 "$@" > /tmp/v.out 2> /tmp/v.err &
	_d=$!
	wait_state enabled 60
	tag ${_tag}_STATE $(state)
	kill -INT $_d
	wait $_d
	grep 'verifier: ' /tmp/v.err > /tmp/v.lines
	send_file $_tag /tmp/v.lines
	wait_state disabled 10
}
verifier_stats VERIFIER_NEW
verifier_stats VERIFIER_OLD --debug-compat all

out=/tmp/compat.out err=/tmp/compat.err
scx_burst --debug-compat all --stats 1 --json > $out 2> $err &
d=$!
if wait_state enabled 60; then tag ENABLED yes; else tag ENABLED no; fi

hogs 12
sleep 2
window EQUAL $out $secs equal:12
kill_hogs
sleep 1

scx_burst ctl set policy=deadline > /tmp/set.out 2>&1
tag SET_RC $?
hogs 24
hogs 4 nice -n 19
hogs 8 chrt -i 0
sleep 2
window NICE $out $secs nice0:24 nice19:4 idle:8
kill_hogs
sleep 1

tag STATE_END $(state)
kill -INT $d
wait $d
tag RC $?
send_file ERR $err
exit 0
