# Helpers shared by the VM scenarios (sourced by busybox sh in the guest).
# Results go to the serial console as "@@TAG value" lines that
# tests/vm/vm_test.cpp parses; files are sent as "@@<TAG> <line>" each.

SCX=/sys/kernel/sched_ext

tag() { echo "@@$*"; }

# send_file TAG FILE: every line of FILE as "@@TAG line"
send_file() {
	[ -f "$2" ] || return 0
	while IFS= read -r line || [ -n "$line" ]; do
		echo "@@$1 $line"
	done < "$2"
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
