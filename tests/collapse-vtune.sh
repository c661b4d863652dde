# stackcollapse-vtune tests (sourced by run.sh).  tests/data/vtune's
# expected outputs were made by running inferno-collapse-vtune on our own
# input (INFERNO_BIN=DIR runs it again); the shared conformance data holds
# inferno's on its test inputs.
SVT=$(pwd)/$B/stackcollapse-vtune
VTD=tests/data/vtune
VTC=../shared/conformance/collapsers/vtune
VTX=$TMP/vtune
mkdir -p "$VTX"

vt_same() {
	_n=$1 _w=$2
	shift 2
	"$SVT" "$@" > "$VTX/out" 2> "$VTX/err"
	if cmp -s "$VTX/out" "$_w"; then pass "vtune: $_n"
	else fail "vtune: $_n" "$(diff "$_w" "$VTX/out" | head -6)"; fi
}

vt_same "own input, default" "$VTD/results/own.default.folded" "$VTD/own.csv"
vt_same "own input, --no-modules" "$VTD/results/own.no-modules.folded" --no-modules "$VTD/own.csv"
{ printf '\357\273\277'; cat "$VTD/own.csv"; } > "$VTX/bom.csv"
vt_same "a byte order mark is read past (inferno finds no header)" "$VTD/results/own.default.folded" "$VTX/bom.csv"
gzip -c "$VTD/own.csv" > "$VTX/own.csv.gz"
vt_same "gzip input" "$VTD/results/own.default.folded" "$VTX/own.csv.gz"
if [ -n "${INFERNO_BIN:-}" ] && [ -x "$INFERNO_BIN/inferno-collapse-vtune" ]; then
	for _o in default no-modules; do
		_a=; [ "$_o" = no-modules ] && _a=--no-modules
		"$INFERNO_BIN/inferno-collapse-vtune" $_a "$VTD/own.csv" | cmp -s - "$VTD/results/own.$_o.folded" \
			&& pass "vtune: own $_o output is inferno's" || fail "vtune: own $_o output is inferno's"
	done
else
	skip "vtune: own expected outputs against inferno" "set INFERNO_BIN to inferno's bin directory"
fi
# Self times in seconds become whole milliseconds, rounded half away from
# zero, and rows of one path are summed (inferno keeps the last).
printf 'Function Stack,CPU Time:Self,Module\nmain,0.0005,a\n f,0.0024,a\n f,1,a\n g,0.0004,a\n' > "$VTX/ms.csv"
printf 'a`main 1\na`main;a`f 1002\n' > "$VTX/ms.want"
vt_same "milliseconds rounded, one path summed" "$VTX/ms.want" "$VTX/ms.csv"
printf 'Function Stack,CPU Time:Self,Module\nmain,0,a\n f,zero,a\n g,1,a\n  h\n   i,3,a\n k,2,a\n    deep,5,a\n' > "$VTX/bad.csv"
expect_exit 0 "vtune: bad rows are warnings" "$SVT" "$VTX/bad.csv"
# A bad time reads as 0; a row that cannot be read is a frame standing
# for it, and a skipped level is filled: the rows below keep their time.
printf 'a`main;a`g 1000\na`main;a`g;[unreadable];a`i 3000\na`main;a`k 2000\na`main;a`k;[missing];[missing];a`deep 5000\n' > "$VTX/bad.want"
cmp -s "$TMP/out" "$VTX/bad.want" && pass "vtune: bad rows named, every sample kept" \
	|| fail "vtune: bad rows named, every sample kept" "$(cat "$TMP/out")"
expect_err "vtune: a bad time is named" "bad.csv:3: the CPU Time:Self field is not a number"
expect_err "vtune: a short row is named" "bad.csv:5: a row without a function"
printf 'Function Stack,CPU Time,Module\n' > "$VTX/other.csv"
expect_exit 1 "vtune: no header: exit 1" "$SVT" "$VTX/other.csv"
expect_err "vtune: no header is named" "not a VTune top-down CSV"
"$B/flame" "$VTD/own.csv" -o "$VTX/a.svg" 2> "$VTX/e"
grep -q 'app.exe`worker' "$VTX/a.svg" && pass "vtune: flame detects it" || fail "vtune: flame detects it" "$(cat "$VTX/e")"

if [ ! -d "$VTC" ]; then
	skip "conformance/collapsers/vtune" "../shared/conformance is not present"
else
	for _o in default no-modules; do
		_a=; [ "$_o" = no-modules ] && _a=--no-modules
		vt_same "conformance vtune ($_o) = inferno" "$VTC/results/vtune.inferno-$_o.folded" -q $_a "$VTC/vtune.csv"
		sed 's/[[:space:]]*$//' "$VTC/results/vtune-$_o.txt" | grep -v '^$' > "$VTX/want"
		vt_same "inferno's test vtune-$_o" "$VTX/want" -q $_a "$VTC/vtune.csv"
		vt_same "conformance end-before-header ($_o) = inferno (empty)" \
			"$VTC/results/end-before-header.inferno-$_o.folded" -q $_a "$VTC/end-before-header.csv"
	done
	for _s in bad-stack-line skipped-indentation; do
		"$SVT" "$VTC/$_s.csv" > "$VTX/out" 2> "$VTX/err"
		_rc=$?
		[ "$_rc" = 0 ] && grep -q "$_s.csv:[0-9]*: " "$VTX/err" && [ -s "$VTX/out" ] \
			&& pass "vtune: conformance $_s: named, skipped, the rest kept" \
			|| fail "vtune: conformance $_s: named, skipped, the rest kept" "exit $_rc: $(head -3 "$VTX/err")"
	done
fi
