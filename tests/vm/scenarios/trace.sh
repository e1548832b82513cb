# Trace scenario: `scx_burst trace` under EEVDF, then under scx_burst, with
# uneven load (three hogs on CPUs 0-1, the other CPUs nearly idle) and a
# sleeper that wakes a known number of times.  Assertions are made on the
# host (vm_test.cpp, Trace).
. /scenarios/lib.sh
ncpu=$(nproc)
tag NCPU $ncpu
tag ONLINE "$(cat /sys/devices/system/cpu/online)"
LOOPS=30
tag LOOPS $LOOPS
# the CPUs the hogs are pinned to (vm_test.cpp reads them from here)
HOG_CPUS=0,1
tag HOG_CPUS $HOG_CPUS

# --- bad input: one line, exit 2; not root: one line, exit 1 -------------
scx_burst trace --ringbuf-kb 100 > /dev/null 2> /tmp/bad.err
tag BAD_RB_RC $?
send_file BAD_RB_ERR /tmp/bad.err
echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >> /etc/passwd
su -s /bin/sh nobody -c 'scx_burst trace --duration 1 --out /tmp/nr' > /dev/null 2> /tmp/nr.err
tag NOT_ROOT_RC $?
send_file NOT_ROOT_ERR /tmp/nr.err

# jiffies: the uptime, then per CPU "task/idle/irq/run_ns": task, idle and
# irq of /proc/stat in USER_HZ ticks (task = user + nice + system, idle =
# idle + iowait, irq = irq + softirq), and run_ns, the ns tasks other than
# idle ran there (rq_cpu_time of /proc/schedstat, from the scheduler clock)
jiffies() {
	awk 'BEGIN { getline u < "/proc/uptime"; split(u, a, " "); printf "%s ", a[1]
			while ((getline l < "/proc/schedstat") > 0) {
				split(l, f, " ")
				if (f[1] ~ /^cpu[0-9]/) run[substr(f[1], 4)] = f[8]
			} }
		/^cpu[0-9]/ { c = substr($1, 4); printf "%s %d/%d/%d/%s ", c,
			$2 + $3 + $4, $5 + $6, $7 + $8, (c in run) ? run[c] : -1 }' /proc/stat
}

# run_trace PFX: the load, a 5 s trace of it; /proc/stat is sampled when the
# trace's first progress line appears (recording began) and when its last
# one does (recording ended), so both measure nearly the same window.
run_trace() {
	_p=$1
	hogs 3 taskset -c $HOG_CPUS
	scx_burst trace --duration 5 --ringbuf-kb 4096 --out /tmp/tr_$_p \
		--comm cyclictest > /tmp/tr_$_p.out 2> /tmp/tr_$_p.err &
	_tr=$!
	wait_line /tmp/tr_$_p.err 'recording 0' 120 || tag ${_p}_NO_START
	tag ${_p}_STAT0 $(jiffies)
	# the sleeper: one thread sleeping LOOPS x 50 ms (clock_nanosleep),
	# so LOOPS wakeups, on a nearly idle CPU.  Relative sleeps (-r): with
	# absolute ones a loop that wakes over 50 ms late (94 ms once, CI under
	# EEVDF) finds its next deadline passed and does not sleep at all.
	taskset -c $((ncpu - 1)) cyclictest --policy=other -t 1 -i 50000 -r \
		-l $LOOPS -q > /dev/null 2>&1
	tag ${_p}_SLEEPER_RC $?
	_i=0
	while [ "$(grep -c '^recording' /tmp/tr_$_p.err)" -lt 2 ] && [ $_i -lt 600 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	tag ${_p}_STAT1 $(jiffies)
	wait $_tr
	tag ${_p}_RC $?
	kill_hogs
	send_file ${_p}_OUT /tmp/tr_$_p.out
	send_file ${_p}_ERR /tmp/tr_$_p.err
	send_file ${_p}_SUMMARY /tmp/tr_$_p/summary.json
	send_gz ${_p}_CPUS_SVG /tmp/tr_$_p/cpus.svg
	send_gz ${_p}_RW_SVG /tmp/tr_$_p/running_waiting.svg
	send_gz ${_p}_LAT_SVG /tmp/tr_$_p/latency.svg
	send_gz ${_p}_TRACE_JSON /tmp/tr_$_p/trace.json
}

# --- EEVDF --------------------------------------------------------------
tag STATE_EEVDF $(state)
run_trace EEVDF

# --- scx_burst ------------------------------------------------------------
scx_burst --stats 0 > /tmp/daemon.out 2> /tmp/daemon.err &
daemon=$!
if wait_state enabled 60; then tag ENABLED yes; else tag ENABLED no; fi
run_trace BURST
kill -INT $daemon
wait $daemon
tag DAEMON_RC $?
send_file DAEMON_ERR /tmp/daemon.err

# --- a ring too small for a context-switch storm: the events that did not
# fit are counted and reported, never dropped silently
stress-ng --switch 2 --timeout 6 > /dev/null 2>&1 &
sw=$!
sleep 1
scx_burst trace --duration 2 --ringbuf-kb 4 --out /tmp/tr_small > /dev/null 2> /tmp/small.err
tag SMALL_RC $?
wait $sw
tag SMALL_LOST $(grep -o '"lost_events": *[0-9]*' /tmp/tr_small/summary.json | grep -o '[0-9]*$')
send_file SMALL_ERR /tmp/small.err

# --- --max-events: a long --duration under a context-switch storm ends at
# the cap, with a warning, and keeps at most that many events
stress-ng --switch 2 --timeout 60 > /dev/null 2>&1 &
sw=$!
sleep 1
t0=$(cut -d' ' -f1 /proc/uptime)
scx_burst trace --duration 60 --max-events 2000 --out /tmp/tr_cap > /dev/null 2> /tmp/cap.err
tag CAP_RC $?
tag CAP_WALL $(awk -v a=$t0 -v b=$(cut -d' ' -f1 /proc/uptime) 'BEGIN { printf "%.1f", b - a }')
kill $sw 2>/dev/null
wait $sw 2>/dev/null
tag CAP_SUMMARY $(tr -d ' \n' < /tmp/tr_cap/summary.json | grep -oE '"(nr_events|start_ns|end_ns)":[0-9]+' | tr '\n' ' ')
send_file CAP_ERR /tmp/cap.err

# --- a recorder slower than the events: --duration still ends the
# recording.  Once it records, the tracer (on CPU 0) drops to nice 19
# beside two hogs there (under 1 % of the CPU) while a context-switch
# storm on the other CPUs makes events faster than it takes them (a drain
# that took events for as long as they came never ended).  The load stops
# at the last progress line (its elapsed time reaches --duration), or 20 s
# (guest time) after the storm began.  SLOW_CTXT: context switches during
# the wait, the storm's size.
ctxt() { awk '$1 == "ctxt" { print $2 }' /proc/stat; }
taskset -c 0 scx_burst trace --duration 4 --ringbuf-kb 4096 --out /tmp/tr_slow \
	> /dev/null 2> /tmp/slow.err &
tsl=$!
wait_line /tmp/slow.err '^recording' 120 || tag SLOW_NO_START
renice -n 19 -p $tsl > /dev/null
hogs 2 taskset -c 0
taskset -c 1-$((ncpu - 1)) stress-ng --switch $((ncpu - 1)) --timeout 90 > /dev/null 2>&1 &
sw=$!
t0=$(cut -d' ' -f1 /proc/uptime)
c0=$(ctxt)
# (the guest's clock bounds the wait: under this load a round of the
# loop takes far longer than its sleep)
until awk '$1 == "recording" { split($2, a, "/"); if (a[1] + 0 >= a[2] + 0) e = 1 }
	END { exit !e }' /tmp/slow.err; do
	read -r _t _ < /proc/uptime
	[ "${_t%.*}" -lt $((${t0%.*} + 20)) ] || break
	sleep 0.2
done
tag SLOW_LAST_LINE_AFTER $(awk -v a=$t0 -v b=$(cut -d' ' -f1 /proc/uptime) 'BEGIN { printf "%.1f", b - a }')
tag SLOW_CTXT $(($(ctxt) - c0))
kill $sw 2>/dev/null
wait $sw 2>/dev/null
kill_hogs
# a tracer still at it 40 s after the storm began is stopped for good
until ! kill -0 $tsl 2>/dev/null; do
	read -r _t _ < /proc/uptime
	[ "${_t%.*}" -lt $((${t0%.*} + 40)) ] || { kill -KILL $tsl; tag SLOW_KILLED; break; }
	sleep 0.2
done
wait $tsl
tag SLOW_RC $?
tag SLOW_SUMMARY $(tr -d ' \n' < /tmp/tr_slow/summary.json | grep -oE '"(nr_events|lost_events|start_ns|end_ns)":[0-9]+' | tr '\n' ' ')
send_file SLOW_ERR /tmp/slow.err

# --- re-analysis of a saved recording, as nobody -------------------------
chmod 1777 /tmp
chmod -R a+rX /tmp/tr_BURST
su -s /bin/sh nobody -c 'scx_burst trace --from /tmp/tr_BURST/events.bin --out /tmp/again --comm cyclictest' \
	> /tmp/from.out 2> /tmp/from.err
tag FROM_RC $?
cmp -s /tmp/again/summary.json /tmp/tr_BURST/summary.json
tag FROM_SAME $?
send_file FROM_ERR /tmp/from.err
tag DONE
