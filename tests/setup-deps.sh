#!/usr/bin/env bash
# Install every Debian package needed to build scx_burst, run its tests and
# boot the sched_ext test VM.  Idempotent: re-running it only checks.
#
# libbpf and bpftool come from bookworm-backports (1.1.2/7.1 in bookworm do
# not handle SEC(".struct_ops.link")).  The backports suite is added by
# copying the URIs of the machine's own debian.sources, so no archive host is
# named here.  Backports has priority 100: only what we ask for with
# -t bookworm-backports comes from it.
set -euo pipefail

if [ "$(id -u)" -ne 0 ]; then
	echo "setup-deps: must run as root (apt-get install)" >&2
	exit 1
fi

src=/etc/apt/sources.list.d/debian.sources
bp=/etc/apt/sources.list.d/scx-burst-backports.sources
stamp=/var/lib/scx-burst/deps.stamp
want_stamp=7

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want_stamp" ]; then
	exit 0
fi

need_update=0
if ! grep -qs bookworm-backports /etc/apt/sources.list /etc/apt/sources.list.d/* 2>/dev/null; then
	uris=$(awk '/^URIs:/ && /debian\/?$/ && !/security/ {print; exit}' "$src")
	if [ -z "$uris" ]; then
		echo "setup-deps: no Debian URIs line found in $src" >&2
		exit 1
	fi
	cat > "$bp" <<EOS
Types: deb
$uris
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOS
	need_update=1
fi

export DEBIAN_FRONTEND=noninteractive
lists_age=$(( $(date +%s) - $(stat -c %Y /var/lib/apt/lists 2>/dev/null || echo 0) ))
if [ "$need_update" = 1 ] || ! apt-cache policy libbpf-dev | grep -q bpo || [ "$lists_age" -gt 86400 ]; then
	apt-get update -qq
fi

# build (libclang-rt-19-dev: libFuzzer and the sanitizer runtimes for the
# fuzz targets, tests/fuzz)
apt-get install -y -qq --no-install-recommends \
	cmake make g++ pkg-config clang-19 llvm-19 lld-19 binutils \
	libclang-rt-19-dev \
	libelf-dev zlib1g-dev libzstd-dev \
	libcli11-dev libspdlog-dev libfmt-dev nlohmann-json3-dev \
	libgtest-dev googletest
apt-get install -y -qq --no-install-recommends -t bookworm-backports \
	libbpf-dev libbpf1 bpftool
# VM and workloads inside it
apt-get install -y -qq --no-install-recommends \
	qemu-system-x86 busybox-static cpio zstd xz-utils kmod \
	stress-ng rt-tests sysbench util-linux procps gnuplot-nox

mkdir -p "$(dirname "$stamp")"
echo "$want_stamp" > "$stamp"
