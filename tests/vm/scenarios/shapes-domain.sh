# Machine shape 2 sockets x 2 cores x 2 threads (run-vm.sh --topology
# 2,2,2: 8 vCPUs, two LLCs of four, SMT pairs) with a primary domain of
# one LLC (DOM0, the LLC of CPU 0; DOM1 is the LLC of the last CPU):
#   SAT_<POLICY>  6 loops on the 4-CPU domain for shapes_window s (40):
#                 no ejection, every loop progresses, bounded waits
#   MOVE_PRE/POST 2 loops; the domain moves live DOM0 -> DOM1 halfway
#   AFF           domain DOM0, 2 loops pinned to DOM1 (taskset) + 2 free
#   HP_*          8 loops; CPU 2 and CPU 5 go offline and online, three
#                 times each; the daemon reloads each time and keeps DOM0
#   ERR_*         --debug-error-after 3: the BPF side raises an error, the
#                 daemon reports the kernel's exit kind and exits non-zero
# The host (vm_test.cpp, Vm.ShapesDomain) asserts.
. /scenarios/lib.sh
trap kill_hogs EXIT
secs=${shapes_window:-40}
shape_tags
dom0=$(llc_of 0)
dom1=$(llc_of $(( $(nproc) - 1 )))
tag DOMS $dom0 $dom1

# start_daemon NAME POLICY: scx_burst with the domain DOM0, JSON stats each
# second to $out, stderr to $err; tags NAME_ENABLED
start_daemon() {
	P=$1
	out=/tmp/$1.out err=/tmp/$1.err
	scx_burst --policy $2 --primary-domain $dom0 --stats 1 --json > $out 2> $err &
	d=$!
	if wait_state enabled 60; then tag ${P}_ENABLED yes; else tag ${P}_ENABLED no; fi
}
# stop_daemon: SIGINT; tags NAME_STATE_END, NAME_RC and its stderr as NAME_ERR
stop_daemon() {
	tag ${P}_STATE_END $(state)
	kill -INT $d
	wait $d
	tag ${P}_RC $?
	send_file ${P}_ERR $err
}

# --- SAT: 6 loops (N + 2) on a domain of one LLC --------------------------
sat() {
	i=0
	while [ $i -lt 6 ]; do hog; i=$((i + 1)); done
	sleep 2
	window SAT_$P $out $secs sat:6
	kill -0 $d 2>/dev/null && tag SAT_${P}_ALIVE yes || tag SAT_${P}_ALIVE no
	kill_hogs
	sleep 1
}

start_daemon DEADLINE deadline
sat
stop_daemon

start_daemon BURST burst
sat

# --- MOVE: 2 loops (below capacity), the domain moves live ----------------
i=0
while [ $i -lt 2 ]; do hog; i=$((i + 1)); done
sleep 2
window MOVE_PRE $out 10 move:2
scx_burst ctl set primary_domain=$dom1 > /tmp/set.out 2>&1
tag MOVE_SET $? $(grep '^primary_domain=' /tmp/set.out)
sleep 2
window MOVE_POST $out 10 move:2
kill_hogs
scx_burst ctl set primary_domain=$dom0 > /tmp/set.out 2>&1
tag MOVE_BACK $? $(grep '^primary_domain=' /tmp/set.out)
sleep 1

# --- AFF: loops whose affinity excludes the domain ------------------------
hog taskset -c $dom1
hog taskset -c $dom1
hog
hog
sleep 2
window AFF $out 20 pinned:2 free:2
tag AFF_MASK $(for p in $HOGS; do taskset -p $p 2>/dev/null | awk '{ print $NF }'; done)
kill_hogs
stop_daemon

# --- HP: CPU hotplug under 8 loops ------------------------------------------
start_daemon HP burst
i=0
while [ $i -lt 8 ]; do hog; i=$((i + 1)); done
sleep 2
for round in 1 2 3; do
	for cpu in 2 5; do
		for v in 0 1; do
			seq=$(enable_seq)
			t0=$(now)
			echo $v > /sys/devices/system/cpu/cpu$cpu/online
			w=$?
			# 90 s: a reload takes 16-38 s here (the verifier, in the
			# emulator, under 8 loops); a stuck one never ends
			if wait_reload $seq 90; then ok=reloaded; else ok=timeout; fi
			tag HP_STEP $round cpu$cpu online=$v write=$w $ok \
				$(awk -v a=$t0 -v b=$(now) 'BEGIN { printf "%.1fs", b - a }') \
				seq=$seq/$(enable_seq) $(state)
			# one timeout fails the test: the rest would only run the
			# scenario into its own timeout, and lose HP_ERR
			[ $ok = reloaded ] || break 3
		done
	done
done
# whatever happened, every CPU comes back for what follows
for cpu in 2 5; do echo 1 > /sys/devices/system/cpu/cpu$cpu/online 2>/dev/null; done
tag HP_NPROC $(nproc)
tag HP_STATE $(state)
kill -0 $d 2>/dev/null && tag HP_ALIVE yes || tag HP_ALIVE no
scx_burst ctl get > /tmp/get.out 2>&1
tag HP_GET $? $(grep '^primary_domain=' /tmp/get.out)
# a stats line written after the last reload
n=$(nlines $out)
i=0
while [ $i -lt 100 ] && [ "$(nlines $out)" -le $n ]; do sleep 0.1; i=$((i + 1)); done
send_lines HP_LAST_JSON $out $(( $(nlines $out) - 1 )) $(nlines $out)
kill_hogs
stop_daemon

# --- ERR: an error raised by the BPF side ends the daemon -------------------
wait_state disabled 10
seq=$(enable_seq)
timeout 60 scx_burst --debug-error-after 3 --stats 0 > /tmp/err.out 2> /tmp/err.err
tag ERR_RC $?
wait_state disabled 10
tag ERR_STATE $(state) $seq $(enable_seq)
send_file ERR_ERR /tmp/err.err
exit 0
