# stackcollapse-vsp tests (sourced by run.sh).  Expected outputs are worked
# out by hand (tests/data/vsp/cases shows the arithmetic).
SVSP=$(pwd)/$B/stackcollapse-vsp
VD=tests/data/vsp
V=$TMP/vsp
mkdir -p "$V"

run_cases "$SVSP" "$VD" vsp

vrun() { _r=$1 _n=$2; shift 2; expect_exit "$_r" "vsp: $_n" "$SVSP" "$@"; }
verr() { expect_err "vsp: $1" "$2"; }

if command -v iconv > /dev/null 2>&1; then
	{ printf '\377\376'; tail -c +4 "$VD/tree-en.csv" | iconv -f UTF-8 -t UTF-16LE; } > "$V/u16le.csv"
	{ printf '\376\377'; tail -c +4 "$VD/tree-en.csv" | iconv -f UTF-8 -t UTF-16BE; } > "$V/u16be.csv"
	for e in u16le u16be; do
		"$SVSP" "$V/$e.csv" > "$V/$e.folded" 2>&1
		cmp -s "$V/$e.folded" "$VD/results/tree.folded" && pass "vsp: UTF-16 ($e, as vsperfreport /U writes)" \
			|| fail "vsp: UTF-16 ($e)" "$(head -5 "$V/$e.folded")"
	done
else
	skip "vsp: UTF-16" "no iconv"
fi
gzip -c "$VD/tree-en.csv" > "$V/tree.csv.gz"
"$SVSP" "$V/tree.csv.gz" > "$V/gz.folded"
cmp -s "$V/gz.folded" "$VD/results/tree.folded" && pass "vsp: gzip input" || fail "vsp: gzip input"

vrun 0 "malformed rows are warnings: exit 0" "$VD/malformed.csv"
printf 'app.exe;main 10\napp.exe;main;ok_after 40\n' > "$V/want.folded"
cmp -s "$TMP/out" "$V/want.folded" && pass "vsp: malformed rows are skipped, the rest kept" \
	|| fail "vsp: malformed rows are skipped, the rest kept" "$(cat "$TMP/out")"
verr "a wrong depth is named file:line" "malformed.csv:4: the level skips a level"
verr "a missing name is named file:line" "malformed.csv:5: no function name"
verr "a bad number is named file:line" "malformed.csv:6: the value is not a number"
verr "malformed rows are counted" "skipped 5 rows"
printf 'Not,A,Report\n1,2,3\n' > "$V/other.csv"
vrun 1 "a CSV that is not a report: exit 1" "$V/other.csv"
verr "a CSV that is not a report is named" "not a Visual Studio CallTreeSummary or CallerCalleeSummary report"
vrun 1 "a missing file: exit 1" "$V/nope.csv"
vrun 2 "an unknown metric: exit 2" --metric bogus "$VD/tree-en.csv"
vrun 0 "--help" --help
grep -q 'APPROXIMATION' "$TMP/out" && pass "vsp: --help says CallerCallee stacks are approximate" \
	|| fail "vsp: --help says CallerCallee stacks are approximate"
vrun 1 "--root with an unknown function" --root nope "$VD/graph-vs2010.csv"
"$SVSP" "$VD/tree-en.csv" "$VD/tree-instr.csv" > "$V/two.folded"
cat "$VD/results/tree.folded" "$VD/results/tree-instr.folded" | LC_ALL=C sort > "$V/two-want.folded"
cmp -s "$V/two.folded" "$V/two-want.folded" && pass "vsp: several reports are merged" || fail "vsp: several reports are merged"
# A deep diamond lattice: 2^40 paths, cut by the share limit, fast.
awk 'BEGIN { print "Type,Function Name,Inclusive Samples,Exclusive Samples,"
	for (i = 0; i < 40; i++) {
		printf "Root,\"f%d\",1000000,10,\n", i
		if (i < 39) { printf "Callee,\"f%d\",495000,10,\n", i + 1; printf "Callee,\"g%d\",495000,10,\n", i + 1 }
		if (i > 0) printf "Caller,\"f%d\",1,1,\n", i - 1
		printf "Root,\"g%d\",1000000,10,\n", i
		if (i < 39) { printf "Callee,\"f%d\",495000,10,\n", i + 1; printf "Callee,\"g%d\",495000,10,\n", i + 1 }
		printf "Caller,\"f%d\",1,1,\n", (i > 0 ? i - 1 : 0)
	} }' > "$V/lattice.csv"
vrun 0 "an exponential call graph is bounded" --root f0 "$V/lattice.csv"

# Conformance: ../shared/conformance/vsprof.
VC=../shared/conformance/vsprof
if [ ! -d "$VC" ]; then
	skip "conformance/vsprof" "../shared/conformance is not present"
else
	# Its results use inferno's weighting (Number of Calls, with the calls
	# of some children subtracted, no process frame); calls-inferno gives
	# that byte for byte (its file has CRLF line ends).
	"$SVSP" --metric calls-inferno "$VC/CallTreeSummary.csv" > "$V/conf.folded"
	tr -d '\r' < "$VC/results/vsprof-default.txt" | cmp -s - "$V/conf.folded" \
		&& pass "conformance/vsprof: inferno's weighting, byte for byte" \
		|| fail "conformance/vsprof: inferno's weighting" "$(tr -d '\r' < "$VC/results/vsprof-default.txt" | diff - "$V/conf.folded" | head -4)"
	# Our weighting, elapsed exclusive time: the same stacks, and the total
	# is the sum of calls x avg exclusive time over all rows (python3).
	"$SVSP" --no-process "$VC/CallTreeSummary.csv" > "$V/ours.folded"
	if have_python; then
		want=$(python3 -c 'import csv,sys
r=list(csv.reader(open(sys.argv[1],encoding="utf-8-sig")))
h=r[0]; c=h.index("Number of Calls"); a=h.index("Avg Elapsed Exclusive Time")
print(round(sum(int(x[c].replace(",",""))*float(x[a].replace(",","")) for x in r[1:] if len(x)>a),2))' "$VC/CallTreeSummary.csv")
		got=$(awk '{ s += $NF } END { printf "%.2f\n", s }' "$V/ours.folded")
		awk -v a="$want" -v b="$got" 'BEGIN { exit !(a - b < 0.01 && b - a < 0.01) }' \
			&& pass "conformance/vsprof: elapsed exclusive time adds up ($got)" \
			|| fail "conformance/vsprof: elapsed exclusive time adds up" "got $got, want $want"
	fi
	# inferno stops at a bad row; here it is named and skipped (exit 0, as
	# every tool treats rows it cannot use), and a file with the wrong
	# header is not a report at all (exit 1).
	for f in incorrect-header invalid-depth invalid-function-name invalid-number-of-calls missing-function-name; do
		_want=0
		[ $f = incorrect-header ] && _want=1
		vrun $_want "conformance/vsprof: $f exits $_want" "$VC/$f.csv"
		grep -q "$f.csv:[0-9]*: " "$TMP/err" && pass "vsp: conformance/vsprof: $f names file:line" \
			|| fail "vsp: conformance/vsprof: $f names file:line" "$(cat "$TMP/err")"
	done
	vrun 0 "conformance/vsprof: an empty file is not an error" "$VC/empty-file.csv"
fi

# CallerCallee expansion: for every function, the stacks passing through it
# (each stack counted once) never weigh more than its inclusive value.
# vsp_within REPORT COLUMN FOLDED: the functions that break that, if any.
vsp_within() {
	awk -v col="$2" '
		function csv(line, f,   n, i, c, q, cur) {
			n = 0; cur = ""; q = 0
			for (i = 1; i <= length(line); i++) {
				c = substr(line, i, 1)
				if (c == "\"") q = !q
				else if (c == "," && !q) { f[++n] = cur; cur = "" }
				else cur = cur c
			}
			f[++n] = cur
			return n
		}
		FNR == NR && FNR == 1 {
			sub(/\r$/, ""); n = csv($0, h)
			for (i = 1; i <= n; i++) { if (h[i] == "Type") t = i; if (h[i] == "Function Name") fn = i; if (h[i] == col) ic = i }
			next
		}
		FNR == NR {
			sub(/\r$/, ""); csv($0, f)
			if (f[t] == "Root" || f[t] == "0") { v = f[ic]; gsub(/,/, "", v); incl[f[fn]] = v + 0 }
			next
		}
		{
			w = $NF; k = split(substr($0, 1, length($0) - length(w) - 1), fr, ";")
			split("", seen)
			for (i = 1; i <= k; i++) if (!(fr[i] in seen)) { seen[fr[i]] = 1; sum[fr[i]] += w }
		}
		END { for (s in sum) if ((s in incl) && sum[s] > incl[s] * (1 + 1e-9)) printf "%s %s > %s\n", s, sum[s], incl[s] }
	' "$1" "$3"
}
# A report that contradicts itself: F is 5 inclusive, but A and B each
# say they call it for 10.  F takes 5 (through A, first by name); the rest
# stays with its callers.
printf '%s\n' 'Type,Function Name,Inclusive Samples,Exclusive Samples' 'Root,main,20,0' 'Callee,A,10,0' \
	'Callee,B,10,0' 'Root,A,10,0' 'Caller,main,10,0' 'Callee,F,10,10' 'Root,B,10,0' 'Caller,main,10,0' \
	'Callee,F,10,10' 'Root,F,5,5' 'Caller,A,10,10' 'Caller,B,10,10' > "$V/contradicts.csv"
"$SVSP" "$V/contradicts.csv" > "$V/contradicts.folded" 2>/dev/null
printf 'main;A 5\nmain;A;F 5\nmain;B 10\n' | cmp -s - "$V/contradicts.folded" \
	&& pass "vsp: callees claiming more than a function's inclusive value get no more than it" \
	|| fail "vsp: callees claiming more than a function's inclusive value" "$(cat "$V/contradicts.folded")"
for c in "graph-recursion.csv Inclusive Samples" "graph-recursion.csv Inclusive Samples --root apply" \
	"graph-recursion.csv Inclusive Samples --root eval" "graph-recursive.csv Inclusive Samples" \
	"graph-vs2010.csv Elapsed Inclusive Time" "contradicts.csv Inclusive Samples"; do
	f=${c%% *}
	rest=${c#* }
	col=${rest%% --*}
	case "$rest" in *--root*) set -- --root "${rest##* }" ;; *) set -- ;; esac
	[ -f "$VD/$f" ] && f=$VD/$f || f=$V/$f
	"$SVSP" "$@" "$f" > "$V/within.folded" 2>/dev/null
	bad=$(vsp_within "$f" "$col" "$V/within.folded")
	if [ -z "$bad" ] && [ -s "$V/within.folded" ]; then
		pass "vsp: $(basename "$f")${*:+ $*}: no function's stacks outweigh its inclusive value"
	else
		fail "vsp: $(basename "$f")${*:+ $*}: no function's stacks outweigh its inclusive value" "$bad"
	fi
done
