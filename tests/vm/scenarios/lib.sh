# Helpers shared by the VM scenarios (sourced by busybox sh in the guest).
# Results go to the serial console as "@@TAG value" lines that
# tests/vm/vm_test.cpp parses; files are sent as "@@<TAG> <line>" each.

SCX=/sys/kernel/sched_ext

tag() { echo "@@$*"; }
# run ns of a task, from /proc/PID/schedstat
runtime() { cut -d' ' -f1 /proc/$1/schedstat; }

# total_stat KEY: counter KEY of the stats' total row (ctl stats --json):
# its sum since the scheduler was loaded
total_stat() {
	scx_burst ctl stats --json | sed -n "s/.*\"total\":{[^}]*\"$1\":\([0-9]*\).*/\1/p"
}

# send_file TAG FILE: every line of FILE as "@@TAG line"
send_file() {
	[ -f "$2" ] || return 0
	while IFS= read -r line || [ -n "$line" ]; do
		echo "@@$1 $line"
	done < "$2"
}

# send_gz TAG FILE: FILE gzipped and base64-encoded, a line per "@@TAG"
# (binary or large files; the host decodes them)
send_gz() {
	[ -f "$2" ] || return 0
	gzip -c "$2" | base64 | sed "s/^/@@$1 /"
}

state() { cat $SCX/state 2>/dev/null || echo absent; }
enable_seq() { cat $SCX/enable_seq 2>/dev/null || echo 0; }

# wait_state WANT SECONDS: poll the sched_ext state; 0 if reached
wait_state() {
	i=0
	while [ $i -lt $(( $2 * 10 )) ]; do
		[ "$(state)" = "$1" ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# wait_line FILE PATTERN SECONDS: wait until FILE has a line matching
wait_line() {
	i=0
	while [ $i -lt $(( $3 * 10 )) ]; do
		grep -q "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# --- helpers of the machine-shape scenarios (shapes-*.sh) -----------------

# now: guest uptime in seconds (one fork-free read)
now() { read -r _up _ < /proc/uptime; echo "$_up"; }

# llc_of N: the CPU list of CPU N's last-level cache (the data or unified
# cache index with the highest level); $LLC_LEVEL is that level
llc_of() {
	best='' LLC_LEVEL=0
	for x in /sys/devices/system/cpu/cpu$1/cache/index*; do
		[ -r $x/level ] || continue
		[ "$(cat $x/type)" = Instruction ] && continue
		l=$(cat $x/level)
		[ "$l" -ge "$LLC_LEVEL" ] && { LLC_LEVEL=$l; best=$(cat $x/shared_cpu_list); }
	done
	echo "$best"
}

# shape_tags: what the guest sees of its topology.  SHAPE_NPROC; per online
# CPU its last-level cache as "SHAPE_LLC cpuN L<level> LIST" and its SMT
# siblings as "SHAPE_SMT cpuN LIST".
shape_tags() {
	tag SHAPE_NPROC "$(nproc)"
	for c in /sys/devices/system/cpu/cpu[0-9]*; do
		[ "$(cat $c/online 2>/dev/null || echo 1)" = 1 ] || continue
		n=${c##*/}
		llc_of ${n#cpu} > /tmp/llc.out	# not $(...): keep $LLC_LEVEL
		tag SHAPE_LLC $n "L$LLC_LEVEL" "$(cat /tmp/llc.out)"
		tag SHAPE_SMT $n "$(cat $c/topology/thread_siblings_list)"
	done
}

# hog [CMD ARGS...]: start a busy loop in the background, optionally under
# a wrapper that execs it (nice -n 19, chrt -i 0, taskset -c 4-7); its pid
# is $HOG and is added to $HOGS
HOGS=''
hog() {
	"$@" sh -c 'while :; do :; done' </dev/null >/dev/null 2>&1 &
	HOG=$!
	HOGS="$HOGS $HOG"
}

# hogs N [CMD ARGS...]: N busy loops, each as hog CMD ARGS...
hogs() {
	_n=$1
	shift
	_k=0
	while [ $_k -lt "$_n" ]; do
		hog "$@"
		_k=$((_k + 1))
	done
}

# kill_hogs: end every busy loop started by hog, and reap them
kill_hogs() {
	[ -n "$HOGS" ] || return 0
	kill -KILL $HOGS 2>/dev/null
	wait $HOGS 2>/dev/null
	HOGS=''
}

# wait_runnable COUNT SECONDS: until at least COUNT tasks are runnable
# (the running/total field of /proc/loadavg; read by the shell itself, no
# process to start while the hogs fork)
wait_runnable() {
	_i=0
	while [ $_i -lt $(($2 * 10)) ]; do
		read -r _l1 _l5 _l15 _rt _lp < /proc/loadavg
		[ "${_rt%/*}" -ge "$1" ] && return 0
		sleep 0.1
		_i=$((_i + 1))
	done
	return 1
}

# nlines FILE: complete lines in FILE so far
nlines() { wc -l < "$1" 2>/dev/null || echo 0; }

# send_lines TAG FILE FROM TO: lines FROM+1..TO of FILE as "@@TAG line"
# (one sed, not a shell loop: stats lines are several kB each)
send_lines() {
	[ "$4" -gt "$3" ] || return 0
	sed -n "$(($3 + 1)),$4p" "$2" | sed "s/^/@@$1 /"
}

# max_wait FILE FROM TO: the largest per-CPU "max_wait_us" in lines FROM+1..TO
# of a --json stats stream (the "total" object left out), or "absent" if no
# CPU row has the key
max_wait() {
	[ "$3" -gt "$2" ] || { echo absent; return; }
	sed -n "$(($2 + 1)),$3p" "$1" | sed 's/"total":{[^}]*}//' |
		grep -o '"max_wait_us":[0-9]*' |
		awk -F: 'BEGIN { m = -1 } $2 + 0 > m { m = $2 + 0 }
			 END { if (m < 0) print "absent"; else print m }'
}

# wait_reload SEQ SECONDS: wait until the scheduler was enabled again after
# enable_seq SEQ (state enabled, enable_seq > SEQ) and the daemon answers
# `ctl get`; 0 if so
wait_reload() {
	_end=$(( $(date +%s) + $2 ))
	while [ "$(date +%s)" -lt $_end ]; do
		if [ "$(state)" = enabled ] && [ "$(enable_seq)" -gt "$1" ] &&
		   scx_burst ctl get > /dev/null 2>&1; then
			return 0
		fi
		sleep 0.2
	done
	return 1
}

# sample PID...: one awk reads, back to back, the uptime, the busy jiffies
# of every cpuN line of /proc/stat (user+nice+system+irq+softirq, as
# domain.sh measures), the run time in ns of each task (/proc/PID/schedstat,
# exact where utime+stime are whole clock ticks; -1 if gone) and the uptime
# again, and prints
#   T_BEFORE T_AFTER | BUSY... | NS...
# One process, so that nothing can come between the clock and the counters.
sample() {
	awk -v pids="$*" '
	function up(  l, a) {
		getline l < "/proc/uptime"
		close("/proc/uptime")
		split(l, a, " ")
		return a[1]
	}
	BEGIN {
		t0 = up()
		b = ""
		while ((getline l < "/proc/stat") > 0) {
			split(l, f, " ")
			if (f[1] ~ /^cpu[0-9]/)
				b = b " " (f[2] + f[3] + f[4] + f[7] + f[8])
		}
		close("/proc/stat")
		ns = ""
		n = split(pids, p, " ")
		for (i = 1; i <= n; i++) {
			fn = "/proc/" p[i] "/schedstat"
			if ((getline l < fn) > 0) {
				split(l, a, " ")
				ns = ns " " a[1]
			} else
				ns = ns " -1"
			close(fn)
		}
		printf "%s %s |%s |%s\n", t0, up(), b, ns
	}'
}

# window PFX STATS SECONDS GROUP:N...: measure the loops in $HOGS for
# SECONDS, or, with SECONDS given as FILE,MAX, until FILE exists (MAX
# seconds at most) and STATS has two more lines (5 s at most).  The GROUPs
# name consecutive runs of $HOGS in the order they were started (e.g.
# nice0:24 nice19:4 idle:8).  Tags: PFX_GROUPS; PFX_S0 and
# PFX_S1, a sample of $HOGS at both ends; PFX_SCHED (nice/policy of each
# loop) and PFX_CPU (the CPU each loop ran on last); PFX_SEQ (enable_seq and
# state at both ends); PFX_MAXWAIT_US (max_wait) and every line the stats
# stream STATS got meanwhile as PFX_JSON.
# The measurement itself runs as SCHED_FIFO: the kernel's real-time class
# comes before sched_ext, so a scheduler that starves ordinary tasks cannot
# stretch a sample or the window (it can still delay the rest of the script).
window() {
	_pfx=$1 _out=$2 _secs=$3
	shift 3
	tag ${_pfx}_GROUPS "$@"
	chrt -f 10 sh -c '. /scenarios/lib.sh
		echo "$(nlines "$1") $(enable_seq) $(state)"
		sample $2
		case $3 in
		*,*)	_k=0
			while [ ! -e "${3%,*}" ] && [ $_k -lt $((${3#*,} * 10)) ]; do
				sleep 0.1
				_k=$((_k + 1))
			done
			_n=$(nlines "$1")
			_k=0
			while [ "$(nlines "$1")" -lt $((_n + 2)) ] && [ $_k -lt 50 ]; do
				sleep 0.1
				_k=$((_k + 1))
			done ;;
		*)	sleep "$3" ;;
		esac
		sample $2
		echo "$(nlines "$1") $(enable_seq) $(state)"' sh "$_out" "$HOGS" "$_secs" \
		> /tmp/window.out 2>&1
	{
		read -r _l0 _s0 _st0
		read -r _sa
		read -r _sb
		read -r _l1 _s1 _st1
	} < /tmp/window.out
	tag ${_pfx}_S0 $_sa
	tag ${_pfx}_S1 $_sb
	tag ${_pfx}_SCHED $(cd /proc && awk '{ printf "%s/%s ", $19, $41 }' \
		$(for _p in $HOGS; do echo $_p/stat; done) 2>/dev/null)
	tag ${_pfx}_CPU $(cd /proc && awk '{ printf "%s ", $39 }' \
		$(for _p in $HOGS; do echo $_p/stat; done) 2>/dev/null)
	tag ${_pfx}_SEQ $_s0 $_s1 $_st0 $_st1
	tag ${_pfx}_MAXWAIT_US $(max_wait "$_out" ${_l0:-0} ${_l1:-0})
	send_lines ${_pfx}_JSON "$_out" ${_l0:-0} ${_l1:-0}
}
