# Shared by the host-side scripts (bash; the guest-side ones are busybox sh
# and have tests/vm/scenarios/lib.sh).  Set prog=NAME, then source this:
#   . "$top/tests/lib/common.sh"
# It defines the messages, the sched_ext kernels the tests boot, the
# build, the static-link check and the machine qemu emulates.

# The Debian suites whose kernels have sched_ext (tests/vm/kernels.sh
# fetches them), the one a single boot uses first.
SCX_BURST_SUITES=(sid trixie-backports)

log() { echo "$prog: $*" >&2; }
# One line on stderr and exit $die_status (default 1).
die() { echo "$prog: error: $*" >&2; exit "${die_status:-1}"; }

# build_tree TOP BUILD [TARGET...]: configure BUILD from TOP (RelWithDebInfo)
# and build TARGETs (default: everything).
build_tree() {
	local top=$1 build=$2
	shift 2
	cmake -S "$top" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo > /dev/null
	if [ $# -gt 0 ]; then
		cmake --build "$build" -j"$(nproc)" --target "$@"
	else
		cmake --build "$build" -j"$(nproc)"
	fi
}

# require_static FILE: FILE must be an executable without a program
# interpreter (the test VM has no shared libraries for it).
require_static() {
	[ -f "$1" ] && [ -x "$1" ] || die "$1: not an executable file"
	if readelf -l "$1" 2>/dev/null | grep 'Requesting program interpreter' > /dev/null; then
		die "$1 is dynamically linked; configure with -DSCX_BURST_STATIC=ON"
	fi
}

# The machine every boot emulates (TCG on one host thread) and the
# deterministic-time flags of --icount boots; run-vm.sh uses them, the
# benchmark report quotes them.
QEMU_MACHINE=(-machine q35 -cpu max -accel tcg,thread=single)
# run-vm.sh --mttcg (qemu 10 of tests/vm/qemu10.sh): one host thread per vCPU
QEMU_MACHINE_MTTCG=(-machine q35 -cpu max -accel tcg,thread=multi)
QEMU_MEM_MB=2048
QEMU_ICOUNT=(-icount shift=2,sleep=off,align=off -seed 1)
QEMU_ICOUNT_APPEND=nokaslr

# install_bench_docs OUT TOP: TOP/docs/benchmarks.md and docs/benchmarks/
# (plots and traced pictures) from the benchmark results in OUT.
install_bench_docs() {
	local out=$1 top=$2
	rm -rf "$top/docs/benchmarks"
	mkdir -p "$top/docs/benchmarks/trace"
	cp "$out"/benchmarks/*.svg "$top/docs/benchmarks/"
	cp "$out"/benchmarks/trace/*.svg "$top/docs/benchmarks/trace/"
	cp "$out/benchmarks.md" "$top/docs/benchmarks.md"
}
