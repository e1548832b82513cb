# Checks that flattened results (json.awk mode=flat) have every experiment
# section with numbers for every scheduler.  POSIX awk; mawk ok.
#   awk -F'\t' -v file=NAME -f check.awk FLAT
# Prints one line per missing item and exits 1 if anything is missing.

function need(p, what) {
	if (!(p in T)) { miss(p " missing (" what ")"); return 0 }
	if (T[p] != "n") { miss(p " is " (T[p] == "r" ? V[p] : "not a number") " (" what ")"); return 0 }
	return 1
}
function miss(m) { printf "%s: check: %s\n", file, m > "/dev/stderr"; bad++ }
function any(prefix, suffix,   k, n) {
	n = 0
	for (k in T)
		if (index(k, prefix) == 1 && T[k] == "n" && (suffix == "" || substr(k, length(k) - length(suffix) + 1) == suffix)) n++
	return n
}

{ T[$1] = $2; V[$1] = $3 }

END {
	ns = 0
	for (i = 0; ("meta.suites." i) in T; i++) SU[++ns] = V["meta.suites." i]
	if (ns == 0) miss("meta.suites: no kernel")
	split("eevdf burst deadline", ALL, " ")
	for (si = 1; si <= ns; si++) {
		K = "kernels." SU[si]
		need(K ".vcpus", "vCPU count")
		need(K ".stall_floor.start.stalled_pct", "emulator stall floor")
		need(K ".stall_floor.start.gap_p99_us", "emulator stall floor")
		for (c = 1; c <= 3; c++) {
			sc = ALL[c]
			for (m = split("p50_us p99_us max_us avg_us", M, " "); m > 0; m--)
				need(K ".latency." sc "." M[m] ".median", "experiment 1, " sc)
			if (sc != "eevdf") need(K ".latency." sc ".ratio.p99.median", "experiment 1 ratio, " sc)
			if (!(K ".throughput.threads.0" in T)) { if (c == 1) miss(K ".throughput.threads: none (experiment 2)") }
			else for (t = 0; (K ".throughput.threads." t) in T; t++) {
				th = V[K ".throughput.threads." t]
				need(K ".throughput." sc ".eps." th ".median", "experiment 2, " sc)
				if (sc != "eevdf") need(K ".throughput." sc ".ratio." th ".median", "experiment 2 ratio, " sc)
			}
		}
		D = K ".primary_domain"
		if (T[D ".available"] != "b") miss(D ".available missing (experiment 3)")
		else if (V[D ".available"] == "false") {
			if (T[D ".gap"] != "s" || V[D ".gap"] == "") miss(D ".gap: unavailable without a stated gap (experiment 3)")
		} else
			for (c = split("eevdf burst burst_dom deadline deadline_dom", DC, " "); c > 0; c--) {
				need(D "." DC[c] ".share_in_domain.median", "experiment 3, " DC[c])
				need(D "." DC[c] ".saturated_eps.median", "experiment 3, " DC[c])
			}
		nv = 0
		for (v = 0; (K ".overhead.vcpus." v) in T; v++) VC[++nv] = V[K ".overhead.vcpus." v]
		if (nv < 2) miss(K ".overhead.vcpus: fewer than 2 vCPU counts (experiment 4)")
		for (c = 2; c <= 3; c++) {
			sc = ALL[c]
			for (v = 1; v <= nv; v++)
				for (l = split("light medium heavy", LO, " "); l > 0; l--) {
					P = K ".overhead." VC[v] "." sc "." LO[l]
					need(P ".total_pct_of_cpus", "experiment 4, " sc)
					if (any(P ".callbacks.", ".ns_per_call") == 0) miss(P ".callbacks: no callback measured (experiment 4)")
				}
			need(K ".overhead.growth." sc ".worst.light_to_heavy", "experiment 4 growth, " sc)
			need(K ".overhead.growth." sc ".worst.vcpus", "experiment 4 growth, " sc)
			need(K ".live_switch.to_" sc ".visible_ms.median", "experiment 5, to " sc)
			need(K ".live_switch.to_" sc ".set_ms.median", "experiment 5, to " sc)
			need(K ".daemon_cost." sc ".cpu_pct", "experiment 6, " sc)
			need(K ".daemon_cost." sc ".peak_rss_mib", "experiment 6, " sc)
		}
		need(K ".live_switch.error_exits", "experiment 5 watchdog exits")
	}
	exit bad ? 1 : 0
}
