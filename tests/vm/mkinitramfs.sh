#!/usr/bin/env bash
# Build the busybox initramfs that the sched_ext test VM boots.
#
# usage: tests/vm/mkinitramfs.sh OUT.cpio.zst DAEMON_BINARY [EXTRA_DIR]
#
# Contents: static busybox with its applet links, DAEMON_BINARY as
# /bin/scx_burst, the workload tools stress-ng, cyclictest, sysbench,
# taskset, chrt, nice and timeout (host binaries, with every library ldd
# names and the dynamic loader), the commands named in $MKINITRAMFS_BINS
# (space-separated, optional), and EXTRA_DIR's contents under /scenarios/.
#
# /init mounts proc, sysfs, devtmpfs, tmpfs (/tmp, /run, /dev/shm), devpts,
# debugfs, bpffs and cgroup2 where available, prints
#   @@BOOT kernel=<uname -r> ncpu=<nproc> sched_ext=<state|absent>
# then runs `sh /scenarios/$scenario.sh` (scenario=NAME on the kernel command
# line; other key=value words reach it as environment variables), kills it
# after timeout=SECONDS (default 300) and prints
#   @@EXIT <status>      (124 on timeout, 127 if the scenario is missing)
# and powers off.  Without scenario= it prints @@EXIT 0 at once.
#
# Environment: MKINITRAMFS_ZSTD_LEVEL (default 12: -19 saves
# 1.5 MB but takes 10 s more), SOURCE_DATE_EPOCH
# (default 0: timestamps in the archive).  Must run as root (/dev/console).
set -euo pipefail

prog=mkinitramfs.sh
. "$(dirname "$0")/../lib/common.sh"

[ $# -ge 2 ] && [ $# -le 3 ] || die "usage: $0 OUT.cpio.zst DAEMON_BINARY [EXTRA_DIR]"
out=$1 daemon=$2 extra=${3:-}
level=${MKINITRAMFS_ZSTD_LEVEL:-12}
epoch=${SOURCE_DATE_EPOCH:-0}

[ "$(id -u)" -eq 0 ] || die "must run as root (creates /dev/console in the image)"
[ -f "$daemon" ] && [ -x "$daemon" ] || die "$daemon: not an executable file"
[ -z "$extra" ] || [ -d "$extra" ] || die "$extra: not a directory"
for t in cpio zstd ldd; do
	command -v "$t" >/dev/null || die "'$t' not found (tests/setup-deps.sh installs it)"
done
busybox=/bin/busybox
[ -x "$busybox" ] || die "$busybox not found (apt-get install busybox-static)"
if ldd "$busybox" >/dev/null 2>&1; then die "$busybox is not static (apt-get install busybox-static)"; fi

read -r -a extra_bins <<< "${MKINITRAMFS_BINS:-}"
tools=(stress-ng cyclictest sysbench taskset chrt nice timeout "${extra_bins[@]}")

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root
mkdir -p "$root"/{bin,lib,lib64,etc,proc,sys,dev,tmp,run,root,scenarios,usr} "$root"/var/tmp
ln -s bin "$root/sbin"
ln -s ../bin "$root/usr/bin"
ln -s ../bin "$root/usr/sbin"
ln -s ../lib "$root/usr/lib"
ln -s ../lib64 "$root/usr/lib64"
chmod 1777 "$root/tmp" "$root/var/tmp"
mknod -m 600 "$root/dev/console" c 5 1
mknod -m 666 "$root/dev/null" c 1 3

cp "$busybox" "$root/bin/busybox"
for a in $("$busybox" --list); do
	[ "$a" = busybox ] || ln -sf busybox "$root/bin/$a"
done

# Copy a file to the same path in the image (symlinks resolved), mapping
# /usr/X onto X (the image has /usr/* -> /*).
put() {
	local src=$1 dst=${2:-$1}
	dst=${dst#/usr}
	mkdir -p "$root$(dirname "$dst")"
	rm -f "$root$dst"
	cp -L "$src" "$root$dst"
}

# A binary and every library ldd names for it.
put_bin() {
	local src=$1 dst=$2 lib
	put "$src" "$dst"
	if ldd "$src" >/dev/null 2>&1; then
		while read -r lib; do
			[ -e "$lib" ] || die "$src: library $lib not found"
			put "$lib"
		done < <(ldd "$src" | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// {print $1}' | sort -u)
	fi
}

for t in "${tools[@]}"; do
	p=$(command -v "$t") || die "'$t' not found on the host (tests/setup-deps.sh installs it)"
	put_bin "$p" "/bin/$t"
done
put_bin "$daemon" /bin/scx_burst
chmod 755 "$root/bin/scx_burst"

[ -z "$extra" ] || cp -rL "$extra/." "$root/scenarios/"

printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n' > "$root/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' > "$root/etc/group"
echo vm > "$root/etc/hostname"

cat > "$root/init" <<'EOF'
#!/bin/sh
# /init of the scx_burst test VM (written by tests/vm/mkinitramfs.sh).
export PATH=/bin
export HOME=/root
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts 2>/dev/null
mount -t tmpfs -o mode=1777 tmpfs /dev/shm
mount -t tmpfs -o mode=1777 tmpfs /tmp
mount -t tmpfs -o mode=755 tmpfs /run
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mount -t bpf bpf /sys/fs/bpf 2>/dev/null
mount -t cgroup2 cgroup2 /sys/fs/cgroup 2>/dev/null
ifconfig lo 127.0.0.1 up 2>/dev/null
hostname vm

off() {
	sync
	poweroff -f
	echo o > /proc/sysrq-trigger
	exit 1   # init exits: kernel panics; panic=-1 + qemu -no-reboot stops the VM
}

state=absent
[ -r /sys/kernel/sched_ext/state ] && state=$(cat /sys/kernel/sched_ext/state)
echo "@@BOOT kernel=$(uname -r) ncpu=$(nproc) sched_ext=$state"

if [ -z "${scenario:-}" ]; then
	echo "@@EXIT 0"
	off
fi

limit=${timeout:-300}
case "$limit" in ''|*[!0-9]*) echo "init: bad timeout=$limit, using 300"; limit=300 ;; esac
script=/scenarios/$scenario.sh
if [ ! -f "$script" ]; then
	echo "init: no scenario $script"
	echo "@@EXIT 127"
	off
fi

rm -f /run/timed-out
cd /tmp
setsid sh "$script" </dev/null &
pid=$!
(
	sleep "$limit"
	echo "init: scenario $scenario exceeded timeout=$limit s, killing it"
	: > /run/timed-out
	kill -TERM -"$pid" "$pid" 2>/dev/null
	sleep 5
	kill -KILL -"$pid" "$pid" 2>/dev/null
) &
wd=$!
wait "$pid"
rc=$?
kill "$wd" 2>/dev/null
[ -e /run/timed-out ] && rc=124
echo "@@EXIT $rc"
off
EOF
chmod 755 "$root/init"

# Reproducible archive: fixed timestamps, sorted names, root ownership.
find "$root" -exec touch -h -d "@$epoch" {} +
mkdir -p "$(dirname "$out")"
(cd "$root" && find . -mindepth 1 -printf '%P\n' | LC_ALL=C sort |
	cpio --quiet -o -H newc -R 0:0 --reproducible) |
	zstd -q -T0 "-$level" -o "$out.tmp.$$" -f || { rm -f "$out.tmp.$$"; die "cannot write $out"; }
mv "$out.tmp.$$" "$out"
echo "$prog: wrote $out ($(du -k "$out" | cut -f1) KiB)" >&2
