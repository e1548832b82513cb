# Tracing overhead (docs/benchmarks.md, "Tracing overhead"): the same
# fixed-time workloads without and with `scx_burst trace` recording,
# alternated REPS times (reps=N on the kernel command line; default 3).
# Boot with run-vm.sh --icount: guest time then counts guest instructions,
# so the host's load does not move the numbers.
#   @@CPU off|on EVENTS_PER_S     sysbench cpu, one thread per CPU
#   @@SWITCH off|on BOGO_OPS_PER_S  stress-ng --switch (context-switch heavy)
#   @@TRACE_OUT line              the summary line of each recording
#   @@TRACER_TICKS N              the recorder's CPU time meanwhile (USER_HZ)
. /scenarios/lib.sh
ncpu=$(nproc)
tag NCPU $ncpu
reps=${reps:-3}

cpu_load() {
	sysbench cpu --threads=$ncpu --time=5 run | awk '/events per second/ { print $4 }'
}
switch_load() {
	stress-ng --switch $ncpu --timeout 5 --metrics-brief 2>&1 |
		awk '$4 == "switch" && NF == 10 { print $9 }'
}

# traced CMD: CMD's output while a recording runs
traced() {
	rm -f /tmp/ovh.err	# not the last run's progress lines
	scx_burst trace --duration 600 --out /tmp/ovh > /tmp/ovh.out 2> /tmp/ovh.err &
	_t=$!
	wait_line /tmp/ovh.err 'recording 0' 120
	"$@"
	# the recorder's own CPU time (utime + stime, ticks) while CMD ran
	awk '{ print "@@TRACER_TICKS", $14 + $15 }' /proc/$_t/stat >&2
	kill -INT $_t
	wait $_t
}

# a first run of each warms the page cache and the binaries: not counted
cpu_load > /dev/null
switch_load > /dev/null
i=0
while [ $i -lt $reps ]; do
	tag CPU off $(cpu_load)
	tag CPU on $(traced cpu_load)
	grep '^scheduler' /tmp/ovh.out | sed 's/^/@@TRACE_OUT cpu /'
	tag SWITCH off $(switch_load)
	tag SWITCH on $(traced switch_load)
	grep '^scheduler' /tmp/ovh.out | sed 's/^/@@TRACE_OUT switch /'
	i=$((i + 1))
done
tag DONE
