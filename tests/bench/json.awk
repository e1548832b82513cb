# Flat results <-> JSON (POSIX awk; mawk ok).
#
#   awk -v mode=tojson -f json.awk FLAT > results.json
#   awk -v mode=flat   -f json.awk results.json > FLAT
#
# FLAT: "path<TAB>type<TAB>value" lines; path segments are joined by "."
# (array elements by their index), type n (number), s (string), b
# (true/false), r (raw JSON, e.g. null or an array, in tojson mode; in flat
# mode arrays are expanded and null is r/null).  tojson keeps the order in
# which paths first appear.  flat mode is a small strict parser: it exits 1
# with a message on anything that is not JSON.

function jstr(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); return "\"" s "\"" }

# ---- tojson ----
function emit(node, ind,   n, i, kids, k, p, sep) {
	n = split(CH[node], kids, SUBSEP)
	printf "{"
	for (i = 1; i <= n; i++) {
		k = kids[i]; p = node == "" ? k : node "." k
		printf "%s\n%s  %s: ", (i > 1 ? "," : ""), ind, jstr(k)
		if (p in TY) {
			if (TY[p] == "s") printf "%s", jstr(VA[p])
			else printf "%s", VA[p]
		} else emit(p, ind "  ")
	}
	printf "\n%s}", ind
}

# ---- flat ----
function fail(msg) { printf "json.awk: %s: %s near byte %d\n", FILENAME, msg, pos > "/dev/stderr"; bad = 1; exit 1 }
function ws() { while (pos <= len && index(" \t\n\r", substr(src, pos, 1))) pos++ }
function value(path,   c, t, i) {
	ws()
	c = substr(src, pos, 1)
	if (c == "{") {
		pos++; ws()
		if (substr(src, pos, 1) == "}") { pos++; return }
		for (;;) {
			ws()
			if (substr(src, pos, 1) != "\"") fail("object key expected")
			t = str()
			ws()
			if (substr(src, pos, 1) != ":") fail("':' expected")
			pos++
			value(path == "" ? t : path "." t)
			ws()
			c = substr(src, pos, 1); pos++
			if (c == "}") return
			if (c != ",") fail("',' or '}' expected")
		}
	}
	if (c == "[") {
		pos++; ws(); i = 0
		if (substr(src, pos, 1) == "]") { pos++; print path "\tr\t[]"; return }
		for (;;) {
			value(path "." i); i++
			ws()
			c = substr(src, pos, 1); pos++
			if (c == "]") return
			if (c != ",") fail("',' or ']' expected")
		}
	}
	if (c == "\"") { t = str(); print path "\ts\t" t; return }
	if (match(substr(src, pos, 64), /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?/)) {
		print path "\tn\t" substr(src, pos, RLENGTH); pos += RLENGTH; return
	}
	if (substr(src, pos, 4) == "true") { print path "\tb\ttrue"; pos += 4; return }
	if (substr(src, pos, 5) == "false") { print path "\tb\tfalse"; pos += 5; return }
	if (substr(src, pos, 4) == "null") { print path "\tr\tnull"; pos += 4; return }
	fail("value expected")
}
function str(   out, c) {
	pos++; out = ""
	for (;;) {
		if (pos > len) fail("unterminated string")
		if (match(substr(src, pos, 256), /^[^"\\]+/)) { out = out substr(src, pos, RLENGTH); pos += RLENGTH; continue }
		c = substr(src, pos, 1)
		if (c == "\"") { pos++; return out }
		c = substr(src, pos + 1, 1); pos += 2
		if (c == "n") out = out " "
		else if (c == "t") out = out " "
		else if (c == "u") { out = out "?"; pos += 4 }
		else out = out c
	}
}

BEGIN { FS = "\t"; if (mode != "tojson" && mode != "flat") { print "json.awk: mode=tojson|flat" > "/dev/stderr"; exit 2 } }
mode == "tojson" {
	p = $1; n = split(p, seg, ".")
	node = ""
	for (i = 1; i <= n; i++) {
		child = node == "" ? seg[i] : node "." seg[i]
		if (!((node, seg[i]) in HAS)) { HAS[node, seg[i]] = 1; CH[node] = CH[node] (CH[node] == "" ? "" : SUBSEP) seg[i] }
		node = child
	}
	TY[p] = $2; VA[p] = $3
	next
}
mode == "flat" { src = src $0 "\n"; next }
END {
	if (bad) exit 1
	if (mode == "tojson") { emit("", ""); printf "\n"; exit 0 }
	len = length(src); pos = 1
	ws()
	if (pos > len) fail("empty input")
	value("")
	ws()
	if (pos <= len) fail("trailing data")
}
