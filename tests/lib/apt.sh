# Private apt roots, one per Debian suite, for fetching packages of other
# suites without touching the host's apt (bash; sourced after common.sh by
# tests/vm/kernels.sh and tests/bench/peers.sh):
#   . "$top/tests/lib/apt.sh"
# A root lives in $cache/apt/<suite>/ (sources, lists, package cache and an
# empty dpkg status), so nothing is ever installed: packages are fetched with
# `apt-get download` and unpacked with `dpkg-deb -x`.  The archive URIs are
# taken at run time from the host's debian.sources.  Whoever refreshes the
# lists or downloads through a root holds $cache/kernels/.lock (apt_lock).
# Needs die() (common.sh).

cache=${SCX_BURST_CACHE:-/var/cache/scx-burst}
host_sources=/etc/apt/sources.list.d/debian.sources
keyring=/usr/share/keyrings/debian-archive-keyring.gpg

# apt_lock: take the lock of the kernel cache and the apt roots on fd 9
# (held until the script exits or closes fd 9: exec 9>&-).
apt_lock() {
	mkdir -p "$cache/kernels" "$cache/apt" || die "cannot create cache dir $cache"
	exec 9>"$cache/kernels/.lock" || die "cannot open $cache/kernels/.lock"
	flock 9 || die "cannot lock $cache/kernels/.lock"
}

# apt_root SUITE: create the private apt root of SUITE if needed and set the
# global array apt_opts to the options that make apt-get and apt-cache use it.
apt_root() {
	local suite=$1 r=$cache/apt/$1 uris
	mkdir -p "$r/sources.d" "$r/prefs.d" "$r/lists/partial" \
		"$r/cache/archives/partial"
	[ -e "$r/status" ] || : > "$r/status"
	if [ ! -s "$r/sources.d/debian.sources" ]; then
		[ -r "$host_sources" ] || die "$host_sources not found (needed for the archive URIs)"
		[ -r "$keyring" ] || die "$keyring not found (apt-get install debian-archive-keyring)"
		uris=$(awk '/^URIs:/ && !/security/ {print; exit}' "$host_sources")
		[ -n "$uris" ] || die "no URIs line for the main archive in $host_sources"
		cat > "$r/sources.d/debian.sources.tmp" <<EOT
Types: deb
$uris
Suites: $suite
Components: main
Architectures: amd64
Signed-By: $keyring
EOT
		mv "$r/sources.d/debian.sources.tmp" "$r/sources.d/debian.sources"
	fi
	apt_opts=(
		-o "Dir::Etc::SourceList=/dev/null"
		-o "Dir::Etc::SourceParts=$r/sources.d"
		-o "Dir::Etc::Preferences=/dev/null"
		-o "Dir::Etc::PreferencesParts=$r/prefs.d"
		-o "Dir::State::Lists=$r/lists"
		-o "Dir::State::status=$r/status"
		-o "Dir::State::extended_states=$r/extended_states"
		-o "Dir::Cache=$r/cache"
		-o "Dir::Cache::archives=$r/cache/archives"
		-o "Acquire::Languages=none"
		-o "Acquire::http::Timeout=20"
		-o "Acquire::Retries=1"
		-o "APT::Sandbox::User=root"
	)
}

# apt_field PKG[=VER] FIELD: FIELD of the candidate record of PKG (of
# version VER) in the root apt_root set up last; empty if there is none.
apt_field() {
	apt-cache "${apt_opts[@]}" show --no-all-versions "$1" 2>/dev/null |
		awk -v f="$2:" '$1 == f { sub(/^[^:]*: */, ""); print; exit }'
}

# apt_update SUITE LOG: refresh the lists of SUITE's root (apt_root first);
# fails with the first apt error in LOG.
apt_update() {
	apt-get -qq "${apt_opts[@]}" -o APT::Update::Error-Mode=any update > "$2" 2>&1 &&
		touch "$cache/apt/$1/stamp"
}
