# stackcollapse-ghcprof tests (sourced by run.sh).  tests/data/ghcprof's
# expected outputs were made by running inferno-collapse-ghcprof on our
# own report (INFERNO_BIN=DIR runs it again); the shared conformance data
# holds inferno's on its test reports.
SGH=$(pwd)/$B/stackcollapse-ghcprof
GHD=tests/data/ghcprof
GHC=../shared/conformance/collapsers/ghcprof
GHX=$TMP/ghcprof
mkdir -p "$GHX"

gh_same() {
	_n=$1 _w=$2
	shift 2
	"$SGH" "$@" > "$GHX/out" 2> "$GHX/err"
	if cmp -s "$GHX/out" "$_w"; then pass "ghcprof: $_n"
	else fail "ghcprof: $_n" "$(diff "$_w" "$GHX/out" | head -6)"; fi
}

for _o in default ticks bytes; do
	_a=; [ "$_o" = default ] || _a=--$_o
	gh_same "own report ($_o)" "$GHD/results/own.$_o.folded" $_a "$GHD/own.prof"
	if [ -n "${INFERNO_BIN:-}" ] && [ -x "$INFERNO_BIN/inferno-collapse-ghcprof" ]; then
		"$INFERNO_BIN/inferno-collapse-ghcprof" $_a "$GHD/own.prof" | cmp -s - "$GHD/results/own.$_o.folded" \
			&& pass "ghcprof: own $_o output is inferno's" || fail "ghcprof: own $_o output is inferno's"
	else
		skip "ghcprof: own $_o output against inferno" "set INFERNO_BIN to inferno's bin directory"
	fi
done
gh_same "--time is the default" "$GHD/results/own.default.folded" --time "$GHD/own.prof"
# Independently: the individual ticks column, summed by awk, is the total.
_want=$(awk '/^COST CENTRE +MODULE +SRC +no\./ { on = 1; getline; next } on && NF == 0 { on = 0 } on { t += $(NF - 1) } END { print t }' "$GHD/own.prof")
"$SGH" --ticks "$GHD/own.prof" | awk '{ t += $NF } END { print t }' > "$GHX/got"
[ "$(cat "$GHX/got")" = "$_want" ] && pass "ghcprof: --ticks total is the report's ($_want)" \
	|| fail "ghcprof: --ticks total" "got $(cat "$GHX/got"), want $_want"
sed 's/  ticks     bytes$//; s/ *[0-9]* *[0-9]*$//' "$GHD/own.prof" > "$GHX/noticks.prof"
expect_exit 1 "ghcprof: --ticks without the column: exit 1" "$SGH" --ticks "$GHX/noticks.prof"
expect_err "ghcprof: ... and says so" "no 'ticks' column"
sed 's/^   solve     Main             demo.hs:10:1-20  130        1000   62.0/   solve     Main             demo.hs:10:1-20  130        1000   x/; s/^    step /     step/' "$GHD/own.prof" > "$GHX/bad.prof"
expect_exit 0 "ghcprof: bad lines are warnings" "$SGH" "$GHX/bad.prof"
expect_err "ghcprof: a bad cost is named" "bad.prof:18: the cost is not a number"
expect_err "ghcprof: a skipped level is named" "bad.prof:19: the indent skips a level"
grep -q 'Main.solve;\[missing\];Data.Step.step 257' "$TMP/out" && pass "ghcprof: ... filled, the lines below kept" \
	|| fail "ghcprof: ... filled, the lines below kept" "$(cat "$TMP/out")"
expect_exit 1 "ghcprof: not a report: exit 1" "$SGH" "$GHD/results/own.default.folded"
"$B/flame" "$GHD/own.prof" -o "$GHX/a.svg" 2> "$GHX/e"
grep -q 'Data.Step.go' "$GHX/a.svg" && pass "ghcprof: flame detects it" || fail "ghcprof: flame detects it" "$(cat "$GHX/e")"

if [ ! -d "$GHC" ]; then
	skip "conformance/collapsers/ghcprof" "../shared/conformance is not present"
else
	for _s in percent ticks; do
		for _o in default ticks bytes; do
			_a=; [ "$_o" = default ] || _a=--$_o
			if [ -f "$GHC/results/$_s.inferno-$_o.folded" ]; then
				gh_same "conformance $_s ($_o) = inferno" "$GHC/results/$_s.inferno-$_o.folded" -q $_a "$GHC/$_s.prof"
			else
				"$SGH" $_a "$GHC/$_s.prof" > /dev/null 2> "$GHX/err"
				[ $? = 1 ] && grep -q "no '$_o' column" "$GHX/err" \
					&& pass "ghcprof: conformance $_s ($_o): no column, exit 1 as inferno" \
					|| fail "ghcprof: conformance $_s ($_o): no column" "$(cat "$GHX/err")"
			fi
		done
	done
	for _p in "percent percent" "ticks ticks" "ticks ticks_ticks --ticks" "ticks ticks_bytes --bytes"; do
		set -- $_p
		sed 's/[[:space:]]*$//' "$GHC/results/$2.txt" | grep -v '^$' > "$GHX/want"
		gh_same "inferno's test $2" "$GHX/want" -q $3 "$GHC/$1.prof"
	done
fi
