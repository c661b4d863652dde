# stackcollapse-gdb tests (sourced by run.sh).  tests/data/gdb/own.txt is
# real gdb output ("thread apply all bt" on a small two-thread program,
# three runs); its expected output was made by stackcollapse-gdb.pl
# (FLAMEGRAPH_DIR=DIR runs the script again).
SGD=$(pwd)/$B/stackcollapse-gdb
GDD=tests/data/gdb
GDX=$TMP/gdb
mkdir -p "$GDX"

"$SGD" "$GDD/own.txt" > "$GDX/out" 2> "$GDX/err"
cmp -s "$GDX/out" "$GDD/results/own.folded" && pass "gdb: own recording" \
	|| fail "gdb: own recording" "$(diff "$GDD/results/own.folded" "$GDX/out")"
if [ -n "${FLAMEGRAPH_DIR:-}" ] && [ -f "$FLAMEGRAPH_DIR/stackcollapse-gdb.pl" ]; then
	perl "$FLAMEGRAPH_DIR/stackcollapse-gdb.pl" "$GDD/own.txt" | cmp -s - "$GDD/results/own.folded" \
		&& pass "gdb: own expected output is the script's" || fail "gdb: own expected output is the script's"
else
	skip "gdb: own expected output against the script" "set FLAMEGRAPH_DIR to a FlameGraph checkout"
fi
# Independently: one sample per "#0" line, and the leaf of each is its
# "#0" function.
_want=$(grep -c '^#0 ' "$GDD/own.txt")
[ "$(awk '{ t += $NF } END { print t }' "$GDX/out")" = "$_want" ] && pass "gdb: a sample per backtrace ($_want)" \
	|| fail "gdb: a sample per backtrace"
grep -q ';__libc_pause 3$' "$GDX/out" && pass "gdb: an address frame is named by its function" \
	|| fail "gdb: an address frame is named by its function"
{ cat "$GDD/own.txt"; printf '#0  0x1 in last () at x.c:1\n#1  0x2 in main () at x.c:2'; } > "$GDX/last.txt"
"$SGD" "$GDX/last.txt" > "$GDX/out2"
grep -q '^main;last 1$' "$GDX/out2" && pass "gdb: a last backtrace with no line after it counts" \
	|| fail "gdb: a last backtrace with no line after it counts" "$(cat "$GDX/out2")"
printf 'nothing\n' > "$GDX/none.txt"
expect_exit 1 "gdb: no backtraces: exit 1" "$SGD" -q "$GDX/none.txt"
"$B/flame" "$GDD/own.txt" -o "$GDX/a.svg" 2> "$GDX/e"
grep -q '__GI_abort' "$GDX/a.svg" && pass "gdb: flame detects it" || fail "gdb: flame detects it" "$(cat "$GDX/e")"
