#!/usr/bin/env bash
# The scx_burst benchmark suite (issue 5): every experiment under the
# kernel's default scheduler (EEVDF), then scx_burst --policy burst, then
# --policy deadline, in one qemu boot per kernel.  See docs/benchmarks.md.
#
# usage: tests/bench/run-bench.sh [--quick] [--out DIR] [--daemon PATH]
#                                 [--suites "SUITE..."] [--ia-boots K] [--no-docs]
#        tests/bench/run-bench.sh --reanalyze [--out DIR] [--no-docs]
#        tests/bench/run-bench.sh --check RESULTS.json
#
#   --quick        tiny durations, one kernel (sid), one repeat, one extra
#                  boot (2 vCPUs) for the overhead experiment: about 3
#                  minutes; results are noisy.  Never writes docs/.
#   --out DIR      results directory (default: build/bench): results.json,
#                  benchmarks.md, plots and trace pictures (benchmarks/,
#                  benchmarks/trace/: a preview of docs/), logs/
#   --daemon PATH  the static scx_burst to benchmark (default: build it with
#                  cmake into ${SCX_BURST_BUILD:-build}); also $SCX_BURST_DAEMON
#   --suites LIST  kernels (tests/vm/kernels.sh suites; default
#                  "sid trixie-backports", with --quick "sid")
#   --ia-boots K   boots per kernel of the interactive workloads at 2 vCPUs
#                  (mode=ia; default 3, with --quick 1)
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
# Boots (qemu TCG, one at a time): per kernel one boot at 4 vCPUs with every
# experiment, then boots at 2 and 8 vCPUs for the per-callback overhead, all
# with run-vm.sh --icount (-icount shift=2,sleep=off,align=off -seed 1,
# nokaslr), then K boots ia1..iaK at 2 vCPUs with only the stall floor, the
# latency experiment and the interactive workloads (mode=ia), run with the
# run-vm.sh arguments of ia_vm_args (no icount).  The full run takes about
# 25 minutes on a 2-core machine.
set -euo pipefail

prog=run-bench.sh
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/common.sh"
top=$(cd "$here/../.." && pwd)

quick=0 out='' daemon=${SCX_BURST_DAEMON:-} suites='' docs=1 reanalyze=0 check='' ia_boots=''
while [ $# -gt 0 ]; do
	case "$1" in
	--quick) quick=1; shift ;;
	--no-docs) docs=0; shift ;;
	--reanalyze) reanalyze=1; shift ;;
	--out|--daemon|--suites|--check|--ia-boots)
		[ $# -ge 2 ] && [ -n "$2" ] || die "$1 needs a value"
		case "$1" in
		--out) out=$2 ;; --daemon) daemon=$2 ;; --suites) suites=$2 ;; --check) check=$2 ;;
		--ia-boots) ia_boots=$2 ;;
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
ia_vm_args=()
# the schedulers of every boot, in order (bench.sh's scheds; a name other
# than eevdf, burst and deadline is a peer that /scenarios/peer.sh loads)
bench_scheds=eevdf,burst,deadline
if [ "$quick" = 1 ]; then
	ovh_smps="2"
	guest=(reps=1 lat_s=3 sb_time=1 sb_threads=1,4,16 floor_s=1 ovh_s=2 ovh_reps=1 sw_n=4 cost_s=5 dom_s=1 trace_s=2
	       ia_s=1 ia_reps=1)
	ovh_guest=(ovh_s=2 ovh_reps=1 floor_s=1)
	ia_guest=(reps=1 lat_s=2 ia_s=1 floor_s=1 trace_s=0)
	main_timeout=600 ovh_timeout=180 ia_timeout=300
	: "${ia_boots:=1}"
else
	ovh_smps="2 8"
	guest=(reps=3 lat_s=8 sb_time=1 sb_threads=1-16 sb_reps=2 floor_s=3 ovh_s=3 ovh_reps=3 sw_n=10 cost_s=60 dom_s=2 trace_s=4
	       ia_s=2 ia_reps=1)
	ovh_guest=(ovh_s=3 ovh_reps=3 floor_s=3)
	ia_guest=(reps=1 lat_s=3 ia_s=2 floor_s=2 trace_s=0)
	main_timeout=1800 ovh_timeout=600 ia_timeout=600
	: "${ia_boots:=3}"
fi
guest+=(scheds=$bench_scheds) ia_guest+=(scheds=$bench_scheds)
[[ $ia_boots =~ ^[0-9]+$ ]] || die "--ia-boots: '$ia_boots' is not a count"
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
run_boots() {
	local t0 image=$out/image kernels scen rel vmlinuz suite smp rc b0 b1 log
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

	: > "$out/boots.txt"
	qemu_cmdline=''
	while read -r suite rel vmlinuz; do
		for b in main $(printf 'ovh%s ' $ovh_smps) $ia_names; do
			vm_args=(--icount)
			case $b in
			main) smp=$main_smp words=(scenario=bench mode=main "${guest[@]}") lim=$main_timeout ;;
			ovh*) smp=${b#ovh} words=(scenario=bench mode=ovh "${ovh_guest[@]}") lim=$ovh_timeout ;;
			ia*) smp=$ia_smp words=(scenario=bench mode=ia "${ia_guest[@]}") lim=$ia_timeout
			     vm_args=("${ia_vm_args[@]}") ;;
			esac
			log=$logs/$suite-$b.log
			log "$suite ($rel): boot '$b', $smp vCPUs"
			b0=$(date +%s.%N)
			# the exact qemu command line, read off the running process
			if [ -z "$qemu_cmdline" ]; then
				( for _ in $(seq 60); do
					l=$(ps -eo args= | grep -F -- "$image/initramfs.cpio.zst" | grep '^[^ ]*qemu-system' | head -n1 || true)
					[ -z "$l" ] || { printf '%s\n' "$l" > "$out/qemu-cmdline.txt"; break; }
					sleep 0.5
				  done ) &
			fi
			set +e
			"$top/tests/vm/run-vm.sh" --kernel "$vmlinuz" --initrd "$image/initramfs.cpio.zst" \
				--smp "$smp" --timeout "$lim" "${vm_args[@]}" --log "$log" -- "${words[@]}" < /dev/null |
				awk '/^@@B (phase|start|end|scx_error|fatal|dom_info|skip|peer_error)/ { print "  " $0; fflush() }' >&2
			rc=${PIPESTATUS[0]}
			set -e
			wait
			[ -z "$qemu_cmdline" ] && [ -s "$out/qemu-cmdline.txt" ] && qemu_cmdline=$(cat "$out/qemu-cmdline.txt")
			b1=$(date +%s.%N)
			printf '%s %s %s %s %s %.1f\n' "$suite" "$rel" "$b" "$smp" "$rc" \
				"$(awk -v a="$b0" -v b="$b1" 'BEGIN { print b - a }')" >> "$out/boots.txt"
			[ "$rc" = 0 ] || log "warning: $suite boot '$b' ended with status $rc (see $log)"
		done
	done <<< "$kernels"
	echo "$(( $(date +%s) - t0 ))" > "$out/wall_s.txt"
	date -u '+%Y-%m-%d %H:%M UTC' > "$out/date.txt"
	echo "$quick" > "$out/quick.txt"
	printf '%s\n' "$qemu_settings" > "$out/qemu-settings.txt"
	if [ "$quick" = 1 ]; then echo "tests/bench/run-bench.sh --quick"; else echo tests/bench/run-bench.sh; fi > "$out/command.txt"
}

# ---- results, plots, report ---------------------------------------------
analyze() {
	local plots=$out/benchmarks
	[ -s "$out/boots.txt" ] || die "$out/boots.txt: no boots recorded (run without --reanalyze first)"
	rm -rf "$plots" "$out/plot-data"
	mkdir -p "$plots"
	python3 "$here/analyze.py" analyze "$out" --host-cpus "$(nproc)" \
		--qemu-version "$(qemu-system-x86_64 --version | head -n1)" \
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
