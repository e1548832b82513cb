#!/usr/bin/env bash
# Install every Debian package needed to build scx_burst, run its tests and
# boot the sched_ext test VM, on Debian 12 (bookworm), 13 (trixie) or
# testing/unstable.  Idempotent: re-running it only checks.
#
#   tests/setup-deps.sh                        as root: install
#   tests/setup-deps.sh --print-plan [--os-release FILE]
#                                              print what it would do, as
#                                              one line a step; needs no root
#                                              and calls no apt
#
# The plan follows VERSION_CODENAME of /etc/os-release:
# - bookworm: libbpf and bpftool come from bookworm-backports (1.1.2/7.1 in
#   bookworm do not handle SEC(".struct_ops.link")), clang from the
#   versioned clang-19 (plain clang is 14, too old: see CMakeLists.txt),
#   with its libFuzzer and sanitizer runtimes (libclang-rt-19-dev).
#   The backports suite is added by copying the URIs of the machine's own
#   debian.sources, so no archive host is named here.  Backports has
#   priority 100: only what we ask for with -t bookworm-backports comes
#   from it.  tests/vm/qemu10.sh also fetches qemu 10 from it (for
#   run-vm.sh --mttcg; downloaded and unpacked, not installed: its
#   libraries are those of the qemu 7.2 installed here).
# - trixie and later, testing and unstable (whose os-release names the
#   testing codename): everything from the release itself, with its
#   default clang (the clang, llvm, lld and libclang-rt-dev packages), and
#   its qemu is 10 or later (run-vm.sh --mttcg uses it).  No suite is added,
#   and a bookworm-backports entry this script added before an upgrade is
#   removed.
# - anything else (Debian 11 and older, other distributions): refused.
set -euo pipefail

prog=setup-deps
. "$(dirname "$0")/lib/common.sh"

os_release=/etc/os-release
print_plan=0
while [ $# -gt 0 ]; do
	case "$1" in
	--print-plan) print_plan=1 ;;
	--os-release)
		[ $# -ge 2 ] || die "--os-release needs a FILE"
		os_release=$2
		shift ;;
	-h|--help)
		sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
		exit 0 ;;
	*) die "unknown argument '$1' (usage: $0 [--print-plan [--os-release FILE]])" ;;
	esac
	shift
done

# KEY of an os-release file, quotes removed; empty if absent.
os_field() {
	sed -n "s/^$1=//p" "$os_release" | head -n1 | sed 's/^["'\'']//; s/["'\'']$//'
}

# The plan of this machine, one step a line:
#   codename NAME
#   add-suite SUITE                 an apt suite to add (bookworm only)
#   install PKG...                  from the release's own suites
#   install-from SUITE PKG...       apt-get install -t SUITE
plan() {
	local id like codename
	[ -r "$os_release" ] || die "cannot read $os_release"
	id=$(os_field ID)
	like=$(os_field ID_LIKE)
	codename=$(os_field VERSION_CODENAME)
	if [ "$id" != debian ]; then
		die "only Debian 12, 13 and testing/unstable are supported; $os_release says ID=${id:-?}${like:+ (like $like)}"
	fi
	case "$codename" in
	'') die "no VERSION_CODENAME in $os_release" ;;
	hamm|slink|potato|woody|sarge|etch|lenny|squeeze|wheezy|jessie|stretch|buster|bullseye)
		die "Debian $codename is too old: scx_burst needs Debian 12 (bookworm) or later" ;;
	esac

	local build=(cmake make g++ pkg-config binutils
		libelf-dev zlib1g-dev libzstd-dev
		libcli11-dev libspdlog-dev libfmt-dev nlohmann-json3-dev
		libgtest-dev googletest python3)
	local bpf=(libbpf-dev libbpf1 bpftool)
	# The install test: the package (cpack -G DEB, dpkg-shlibdeps), the
	# unit (systemd-analyze verify), the man page (man -l).
	local pkg=(dpkg-dev file systemd man-db groff-base gzip)
	# xmllint: the trace pictures (SVG) are checked as XML.
	pkg+=(libxml2-utils)
	local vm=(qemu-system-x86 busybox-static cpio zstd xz-utils kmod
		stress-ng rt-tests sysbench util-linux procps gnuplot-nox)

	echo "codename $codename"
	if [ "$codename" = bookworm ]; then
		echo "add-suite bookworm-backports"
		echo "install ${build[*]} clang-19 llvm-19 lld-19 libclang-rt-19-dev"
		echo "install-from bookworm-backports ${bpf[*]}"
	else
		echo "install ${build[*]} clang llvm lld libclang-rt-dev ${bpf[*]}"
	fi
	echo "install ${pkg[*]}"
	echo "install ${vm[*]}"
}

steps=$(plan)
if [ "$print_plan" = 1 ]; then
	echo "$steps"
	exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
	die "must run as root (apt-get install)"
fi

src=/etc/apt/sources.list.d/debian.sources
bp=/etc/apt/sources.list.d/scx-burst-backports.sources
stamp=/var/lib/scx-burst/deps.stamp
codename=$(awk '$1 == "codename" {print $2}' <<<"$steps")
want_stamp="10 $codename"

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want_stamp" ]; then
	exit 0
fi

need_update=0
# Left over from before an upgrade from bookworm: bookworm packages must
# not be offered to a newer release.
if [ "$codename" != bookworm ] && grep -qs bookworm "$bp"; then
	rm -f "$bp"
	need_update=1
fi
while read -r step suite _; do
	[ "$step" = add-suite ] || continue
	if grep -qs "$suite" /etc/apt/sources.list /etc/apt/sources.list.d/*; then
		continue
	fi
	uris=$(awk '/^URIs:/ && /debian\/?$/ && !/security/ {print; exit}' "$src" 2>/dev/null || true)
	[ -n "$uris" ] || die "no Debian URIs line found in $src (needed to add $suite)"
	cat > "$bp" <<EOS
Types: deb
$uris
Suites: $suite
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOS
	need_update=1
done <<<"$steps"

export DEBIAN_FRONTEND=noninteractive
lists_age=$(( $(date +%s) - $(stat -c %Y /var/lib/apt/lists 2>/dev/null || echo 0) ))
if [ "$need_update" = 1 ] || [ "$lists_age" -gt 86400 ] ||
   { [ "$codename" = bookworm ] && ! apt-cache policy libbpf-dev | grep -q bpo; }; then
	apt-get update -qq
fi

while read -r step rest; do
	case "$step" in
	install)
		# shellcheck disable=SC2086  # a list of package names
		apt-get install -y -qq --no-install-recommends $rest < /dev/null ;;
	install-from)
		read -r suite pkgs <<<"$rest"
		# shellcheck disable=SC2086
		apt-get install -y -qq --no-install-recommends -t "$suite" $pkgs < /dev/null ;;
	esac
done <<<"$steps"

mkdir -p "$(dirname "$stamp")"
echo "$want_stamp" > "$stamp"
