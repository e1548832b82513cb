# Machine shape 2 sockets x 2 cores x 2 threads (run-vm.sh --topology
# 2,2,2: 8 vCPUs, two LLCs of four, SMT pairs).  Fairness under each
# policy, one daemon per policy:
#   EQUAL  12 equal busy loops: equal CPU time, both LLCs equally busy
#   NICE   24 nice-0, 4 nice-19 and 8 SCHED_IDLE loops: everyone
#          progresses, SCHED_IDLE never above nice 0, nice 0 equal
# Each window is shapes_window seconds (default 40) after 2 s of warm-up.
# The host (vm_test.cpp, Vm.ShapesBalance) asserts on the tags that
# window() in lib.sh prints.
. /scenarios/lib.sh
trap kill_hogs EXIT
secs=${shapes_window:-40}
shape_tags

for pol in burst deadline; do
	P=$(echo $pol | tr a-z A-Z)
	out=/tmp/bal-$pol.out err=/tmp/bal-$pol.err
	scx_burst --policy $pol --stats 1 --json > $out 2> $err &
	d=$!
	if wait_state enabled 60; then tag ${P}_ENABLED yes; else tag ${P}_ENABLED no; fi

	# --- EQUAL: 12 busy loops on 8 CPUs ---------------------------------
	hogs 12
	sleep 2
	window ${P}_EQUAL $out $secs equal:12
	kill_hogs
	sleep 1

	# --- NICE: 24 nice 0, 4 nice 19, 8 SCHED_IDLE ------------------------
	hogs 24
	hogs 4 nice -n 19
	hogs 8 chrt -i 0
	sleep 2
	window ${P}_NICE $out $secs nice0:24 nice19:4 idle:8
	kill_hogs
	sleep 1

	tag ${P}_STATE_END $(state)
	kill -INT $d
	wait $d
	tag ${P}_RC $?
	send_file ${P}_ERR $err
done
exit 0
