# stackcollapse-bpftrace tests (sourced by run.sh).  The expected output
# of our own bpftrace output is stackcollapse-bpftrace.pl's, merged: the
# script prints a line per key, unsorted, which flamegraph sums; we write
# the sums sorted (FLAMEGRAPH_DIR=DIR runs the script again).
SBT=$(pwd)/$B/stackcollapse-bpftrace
BTD=tests/data/bpftrace
BTX=$TMP/bpftrace
mkdir -p "$BTX"

"$SBT" "$BTD/own.bt" > "$BTX/out" 2> "$BTX/err"
cmp -s "$BTX/out" "$BTD/results/own.folded" && pass "bpftrace: own output" \
	|| fail "bpftrace: own output" "$(diff "$BTD/results/own.folded" "$BTX/out")"
if [ -n "${FLAMEGRAPH_DIR:-}" ] && [ -f "$FLAMEGRAPH_DIR/stackcollapse-bpftrace.pl" ]; then
	perl "$FLAMEGRAPH_DIR/stackcollapse-bpftrace.pl" "$BTD/own.bt" \
		| awk '{ n = $NF; s = $0; sub(/ [0-9]+$/, "", s); t[s] += n } END { for (s in t) print s " " t[s] }' \
		| LC_ALL=C sort | cmp -s - "$BTD/results/own.folded" \
		&& pass "bpftrace: own expected output is the script's, merged" \
		|| fail "bpftrace: own expected output is the script's, merged"
else
	skip "bpftrace: own expected output against the script" "set FLAMEGRAPH_DIR to a FlameGraph checkout"
fi
# Independently: the counts of the "]: N" lines, summed.
_want=$(sed -n 's/.*\]: \([0-9]*\)$/\1/p' "$BTD/own.bt" | awk '{ t += $1 } END { print t }')
[ "$(awk '{ t += $NF } END { print t }' "$BTX/out")" = "$_want" ] && pass "bpftrace: every count ($_want)" \
	|| fail "bpftrace: every count" "want $_want"
head -n 12 "$BTD/own.bt" > "$BTX/cut.bt"
expect_exit 1 "bpftrace: output cut inside a key: exit 1" "$SBT" "$BTX/cut.bt"
expect_err "bpftrace: ... named" "ends inside the key of line 11"
grep -q '^swapper/0 120$' "$TMP/out" && pass "bpftrace: ... the stacks before kept" || fail "bpftrace: ... the stacks before kept"
printf 'nothing\n' > "$BTX/none.bt"
expect_exit 1 "bpftrace: no stacks: exit 1" "$SBT" "$BTX/none.bt"
"$B/flame" "$BTD/own.bt" -o "$BTX/a.svg" 2> "$BTX/e"
grep -q 'native_safe_halt' "$BTX/a.svg" && pass "bpftrace: flame detects it" || fail "bpftrace: flame detects it" "$(cat "$BTX/e")"
