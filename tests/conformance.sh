# Conformance (sourced by run.sh):
#  - ../shared/conformance/folded, the reference edge cases, when present;
#  - flamegraph.pl itself, when on PATH or named by FLAMEGRAPH_PL: every
#    golden input and every reference file under many option sets must
#    give the same frames (titles, fills, geometry within 0.1 px).

SHARED=../shared/conformance/folded
FG=$(pwd)/$B/flamegraph
C=$TMP/conf
mkdir -p "$C"

if [ ! -d "$SHARED" ]; then
	skip "conformance/folded" "../shared/conformance is not present"
else
	# Every reference input renders to well-formed XML without a crash.
	for f in "$SHARED"/*/*.txt "$SHARED"/*.txt; do
		"$FG" "$f" > "$C/out.svg" 2> "$C/err"
		rc=$?
		case "$rc" in
		0|2) pass "conformance: $(basename "$f") renders (exit $rc)" ;;
		*) fail "conformance: $(basename "$f") renders" "exit $rc: $(cat "$C/err")" ;;
		esac
		if have_python; then
			xml_ok "$C/out.svg" > "$C/xml" 2>&1 && pass "conformance: $(basename "$f") is well-formed" \
				|| fail "conformance: $(basename "$f") is well-formed" "$(cat "$C/xml")"
		fi
	done
	"$FG" "$SHARED/empty/empty.txt" > "$C/out.svg" 2> "$C/err"
	[ $? = 2 ] && grep -q "No valid input" "$C/out.svg" && pass "conformance: empty input exits 2 with an error SVG" \
		|| fail "conformance: empty input exits 2 with an error SVG"
	"$FG" "$SHARED/bad-lines/bad-lines.txt" > "$C/out.svg" 2> "$C/err"
	grep -q "ignored 3 lines with invalid format" "$C/err" && pass "conformance: bad-lines counts its 3 bad lines" \
		|| fail "conformance: bad-lines counts its 3 bad lines" "$(cat "$C/err")"
	# The valid lines of bad-lines.txt draw what they draw alone.
	grep -E ' [0-9]+$' "$SHARED/bad-lines/bad-lines.txt" > "$C/good.txt"
	"$FG" "$C/good.txt" > "$C/good.svg" 2>/dev/null
	cmp -s "$C/out.svg" "$C/good.svg" && pass "conformance: bad lines lose no valid sample" \
		|| fail "conformance: bad lines lose no valid sample"
	# Fractions never pass 100%.
	for f in "$SHARED"/fractional-samples/*.txt; do
		"$FG" "$f" 2>/dev/null | grep -o '[0-9.]*%)' | tr -d '%)' | awk '$1 > 100 { bad = 1 } END { exit bad }' \
			&& pass "conformance: $(basename "$f") stays within 100%" \
			|| fail "conformance: $(basename "$f") stays within 100%"
	done
	# nameattr variants: all load, none breaks the XML, empty first line is fine.
	for f in "$SHARED"/nameattr/nameattr*.txt; do
		"$FG" --nameattr "$f" "$SHARED/nameattr/nameattr.txt" "$SHARED/bad-lines/bad-lines.txt" > "$C/na.svg" 2> "$C/err"
		[ $? = 0 ] && pass "conformance: --nameattr $(basename "$f") loads" \
			|| fail "conformance: --nameattr $(basename "$f") loads" "$(cat "$C/err")"
		if have_python; then
			xml_ok "$C/na.svg" > "$C/xml" 2>&1 && pass "conformance: --nameattr $(basename "$f") stays well-formed" \
				|| fail "conformance: --nameattr $(basename "$f") stays well-formed" "$(cat "$C/xml")"
		fi
	done
	"$FG" --nameattr "$SHARED/nameattr/nameattr_duplicate_attributes.txt" "$SHARED/bad-lines/bad-lines.txt" 2>/dev/null \
		| grep -o '<g[^>]*id="[^"]*"[^>]*>' | grep -q 'id="[^"]*".*id=' \
		&& fail "conformance: duplicate attributes are written once" || pass "conformance: duplicate attributes are written once"
	# Palette maps: colours are taken from the map; malformed lines are skipped.
	_abs=$(cd "$SHARED" && pwd)
	for m in palette.map palette_invalid.map; do
		mkdir -p "$C/$m" && cp "$SHARED/$m" "$C/$m/palette.map"
		(cd "$C/$m" && "$FG" --cp "$_abs/bad-lines/bad-lines.txt" > out.svg 2> err)
		[ $? = 0 ] && pass "conformance: --cp with $m" || fail "conformance: --cp with $m" "$(cat "$C/$m/err")"
	done
	grep -q '<title>sys_read [^<]*</title><rect[^>]*fill="rgb(236,167,34)"' "$C/palette.map/out.svg" \
		&& pass "conformance: --cp takes colours from palette.map" || fail "conformance: --cp takes colours from palette.map"
	grep -q 'palette.map:3:' "$C/palette_invalid.map/err" && pass "conformance: invalid palette lines are reported" \
		|| fail "conformance: invalid palette lines are reported" "$(cat "$C/palette_invalid.map/err")"
fi

# Live comparison with flamegraph.pl.
PL=${FLAMEGRAPH_PL:-$(command -v flamegraph.pl 2>/dev/null)}
if [ -z "$PL" ] || ! command -v perl > /dev/null 2>&1; then
	skip "live comparison with flamegraph.pl" "flamegraph.pl is not on PATH (set FLAMEGRAPH_PL)"
else
	_inputs="tests/data/flamegraph-inputs/*.folded"
	[ -d "$SHARED" ] && _inputs="$_inputs $SHARED/*/*.txt"
	for f in $_inputs; do
		case "$f" in */empty*|*/nameattr/*) continue ;; esac
		for opts in "" "--inverted" "--reverse" "--flamechart" "--minwidth 3" "--minwidth 1%" \
			"--width 640" "--height 20 --fontsize 15" "--factor 2.5" "--negate" "--hash" \
			"--colors java" "--colors js" "--colors chain" "--colors mem"; do
			perl "$PL" $opts "$f" > "$C/p.svg" 2>/dev/null
			"$FG" $opts "$f" > "$C/o.svg" 2>/dev/null
			_loose=
			# Fractions (also from --factor) are where flamegraph.pl can pass 100%.
			grep -qE ' [0-9]+\.[0-9]*[1-9]' "$f" && _loose=--loose-pct
			case "$opts" in *--factor*) _loose=--loose-pct ;; esac
			if _d=$("$B/tests/svgframes" -c "$C/p.svg" "$C/o.svg" $_loose); then
				pass "flamegraph.pl agrees: $(basename "$f") $opts"
			else
				fail "flamegraph.pl agrees: $(basename "$f") $opts" "$_d"
			fi
		done
	done
fi

# Live comparison with difffolded.pl (its output is in hash order: sorted
# before comparing), on hand-made and recorded profiles.
DPL=${DIFFFOLDED_PL:-$(command -v difffolded.pl 2>/dev/null)}
if [ -z "$DPL" ] || ! command -v perl > /dev/null 2>&1; then
	skip "live comparison with difffolded.pl" "difffolded.pl is not on PATH (set DIFFFOLDED_PL)"
else
	printf 'main;f [0x7f3a12] 5\nmain;g 3\nmain;h;i 2.5\n' > "$C/d1"
	printf 'main;f [0xdeadbeef] 7\nmain;g 1\nmain;j 4\n' > "$C/d2"
	"$B/stackcollapse-perf" tests/data/perf/threads.txt.gz > "$C/d3" 2>/dev/null
	"$B/stackcollapse-perf" tests/data/perf/pidtid.txt.gz > "$C/d4" 2>/dev/null
	for pair in "d1 d2" "d2 d1" "d3 d4" "d4 d3" "d1 d4"; do
		set -- $pair
		for opts in "" -n -s "-n -s"; do
			# shellcheck disable=SC2086
			perl "$DPL" $opts "$C/$1" "$C/$2" 2>/dev/null | LC_ALL=C sort > "$C/dp"
			# shellcheck disable=SC2086
			"$B/difffolded" $opts "$C/$1" "$C/$2" 2>/dev/null | LC_ALL=C sort > "$C/do"
			if [ -s "$C/dp" ] && cmp -s "$C/dp" "$C/do"; then
				pass "difffolded.pl agrees: $1 $2 $opts"
			else
				fail "difffolded.pl agrees: $1 $2 $opts" "$(diff "$C/dp" "$C/do" | head -5)"
			fi
		done
	done
fi
