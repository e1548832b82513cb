# The peer schedulers of the benchmark (busybox sh in the VM, copied to
# /scenarios/peer.sh by tests/bench/run-bench.sh): the kernel's own sched_ext
# example schedulers, built by tests/bench/peers.sh from Debian's
# linux-source of the booted kernel's version and copied to
# /scenarios/peers/<kernel release>/scx_<name>.
#
# Sourced by bench.sh after lib.sh.  Uses bench.sh's B, errors and
# after_enable, and sets its dpid, dseq and dname as scx_on does, so that
# valid() and the "@@B scx_error" records work for a peer as for scx_burst.
#   peer_list          the peers built for this kernel (simple qmap ...)
#   peer_on NAME [ARG...]
#                      start scx_NAME, 0 once it is the enabled scheduler;
#                      else "@@B scx_error ctx=NAME what=load_failed", 1
#   peer_off           stop it (SIGINT), wait until sched_ext is disabled;
#                      0 if it went as asked, else "@@B scx_error ctx=NAME
#                      what=exit ...", 1
# bench.sh's sched_on/sched_off call them with their output in
# /tmp/peer.out and turn a non-zero status into a "skip" or "peer_error"
# record (a peer's failure is not scx_burst's).
# The kernel's config is linked to /boot/config-<release> at the first
# peer_on: libbpf reads the peers' __kconfig externs from there (the image has
# no /proc/config.gz), and scx_central on 7.3 does not load without it.
# A peer's periodic output goes to /dev/null, its stderr (libbpf messages and
# its "EXIT: <reason>" line) to /tmp/p.err, sent as "@@BERR" lines on error.

PEERS=/scenarios/peers/$(uname -r)

peer_list() {
	for _f in "$PEERS"/scx_*; do
		[ -x "$_f" ] && echo "${_f##*/scx_}"
	done
}

# peer_wait NAME SECONDS: until NAME is the enabled root scheduler; fails at
# once if the peer process exits
peer_wait() {
	_i=0
	while [ $_i -lt $(($2 * 10)) ]; do
		if [ "$(state)" = enabled ] &&
		   [ "$(cat $SCX/root/ops 2>/dev/null)" = "$1" ]; then
			return 0
		fi
		kill -0 "$dpid" 2>/dev/null || return 1
		sleep 0.1
		_i=$((_i + 1))
	done
	return 1
}

peer_on() {
	dname=$1
	shift
	_seq0=$(enable_seq)
	: > /tmp/p.err
	if [ ! -x "$PEERS/scx_$dname" ]; then
		echo "peer.sh: no $PEERS/scx_$dname" > /tmp/p.err
		dpid=''
	else
		if [ ! -e "/boot/config-$(uname -r)" ] && [ -f "$PEERS/config" ]; then
			mkdir -p /boot
			ln -s "$PEERS/config" "/boot/config-$(uname -r)"
		fi
		"$PEERS/scx_$dname" "$@" < /dev/null > /dev/null 2> /tmp/p.err &
		dpid=$!
		if peer_wait "$dname" 60; then
			dseq=$(after_enable "$_seq0")
			return 0
		fi
		kill -INT "$dpid" 2>/dev/null
		wait "$dpid" 2>/dev/null
		dpid=''
		wait_state disabled 20
	fi
	errors=$((errors + 1))
	B scx_error ctx="$dname" what=load_failed
	send_file BERR /tmp/p.err
	return 1
}

# An error unless the peer was still the scheduler enabled at peer_on, it
# exited with status 0 within 20 s of SIGINT, reporting the unload that
# SIGINT asks for, and sched_ext went back to disabled.
peer_off() {
	[ -n "$dpid" ] || return 0
	_st=$(state)
	_sq=$(enable_seq)
	kill -INT "$dpid" 2>/dev/null
	( sleep 20; kill -KILL "$dpid" 2>/dev/null ) < /dev/null > /dev/null 2>&1 &
	_wd=$!
	wait "$dpid"
	_rc=$?
	kill "$_wd" 2>/dev/null
	wait "$_wd" 2>/dev/null
	wait_state disabled 20
	_ds=$?
	if [ "$_st" != enabled ] || [ "$_sq" != "$dseq" ] || [ "$_rc" != 0 ] ||
	   [ "$_ds" != 0 ] || ! grep -q '^EXIT: unregistered from user space' /tmp/p.err; then
		errors=$((errors + 1))
		B scx_error ctx="$dname" what=exit rc=$_rc state=$_st
		send_file BERR /tmp/p.err
		dpid=''
		return 1
	fi
	dpid=''
}
