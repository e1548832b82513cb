# Turns the records of the benchmark boots into results (POSIX awk; mawk ok).
#
# usage: awk -v plots=DIR -f analyze.awk RECORDS > FLAT
#
# RECORDS: "@@HOST key=value..." lines written by run-bench.sh (one "meta"
# line, one "boot" line before each boot's records) and the "@@B ..." lines
# of tests/bench/bench.sh.  FLAT: one "path<TAB>type<TAB>value" line per
# result in output order (type n: number, s: string, b: true/false, r: raw
# JSON); json.awk turns it into results.json.  Plot data go to DIR.

function put(p, t, v) { printf "%s\t%s\t%s\n", p, t, v }
function num(p, v) { if (isnum(v)) put(p, "n", fmt(v)); else put(p, "r", "null") }
function fmt(v) { return sprintf("%.6g", v) }
function isnum(v) { return v "" ~ /^-?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ }
function jstr(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); gsub(/\t/, " ", s); return "\"" s "\"" }

# in-place numeric sort of a[1..n]
function qsort(a, lo, hi,   i, last, t) {
	if (lo >= hi) return
	t = a[lo]; a[lo] = a[int((lo + hi) / 2)]; a[int((lo + hi) / 2)] = t
	last = lo
	for (i = lo + 1; i <= hi; i++)
		if (a[i] < a[lo]) { last++; t = a[last]; a[last] = a[i]; a[i] = t }
	t = a[lo]; a[lo] = a[last]; a[last] = t
	qsort(a, lo, last - 1); qsort(a, last + 1, hi)
}
# min/median/max of the space-separated numbers in list (empty: nulls)
function mmm(p, list,   a, n, i, m) {
	n = split(list, a, " ")
	if (n == 0) { put(p ".min", "r", "null"); put(p ".median", "r", "null"); put(p ".max", "r", "null"); return "" }
	qsort(a, 1, n)
	m = (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	num(p ".min", a[1]); num(p ".median", m); num(p ".max", a[n])
	return m
}
function median(list,   a, n) {
	n = split(list, a, " ")
	if (n == 0) return ""
	qsort(a, 1, n)
	return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function addl(list, v) { return list == "" ? v : list " " v }

# Histogram helpers.  HV[id]: values in arrival order, HC[id, v]: counts.
# hstats(id-list): fills S["n"], S["avg"], S["p50"], S["p99"], S["max"]
# over the pooled histograms, and V[1..nv] / C[1..nv] sorted.
function hstats(ids,   idl, ni, i, k, vals, nv0, v, seen, tot, sum, acc, a, j) {
	delete V; delete C; delete seen
	ni = split(ids, idl, " ")
	nv = 0
	for (i = 1; i <= ni; i++) {
		nv0 = split(HV[idl[i]], vals, " ")
		for (k = 1; k <= nv0; k++) {
			v = vals[k] + 0
			if (!(v in seen)) { seen[v] = 0; nv++; V[nv] = v }
			seen[v] += HC[idl[i], vals[k]]
		}
	}
	qsort(V, 1, nv)
	tot = 0; sum = 0
	for (j = 1; j <= nv; j++) { C[j] = seen[V[j]]; tot += C[j]; sum += C[j] * V[j] }
	S["n"] = tot; S["avg"] = tot ? sum / tot : ""; S["max"] = nv ? V[nv] : ""
	S["p50"] = pct(0.50, tot); S["p99"] = pct(0.99, tot)
}
function pct(q, tot,   r, acc, j) {
	if (!tot) return ""
	r = q * tot; if (r != int(r)) r = int(r) + 1
	acc = 0
	for (j = 1; j <= nv; j++) { acc += C[j]; if (acc >= r) return V[j] }
	return V[nv]
}
# complementary CDF of the last hstats() into FILE: "value share>=value",
# thinned to points at least 1 % apart in value (the plots are log-log)
function ccdf(file,   j, left, last) {
	left = S["n"]; last = -1
	for (j = 1; j <= nv; j++) {
		if (left > 0 && (last < 0 || V[j] >= last * 1.01 || j == nv)) {
			printf "%s %.6g\n", (V[j] > 0 ? V[j] : 1), left / S["n"] > file
			last = V[j]
		}
		left -= C[j]
	}
	close(file)
}

BEGIN { FS = " "; nsuites = 0 }

/^@@HOST / {
	delete KV; parsekv()
	if ($2 == "meta") { for (k in KV) META[k] = KV[k]; next }
	# a boot: the records that follow belong to it
	suite = KV["suite"]; boot = KV["boot"]
	if (!(suite in SUITE)) { SUITE[suite] = 1; nsuites++; SUITES[nsuites] = suite }
	BOOT_RC[suite, boot] = KV["rc"]; BOOT_WALL[suite, boot] = KV["wall_s"]
	BOOTS[suite] = addl(BOOTS[suite], boot)
	BOOT_SMP[suite, boot] = KV["smp"]; RELEASE[suite] = KV["release"]
	if (boot == "main") MAINSMP[suite] = KV["smp"]
	else OVHSMP[suite] = addl(OVHSMP[suite], KV["smp"])
	next
}

/^@@B hist / {
	id = suite "|" boot "|" $3
	for (i = 4; i <= NF; i++) {
		split($i, pc, ":")
		if (!((id, pc[1]) in HC)) HV[id] = addl(HV[id], pc[1])
		HC[id, pc[1]] += pc[2]
	}
	next
}

/^@@BDMESG / {
	# "N x message", summed over the boots of a kernel
	l = $0; sub(/^@@BDMESG /, "", l)
	cnt = l + 0; sub(/^[0-9]+ x /, "", l)
	if (!((suite, l) in DM)) DML[suite] = DML[suite] (DML[suite] == "" ? "" : SUBSEP) l
	DM[suite, l] += cnt
	next
}
/^@@BERR / { l = $0; sub(/^@@BERR /, "", l); if (BERRN[suite]++ < 20) BERR[suite] = BERR[suite] (BERR[suite] == "" ? "" : ",") jstr(l); next }

/^@@B / {
	delete KV; parsekv(); r = $2
	if (r == "start") { for (k in KV) PARAM[suite, boot, k] = KV[k]; NCPU[suite, boot] = KV["ncpu"] }
	else if (r == "floor") {
		FL[suite, boot, KV["id"]] = 1
		FLT[suite, boot, KV["id"]] = KV["total_ns"]; FLG[suite, boot, KV["id"]] = KV["gap_ns"]
	}
	else if (r == "lat") {
		key = suite SUBSEP KV["sched"] SUBSEP KV["rep"]
		LATV[key] = KV["valid"]; LATW[key] = KV["window_ns"]; LATH[suite] = KV["hogs"]
		if (KV["rep"] > NREP[suite]) NREP[suite] = KV["rep"]
		LATWS[suite, KV["sched"]] += KV["window_ns"]
	}
	else if (r == "ctr") {
		# the daemon's counters over one run, summed over the repeats
		for (i = 6; i <= NF; i++) {
			eq = index($i, "="); k = substr($i, 1, eq - 1)
			if (!((suite, KV["exp"], KV["sched"], k) in CTR)) CTRL[suite, KV["exp"], KV["sched"]] = addl(CTRL[suite, KV["exp"], KV["sched"]], k)
			CTR[suite, KV["exp"], KV["sched"], k] += substr($i, eq + 1)
		}
	}
	else if (r == "sb") {
		key = suite SUBSEP KV["sched"] SUBSEP KV["rep"] SUBSEP KV["threads"]
		if (KV["valid"] == 1 && isnum(KV["eps"])) SB[key] = KV["eps"]
		if (!((suite, KV["threads"]) in SBT)) { SBT[suite, KV["threads"]] = 1; SBTL[suite] = addl(SBTL[suite], KV["threads"]) }
	}
	else if (r == "dom_info") { for (k in KV) DOMI[suite, k] = KV[k] }
	else if (r == "dom_steady") {
		if (KV["valid"] == 1) {
			DSH[suite, KV["cfg"]] = addl(DSH[suite, KV["cfg"]], KV["share"])
			if (isnum(KV["ops"])) DOP[suite, KV["cfg"]] = addl(DOP[suite, KV["cfg"]], KV["ops"])
		}
	}
	else if (r == "dom_sat") {
		if (KV["valid"] == 1 && isnum(KV["eps"])) { DSAT[suite, KV["cfg"]] = addl(DSAT[suite, KV["cfg"]], KV["eps"]); DSATR[suite, KV["cfg"], KV["rep"]] = KV["eps"] }
	}
	else if (r == "ovh_load") {
		# one window; several windows (rep=) per load are summed, and
		# their per-window averages kept for the median
		smp = BOOT_SMP[suite, boot]
		key = suite SUBSEP smp SUBSEP KV["sched"] SUBSEP KV["load"]
		busy = KV["hogs"] < KV["cpus"] ? KV["hogs"] : KV["cpus"]
		if (KV["elapsed_ns"] > 0 && busy > 0) OAVL[key] = addl(OAVL[key], KV["run_ns"] / (busy * KV["elapsed_ns"]))
		OAV[key] = 1
		OHOGS[key] = KV["hogs"]; OEL[key] += KV["elapsed_ns"]; ONW[key]++
		if (KV["valid"] != 1) OBAD[key] = 1
	}
	else if (r == "ovh") {
		smp = BOOT_SMP[suite, boot]
		key = suite SUBSEP smp SUBSEP KV["sched"] SUBSEP KV["load"]
		ORUN[key, KV["prog"]] += KV["run_ns"]; OCNT[key, KV["prog"]] += KV["cnt"]
		if (KV["cnt"] > 0) OPW[key, KV["prog"]] = addl(OPW[key, KV["prog"]], KV["run_ns"] / KV["cnt"])
		if (!((suite, KV["prog"]) in OPROG)) { OPROG[suite, KV["prog"]] = 1; OPROGL[suite] = addl(OPROGL[suite], KV["prog"]) }
	}
	else if (r == "sw") {
		d = KV["to"]
		SWN[suite, d]++
		if (KV["rc"] != 0) SWFAIL[suite]++
		SWSET[suite, d] = addl(SWSET[suite, d], KV["set_ns"] / 1e6)
		if (KV["visible_ns"] >= 0) SWVIS[suite, d] = addl(SWVIS[suite, d], KV["visible_ns"] / 1e6)
		else SWNOVIS[suite]++
		if (KV["effective_ns"] >= 0) SWEFF[suite, d] = addl(SWEFF[suite, d], KV["effective_ns"] / 1e6)
	}
	else if (r == "sw_sum") { for (k in KV) SWS[suite, k] = KV[k] }
	else if (r == "cost") { for (k in KV) COST[suite, KV["sched"], k] = KV[k] }
	else if (r == "scx_error") { ERRS[suite]++ }
	else if (r == "end") { ENDS[suite, boot] = 1 }
	next
}

function parsekv(   i, eq) {
	for (i = 3; i <= NF; i++) {
		eq = index($i, "=")
		if (eq > 1) {
			KV[substr($i, 1, eq - 1)] = substr($i, eq + 1)
			# numbers compare as numbers, not as strings
			if (isnum(substr($i, eq + 1))) KV[substr($i, 1, eq - 1)] += 0
		}
	}
}

# per-callback ns_per_call ratio kb / ka under P, for callbacks with at
# least 50 calls in both; the largest in GW (callback GWP)
# (the second largest in GW2, GWP2)
function growth(P, ka, kb,   p, q) {
	GW = ""; GWP = ""; GW2 = ""; GWP2 = ""
	for (p = 1; p <= np; p++) {
		if (ON[ka, PR[p]] < 50 || ON[kb, PR[p]] < 50) continue
		q = ratio(OR[kb, PR[p]], OR[ka, PR[p]])
		num(P "." PR[p], q)
		if (q == "") continue
		if (GW == "" || q > GW) { GW2 = GW; GWP2 = GWP; GW = q; GWP = PR[p] }
		else if (GW2 == "" || q > GW2) { GW2 = q; GWP2 = PR[p] }
	}
}

# ratio of two numbers, "" if either is missing
function ratio(a, b) { return (isnum(a) && isnum(b) && b + 0 != 0) ? a / b : "" }
# per-repeat ratios of A[s, sc, rep, key] to EEVDF's run of the same repeat
function rep_ratios(A, s, sc, key,    rp, q, rl) {
	rl = ""
	for (rp = 1; rp <= NREP[s]; rp++) {
		q = ratio(A[s, sc, rp, key], A[s, "eevdf", rp, key])
		if (q != "") rl = addl(rl, q)
	}
	return rl
}
function verdict(ok) { return ok ? "yes" : "no" }
function x(v) { return v == "" ? "n/a" : sprintf("%.2fx", v) }

END {
	put("meta.generated", "s", META["date"])
	put("meta.quick", "b", META["quick"] == 1 ? "true" : "false")
	put("meta.command", "s", META["command"])
	put("meta.host_cpus", "n", META["host_cpus"])
	put("meta.qemu_version", "s", META["qemu_version"])
	put("meta.qemu_settings", "s", META["qemu_settings"])
	put("meta.qemu_cmdline", "s", META["qemu_cmdline"])
	num("meta.wall_s", META["wall_s"])
	sl = ""
	for (si = 1; si <= nsuites; si++) sl = sl (si > 1 ? "," : "") jstr(SUITES[si])
	put("meta.suites", "r", "[" sl "]")
	nsch = split("eevdf burst deadline", SCH, " ")

	for (si = 1; si <= nsuites; si++) {
		s = SUITES[si]; K = "kernels." s
		put(K ".release", "s", RELEASE[s])
		num(K ".vcpus", MAINSMP[s])
		bl = ""; okb = 1
		nbt = split(BOOTS[s], BT, " ")
		for (bi = 1; bi <= nbt; bi++) {
			kb = s SUBSEP BT[bi]; bb[1] = s; bb[2] = BT[bi]
			bl = bl (bl == "" ? "" : ",") "{\"boot\":" jstr(bb[2]) ",\"vcpus\":" BOOT_SMP[kb] ",\"rc\":" BOOT_RC[kb] ",\"wall_s\":" BOOT_WALL[kb] ",\"complete\":" (((bb[1], bb[2]) in ENDS) ? "true" : "false") "}"
			if (BOOT_RC[kb] != 0 || !((bb[1], bb[2]) in ENDS)) okb = 0
		}
		put(K ".boots", "r", "[" bl "]")
		put(K ".complete", "b", okb ? "true" : "false")
		for (k in PARAM) { split(k, pp, SUBSEP); if (pp[1] == s && pp[2] == "main" && pp[3] != "kernel" && pp[3] != "mode") PM[pp[3]] = PARAM[k] }

		# --- emulator stall floor (main boot) ---
		for (fi = 1; fi <= 2; fi++) {
			fid = fi == 1 ? "start" : "end"
			F = K ".stall_floor." fid
			if (!((s, "main", fid) in FL)) { put(F, "r", "null"); continue }
			hstats(s "|main|floor." fid)
			num(F ".seconds", PM["floor_s"])
			num(F ".stalled_pct", ratio(FLG[s, "main", fid], FLT[s, "main", fid]) * 100)
			num(F ".gaps", S["n"]); num(F ".gap_p50_us", S["p50"]); num(F ".gap_p99_us", S["p99"]); num(F ".gap_max_us", S["max"])
			FLOOR[s, fid, "p99"] = S["p99"]; FLOOR[s, fid, "max"] = S["max"]; FLOOR[s, fid, "pct"] = ratio(FLG[s, "main", fid], FLT[s, "main", fid]) * 100
			if (fid == "start" && plots != "") ccdf(plots "/lat-" s "-floor.dat")
		}

		# --- 1. latency ---
		L = K ".latency"
		num(L ".hogs", LATH[s]); num(L ".threads", MAINSMP[s]); num(L ".seconds", PM["lat_s"]); num(L ".reps", NREP[s])
		for (c = 1; c <= nsch; c++) {
			sc = SCH[c]; ids = ""
			delete LS
			for (rp = 1; rp <= NREP[s]; rp++) {
				if (LATV[s, sc, rp] != 1) continue
				hstats(s "|main|lat." sc "." rp)
				if (!S["n"]) continue
				ids = addl(ids, s "|main|lat." sc "." rp)
				LS["p50_us"] = addl(LS["p50_us"], S["p50"]); LS["p99_us"] = addl(LS["p99_us"], S["p99"])
				LS["max_us"] = addl(LS["max_us"], S["max"]); LS["avg_us"] = addl(LS["avg_us"], S["avg"])
				LS["samples"] = addl(LS["samples"], S["n"])
				LR[s, sc, rp, "p50"] = S["p50"]; LR[s, sc, rp, "p99"] = S["p99"]; LR[s, sc, rp, "max"] = S["max"]; LR[s, sc, rp, "avg"] = S["avg"]
			}
			nm = split("p50_us p99_us max_us avg_us samples", MET, " ")
			for (m = 1; m <= nm; m++) LMED[s, sc, MET[m]] = mmm(L "." sc "." MET[m], LS[MET[m]])
			if (sc != "eevdf") {
				nr = split("p50 p99 max avg", RM, " ")
				for (m = 1; m <= nr; m++)
					LRAT[s, sc, RM[m]] = mmm(L "." sc ".ratio." RM[m], rep_ratios(LR, s, sc, RM[m]))
			}
			if (ids != "" && plots != "") { hstats(ids); ccdf(plots "/lat-" s "-" sc ".dat") }
			nk = split(CTRL[s, "lat", sc], CK, " ")
			for (k = 1; k <= nk; k++)
				num(L "." sc ".counters_per_s." CK[k], LATWS[s, sc] > 0 ? CTR[s, "lat", sc, CK[k]] / (LATWS[s, sc] / 1e9) : "")
		}

		# --- 2. throughput ---
		T = K ".throughput"
		nt = split(SBTL[s], TH, " ")
		tl = ""; for (t = 1; t <= nt; t++) tl = tl (t > 1 ? "," : "") TH[t]
		put(T ".threads", "r", "[" tl "]"); num(T ".seconds", PM["sb_time"]); num(T ".cpu_max_prime", PM["sb_prime"]); num(T ".reps", PM["sb_reps"] < NREP[s] ? PM["sb_reps"] : NREP[s])
		if (plots != "") tpf = plots "/tp-" s ".dat"
		for (c = 1; c <= nsch; c++) {
			sc = SCH[c]
			for (t = 1; t <= nt; t++) {
				el = ""
				for (rp = 1; rp <= NREP[s]; rp++)
					if ((s, sc, rp, TH[t]) in SB) el = addl(el, SB[s, sc, rp, TH[t]])
				EL[sc, t] = el
				SBM[s, sc, TH[t]] = mmm(T "." sc ".eps." TH[t], el)
			}
			if (sc != "eevdf")
				for (t = 1; t <= nt; t++)
					SBR[s, sc, TH[t]] = mmm(T "." sc ".ratio." TH[t], rep_ratios(SB, s, sc, TH[t]))
		}
		if (plots != "") {
			for (t = 1; t <= nt; t++) {
				line = TH[t]
				for (c = 1; c <= nsch; c++) {
					n3 = split(EL[SCH[c], t], ev, " "); if (n3) qsort(ev, 1, n3)
					line = line " " (SBM[s, SCH[c], TH[t]] == "" ? "?" : SBM[s, SCH[c], TH[t]]) " " (n3 ? ev[1] : "?") " " (n3 ? ev[n3] : "?")
				}
				print line > tpf
			}
			close(tpf)
		}

		# --- 3. primary domain ---
		D = K ".primary_domain"
		if (DOMI[s, "available"] == 1) {
			put(D ".available", "b", "true")
			put(D ".domain", "s", DOMI[s, "domain"]); num(D ".steady_tasks", DOMI[s, "load_tasks"])
			num(D ".steady_task_load_pct", DOMI[s, "load_pct"]); num(D ".saturating_threads", DOMI[s, "sat_threads"])
			nd = split("eevdf burst burst_dom deadline deadline_dom", DC, " ")
			for (c = 1; c <= nd; c++) {
				cf = DC[c]
				DSHM[s, cf] = mmm(D "." cf ".share_in_domain", DSH[s, cf])
				om = mmm(D "." cf ".steady_ops_per_s", DOP[s, cf])
				n4 = split(DOP[s, cf], ov, " "); if (n4) qsort(ov, 1, n4)
				num(D "." cf ".steady_spread_pct", (n4 && om > 0) ? (ov[n4] - ov[1]) / om * 100 : "")
				DSATM[s, cf] = mmm(D "." cf ".saturated_eps", DSAT[s, cf])
				nk = split(CTRL[s, "dom_steady", cf], CK, " ")
				for (k = 1; k <= nk; k++) num(D "." cf ".steady_counters." CK[k], CTR[s, "dom_steady", cf, CK[k]])
			}
			for (c = 1; c <= 2; c++) {
				cf = c == 1 ? "burst" : "deadline"
				rl = ""
				for (rp = 1; rp <= NREP[s]; rp++) { q = ratio(DSATR[s, cf "_dom", rp], DSATR[s, cf, rp]); if (q != "") rl = addl(rl, q) }
				DRAT[s, cf] = mmm(D "." cf "_dom.saturated_ratio_to_no_domain", rl)
			}
		} else {
			put(D ".available", "b", "false")
			put(D ".gap", "s", "scx_burst has no --primary-domain option yet (checked with --help in the VM); experiment 3 not run")
		}

		# --- 4. overhead ---
		O = K ".overhead"
		vl = MAINSMP[s] " " OVHSMP[s]; nvc = split(vl, VC, " "); qsort(VC, 1, nvc)
		tl = ""; for (t = 1; t <= nvc; t++) tl = tl (t > 1 ? "," : "") VC[t]
		put(O ".vcpus", "r", "[" tl "]"); num(O ".seconds", PM["ovh_s"])
		put(O ".loads", "s", "light: 1 spinning hog; medium: 3 x nCPU; heavy: 12 x nCPU")
		np = split(OPROGL[s], PR, " ")
		nl = split("light medium heavy", LD, " ")
		for (v = 1; v <= nvc; v++)
			for (c = 2; c <= nsch; c++)
				for (ld = 1; ld <= nl; ld++) {
					lo = LD[ld]; sc = SCH[c]
					key = s SUBSEP VC[v] SUBSEP sc SUBSEP lo
					P = O "." VC[v] "." sc "." lo
					if (!(key in OAV)) { put(P, "r", "null"); continue }
					num(P ".hogs", OHOGS[key]); num(P ".windows", ONW[key])
					num(P ".hog_availability", median(OAVL[key])); put(P ".valid", "b", (key in OBAD) ? "false" : "true")
					tot = 0
					for (p = 1; p <= np; p++) {
						cnt = OCNT[key, PR[p]]
						if (cnt == "" || cnt <= 0) continue
						# median over the windows of each window's average
						OR[key, PR[p]] = median(OPW[key, PR[p]]); ON[key, PR[p]] = cnt
						tot += ORUN[key, PR[p]]
						num(P ".callbacks." PR[p] ".calls", cnt)
						num(P ".callbacks." PR[p] ".ns_per_call", OR[key, PR[p]])
						num(P ".callbacks." PR[p] ".ns_per_call_pooled", ORUN[key, PR[p]] / cnt)
					}
					# all callbacks' time over the window, in % of the CPUs
					num(P ".total_pct_of_cpus", OEL[key] > 0 ? tot / (OEL[key] * VC[v]) * 100 : "")
				}
		G = O ".growth"
		vmin = VC[1]; vmax = VC[nvc]; ms = MAINSMP[s]
		num(G ".min_calls", 50)
		for (c = 2; c <= nsch; c++) {
			sc = SCH[c]
			growth(G "." sc ".light_to_heavy", s SUBSEP ms SUBSEP sc SUBSEP "light", s SUBSEP ms SUBSEP sc SUBSEP "heavy")
			OW[s, sc, "lh"] = GW; OW[s, sc, "lhp"] = GWP; OW[s, sc, "lh2"] = GW2; OW[s, sc, "lhp2"] = GWP2
			growth(G "." sc ".medium_to_heavy", s SUBSEP ms SUBSEP sc SUBSEP "medium", s SUBSEP ms SUBSEP sc SUBSEP "heavy")
			OW[s, sc, "mh"] = GW; OW[s, sc, "mhp"] = GWP
			wv = ""; wvp = ""; wv2 = ""; wvp2 = ""
			if (vmin != vmax)
				for (ld = 1; ld <= nl; ld++) {
					growth(G "." sc ".vcpus_" vmin "_to_" vmax "." LD[ld], s SUBSEP vmin SUBSEP sc SUBSEP LD[ld], s SUBSEP vmax SUBSEP sc SUBSEP LD[ld])
					if (GW != "" && (wv == "" || GW > wv)) { wv = GW; wvp = GWP " (" LD[ld] ")" }
					# largest growth of any callback other than the worst one
					if (GW2 != "" && (wv2 == "" || GW2 > wv2)) { wv2 = GW2; wvp2 = GWP2 " (" LD[ld] ")" }
				}
			num(G "." sc ".worst.light_to_heavy", OW[s, sc, "lh"]); put(G "." sc ".worst.light_to_heavy_callback", "s", OW[s, sc, "lhp"])
			num(G "." sc ".worst.medium_to_heavy", OW[s, sc, "mh"]); put(G "." sc ".worst.medium_to_heavy_callback", "s", OW[s, sc, "mhp"])
			num(G "." sc ".worst.vcpus", wv); put(G "." sc ".worst.vcpus_callback", "s", wvp)
			put(G "." sc ".worst.vcpus_range", "s", vmin "->" vmax)
			num(G "." sc ".next_worst.light_to_heavy", OW[s, sc, "lh2"]); put(G "." sc ".next_worst.light_to_heavy_callback", "s", OW[s, sc, "lhp2"])
			num(G "." sc ".next_worst.vcpus", wv2); put(G "." sc ".next_worst.vcpus_callback", "s", wvp2)
			OW[s, sc, "v"] = wv; OW[s, sc, "vp"] = wvp; OW[s, sc, "v2"] = wv2; OW[s, sc, "vp2"] = wvp2
		}

		# --- 5. live switch ---
		W = K ".live_switch"
		num(W ".hogs", SWS[s, "hogs"]); num(W ".requested", SWN[s, "deadline"] + SWN[s, "burst"])
		num(W ".counted_by_daemon", SWS[s, "switches"]); num(W ".failed_requests", SWFAIL[s] + 0)
		num(W ".never_visible", SWNOVIS[s] + 0); num(W ".error_exits", SWS[s, "exits"])
		put(W ".scheduler_stayed_enabled", "b", SWS[s, "valid"] == 1 ? "true" : "false")
		for (c = 2; c <= nsch; c++) {
			d = SCH[c]
			num(W ".to_" d ".n", SWN[s, d])
			mmm(W ".to_" d ".set_ms", SWSET[s, d])
			SWVM[s, d] = mmm(W ".to_" d ".visible_ms", SWVIS[s, d])
			mmm(W ".to_" d ".effective_ms", SWEFF[s, d])
		}

		# --- 6. daemon cost ---
		for (c = 2; c <= nsch; c++) {
			sc = SCH[c]; C6 = K ".daemon_cost." sc
			el = COST[s, sc, "elapsed_ns"]
			if (el == "") { put(C6, "r", "null"); continue }
			num(C6 ".seconds", el / 1e9)
			num(C6 ".cpu_pct", ratio(COST[s, sc, "run_ns"], el) * 100)
			num(C6 ".cpu_pct_ticks", ratio(COST[s, sc, "ticks"] / COST[s, sc, "hz"] * 1e9, el) * 100)
			num(C6 ".peak_rss_mib", COST[s, sc, "hwm_kb"] / 1024); num(C6 ".rss_mib", COST[s, sc, "rss_kb"] / 1024)
			num(C6 ".stats_lines", COST[s, sc, "lines"]); put(C6 ".valid", "b", COST[s, sc, "valid"] == 1 ? "true" : "false")
			CPCT[s, sc] = ratio(COST[s, sc, "run_ns"], el) * 100; CHWM[s, sc] = COST[s, sc, "hwm_kb"] / 1024
		}

		# --- errors ---
		E = K ".errors"
		num(E ".scx_error_exits", ERRS[s] + 0)
		nm = split(DML[s], DMS, SUBSEP); dl = ""
		for (m = 1; m <= nm; m++) dl = dl (m > 1 ? "," : "") jstr(DM[s, DMS[m]] " x " DMS[m])
		put(E ".dmesg", "r", "[" dl "]")
		put(E ".daemon_stderr", "r", "[" BERR[s] "]")

		# --- targets ---
		TG = K ".targets"
		for (c = 2; c <= nsch; c++) {
			sc = SCH[c]
			p99 = LRAT[s, sc, "p99"]; mx = LRAT[s, sc, "max"]; av = LRAT[s, sc, "avg"]
			if (p99 == "" || mx == "" || av == "") { put(TG ".t1." sc ".met", "s", "n/a"); put(TG ".t1." sc ".detail", "s", "no valid runs") }
			else {
				put(TG ".t1." sc ".met", "s", verdict(p99 <= 0.5 && mx <= 0.5 && av <= 1.0))
				put(TG ".t1." sc ".detail", "s", sprintf("p99 %s, max %s (target <= 0.50x), avg %s (target <= 1.00x); median of per-repeat ratios", x(p99), x(mx), x(av)))
			}
			lo = ""; lot = ""; hi = SBR[s, sc, TH[nt]]
			for (t = 1; t <= nt; t++) if (SBR[s, sc, TH[t]] != "" && (lo == "" || SBR[s, sc, TH[t]] < lo)) { lo = SBR[s, sc, TH[t]]; lot = TH[t] }
			if (lo == "" || hi == "") { put(TG ".t2." sc ".met", "s", "n/a"); put(TG ".t2." sc ".detail", "s", "no valid runs") }
			else {
				put(TG ".t2." sc ".met", "s", verdict(lo >= 1.0 && hi >= 1.05))
				put(TG ".t2." sc ".detail", "s", sprintf("lowest ratio %.3fx at %s threads (target >= 1.000x), %.3fx at %s threads (target >= 1.050x)", lo, lot, hi, TH[nt]))
			}
			if (DOMI[s, "available"] != 1) { put(TG ".t3." sc ".met", "s", "gap"); put(TG ".t3." sc ".detail", "s", "--primary-domain not implemented yet") }
			else {
				sh = DSHM[s, sc "_dom"]; dr = DRAT[s, sc]
				if (sh == "" || dr == "") { put(TG ".t3." sc ".met", "s", "n/a"); put(TG ".t3." sc ".detail", "s", "no valid runs") }
				else {
					put(TG ".t3." sc ".met", "s", verdict(sh >= 0.99 && dr >= 0.97))
					put(TG ".t3." sc ".detail", "s", sprintf("steady load %.1f%% inside the domain (target >= 99%%), saturated throughput %s of no-domain (target >= 0.97x)", sh * 100, x(dr)))
				}
			}
			wl = OW[s, sc, "lh"]; wv = OW[s, sc, "v"]
			if (wl == "") { put(TG ".t4." sc ".met", "s", "n/a"); put(TG ".t4." sc ".detail", "s", "no callback with enough calls") }
			else {
				put(TG ".t4." sc ".met", "s", verdict(wl < 1.5 && (wv == "" || wv < 1.5)))
				put(TG ".t4." sc ".detail", "s", sprintf("worst growth light->heavy %s (%s), %s vCPUs %s (%s), target < 1.50x; every other callback: at most %s light->heavy (%s), %s across vCPUs (%s); every CPU busy, 3 -> 12 hogs per CPU: at most %s (%s)", x(wl), OW[s, sc, "lhp"], vmin "->" vmax, x(wv), OW[s, sc, "vp"] == "" ? "not measured" : OW[s, sc, "vp"], x(OW[s, sc, "lh2"]), OW[s, sc, "lhp2"], x(OW[s, sc, "v2"]), OW[s, sc, "vp2"], x(OW[s, sc, "mh"]), OW[s, sc, "mhp"]))
			}
			cp = CPCT[s, sc]; hw = CHWM[s, sc]
			if (cp == "") { put(TG ".t6." sc ".met", "s", "n/a"); put(TG ".t6." sc ".detail", "s", "not measured") }
			else {
				put(TG ".t6." sc ".met", "s", verdict(cp < 0.5 && hw < 16))
				put(TG ".t6." sc ".detail", "s", sprintf("%.3f%% of one CPU (target < 0.5%%), peak RSS %.1f MiB (target < 16 MiB)", cp, hw))
			}
		}
		ex = ERRS[s] + 0
		put(TG ".t5.all.met", "s", verdict(ex == 0 && SWS[s, "valid"] == 1 && SWFAIL[s] + 0 == 0))
		put(TG ".t5.all.detail", "s", sprintf("%d error exits in the whole boot (%s during the switches), %d failed set requests, scheduler %s", ex, SWS[s, "exits"] == "" ? "?" : SWS[s, "exits"], SWFAIL[s] + 0, SWS[s, "valid"] == 1 ? "stayed enabled" : "did NOT stay enabled"))
		delete PM
	}
}
