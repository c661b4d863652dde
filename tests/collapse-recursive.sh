# stackcollapse-recursive tests (sourced by run.sh).  The expected output
# of our own input is inferno-collapse-recursive's (INFERNO_BIN=DIR runs
# it again); the shared conformance data holds inferno's and the Perl
# script's on theirs.
SRC=$(pwd)/$B/stackcollapse-recursive
RD=tests/data/recursive
RC=../shared/conformance/collapsers/recursive
RX=$TMP/recursive
mkdir -p "$RX"

"$SRC" "$RD/own.folded" > "$RX/out" 2> "$RX/err"
cmp -s "$RX/out" "$RD/results/own.folded" && pass "recursive: own input" \
	|| fail "recursive: own input" "$(diff "$RD/results/own.folded" "$RX/out")"
# Independently: no frame follows itself, and the total is kept.
awk '{ n = split($1, f, ";"); for (i = 2; i <= n; i++) if (f[i] == f[i - 1]) bad = 1 } END { exit bad }' "$RX/out" \
	&& pass "recursive: no frame repeats after folding" || fail "recursive: no frame repeats after folding"
[ "$(awk '{ t += $NF } END { print t }' "$RX/out")" = "$(awk '{ t += $NF } END { print t }' "$RD/own.folded")" ] \
	&& pass "recursive: the total is kept" || fail "recursive: the total is kept"
if [ -n "${INFERNO_BIN:-}" ] && [ -x "$INFERNO_BIN/inferno-collapse-recursive" ]; then
	"$INFERNO_BIN/inferno-collapse-recursive" "$RD/own.folded" | cmp -s - "$RD/results/own.folded" \
		&& pass "recursive: own expected output is inferno's" || fail "recursive: own expected output is inferno's"
else
	skip "recursive: own expected output against inferno" "set INFERNO_BIN to inferno's bin directory"
fi
printf 'a;a 1\nnot a stack\nb;b;c 2\n' > "$RX/bad.folded"
expect_exit 0 "recursive: a line that is not a stack is a warning" "$SRC" "$RX/bad.folded"
[ "$(cat "$TMP/out")" = "$(printf 'a 1\nb;c 2')" ] && pass "recursive: ... skipped, the rest kept" \
	|| fail "recursive: ... skipped, the rest kept" "$(cat "$TMP/out")"
expect_err "recursive: ... named with its line" "bad.folded:2: skipped 1 lines"
printf 'f;f 2\n' | "$SRC" > "$RX/stdin.out"
[ "$(cat "$RX/stdin.out")" = "f 2" ] && pass "recursive: reads stdin" || fail "recursive: reads stdin"
expect_exit 2 "recursive: an unknown option: exit 2" "$SRC" --bogus

if [ ! -d "$RC" ]; then
	skip "conformance/collapsers/recursive" "../shared/conformance is not present"
else
	for _t in inferno perl; do
		"$SRC" "$RC/basic.txt" | cmp -s - "$RC/results/basic.$_t-default.folded" \
			&& pass "recursive: conformance basic = $_t" || fail "recursive: conformance basic = $_t"
	done
fi
