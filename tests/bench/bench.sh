# Benchmark scenario of scx_burst (runs in the VM under busybox sh, copied
# to /scenarios/bench.sh by tests/bench/run-bench.sh; see docs/benchmarks.md).
#
# mode=main: every experiment, each first under the kernel's default
# scheduler (EEVDF, nothing loaded), then scx_burst --policy burst, then
# --policy deadline, the three interleaved in every repeat.  mode=ovh: only
# the per-callback overhead experiment (the extra boots at other vCPU
# counts).  mode=ia: the stall floor, then per repeat and scheduler only
# the latency experiment and the interactive workloads (the boots of the
# faithful emulator mode), and with ia_trace_s one more traced run of the
# saturated workload per policy and EEVDF.  Results go to the console as "@@B <record>
# key=value..." lines and "@@B hist <id> value:count..." histogram chunks;
# the host computes every statistic (tests/bench/analyze.py).
#
# Settings (kernel command line words, all optional): mode, reps, lat_s,
# sb_time, sb_prime, sb_threads ("1-16" or a comma list), sb_reps (the
# first sb_reps repeats run sysbench), floor_s, ovh_s, ovh_reps, sw_n,
# cost_s, dom_s, trace_s (0: no trace), trace_rep, trace_kb, ia_s (seconds
# per interactive workload), ia_reps (the first ia_reps repeats of mode=main
# run them; mode=ia runs them in every repeat), ia_trace_s (mode=ia: 0, or
# the seconds of a traced extra run of the saturated workload under EEVDF
# and both policies, after the repeats), scheds (the schedulers, in
# order, comma-separated; default "eevdf,burst,deadline"; any other name is
# a peer scheduler that peer_on NAME / peer_off of /scenarios/peer.sh load
# and unload).
. /scenarios/lib.sh
# peer schedulers (scx_simple, scx_qmap, ...): peer_on NAME, peer_off
[ -f /scenarios/peer.sh ] && . /scenarios/peer.sh
P=/scenarios/benchprobe
n=$(nproc)
mode=${mode:-main}
reps=${reps:-3}
lat_s=${lat_s:-8}
sb_time=${sb_time:-1}
sb_prime=${sb_prime:-2000}
sb_threads=${sb_threads:-1-16}
sb_reps=${sb_reps:-$reps}
floor_s=${floor_s:-3}
ovh_s=${ovh_s:-3}
ovh_reps=${ovh_reps:-3}
sw_n=${sw_n:-10}
cost_s=${cost_s:-60}
dom_s=${dom_s:-2}
trace_s=${trace_s:-4}
trace_rep=${trace_rep:-1}
trace_kb=${trace_kb:-16384}
ia_s=${ia_s:-3}
ia_reps=${ia_reps:-$reps}
ia_trace_s=${ia_trace_s:-0}
scheds=$(echo "${scheds:-eevdf,burst,deadline}" | tr ',' ' ')
hogs=$((12 * n))
errors=0

B() { echo "@@B $*"; }
now() { $P now; }

case "$sb_threads" in
*-*) sb_list=$(seq "${sb_threads%-*}" "${sb_threads#*-}") ;;
*) sb_list=$(echo "$sb_threads" | tr ',' ' ') ;;
esac

# send_hist ID FILE: "value count" lines as @@B hist chunks of 40 pairs
send_hist() {
	awk -v id="$1" '
	{ s = s " " $1 ":" $2; k++; if (k == 40) { print "@@B hist " id s; s = ""; k = 0 } }
	END { if (k) print "@@B hist " id s }' "$2"
}

# --- the scheduler under test --------------------------------------------
dpid='' dseq=0 dname=''
# after_enable SEQ_BEFORE: the enable_seq of the scheduler just enabled
# (the counter may move a moment after the state reads "enabled")
after_enable() {
	_j=0
	while [ "$(enable_seq)" -le "$1" ] && [ $_j -lt 50 ]; do
		sleep 0.1
		_j=$((_j + 1))
	done
	enable_seq
}
# scx_on POLICY NAME [daemon args]: load scx_burst, 0 when it is enabled
scx_on() {
	_pol=$1 dname=$2
	shift 2
	_seq0=$(enable_seq)
	scx_burst --policy "$_pol" --stats 0 "$@" > /tmp/d.out 2> /tmp/d.err &
	dpid=$!
	if ! wait_state enabled 60; then
		errors=$((errors + 1))
		B scx_error ctx="$dname" what=load_failed
		send_file BERR /tmp/d.err
		kill -INT "$dpid" 2>/dev/null
		wait "$dpid" 2>/dev/null
		dpid=''
		return 1
	fi
	dseq=$(after_enable "$_seq0")
	return 0
}
# valid: 1 if the scheduler that was loaded is still the one running
valid() {
	if [ -n "$peer" ]; then
		[ "$(state)" = enabled ] && [ "$(enable_seq)" = "$dseq" ] && echo 1 || echo 0
	elif [ -z "$dpid" ]; then
		[ "$(state)" != enabled ] && echo 1 || echo 0
	elif [ "$(state)" = enabled ] && [ "$(enable_seq)" = "$dseq" ] &&
	     kill -0 "$dpid" 2>/dev/null; then
		echo 1
	else
		echo 0
	fi
}
scx_off() {
	[ -n "$dpid" ] || return 0
	_st=$(state)
	_sq=$(enable_seq)
	kill -INT "$dpid" 2>/dev/null
	wait "$dpid"
	_rc=$?
	wait_state disabled 20
	if [ "$_st" != enabled ] || [ "$_sq" != "$dseq" ] || [ "$_rc" != 0 ] ||
	   grep -q 'the kernel disabled' /tmp/d.err; then
		errors=$((errors + 1))
		B scx_error ctx="$dname" what=exit rc=$_rc state=$_st
		send_file BERR /tmp/d.err
	fi
	dpid=''
}
# sched_on eevdf|burst|deadline|PEER [args]: 0 when it runs; a peer that
# cannot be loaded is one "skip" record
peer=''
sched_on() {
	_s=$1
	shift
	case $_s in
	eevdf) dpid=''; return 0 ;;
	burst|deadline) scx_on "$_s" "$_s" "$@"; return ;;
	esac
	if ! command -v peer_on > /dev/null 2>&1; then
		B skip sched=$_s why=no_peer_on
		return 1
	fi
	_seq0=$(enable_seq)
	if ! peer_on "$_s" > /tmp/peer.out 2>&1 || [ "$(state)" != enabled ]; then
		B skip sched=$_s why=peer_on_failed state=$(state)
		command -v peer_off > /dev/null 2>&1 && peer_off > /dev/null 2>&1
		return 1
	fi
	peer=$_s
	dseq=$(after_enable "$_seq0")
	return 0
}
# sched_off NAME: unload what sched_on loaded
sched_off() {
	case $1 in
	eevdf) ;;
	burst|deadline) scx_off ;;
	*)
		[ -n "$peer" ] || return 0
		_st=$(state)
		_sq=$(enable_seq)
		peer_off > /tmp/peer.out 2>&1
		_rc=$?
		wait_state disabled 20
		if [ "$_rc" != 0 ] || [ "$_st" != enabled ] || [ "$_sq" != "$dseq" ]; then
			B peer_error sched=$1 what=exit rc=$_rc state=$_st
		fi
		peer='' ;;
	esac
}

# --- emulator stall floor ------------------------------------------------
floor() {
	$P gaps "$floor_s" 20 > /tmp/floor.out 2>&1
	B floor id=$1 $(awk '$1 != "hist" { printf "%s=%s ", $1, $2 }' /tmp/floor.out)
	awk '$1 == "hist" { print $2, $3 }' /tmp/floor.out > /tmp/floor.h
	send_hist "floor.$1" /tmp/floor.h
}

# stop_hogs PID: the stress-ng parent PID and all its workers, at once
stop_hogs() {
	kill -KILL $(pidof stress-ng) 2>/dev/null
	wait "$1" 2>/dev/null
}

# totals: the daemon's summed counters as "name value" lines (nothing
# under EEVDF)
totals() {
	[ -n "$dpid" ] || { : > "$1"; return 0; }
	scx_burst --json ctl stats 2>/dev/null |
		sed -n 's/.*"total":{\([^}]*\)}.*/\1/p' | tr ',' '\n' |
		sed -n 's/^"\([a-z_]*\)":\([0-9]*\)$/\1 \2/p' > "$1"
}
# ctr_delta EXP SCHED REP BEFORE AFTER: one @@B ctr record of the increments
ctr_delta() {
	[ -s "$5" ] || return 0
	awk -v e="$1" -v s="$2" -v r="$3" 'NR == FNR { a[$1] = $2; next }
		{ o = o " " $1 "=" ($2 - a[$1]) } END { print "@@B ctr exp=" e " sched=" s " rep=" r o }' "$4" "$5"
}

# --- 1a. a trace of one latency window -------------------------------------
# `scx_burst trace` of repeat trace_rep of every scheduler, started once the
# hogs run; the window opens as soon as it records, so that its trace_s
# seconds lie at the start of the window.  It loads and attaches at nice
# -20 (at nice 0, one task among 12 x nCPU hogs, that took 25 s) and records
# at nice 0.  The host reads the record, the pictures and summary.json
# (tests/bench/analyze.py).
tpid=''
# trace_begin SECONDS MARK_FILE COMM...: start the tracer (its outputs
# filtered to the tasks named COMM, which _tcomms lists comma-separated for
# trace_send); 0 once it records (its first progress line), with the
# window's marks in _m0 (MARK_FILE's size) and _t0 taken right then by a
# SCHED_FIFO poller (as window() in lib.sh measures: the hogs cannot delay
# it)
trace_begin() {
	_tsec=$1 _tmark=$2 _tcomm='' _tcomms=''
	shift 2
	for _n in "$@"; do
		_tcomm="$_tcomm --comm $_n"
		_tcomms="$_tcomms${_tcomms:+,}$_n"
	done
	rm -rf /tmp/trace /tmp/trace.err
	nice -n -20 scx_burst trace --duration "$_tsec" --ringbuf-kb "$trace_kb" \
		$_tcomm --out /tmp/trace > /tmp/trace.out 2> /tmp/trace.err &
	tpid=$!
	chrt -f 10 sh -c 'i=0
		while [ $i -lt 1200 ]; do
			if grep -q "^recording" /tmp/trace.err 2>/dev/null; then
				renice 0 -p "$1" > /dev/null
				stat -c %s "$3"
				"$2" now
				exit 0
			fi
			kill -0 "$1" 2>/dev/null || exit 1
			sleep 0.05
			i=$((i + 1))
		done
		exit 1' sh "$tpid" "$P" "$_tmark" > /tmp/trace.mark || return 1
	{ read -r _m0; read -r _t0; } < /tmp/trace.mark
}
# trace_recorded: until the tracer's last progress line (elapsed >=
# duration: the recording ended) or its exit
trace_recorded() {
	_i=0
	while [ $_i -lt 600 ] && kill -0 "$tpid" 2>/dev/null; do
		awk '$1 == "recording" { split($2, a, "/"); if (a[1] + 0 >= a[2] + 0) e = 1 }
			END { exit !e }' /tmp/trace.err && return 0
		sleep 0.1
		_i=$((_i + 1))
	done
}
# trace_send SCHED REP STARTED WINDOW_T0 WINDOW_T1 SECONDS: the tracer's
# exit, the window (CLOCK_MONOTONIC ns, as summary.json's start_ns and
# end_ns), then the pictures and summary.json
trace_send() {
	# one that never began recording is stopped; none started: status 1
	_rc=1
	if [ -n "$tpid" ]; then
		[ "$3" = 1 ] || kill -INT "$tpid" 2>/dev/null
		wait "$tpid"
		_rc=$?
	fi
	B trace sched=$1 rep=$2 rc=$_rc started=$3 seconds=$6 ringbuf_kb=$trace_kb \
		comm=$_tcomms win_t0_ns=$4 win_t1_ns=$5
	[ "$_rc" = 0 ] || send_file "BTRACE $1 stderr" /tmp/trace.err
	for _f in cpus.svg running_waiting.svg latency.svg summary.json; do
		send_gz "BTRACE $1 $_f" "/tmp/trace/$_f"
	done
	rm -rf /tmp/trace
	tpid=''
}

# --- 1. wakeup latency under saturation ------------------------------------
lat_run() {
	_ts=$(now)
	cyclictest --policy=other -t "$n" -d 0 -i 1000 -D $((lat_s + 120)) -q -v -u \
		> /tmp/cyc.out 2> /tmp/cyc.err &
	_c=$!
	# its threads first (they start late under load), then the hogs
	_i=0
	while [ "$(ls /proc/$_c/task 2>/dev/null | wc -l)" -le "$n" ] && [ $_i -lt 300 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	_tc=$(now)
	stress-ng --cpu "$hogs" --timeout $((lat_s + 100)) > /dev/null 2>&1 &
	_h=$!
	wait_runnable "$hogs" 120
	sleep 1
	totals /tmp/ctr0
	# window marks are byte offsets (counting lines would take seconds
	# under this load and the file keeps growing); -u: cyclictest writes
	# every sample when its main thread next runs, so a mark lags the
	# samples by at most that thread's wakeup latency
	_tr=0
	if [ "$trace_s" != 0 ] && [ "$2" = "$trace_rep" ]; then
		trace_begin "$trace_s" /tmp/cyc.out cyclictest && _tr=1 || _tr=-1
	fi
	if [ "$_tr" != 1 ]; then
		_m0=$(stat -c %s /tmp/cyc.out)
		_t0=$(now)
	fi
	sleep "$lat_s"
	_m1=$(stat -c %s /tmp/cyc.out)
	_t1=$(now)
	_v=$(valid)
	totals /tmp/ctr1
	[ "$_tr" != 1 ] || trace_recorded
	stop_hogs "$_h"
	kill -INT "$_c" 2>/dev/null
	wait "$_c" 2>/dev/null
	# samples of the window, "thread: cycle: latency", without the lines
	# cut at its edges
	tail -c +$((_m0 + 1)) /tmp/cyc.out | head -c $((_m1 - _m0)) | sed '1d;$d' |
		awk -F: 'NF == 3 && $3 ~ /^ *[0-9]+ *$/ { c[$3 + 0]++ }
		END { for (v in c) print v, c[v] }' | sort -n > /tmp/lat.h
	_te=$(now)
	B lat sched=$1 rep=$2 valid=$_v hogs=$hogs window_ns=$((_t1 - _t0)) \
		cyc_start_ns=$((_tc - _ts)) hogs_start_ns=$((_t0 - _tc)) end_ns=$((_te - _t1)) \
		samples=$(awk '{ s += $2 } END { print s + 0 }' /tmp/lat.h)
	send_hist "lat.$1.$2" /tmp/lat.h
	ctr_delta lat "$1" "$2" /tmp/ctr0 /tmp/ctr1
	[ "$_tr" = 0 ] || trace_send "$1" "$2" $((_tr > 0)) "$_t0" "$_t1" "$trace_s"
}

# --- 1b. interactive workloads (issue 13) ------------------------------------
# benchprobe ia (tests/bench/benchprobe.c) for ia_s seconds each:
#   idle  a pipe ping-pong alone
#   sat   a 60 Hz renderer (4 ms of CPU per frame) and the ping-pong beside
#         nCPU fork workers (fork, a 100 us child, waitpid, 5 ms of CPU) and
#         3 x nCPU hogs
#   mix   a desktop: a parallel build (2 x nCPU job slots, jobs of 20-200 ms)
#         with the renderer and the ping-pong
# The renderer and the ping-pong, the fork workers or build slots, and the
# hogs run in processes of their own (benchprobe.c's ia_main() says why).
# One "@@B ia" record per workload (benchprobe's numbers) and its
# histograms as "ia.EXP.SCHED.REP.NAME".
ia_one() {
	_e=$1 _s=$2 _r=$3
	shift 3
	$P ia "$ia_s" "$@" > /tmp/ia.out 2> /tmp/ia.err
	_rc=$?
	B ia sched=$_s rep=$_r exp=$_e rc=$_rc valid=$(valid) \
		$(awk '$1 != "hist" { printf "%s=%s ", $1, $2 }' /tmp/ia.out)
	[ "$_rc" = 0 ] || send_file BERR /tmp/ia.err
	for _h in $(awk '$1 == "hist" { print $2 }' /tmp/ia.out | uniq); do
		awk -v h="$_h" '$1 == "hist" && $2 == h { print $3, $4 }' /tmp/ia.out > /tmp/ia.h
		send_hist "ia.$_e.$_s.$_r.$_h" /tmp/ia.h
	done
}
ia_run() {
	ia_one idle "$1" "$2" pingpong
	totals /tmp/ctr0
	ia_one sat "$1" "$2" render pingpong fork=$n hogs=$((3 * n))
	totals /tmp/ctr1
	ctr_delta ia_sat "$1" "$2" /tmp/ctr0 /tmp/ctr1
	ia_one mix "$1" "$2" render pingpong build=$((2 * n))
}
# ia_trace SCHED: the saturated workload once more, not measured, with
# `scx_burst trace` recording ia_trace_s seconds of it, filtered to the
# workload's parts (benchprobe names its threads ia_PART), from once the
# hogs run (the tracer then loads at nice -20) to before the workload ends
# (its window outlasts the waits below), which is then stopped.
# summary.json gives each part's migrations.
ia_trace() {
	$P ia $((ia_trace_s + 150)) render pingpong fork=$n hogs=$((3 * n)) > /dev/null 2>&1 &
	_w=$!
	_tr=-1 _t0=0 _tcomms='' tpid=''
	rm -f /tmp/trace.err
	wait_runnable $((3 * n)) 60 &&
		trace_begin "$ia_trace_s" /dev/null ia_render ia_pp ia_fork ia_hogs && _tr=1
	[ "$_tr" != 1 ] || trace_recorded
	_t1=$(now)
	# the workload's processes (the hogs' and the fork children too)
	kill -KILL $(pidof benchprobe) 2>/dev/null
	wait "$_w" 2>/dev/null
	trace_send "$1" 0 $((_tr > 0)) "$_t0" "$_t1" "$ia_trace_s"
}

# --- 2. throughput vs threads ----------------------------------------------
sb_run() {
	for _t in $sb_list; do
		sysbench cpu --threads="$_t" --time="$sb_time" --cpu-max-prime="$sb_prime" run \
			> /tmp/sb.out 2>&1
		_e=$(sed -n 's/.*events per second: *\([0-9.]*\).*/\1/p' /tmp/sb.out)
		B sb sched=$1 rep=$2 threads=$_t eps=${_e:-nan} valid=$(valid)
	done
}

# --- 3. primary domain -----------------------------------------------------
# busy jiffies per CPU, "cpuN busy" lines
cpu_busy() {
	awk '/^cpu[0-9]/ { print $1, $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat
}
dom_run() {
	_cfg=$1
	_r=1
	while [ $_r -le "$reps" ]; do
		totals /tmp/ctr0
		cpu_busy > /tmp/b0
		stress-ng --cpu $((n / 2)) --cpu-load 50 --timeout "$dom_s" --metrics-brief \
			> /tmp/dom.out 2>&1
		cpu_busy > /tmp/b1
		totals /tmp/ctr1
		ctr_delta dom_steady "$_cfg" "$_r" /tmp/ctr0 /tmp/ctr1
		_sh=$(awk -v lim=$((n / 2)) 'NR == FNR { a[$1] = $2; next }
			{ d = $2 - a[$1]; all += d; if (substr($1, 4) + 0 < lim) in_d += d }
			END { printf "%.6f", (all > 0 ? in_d / all : 0) }' /tmp/b0 /tmp/b1)
		_ops=$(awk '$3 ~ /^\[/ && $4 == "cpu" && $5 ~ /^[0-9]+$/ { print $9; exit }' /tmp/dom.out)
		B dom_steady cfg=$_cfg rep=$_r share=$_sh ops=${_ops:-nan} valid=$(valid)
		sysbench cpu --threads=$((2 * n)) --time="$dom_s" --cpu-max-prime="$sb_prime" run \
			> /tmp/sb.out 2>&1
		_e=$(sed -n 's/.*events per second: *\([0-9.]*\).*/\1/p' /tmp/sb.out)
		B dom_sat cfg=$_cfg rep=$_r eps=${_e:-nan} valid=$(valid)
		_r=$((_r + 1))
	done
}

# --- 4. per-callback overhead (bpf_stats) ----------------------------------
prog_stats() {
	bpftool prog show 2>/dev/null | awk '$2 == "struct_ops" {
		name = ""; rt = 0; rc = 0
		for (i = 3; i < NF; i++) {
			if ($i == "name") name = $(i + 1)
			if ($i == "run_time_ns") rt = $(i + 1)
			if ($i == "run_cnt") rc = $(i + 1)
		}
		if (name != "") print name, rt, rc }'
}
ovh_run() {
	_pol=$1
	scx_on "$_pol" "ovh.$_pol" || return 0
	sysctl -qw kernel.bpf_stats_enabled=1
	# ovh_reps windows per load: a rare emulator stall landing in one
	# callback inflates one window's average, not the median of them
	_r=1
	while [ $_r -le "$ovh_reps" ]; do
		for _load in light medium heavy; do
			case $_load in
			light) _k=1 ;; medium) _k=$((3 * n)) ;; heavy) _k=$hogs ;;
			esac
			prog_stats > /tmp/p0
			scx_burst --json ctl stats > /tmp/ovs0.json 2>/dev/null
			$P hogs "$_k" "$ovh_s" 20 > /tmp/hogs.out
			prog_stats > /tmp/p1
			scx_burst --json ctl stats > /tmp/ovs1.json 2>/dev/null
			B ovh_load sched=$_pol load=$_load rep=$_r cpus=$n valid=$(valid) \
				$(awk '{ printf "%s=%s ", $1, $2 }' /tmp/hogs.out)
			# %.0f: busybox awk's %d wraps above 2^31
			awk -v s="$_pol" -v l="$_load" -v r=$_r 'NR == FNR { t[$1] = $2; c[$1] = $3; next }
				{ printf "@@B ovh sched=%s load=%s rep=%s prog=%s run_ns=%.0f cnt=%.0f\n",
				  s, l, r, $1, $2 - t[$1], $3 - c[$1] }' /tmp/p0 /tmp/p1
			# steps the hot callbacks took in the window (their own
			# counters, emulator-independent); max: the most one call
			# took since the daemon started (--stats 0 never closes an
			# interval), so it covers this and the earlier windows
			for _cb in select enqueue dispatch; do
				_c0=$(stat_field /tmp/ovs0.json ${_cb}_calls)
				_c1=$(stat_field /tmp/ovs1.json ${_cb}_calls)
				_s0=$(stat_field /tmp/ovs0.json ${_cb}_steps)
				_s1=$(stat_field /tmp/ovs1.json ${_cb}_steps)
				_m=$(stat_field /tmp/ovs1.json ${_cb}_steps_max)
				B ovh_steps sched=$_pol load=$_load rep=$_r cb=$_cb \
					calls=$(( ${_c1:-0} - ${_c0:-0} )) steps=$(( ${_s1:-0} - ${_s0:-0} )) \
					max=${_m:-nan}
			done
		done
		_r=$((_r + 1))
	done
	sysctl -qw kernel.bpf_stats_enabled=0
	scx_off
}

# --- 5. live policy switch -------------------------------------------------
stat_field() {	# FILE KEY: number of KEY in the "total" object
	sed -n "s/.*\"total\":{[^}]*\"$2\":\([0-9]*\).*/\1/p" "$1"
}
sw_run() {
	_h=$((2 * n))
	scx_on burst switch || return 0
	stress-ng --cpu "$_h" --timeout 600 > /dev/null 2>&1 &
	_sp=$!
	wait_runnable "$_h" 60
	_i=1
	_to=deadline
	while [ $_i -le "$sw_n" ]; do
		[ $_to = deadline ] && _from=burst || _from=deadline
		scx_burst --json ctl stats > /tmp/st0.json 2>/dev/null
		_d0=$(stat_field /tmp/st0.json dispatch_drain)
		_t0=$(now)
		scx_burst ctl set policy=$_to > /tmp/set.out 2>&1
		_rc=$?
		_t1=$(now)
		_vis=-1 _eff=-1 _k=0
		while [ $_k -lt 100 ]; do
			scx_burst --json ctl stats > /tmp/st.json 2>/dev/null
			_t2=$(now)
			_k=$((_k + 1))
			_p=$(sed -n 's/.*"policy":"\([a-z]*\)".*/\1/p' /tmp/st.json)
			[ "$_vis" = -1 ] && [ "$_p" = $_to ] && _vis=$((_t2 - _t0))
			_d=$(stat_field /tmp/st.json dispatch_drain)
			[ "$_eff" = -1 ] && [ -n "$_d" ] && [ -n "$_d0" ] && [ "$_d" -gt "$_d0" ] &&
				_eff=$((_t2 - _t0))
			[ "$_vis" != -1 ] && [ "$_eff" != -1 ] && break
			[ "$_vis" != -1 ] && [ $_k -ge 20 ] && break
		done
		B sw i=$_i from=$_from to=$_to rc=$_rc set_ns=$((_t1 - _t0)) visible_ns=$_vis \
			effective_ns=$_eff polls=$_k valid=$(valid)
		sleep 0.3
		[ $_to = deadline ] && _to=burst || _to=deadline
		_i=$((_i + 1))
	done
	scx_burst --json ctl stats > /tmp/st.json 2>/dev/null
	_nsw=$(sed -n 's/.*"policy_switches":\([0-9]*\).*/\1/p' /tmp/st.json)
	_v=$(valid)
	stop_hogs "$_sp"
	_e0=$errors
	scx_off
	B sw_sum hogs=$_h switches=${_nsw:-nan} valid=$_v exits=$((errors - _e0))
}

# --- 6. daemon cost ------------------------------------------------------
cost_run() {
	_pol=$1
	_seq0=$(enable_seq)
	scx_burst --policy "$_pol" --stats 1 --json > /tmp/c.out 2> /tmp/c.err &
	dpid=$!
	dname=cost.$_pol
	if ! wait_state enabled 60; then
		errors=$((errors + 1))
		B scx_error ctx=$dname what=load_failed
		send_file BERR /tmp/c.err
		kill -INT $dpid 2>/dev/null; wait $dpid 2>/dev/null; dpid=''
		return 0
	fi
	dseq=$(after_enable "$_seq0")
	sleep 1
	_a=$(cut -d' ' -f14,15 /proc/$dpid/stat)
	_s0=$(cut -d' ' -f1 /proc/$dpid/schedstat)
	_l0=$(wc -l < /tmp/c.out)
	_t0=$(now)
	sleep "$cost_s"
	_t1=$(now)
	_b=$(cut -d' ' -f14,15 /proc/$dpid/stat)
	_s1=$(cut -d' ' -f1 /proc/$dpid/schedstat)
	_l1=$(wc -l < /tmp/c.out)
	_hwm=$(awk '/^VmHWM:/ { print $2 }' /proc/$dpid/status)
	_rss=$(awk '/^VmRSS:/ { print $2 }' /proc/$dpid/status)
	_ticks=$(( ${_b% *} + ${_b#* } - ${_a% *} - ${_a#* } ))
	B cost sched=$_pol elapsed_ns=$((_t1 - _t0)) ticks=$_ticks hz=100 \
		run_ns=$((_s1 - _s0)) hwm_kb=$_hwm rss_kb=$_rss lines=$((_l1 - _l0)) valid=$(valid)
	cp /tmp/c.err /tmp/d.err
	scx_off
}

# --- main ----------------------------------------------------------------
B start mode=$mode ncpu=$n kernel=$(uname -r) reps=$reps lat_s=$lat_s sb_time=$sb_time sb_reps=$sb_reps \
	sb_prime=$sb_prime floor_s=$floor_s ovh_s=$ovh_s ovh_reps=$ovh_reps sw_n=$sw_n cost_s=$cost_s \
	dom_s=$dom_s hogs=$hogs trace_s=$trace_s trace_rep=$trace_rep trace_kb=$trace_kb \
	ia_s=$ia_s ia_reps=$ia_reps ia_trace_s=$ia_trace_s scheds=$(echo $scheds | tr ' ' ,)
tag STATE_BEFORE $(state)
[ "$(state)" = disabled ] || { B fatal what=no_sched_ext state=$(state); exit 1; }
floor start

if [ "$mode" = main ]; then
	r=1
	while [ $r -le "$reps" ]; do
		for s in $scheds; do
			B phase sched=$s rep=$r t=$(now)
			sched_on $s || continue
			lat_run $s $r
			[ $r -gt "$sb_reps" ] || sb_run $s $r
			[ $r -gt "$ia_reps" ] || ia_run $s $r
			sched_off $s
		done
		r=$((r + 1))
	done

	if scx_burst --help 2>&1 | grep -q -- --primary-domain; then
		dom=0-$((n / 2 - 1))
		B dom_info available=1 domain=$dom load_tasks=$((n / 2)) load_pct=50 sat_threads=$((2 * n))
		for cfg in eevdf burst burst_dom deadline deadline_dom; do
			case $cfg in
			eevdf) sched_on eevdf ;;
			*_dom) scx_on ${cfg%_dom} $cfg --primary-domain "$dom" || continue ;;
			*) scx_on $cfg $cfg || continue ;;
			esac
			dom_run $cfg
			scx_off
		done
	else
		B dom_info available=0
	fi

	sw_run
	cost_run burst
	cost_run deadline
fi

if [ "$mode" = ia ]; then
	r=1
	while [ $r -le "$reps" ]; do
		for s in $scheds; do
			B phase sched=$s rep=$r t=$(now)
			sched_on $s || continue
			lat_run $s $r
			ia_run $s $r
			sched_off $s
		done
		r=$((r + 1))
	done
	if [ "$ia_trace_s" != 0 ]; then
		for s in $scheds; do
			case $s in eevdf | burst | deadline) ;; *) continue ;; esac
			B phase sched=$s rep=trace t=$(now)
			sched_on $s || continue
			ia_trace $s
			sched_off $s
		done
	fi
else
	ovh_run burst
	ovh_run deadline
fi
floor end

# sched_ext kernel messages other than our own enable/unload, each once
# with its count ("N x message")
dmesg | grep 'sched_ext' | sed 's/^\[[^]]*\] *//' |
	grep -v -e 'unregistered from user space' -e 'scheduler "[a-z_]*" enabled$' |
	sort | uniq -c | sed 's/^ *\([0-9]*\) /\1 x /' > /tmp/dmesg.txt
send_file BDMESG /tmp/dmesg.txt
B end errors=$errors dmesg_lines=$(wc -l < /tmp/dmesg.txt)
exit 0
