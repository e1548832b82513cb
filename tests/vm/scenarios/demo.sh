# Demo: scx_burst with per-CPU stats while a desktop-like mixed load runs
# (CPU hogs plus a latency probe), then a clean stop.  Used by
# ./run-scx-burst.sh on machines without sched_ext.
. /scenarios/lib.sh
args=$(cat /scenarios/demo.args 2>/dev/null)
secs=${demo_seconds:-30}
ncpu=$(nproc)
echo "demo: $(uname -r), $ncpu CPUs, sched_ext $(state); scx_burst $args"
scx_burst $args &
d=$!
if ! wait_state enabled 30; then
	echo "demo: scx_burst did not enable"
	wait $d
	exit 1
fi
echo "demo: sched_ext state=$(state) ops=$(cat $SCX/root/ops)"
echo "demo: load for ${secs}s: stress-ng --cpu $((2 * ncpu)) and cyclictest --policy=other"
cyclictest --policy=other -t $ncpu -i 1000 -D $((secs + 1)) -q > /tmp/cyc.out 2>&1 &
c=$!
sleep 1
stress-ng --cpu $((2 * ncpu)) --timeout $secs > /dev/null 2>&1
wait $c
echo "demo: cyclictest (wakeup latency, us, under emulation):"
cat /tmp/cyc.out
kill -INT $d
wait $d
rc=$?
echo "demo: scx_burst exited $rc, sched_ext state=$(state)"
exit $rc
