#!/usr/bin/env bash
# Boot a kernel + initramfs under qemu (TCG) and relay its serial console.
#
# usage: tests/vm/run-vm.sh --kernel VMLINUZ --initrd CPIO [--smp N]
#                           [--topology S,C,T] [--mem MB] [--timeout SECONDS]
#                           [--icount | --mttcg] [--log FILE] [-- key=value ...]
#
#   --smp N        vCPUs (default 2)
#   --topology S,C,T
#                  sockets, cores per socket, threads per core: qemu gets
#                  -smp S*C*T,sockets=S,cores=C,threads=T (one LLC per
#                  socket, T SMT siblings per core); --smp, if also given,
#                  must equal S*C*T
#   --mem MB       guest memory (default 2048)
#   --timeout S    guest-side scenario timeout, passed as timeout=S (default
#                  300); qemu is killed after S + 60 s
#   --icount       -icount 'shift=2,sleep=off,align=off' -seed 1 and nokaslr:
#                  steadier numbers, for benchmarks
#   --mttcg        the faithful mode: qemu 10 (tests/vm/qemu10.sh fetches it
#                  on Debian 12) with -accel tcg,thread=multi, one host
#                  thread per vCPU; for latency benchmarks at no more vCPUs
#                  than host cores (tests/bench/faithful-mode.md).  Without
#                  it, the host's qemu-system-x86_64 with one thread for all
#                  vCPUs.  Multi-threaded TCG cannot count instructions:
#                  --icount and --mttcg exclude each other
#   --log FILE     also write the console to FILE
#   key=value      appended to the kernel command line (the initramfs /init
#                  of tests/vm/mkinitramfs.sh reads scenario=NAME and passes
#                  the others to the scenario as environment variables)
#
# The console goes to stdout line by line, CRs stripped.  A summary line goes
# to stderr.  Exit status: N from the guest's "@@EXIT N" line; 124 if the
# host-side timeout killed qemu; 125 if qemu ended without "@@EXIT" (panic,
# bad kernel, qemu error).
set -euo pipefail

prog=run-vm.sh
die_status=125
. "$(dirname "$0")/../lib/common.sh"
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

kernel='' initrd='' smp='' mem=$QEMU_MEM_MB limit=300 icount=0 mttcg=0 log='' topology=''
words=()
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel|--initrd|--smp|--topology|--mem|--timeout|--log)
		[ $# -ge 2 ] || die "$1 needs a value"
		case "$1" in
		--kernel) kernel=$2 ;; --initrd) initrd=$2 ;; --smp) smp=$2 ;;
		--topology) topology=$2 ;;
		--mem) mem=$2 ;; --timeout) limit=$2 ;; --log) log=$2 ;;
		esac
		shift 2 ;;
	--icount) icount=1; shift ;;
	--mttcg) mttcg=1; shift ;;
	-h|--help) usage; exit 0 ;;
	--) shift; words=("$@"); break ;;
	*) die "unknown argument '$1' (see $0 --help)" ;;
	esac
done

[ -n "$kernel" ] || die "--kernel VMLINUZ is required"
[ -n "$initrd" ] || die "--initrd CPIO is required"
[ -f "$kernel" ] || die "$kernel: no such file"
[ -f "$initrd" ] || die "$initrd: no such file"
[ "$icount" = 0 ] || [ "$mttcg" = 0 ] ||
	die "--icount and --mttcg exclude each other (qemu's multi-threaded TCG cannot count instructions)"
smp_given=$smp
[ -n "$smp" ] || smp=2
for v in smp mem limit; do
	[[ ${!v} =~ ^[1-9][0-9]*$ ]] || die "--${v/limit/timeout} must be a positive integer, got '${!v}'"
done
smp_arg=$smp
if [ -n "$topology" ]; then
	[[ $topology =~ ^([1-9][0-9]{0,2}),([1-9][0-9]{0,2}),([1-9][0-9]{0,2})$ ]] ||
		die "--topology must be three positive integers S,C,T (sockets,cores,threads), got '$topology'"
	sockets=${BASH_REMATCH[1]} cores=${BASH_REMATCH[2]} threads=${BASH_REMATCH[3]}
	n=$((sockets * cores * threads))
	[ -z "$smp_given" ] || [ "$smp_given" -eq "$n" ] ||
		die "--smp $smp_given contradicts --topology $topology ($sockets*$cores*$threads = $n vCPUs)"
	smp=$n
	smp_arg="$n,sockets=$sockets,cores=$cores,threads=$threads"
fi
for w in "${words[@]}"; do
	[[ $w =~ ^[^[:space:]\"\']+$ ]] || die "bad kernel command-line word '$w'"
done
machine=("${QEMU_MACHINE[@]}")
if [ "$mttcg" = 1 ]; then
	q10=$("$(dirname "$0")/qemu10.sh") || die "no qemu 10 for --mttcg (tests/vm/qemu10.sh failed)"
	read -r _ qemu q10_rest <<< "$q10"
	read -r -a q10_args <<< "$q10_rest"
	machine=("${q10_args[@]}" "${QEMU_MACHINE_MTTCG[@]}")
else
	qemu=$(command -v qemu-system-x86_64) || die "qemu-system-x86_64 not found (tests/setup-deps.sh installs it)"
fi

append="console=ttyS0 quiet panic=-1"
qargs=("${machine[@]}" -smp "$smp_arg" -m "$mem"
	-nodefaults -no-user-config -display none -serial stdio -no-reboot)
if [ "$icount" = 1 ]; then
	qargs+=("${QEMU_ICOUNT[@]}")
	append+=" $QEMU_ICOUNT_APPEND"
fi
append+=" timeout=$limit"
[ ${#words[@]} -eq 0 ] || append+=" ${words[*]}"
qargs+=(-kernel "$kernel" -initrd "$initrd" -append "$append")

tmp=$(mktemp -d)
qpid=
cleanup() {
	[ -z "$qpid" ] || kill "$qpid" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
if [ -n "$log" ]; then
	: > "$log" || die "cannot write $log"
fi

# One boot; sets exit_code, boot_t, exit_t, rc.  A guest that has printed
# no @@BOOT line (its /init has not run, so nothing of scx_burst has either)
# after boot_limit seconds is killed and no_boot set: an early-boot hang of
# the emulator (seen once in about 100 boots under icount with another VM
# on the host: 460 s and not one byte on the console), retried once below.
boot_limit=${SCX_BURST_BOOT_LIMIT:-240}
boot_once() {
	local line n wdpid='' bootwd
	rm -f "$tmp/console" "$tmp/booted" "$tmp/no_boot"
	mkfifo "$tmp/console"
	t0=$EPOCHREALTIME
	# coreutils timeout: TERM after limit + 60 s (qemu exits on it), KILL 10 s later.
	timeout -k 10 $((limit + 60)) "$qemu" "${qargs[@]}" < /dev/null > "$tmp/console" &
	qpid=$!
	( sleep "$boot_limit"
	  [ -e "$tmp/booted" ] || { : > "$tmp/no_boot"; kill "$qpid" 2>/dev/null; } ) </dev/null >/dev/null 2>&1 &
	bootwd=$!

	exit_code='' boot_t='' exit_t=''
	exec 3< "$tmp/console"
	while IFS= read -r -u 3 line || [ -n "$line" ]; do
		line=${line//$'\r'/}
		printf '%s\n' "$line"
		[ -z "$log" ] || printf '%s\n' "$line" >> "$log"
		case "$line" in
		@@BOOT\ *) [ -n "$boot_t" ] || { boot_t=$EPOCHREALTIME; : > "$tmp/booted"; } ;;
		@@EXIT\ *)
			if [ -z "$exit_code" ]; then
				n=${line#@@EXIT }; n=${n%% *}
				[[ $n =~ ^[0-9]+$ ]] && exit_code=$n || exit_code=125
				exit_t=$EPOCHREALTIME
				# The guest powers off right away; do not wait for a hung one.
				( sleep 20; kill "$qpid" 2>/dev/null ) </dev/null >/dev/null 2>&1 &
				wdpid=$!
			fi ;;
		esac
		line=
	done
	exec 3<&-
	rc=0
	wait "$qpid" || rc=$?
	qpid=
	kill "$bootwd" 2>/dev/null || true
	wait "$bootwd" 2>/dev/null || true
	[ -z "$wdpid" ] || kill "$wdpid" 2>/dev/null || true
	t1=$EPOCHREALTIME
	[ -z "$boot_t" ] && [ -e "$tmp/no_boot" ] && no_boot=1 || no_boot=0
}

boot_once
if [ "$no_boot" = 1 ]; then
	echo "$prog: no @@BOOT after ${boot_limit} s (the guest's /init never ran): booting once more" >&2
	[ -z "$log" ] || printf '%s\n' "run-vm.sh: no @@BOOT after ${boot_limit} s, qemu killed; booting once more" >> "$log"
	boot_once
fi

secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
summary="smp=$smp_arg icount=$icount mttcg=$mttcg"
[ -z "$boot_t" ] || summary+=" boot=$(secs "$t0" "$boot_t")s"
[ -z "$exit_t" ] || summary+=" exit=$(secs "$t0" "$exit_t")s"
summary+=" total=$(secs "$t0" "$t1")s"
if [ -n "$exit_code" ]; then
	echo "$prog: @@EXIT $exit_code; $summary" >&2
	exit "$exit_code"
elif [ "$no_boot" = 1 ]; then
	echo "$prog: no @@BOOT after ${boot_limit} s twice, qemu killed; $summary" >&2
	exit 124
elif [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
	echo "$prog: host timeout ($((limit + 60)) s) expired, qemu killed; $summary" >&2
	exit 124
else
	echo "$prog: qemu exited (status $rc) without @@EXIT; $summary" >&2
	exit 125
fi
