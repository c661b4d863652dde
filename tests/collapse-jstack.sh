# stackcollapse-jstack tests (sourced by run.sh).  tests/data/jstack's
# expected outputs were made by running stackcollapse-jstack.pl on our own
# dumps with each option (FLAMEGRAPH_DIR=DIR runs it again).
SJS=$(pwd)/$B/stackcollapse-jstack
JSD=tests/data/jstack
JSX=$TMP/jstack
mkdir -p "$JSX"

for _o in default no-include-tname include-tid shorten-pkgs; do
	_a=; [ "$_o" = default ] || _a=--$_o
	"$SJS" -q $_a "$JSD/own.txt" > "$JSX/out" 2> "$JSX/err"
	cmp -s "$JSX/out" "$JSD/results/own.$_o.folded" && pass "jstack: own dumps ($_o)" \
		|| fail "jstack: own dumps ($_o)" "$(diff "$JSD/results/own.$_o.folded" "$JSX/out")"
	if [ -n "${FLAMEGRAPH_DIR:-}" ] && [ -f "$FLAMEGRAPH_DIR/stackcollapse-jstack.pl" ]; then
		perl "$FLAMEGRAPH_DIR/stackcollapse-jstack.pl" $_a "$JSD/own.txt" 2> /dev/null \
			| cmp -s - "$JSD/results/own.$_o.folded" && pass "jstack: own $_o output is the script's" \
			|| fail "jstack: own $_o output is the script's"
	else
		skip "jstack: own $_o output against the script" "set FLAMEGRAPH_DIR to a FlameGraph checkout"
	fi
done
# Independently: one sample per RUNNABLE thread with frames, less the ones
# waiting in epoll and the compiler thread (2 here), worked out by awk.
_want=$(awk '/^"/ { name = $0 } /Thread.State: RUNNABLE/ && name !~ /CompilerThread/ { n++ } END { print n - 1 }' "$JSD/own.txt")
[ "$(awk '{ t += $NF } END { print t }' "$JSD/results/own.default.folded")" = "$_want" ] \
	&& pass "jstack: a sample per runnable thread ($_want)" || fail "jstack: a sample per runnable thread"
"$SJS" "$JSD/own.txt" > /dev/null 2> "$JSX/err"
grep -q 'own.txt:20: a line that is not part of a thread dump' "$JSX/err" && pass "jstack: a strange line is named" \
	|| fail "jstack: a strange line is named" "$(cat "$JSX/err")"
printf '"t" #1\n   java.lang.Thread.State: RUNNABLE\n\tat a.b.C.d(C.java:1)\n' > "$JSX/last.txt"
expect_exit 0 "jstack: a last thread with no blank line" "$SJS" "$JSX/last.txt"
[ "$(cat "$TMP/out")" = "t;a.b.C.d 1" ] && pass "jstack: ... counts (the script drops it)" \
	|| fail "jstack: ... counts" "$(cat "$TMP/out")"
printf 'hello\n' > "$JSX/none.txt"
expect_exit 1 "jstack: no threads: exit 1" "$SJS" -q "$JSX/none.txt"
"$B/flame" "$JSD/own.txt" --shorten-pkgs -o "$JSX/a.svg" 2> /dev/null
grep -q 'j.u.HashMap.get' "$JSX/a.svg" && pass "jstack: flame detects it, takes --shorten-pkgs" \
	|| fail "jstack: flame detects it, takes --shorten-pkgs"
