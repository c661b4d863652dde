# stackcollapse-instruments tests (sourced by run.sh).  The expected output
# of our own export is stackcollapse-instruments.pl's, merged: the script
# prints a line per row, unsorted, which flamegraph sums; we write the sums
# sorted (with FLAMEGRAPH_DIR=DIR, this suite runs the script again).
SIN=$(pwd)/$B/stackcollapse-instruments
IND=tests/data/instruments
INX=$TMP/instruments
mkdir -p "$INX"

"$SIN" "$IND/own.txt" > "$INX/out" 2> "$INX/err"
cmp -s "$INX/out" "$IND/results/own.folded" && pass "instruments: own export" \
	|| fail "instruments: own export" "$(diff "$IND/results/own.folded" "$INX/out")"
if [ -n "${FLAMEGRAPH_DIR:-}" ] && [ -f "$FLAMEGRAPH_DIR/stackcollapse-instruments.pl" ]; then
	perl "$FLAMEGRAPH_DIR/stackcollapse-instruments.pl" "$IND/own.txt" \
		| awk '{ n = $NF; s = $0; sub(/ [0-9]+$/, "", s); t[s] += n } END { for (s in t) print s " " t[s] }' \
		| LC_ALL=C sort | cmp -s - "$IND/results/own.folded" \
		&& pass "instruments: own expected output is the script's, merged" \
		|| fail "instruments: own expected output is the script's, merged"
else
	skip "instruments: own expected output against the script" "set FLAMEGRAPH_DIR to a FlameGraph checkout"
fi
# Independently: the self times, in ms, summed by awk (with the script's
# rounding of each row, ties to even).
_want=$(awk -F'\t' 'NR > 1 { split($2, a, " "); v = a[1] * (a[2] == "min" ? 60000 : a[2] == "s" ? 1000 : 1); t += sprintf("%.0f", v) } END { print t }' "$IND/own.txt")
[ "$(awk '{ t += $NF } END { print t }' "$INX/out")" = "$_want" ] && pass "instruments: total self time ($_want ms)" \
	|| fail "instruments: total self time" "want $_want"
{ cat "$IND/own.txt"; printf 'garbage\n1.0 ms   1.0%%\t1.0 ms\t \t      deep\n'; } > "$INX/bad.txt"
expect_exit 0 "instruments: bad rows are warnings" "$SIN" "$INX/bad.txt"
expect_err "instruments: a bad row is named" "bad.txt:10: not a call tree row"
expect_err "instruments: a skipped level is named" "bad.txt:11: the indent skips a level"
grep -q 'start;\[missing\];\[missing\];\[missing\];deep 1$' "$TMP/out" && pass "instruments: ... filled, the row kept" \
	|| fail "instruments: ... filled, the row kept" "$(cat "$TMP/out")"
printf 'nothing here\n' > "$INX/none.txt"
expect_exit 1 "instruments: no rows: exit 1" "$SIN" "$INX/none.txt"
"$B/flame" "$IND/own.txt" -o "$INX/a.svg" 2> "$INX/e"
grep -q 'compute(int, double)' "$INX/a.svg" && pass "instruments: flame detects it" \
	|| fail "instruments: flame detects it" "$(cat "$INX/e")"
