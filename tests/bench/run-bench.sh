#!/usr/bin/env bash
# The scx_burst benchmark suite (issue 5): every experiment under the
# kernel's default scheduler (EEVDF), then scx_burst --policy burst, then
# --policy deadline, in one qemu boot per kernel.  See docs/benchmarks.md.
#
# usage: tests/bench/run-bench.sh [--quick] [--out DIR] [--daemon PATH]
#                                 [--suites "SUITE..."] [--ia-boots K] [--jobs N]
#                                 [--no-docs]
#        tests/bench/run-bench.sh --reanalyze [--out DIR] [--no-docs]
#        tests/bench/run-bench.sh --check RESULTS.json
#
#   --quick        tiny durations, one kernel (sid), one repeat, one extra
#                  boot (2 vCPUs) for the overhead experiment and one ia
#                  boot: about 5 minutes (6 with --jobs 1); results are
#                  noisy.  Never writes docs/.
#   --out DIR      results directory (default: build/bench): results.json,
#                  benchmarks.md, plots and trace pictures (benchmarks/,
#                  benchmarks/trace/: a preview of docs/), logs/
#   --daemon PATH  the static scx_burst to benchmark (default: build it with
#                  cmake into ${SCX_BURST_BUILD:-build}); also $SCX_BURST_DAEMON
#   --suites LIST  kernels (tests/vm/kernels.sh suites; default
#                  "sid trixie-backports", with --quick "sid")
#   --ia-boots K   boots per kernel of the interactive workloads at 2 vCPUs
#                  (mode=ia; default 3, with --quick 1)
#   --jobs N       --icount boots run at once (default: the host's CPUs;
#                  ctest's bench_smoke, which shares the host with other
#                  VM tests, uses 1); the ia boots always run alone
#   --no-docs      do not regenerate docs/benchmarks.md and docs/benchmarks/
#   --reanalyze    redo results, report and plots from DIR/logs (no boots)
#   --check FILE   exit 0 if FILE has every boot complete and every
#                  experiment section with numbers for every scheduler, else
#                  print what is missing, exit 1
#
# tests/bench/analyze.py computes results, report and check from the logs
# (docs/benchmarks.md); this script runs the boots and draws the plots.
#
# Before the image is built, tests/bench/peers.sh builds the kernel's own
# sched_ext example schedulers (scx_simple, scx_qmap, scx_central,
# scx_flatcg) for every kernel from Debian's linux-source of its version
# (cached; about 100 s per kernel the first time); they go to
# /scenarios/peers/<release>/ in the image (tests/bench/peer.sh runs them)
# and are listed in DIR/peers.txt.  Without them the bench goes on.
#
# Boots (qemu TCG): per kernel one boot at 4 vCPUs with every experiment,
# and boots at 2 and 8 vCPUs for the per-callback overhead, all with
# run-vm.sh --icount (-icount shift=2,sleep=off,align=off -seed 1,
# nokaslr): guest time counts instructions, so these boots measure the same
# whatever else the host runs, and --jobs of them run at once (each is one
# host thread), the main boots first.  Then, one at a time with nothing
# else running, per kernel K boots ia1..iaK at 2 vCPUs with only the stall
# floor, the latency experiment and the interactive workloads (mode=ia;
# ia1 also traces one more run of the saturated workload under EEVDF and
# both policies, ia_trace_s), run with the run-vm.sh arguments of
# ia_vm_args: --mttcg, qemu 10's
# multi-threaded TCG (tests/vm/qemu10.sh fetches it), the faithful mode of
# tests/bench/faithful-mode.md, where guest time is host time.  The main
# boot runs EEVDF and both scx_burst policies (bench_scheds); the ia boots
# add the peers (ia_scheds).  boots.txt lists the boots in the order above
# per kernel, whatever order they ended in.
set -euo pipefail

prog=run-bench.sh
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/common.sh"
top=$(cd "$here/../.." && pwd)

quick=0 out='' daemon=${SCX_BURST_DAEMON:-} suites='' docs=1 reanalyze=0 check='' ia_boots='' jobs=''
while [ $# -gt 0 ]; do
	case "$1" in
	--quick) quick=1; shift ;;
	--no-docs) docs=0; shift ;;
	--reanalyze) reanalyze=1; shift ;;
	--out|--daemon|--suites|--check|--ia-boots|--jobs)
		[ $# -ge 2 ] && [ -n "$2" ] || die "$1 needs a value"
		case "$1" in
		--out) out=$2 ;; --daemon) daemon=$2 ;; --suites) suites=$2 ;; --check) check=$2 ;;
		--ia-boots) ia_boots=$2 ;; --jobs) jobs=$2 ;;
		esac
		shift 2 ;;
	-h|--help) usage; exit 0 ;;
	*) die "unknown argument '$1' (see $0 --help)" ;;
	esac
done

# ---- --check: every boot complete, every section, numbers for every scheduler
check_results() {
	python3 "$here/analyze.py" check "$1"
}
if [ -n "$check" ]; then
	check_results "$check" && echo "$prog: check: $check: every section present"
	exit
fi

[ -n "$out" ] || out=$top/build/bench
[ "$quick" = 0 ] || docs=0
if [ -z "$suites" ]; then
	[ "$quick" = 1 ] && suites=${SCX_BURST_SUITES[0]} || suites="${SCX_BURST_SUITES[*]}"
fi
for s in $suites; do
	[[ $s =~ ^[a-z][a-z0-9.-]*$ ]] || die "bad suite name '$s'"
done
for t in awk gnuplot python3; do
	command -v "$t" >/dev/null || die "'$t' not found (tests/setup-deps.sh installs it)"
done

# ---- settings ---------------------------------------------------------------
main_smp=4 ia_smp=2
# the run-vm.sh arguments of the interactive-workload boots (ia1..iaK):
# the emulator mode of the latency experiments (no icount: guest time is
# host time)
ia_vm_args=(--mttcg)
# the schedulers of the main boot and of the ia boots, in order (bench.sh's
# scheds; a name other than eevdf, burst and deadline is a peer that
# /scenarios/peer.sh loads).  The peers run only in the ia boots, the
# faithful mode where the interactive targets are judged: scx_simple and
# scx_qmap as issue 13 asks, and scx_central.  scx_flatcg is built but not
# run: on 7.3.4 it left a task on its fallback queue until the watchdog
# ejected it (45 s) in 1 of 11 runs (docs/testing.md).
bench_scheds=eevdf,burst,deadline
ia_scheds=eevdf,burst,deadline,simple,qmap,central
if [ "$quick" = 1 ]; then
	ovh_smps="2"
	guest=(reps=1 lat_s=3 sb_time=1 sb_threads=1,4,16 floor_s=1 ovh_s=2 ovh_reps=1 sw_n=4 cost_s=5 dom_s=1 trace_s=2
	       ia_s=1 ia_reps=1)
	ovh_guest=(ovh_s=2 ovh_reps=1 floor_s=1)
	ia_guest=(reps=1 lat_s=2 ia_s=1 floor_s=1 trace_s=0)
	ia_trace_s=1
	main_timeout=600 ovh_timeout=180 ia_timeout=300
	: "${ia_boots:=1}"
else
	ovh_smps="2 8"
	# sysbench at 1-6 threads (up to and past the main boot's 4 vCPUs,
	# where the curve bends) and every second count to 16, where it is
	# flat; the ia boots' latency windows are 2 s (4000 samples at 2
	# vCPUs per scheduler and boot): with the --icount boots two at a
	# time, this keeps the whole run under issue 13's 25 minutes
	guest=(reps=3 lat_s=8 sb_time=1 sb_threads=1,2,3,4,5,6,8,10,12,14,16 sb_reps=2 floor_s=3 ovh_s=3 ovh_reps=3 sw_n=10 cost_s=30 dom_s=2 trace_s=4
	       ia_s=2 ia_reps=1)
	ovh_guest=(ovh_s=3 ovh_reps=3 floor_s=3)
	ia_guest=(reps=1 lat_s=2 ia_s=2 floor_s=2 trace_s=0)
	# the first ia boot also traces the saturated workload under EEVDF and
	# both policies (bench.sh's ia_trace): where the tasks ran
	ia_trace_s=2
	main_timeout=1800 ovh_timeout=600 ia_timeout=600
	: "${ia_boots:=3}"
fi
guest+=(scheds=$bench_scheds) ia_guest+=(scheds=$ia_scheds)
[[ $ia_boots =~ ^[0-9]+$ ]] || die "--ia-boots: '$ia_boots' is not a count"
# one host thread per --icount boot: as many at once as the host has CPUs
: "${jobs:=$(nproc)}"
[[ $jobs =~ ^[1-9][0-9]*$ ]] || die "--jobs: '$jobs' is not a count of at least 1"
ia_names=$(seq -f 'ia%g' 1 "$ia_boots" | tr '\n' ' ')
qemu_settings="qemu-system-x86_64 ${QEMU_MACHINE[*]} -m $QEMU_MEM_MB ${QEMU_ICOUNT[*]}; kernel command line $QEMU_ICOUNT_APPEND; -smp $main_smp (overhead boots: ${ovh_smps// /, }); interactive-workload boots ${ia_names% }: -smp $ia_smp, run-vm.sh ${ia_vm_args[*]:-without --icount}"

logs=$out/logs
mkdir -p "$out" "$logs" || die "cannot create $out"

# ---- the peers ----------------------------------------------------------
# add_peers DIR < KERNELS: for each "suite release vmlinuz" line, the
# kernel's own sched_ext schedulers (tests/bench/peers.sh) into
# DIR/<release>/ (the image serves every kernel), and one line per kernel in
# $out/peers.txt: "<suite> <release> <source package> <version> <peers...>",
# or "<suite> <release> none".  Peers that cannot be built leave the bench
# without them.
add_peers() {
	local dir=$1 suite rel vmlinuz ksuite pd names f
	: > "$out/peers.txt"
	while read -r suite rel vmlinuz; do
		# a suite that fell back to another suite's kernel: that suite's cache
		ksuite=$(basename "$(dirname "$(dirname "$vmlinuz")")")
		if [ -d "$dir/$rel" ]; then
			{ grep "^[^ ]* $rel " "$out/peers.txt" || true; } | head -n1 |
				sed "s/^[^ ]*/$suite/" >> "$out/peers.txt"
			continue
		fi
		if ! pd=$("$here/peers.sh" "$ksuite" "$rel" 2> >(sed 's/^/  /' >&2)); then
			log "warning: no peer schedulers for $suite ($rel): the bench runs without them"
			echo "$suite $rel none" >> "$out/peers.txt"
			continue
		fi
		mkdir -p "$dir/$rel"
		names=''
		for f in "$pd"/scx_*; do
			cp "$f" "$dir/$rel/"
			names+=" ${f##*/}"
		done
		cp "$pd/config" "$dir/$rel/"
		echo "$suite $rel $(head -n1 "$pd/package")$names" >> "$out/peers.txt"
		log "peers for $suite ($rel):$names"
	done
}

# ---- the boots ----------------------------------------------------------
# boot_one SUITE REL VMLINUZ BOOT FIRST: one boot, its console to
# logs/SUITE-BOOT.log, its line of boots.txt ("suite release boot vcpus
# status wall_s") to boots.d/SUITE-BOOT; FIRST=1 also records the exact
# qemu command line, read off the running process, in qemu-cmdline.txt.
# boot_smp BOOT: its vCPUs
boot_smp() {
	case $1 in
	main) echo "$main_smp" ;;
	ovh*) echo "${1#ovh}" ;;
	ia*) echo "$ia_smp" ;;
	esac
}
boot_one() {
	local suite=$1 rel=$2 vmlinuz=$3 b=$4 first=$5 smp lim log rc b0 b1 l attempt
	local -a vm_args=(--icount) words
	smp=$(boot_smp "$b")
	case $b in
	main) words=(scenario=bench mode=main "${guest[@]}") lim=$main_timeout ;;
	ovh*) words=(scenario=bench mode=ovh "${ovh_guest[@]}") lim=$ovh_timeout ;;
	ia*) words=(scenario=bench mode=ia "${ia_guest[@]}") lim=$ia_timeout
	     vm_args=("${ia_vm_args[@]}")
	     [ "$b" != ia1 ] || words+=(ia_trace_s=$ia_trace_s) ;;
	esac
	log=$logs/$suite-$b.log
	log "$suite ($rel): boot '$b', $smp vCPUs"
	b0=$(date +%s.%N)
	if [ "$first" = 1 ]; then
		( for _ in $(seq 60); do
			l=$(ps -eo args= | grep -F -- "$out/image/initramfs.cpio.zst" | grep -F -- "$vmlinuz" |
				grep -F -- "${words[1]}" | grep '^[^ ]*qemu-system' | head -n1 || true)
			[ -z "$l" ] || { printf '%s\n' "$l" > "$out/qemu-cmdline.txt"; break; }
			sleep 0.5
		  done ) &
	fi
	# Once more if the guest panicked while the kernel patched its own
	# text (enabling a scheduler flips static keys): under qemu's
	# multi-threaded TCG another vCPU can run the half-patched bytes
	# (faithful-mode.md).  That is the emulator's fault, not the
	# scheduler's; the failed log is kept beside the new one.
	for attempt in 1 2; do
		set +e
		"$top/tests/vm/run-vm.sh" --kernel "$vmlinuz" --initrd "$out/image/initramfs.cpio.zst" \
			--smp "$smp" --timeout "$lim" "${vm_args[@]}" --log "$log" -- "${words[@]}" < /dev/null |
			awk -v b="$suite/$b" '/^@@B (phase|start|end|scx_error|fatal|dom_info|skip|peer_error)/ { print "  " b ": " $0; fflush() }' >&2
		rc=${PIPESTATUS[0]}
		set -e
		[ "$rc" != 0 ] && [ "$attempt" = 1 ] && grep -q 'Kernel panic' "$log" &&
			grep -q 'smp_text_poke\|text_poke_bp' "$log" || break
		mv "$log" "$log.text-poke-panic"
		log "warning: $suite boot '$b' panicked in the kernel's text patching (the emulator); booting it again"
	done
	wait
	b1=$(date +%s.%N)
	printf '%s %s %s %s %s %.1f\n' "$suite" "$rel" "$b" "$smp" "$rc" \
		"$(awk -v a="$b0" -v b="$b1" 'BEGIN { print b - a }')" > "$out/boots.d/$suite-$b"
	[ "$rc" = 0 ] || log "warning: $suite boot '$b' ended with status $rc (see $log)"
}

run_boots() {
	local t0 image=$out/image kernels scen rel vmlinuz suite b
	t0=$(date +%s)
	for t in qemu-system-x86_64 gcc bpftool cpio zstd; do
		command -v "$t" >/dev/null || die "'$t' not found (tests/setup-deps.sh installs it)"
	done
	[ "$(id -u)" -eq 0 ] || die "must run as root (tests/vm/mkinitramfs.sh)"

	if [ -z "$daemon" ]; then
		local build=${SCX_BURST_BUILD:-$top/build}
		log "building scx_burst in $build"
		build_tree "$top" "$build" scx_burst > /dev/null
		daemon=$build/scx_burst
	fi
	require_static "$daemon"

	rm -rf "$image" "$logs"
	mkdir -p "$image/scenarios" "$logs"
	scen=$image/scenarios
	cp "$top/tests/vm/scenarios/lib.sh" "$here/bench.sh" "$here/peer.sh" "$scen/"

	# shellcheck disable=SC2086
	kernels=$("$top/tests/vm/kernels.sh" $suites) || die "tests/vm/kernels.sh failed"
	add_peers "$scen/peers" <<< "$kernels"
	gcc -O2 -Wall -Wextra -static -pthread -o "$scen/benchprobe" "$here/benchprobe.c" ||
		die "cannot build benchprobe (static glibc: libc6-dev)"
	log "building the initramfs"
	MKINITRAMFS_BINS=bpftool MKINITRAMFS_ZSTD_LEVEL=3 \
		"$top/tests/vm/mkinitramfs.sh" "$image/initramfs.cpio.zst" "$daemon" "$scen" 2>&1 |
		sed 's/^/  /' >&2
	[ -f "$image/initramfs.cpio.zst" ] || die "no initramfs"

	# every boot, in the order boots.txt lists them: "suite rel vmlinuz boot"
	local -a plan=() mains=() ovhs=() faithful=()
	while read -r suite rel vmlinuz; do
		for b in main $(printf 'ovh%s ' $ovh_smps) $ia_names; do
			plan+=("$suite $rel $vmlinuz $b")
			case $b in
			main) mains+=("$suite $rel $vmlinuz $b") ;;
			ovh*) ovhs+=("$suite $rel $vmlinuz $b") ;;
			ia*) faithful+=("$suite $rel $vmlinuz $b") ;;
			esac
		done
	done <<< "$kernels"
	rm -rf "$out/boots.d"
	mkdir -p "$out/boots.d"
	rm -f "$out/qemu-cmdline.txt"
	# The --icount boots, up to $jobs at once: guest time counts
	# instructions, so what a boot measures does not depend on what else
	# the host runs, only its wall time does.  The longest first (the
	# main boots), so the lanes end together.
	local spec n=0
	for spec in "${mains[@]}" "${ovhs[@]}"; do
		while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
			wait -n || true
		done
		boot_one $spec $((n == 0)) &
		n=$((n + 1))
	done
	wait
	# The ia boots, one at a time with nothing else running: the faithful
	# mode's guest time is host time, and its vCPUs need the host's CPUs.
	for spec in "${faithful[@]}"; do
		boot_one $spec $((n == 0))
		n=$((n + 1))
	done
	: > "$out/boots.txt"
	for spec in "${plan[@]}"; do
		read -r suite rel vmlinuz b <<< "$spec"
		if [ -s "$out/boots.d/$suite-$b" ]; then
			cat "$out/boots.d/$suite-$b"
		else	# its lane died before it wrote its line: a failed boot
			echo "$suite $rel $b $(boot_smp "$b") 1 0"
		fi
	done >> "$out/boots.txt"
	rm -rf "$out/boots.d"
	echo "$(( $(date +%s) - t0 ))" > "$out/wall_s.txt"
	date -u '+%Y-%m-%d %H:%M UTC' > "$out/date.txt"
	echo "$quick" > "$out/quick.txt"
	printf '%s\n' "$qemu_settings" > "$out/qemu-settings.txt"
	if [ "$quick" = 1 ]; then echo "tests/bench/run-bench.sh --quick"; else echo tests/bench/run-bench.sh; fi > "$out/command.txt"
}

# ---- results, plots, report ---------------------------------------------
# the host's qemu (icount boots) and, when the ia boots used --mttcg, the
# qemu 10 of tests/vm/qemu10.sh
qemu_versions() {
	local v
	v=$(qemu-system-x86_64 --version | head -n1)
	if [[ " ${ia_vm_args[*]} " == *" --mttcg "* ]] && [ -n "$ia_names" ]; then
		v+="; ia boots (--mttcg): qemu $("$top/tests/vm/qemu10.sh" 2>/dev/null | cut -d' ' -f1 || echo unknown)"
	fi
	printf '%s\n' "$v"
}
analyze() {
	local plots=$out/benchmarks
	[ -s "$out/boots.txt" ] || die "$out/boots.txt: no boots recorded (run without --reanalyze first)"
	rm -rf "$plots" "$out/plot-data"
	mkdir -p "$plots"
	python3 "$here/analyze.py" analyze "$out" --host-cpus "$(nproc)" \
		--qemu-version "$(qemu_versions)" \
		--plot-data "$plots" --pictures "$plots/trace" --output "$out/results.json.tmp" ||
		die "analysis failed"
	mv "$out/results.json.tmp" "$out/results.json"
	plot "$plots"
	python3 "$here/analyze.py" report "$out/results.json" --plot-dir benchmarks > "$out/benchmarks.md" ||
		die "report failed"
	log "wrote $out/results.json and $out/benchmarks.md"
}

# gnuplot's SVG output; BENCH_PLOT_FORMAT=png gives PNG files instead
# (docs/benchmarks.md links the .svg names)
plot() {
	local dir=$1 f s sc files term='svg size 720,440 dynamic font "sans,11"' ext=svg
	if [ "${BENCH_PLOT_FORMAT:-svg}" = png ]; then
		term='pngcairo size 720,440 font "sans,10"' ext=png
	fi
	for f in "$dir"/tp-*.dat; do
		[ -f "$f" ] || continue
		s=$(basename "$f" .dat); s=${s#tp-}
		gnuplot <<EOF
set terminal $term
set output "$dir/throughput-$s.$ext"
set title "sysbench cpu events/s vs threads ($s kernel, median and min-max of repeats)"
set xlabel "threads"
set ylabel "events per second"
set xrange [0.5:16.5]
set xtics 1
set key top right
set grid
set datafile missing "?"
plot "$f" using 1:2:3:4 with yerrorlines lw 2 title "EEVDF", \
     "" using 1:5:6:7 with yerrorlines lw 2 title "scx\\\\_burst burst", \
     "" using 1:8:9:10 with yerrorlines lw 2 title "scx\\\\_burst deadline"
EOF
	done
	for s in $(ls "$dir" | sed -n 's/^lat-\(.*\)-eevdf\.dat$/\1/p'); do
		files=''
		for sc in eevdf burst deadline; do
			[ -s "$dir/lat-$s-$sc.dat" ] || continue
			case $sc in
			eevdf) t=EEVDF ;; burst) t="scx\\\\_burst burst" ;; deadline) t="scx\\\\_burst deadline" ;;
			esac
			files+="${files:+, }\"$dir/lat-$s-$sc.dat\" using 1:2 with steps lw 2 title \"$t\""
		done
		[ -s "$dir/lat-$s-floor.dat" ] &&
			files+=", \"$dir/lat-$s-floor.dat\" using 1:2 with steps lw 1 dt 2 lc rgb \"gray40\" title \"emulator stall gaps (pinned spinners, no load)\""
		gnuplot <<EOF
set terminal $term
set output "$dir/latency-$s.$ext"
set title "cyclictest wakeup latency under 12 x nCPU hogs ($s kernel, all repeats pooled)"
set xlabel "latency (us)"
set ylabel "share of wakeups at or above"
set logscale xy
set format x "10^{%T}"
set format y "10^{%T}"
set yrange [1e-4:1.2]
set key left bottom Left reverse
set grid
plot $files
EOF
	done
	mkdir -p "$out/plot-data"
	mv "$dir"/*.dat "$out/plot-data/" 2>/dev/null || true
}

# ---- main ---------------------------------------------------------------
if [ "$reanalyze" = 1 ]; then
	[ -d "$logs" ] || die "$logs: no logs to reanalyze"
	# results of a quick run never go to docs/
	[ "$(cat "$out/quick.txt" 2>/dev/null || echo 1)" = 0 ] || docs=0
else
	run_boots
fi
analyze
rc=0
check_results "$out/results.json" || rc=1
if [ "$docs" = 1 ]; then
	if [ "$rc" = 0 ]; then
		install_bench_docs "$out" "$top"
		log "regenerated docs/benchmarks.md and docs/benchmarks/"
	else
		log "results incomplete: docs/benchmarks.md left as it was"
	fi
fi
while read -r suite rel b smp brc wall; do
	[ "$brc" = 0 ] || { log "boot $suite/$b failed (status $brc)"; rc=1; }
done < "$out/boots.txt"
log "total wall time $(cat "$out/wall_s.txt") s"
exit "$rc"
