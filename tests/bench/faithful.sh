# Guest scenario of tests/bench/faithful-check.sh (busybox sh in the VM,
# copied to /scenarios/faithful.sh): is this qemu mode fit for latency
# benchmarks?  Results go to the console as "@@F <record> key=value..."
# lines, kernel messages that smell of trouble as "@@FDMESG <line>";
# tests/bench/faithful_summary.py reads them.
#
# 1. The emulator's stall floor: one spinner pinned to each CPU, nothing
#    else to schedule (benchprobe gaps); whatever time a spinner did not
#    run, the emulator did not run its vCPU.
# 2. EEVDF against itself: the same measurement twice in this boot, each
#    a cyclictest (SCHED_OTHER, 1 ms period, one thread a CPU) under
#    12 x nCPU stress-ng hogs, then `sysbench cpu` on every CPU; the ratio
#    of the second to the first is the noise any scheduler comparison in
#    this mode sits on.
# 3. sched_ext enable and disable (the kernel patches its text then: where
#    qemu 7.2's multi-threaded TCG oopsed): scx_burst under each policy in
#    turn, `cycles` times, under 2 x nCPU hogs.
# 4. dmesg: Oops, BUG, WARNING, int3, stalls, lockups, call traces.
#
# The daemon loads at nice -20: at nice 0 among the hogs its verification
# took 25 s a load under the emulator.
#
# Settings (kernel command line words): floor_s (3), lat_s (3), sb_s (2),
# cycles (2).
. /scenarios/lib.sh
P=/scenarios/benchprobe
n=$(nproc)
floor_s=${floor_s:-3}
lat_s=${lat_s:-3}
sb_s=${sb_s:-2}
cycles=${cycles:-2}
hogs=$((12 * n))
errors=0

F() { echo "@@F $*"; }
fail() { errors=$((errors + 1)); F error "$@"; }

F start ncpu=$n floor_s=$floor_s lat_s=$lat_s sb_s=$sb_s cycles=$cycles hogs=$hogs

# --- 1. stall floor ----------------------------------------------------------
# benchprobe prints the gaps (> 20 us) as "hist US COUNT" lines, ascending;
# summarized here: count, percentiles by count, longest, and the share of
# the gap time in gaps of >= 1 ms and >= 10 ms
if $P gaps "$floor_s" 20 > /tmp/floor.out 2> /tmp/floor.err; then
	F floor $(awk 'BEGIN { k = 0 }
	$1 == "hist" { v[k] = $2; c[k] = $3; k++; cnt += $3; t += $2 * $3
		if ($2 >= 1000) t1 += $2 * $3; if ($2 >= 10000) t10 += $2 * $3; next }
	{ printf "%s=%s ", $1, $2 }
	END {
		split("50 90 99", q, " ")
		for (i = 1; i <= 3; i++) {
			need = cnt * q[i] / 100; s = 0; p = 0
			for (j = 0; j < k; j++) { s += c[j]; if (s >= need) { p = v[j]; break } }
			printf "gap_p%s_us=%d ", q[i], p
		}
		printf "gap_max_us=%d gap_ge1ms_share=%.4f gap_ge10ms_share=%.4f",
			(k ? v[k - 1] : 0), (t ? t1 / t : 0), (t ? t10 / t : 0)
	}' /tmp/floor.out)
else
	fail what=floor msg="$(head -c 200 /tmp/floor.err)"
fi

# --- 2. EEVDF against itself ---------------------------------------------------
# lat REP: cyclictest's wakeup latency (us) during lat_s seconds of hogs
lat() {
	cyclictest --policy=other -t "$n" -i 1000 -D $((lat_s + 90)) -q -v -u \
		> /tmp/cyc.out 2> /tmp/cyc.err &
	_c=$!
	# its threads first (they start late under load), then the hogs
	_i=0
	while [ "$(ls /proc/$_c/task 2>/dev/null | wc -l)" -le "$n" ] && [ $_i -lt 300 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	stress-ng --cpu "$hogs" --timeout $((lat_s + 60)) > /dev/null 2>&1 &
	_h=$!
	wait_runnable "$hogs" 60 || fail what=hogs_not_runnable rep=$1
	sleep 1
	_m0=$(stat -c %s /tmp/cyc.out)
	_t0=$($P now)
	sleep "$lat_s"
	_m1=$(stat -c %s /tmp/cyc.out)
	_t1=$($P now)
	kill -KILL $(pidof stress-ng) 2>/dev/null
	wait "$_h" 2>/dev/null
	kill -INT "$_c" 2>/dev/null
	wait "$_c" 2>/dev/null
	# the window's samples ("thread: cycle: latency"), edge lines dropped
	tail -c +$((_m0 + 1)) /tmp/cyc.out | head -c $((_m1 - _m0)) | sed '1d;$d' |
		awk -F: 'NF == 3 && $3 ~ /^ *[0-9]+ *$/ { print $3 + 0 }' | sort -n > /tmp/lat.v
	F lat rep=$1 window_ns=$((_t1 - _t0)) $(awk '{ v[NR] = $1; s += $1 }
	END {
		if (!NR) { print "samples=0"; exit }
		printf "samples=%d avg_us=%.1f p50_us=%d p90_us=%d p99_us=%d max_us=%d", NR, s / NR,
			v[int((NR - 1) * 0.50) + 1], v[int((NR - 1) * 0.90) + 1],
			v[int((NR - 1) * 0.99) + 1], v[NR]
	}' /tmp/lat.v)
}
sb() {
	sysbench cpu --threads="$n" --time="$sb_s" run > /tmp/sb.out 2>&1
	_e=$(sed -n 's/.*events per second: *\([0-9.]*\).*/\1/p' /tmp/sb.out)
	[ -n "$_e" ] || fail what=sysbench rep=$1
	F sb rep=$1 threads=$n eps=${_e:-nan}
}
for r in 1 2; do
	lat $r
	sb $r
done

# --- 3. sched_ext enable/disable under load ------------------------------------
stress-ng --cpu $((2 * n)) --timeout 600 > /dev/null 2>&1 &
load=$!
c=1
while [ $c -le "$cycles" ]; do
	for pol in burst deadline; do
		seq0=$(enable_seq)
		t0=$($P now)
		nice -n -20 scx_burst --policy $pol --stats 0 > /tmp/d.out 2> /tmp/d.err &
		d=$!
		if wait_state enabled 60; then
			t1=$($P now)
			on=1
			sleep 1
		else
			t1=$t0 on=0
		fi
		kill -INT "$d" 2>/dev/null
		wait "$d"
		rc=$?
		wait_state disabled 30 && off=1 || off=0
		t2=$($P now)
		seq1=$(enable_seq)
		F scx cycle=$c policy=$pol enabled=$on disabled=$off rc=$rc \
			enable_ms=$(((t1 - t0) / 1000000)) disable_ms=$(((t2 - t1) / 1000000)) \
			seq_moved=$((seq1 - seq0))
		if [ $on != 1 ] || [ $off != 1 ] || [ $rc != 0 ]; then
			fail what=scx cycle=$c policy=$pol
			send_file FDAEMON /tmp/d.err
		fi
	done
	c=$((c + 1))
done
kill -KILL $(pidof stress-ng) 2>/dev/null
wait "$load" 2>/dev/null

# --- 4. kernel messages ---------------------------------------------------------
dmesg > /tmp/dmesg.out
grep -E 'Oops|BUG:|WARNING:|int3|(^|[^a-z])stall|soft lockup|hard LOCKUP|Call Trace|general protection|sched_ext: .*(error|stall)' \
	/tmp/dmesg.out > /tmp/dmesg.bad
send_file FDMESG /tmp/dmesg.bad
F done errors=$errors dmesg_bad=$(wc -l < /tmp/dmesg.bad) \
	scx_messages=$(grep -c 'sched_ext:' /tmp/dmesg.out)
[ "$errors" = 0 ] && [ ! -s /tmp/dmesg.bad ]
