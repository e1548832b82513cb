# Machine shape 2 sockets x 2 cores x 2 threads (run-vm.sh --topology
# 2,2,2: 8 vCPUs, two LLCs of four, SMT pairs) with a primary domain of
# one LLC (DOM0, the LLC of CPU 0; DOM1 is the LLC of the last CPU):
#   SAT_<POLICY>  6 loops on the 4-CPU domain for shapes_window s (40):
#                 no ejection, every loop progresses, bounded waits
#   MOVE_PRE/POST 2 loops; the domain moves live DOM0 -> DOM1 halfway
#   AFF           domain DOM0, 2 loops pinned to DOM1 (taskset) + 2 free
#   HP_*          8 free loops and 2 pinned to each of CPUs 2 and 5; those
#                 two CPUs go offline and online, three times each, then
#                 SMT goes off and on; the scheduler stays loaded, every
#                 loop runs, DOM0 is kept
#   RS_*          the last CPU offline at load comes online: the BPF side
#                 asks for a restart, the daemon loads once more, with it
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
# stop_daemon: SIGINT; tags NAME_STATE_END, NAME_RC and its stderr as
# NAME_ERR.  A daemon still there after 30 s is stuck in the kernel's
# unload (NAME_RC "hung" and the state): nothing after it could load, so
# the scenario ends there.
stop_daemon() {
	tag ${P}_STATE_END $(state)
	kill -INT $d
	_k=0
	while [ $_k -lt 300 ] && kill -0 $d 2>/dev/null; do
		sleep 0.1
		_k=$((_k + 1))
	done
	if kill -0 $d 2>/dev/null; then
		tag ${P}_RC hung $(state)
		send_file ${P}_ERR $err
		exit 0
	fi
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

# --- HP: CPU hotplug under load; the scheduler stays loaded ---------------
# hp_steps: CPU 2 and CPU 5 offline and online, three times each, with two
# loops pinned to each (re-pinned before each offline: the kernel breaks a
# pinned task's affinity when its CPU goes); one HP_STEP tag per write,
# then the file /tmp/hp.done
hp_steps() {
	# after the window's first sample: /proc/stat lists online CPUs only
	k=0
	while [ $k -lt 300 ] && [ "$(nlines /tmp/window.out)" -lt 2 ]; do
		sleep 0.1
		k=$((k + 1))
	done
	for round in 1 2 3; do
		for cpu in 2 5; do
			pins=$pin2
			[ $cpu = 5 ] && pins=$pin5
			for p in $pins; do taskset -pc $cpu $p > /dev/null 2>&1; done
			# both on CPU $cpu (one running, one queued there), 5 s at most
			k=0
			while [ $k -lt 50 ] && [ "$(cd /proc && awk '{ printf "%s ", $39 }' \
				$(for p in $pins; do echo $p/stat; done) 2>/dev/null)" != "$cpu $cpu " ]; do
				sleep 0.1
				k=$((k + 1))
			done
			[ $k -lt 50 ] && on=yes || on=no
			for v in 0 1; do
				t0=$(now)
				echo $v > /sys/devices/system/cpu/cpu$cpu/online
				w=$?
				tag HP_STEP $round cpu$cpu online=$v pinned_there=$on write=$w \
					$(awk -v a=$t0 -v b=$(now) 'BEGIN { printf "%.1fs", b - a }') \
					$(enable_seq) $(state)
			done
		done
	done
	# SMT off and on: every second thread of a core at once
	for v in off on; do
		t0=$(now)
		echo $v > /sys/devices/system/cpu/smt/control
		w=$?
		tag HP_SMT $v write=$w nproc=$(nproc) \
			$(awk -v a=$t0 -v b=$(now) 'BEGIN { printf "%.1fs", b - a }') \
			$(enable_seq) $(state)
	done
	touch /tmp/hp.done
}
start_daemon HP burst
hogs 8
hog taskset -c 2
pin2=$HOG
hog taskset -c 2
pin2="$pin2 $HOG"
hog taskset -c 5
pin5=$HOG
hog taskset -c 5
pin5="$pin5 $HOG"
sleep 2
rm -f /tmp/hp.done /tmp/window.out
hp_steps > /tmp/hp.tags 2>&1 &
hp=$!
# the window lasts until the steps are done (240 s at most: a write that
# hangs until the watchdog ends the scheduler takes 30 s), and two stats
# lines more, which count the last steps
window HP $out /tmp/hp.done,240 free:8 pin2:2 pin5:2
kill $hp 2>/dev/null
wait $hp 2>/dev/null
cat /tmp/hp.tags
# whatever happened, every CPU comes back for what follows
for cpu in 2 5; do echo 1 > /sys/devices/system/cpu/cpu$cpu/online 2>/dev/null; done
tag HP_NPROC $(nproc)
tag HP_STATE $(state)
kill -0 $d 2>/dev/null && tag HP_ALIVE yes || tag HP_ALIVE no
scx_burst ctl get > /tmp/get.out 2>&1
tag HP_GET $? $(grep '^primary_domain=' /tmp/get.out)
kill_hogs
stop_daemon

# --- RS: a CPU offline at load comes online: one reload, with it ----------
last=$(( $(nproc) - 1 ))
echo 0 > /sys/devices/system/cpu/cpu$last/online
tag RS_NPROC0 $(nproc)
start_daemon RS burst
hogs 4
seq=$(enable_seq)
echo 1 > /sys/devices/system/cpu/cpu$last/online
tag RS_WRITE $?
# a reload under 4 loops: the verifier, in the emulator
if wait_reload $seq 120; then tag RS_RELOAD yes; else tag RS_RELOAD no; fi
tag RS_SEQ $seq $(enable_seq) $(state)
tag RS_NPROC $(nproc)
# a stats line written after the reload
n=$(nlines $out)
i=0
while [ $i -lt 100 ] && [ "$(nlines $out)" -le $n ]; do sleep 0.1; i=$((i + 1)); done
send_lines RS_LAST_JSON $out $(( $(nlines $out) - 1 )) $(nlines $out)
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
