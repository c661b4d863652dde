# stackcollapse-guess tests (sourced by run.sh): each input gives what its
# own collapser gives, and the shared conformance cases (inferno's
# collapse-guess tests, guess/cases.tsv) give inferno's output where flame
# reads the format the same way.
SGU=$(pwd)/$B/stackcollapse-guess
GC=../shared/conformance/collapsers
GX=$TMP/guess
mkdir -p "$GX"

# gu_like NAME TOOL INPUT: guess gives what TOOL gives.
gu_like() {
	"$B/$2" "$3" > "$GX/want" 2> /dev/null
	"$SGU" "$3" > "$GX/out" 2> "$GX/err"
	[ -s "$GX/want" ] && cmp -s "$GX/out" "$GX/want" && pass "guess: $1 as $2" \
		|| fail "guess: $1 as $2" "$(head -3 "$GX/err")"
}
gu_like dtrace stackcollapse-dtrace tests/data/dtrace/own.txt
gu_like sample stackcollapse-sample tests/data/sample/own.txt
gu_like perf stackcollapse-perf examples/threads.perf.gz
gu_like wpa-csv stackcollapse-etw tests/data/etw/cpu.csv
gu_like vs-calltree stackcollapse-vsp tests/data/vsp/tree-en.csv
gu_like perfview stackcollapse-perfview tests/data/perfview/bare.json
"$SGU" tests/data/dtrace/own.txt tests/data/sample/own.txt > "$GX/two"
cat tests/data/dtrace/results/own.default.folded tests/data/sample/results/own.default.folded | LC_ALL=C sort > "$GX/two.want"
cmp -s "$GX/two" "$GX/two.want" && pass "guess: two inputs of two formats" || fail "guess: two inputs of two formats"
printf 'hello\nworld\n' > "$GX/unknown.txt"
expect_exit 1 "guess: an unknown format: exit 1" "$SGU" "$GX/unknown.txt"
expect_err "guess: an unknown format is named" "cannot tell its format"
expect_exit 1 "guess: -q keeps the error" "$SGU" -q "$GX/unknown.txt"
expect_err "guess: -q keeps the error" "cannot tell its format"

if [ ! -f "$GC/guess/cases.tsv" ]; then
	skip "conformance/collapsers/guess" "../shared/conformance is not present"
else
	# Formats flame reads as inferno does; vsprof is weighted otherwise
	# by default (stackcollapse-vsp --metric calls-inferno gives inferno's).
	# (empty fields made "-": a tab run is one separator to read)
	tail -n +2 "$GC/guess/cases.tsv" | sed 's/		/	-	/g; s/		/	-	/g' | while IFS='	' read -r _in _exp _sq _gen _note; do
		# Not compared: vsprof (weighted otherwise by default), formats
		# flame does not read yet, and a perf input inferno refuses whole
		# where flame's perf reader names the bad lines (checked below).
		case $_in in ../vsprof/*|vtune/*|xctrace/*|guess/invalid-perf*) continue ;; esac
		[ -f "$GC/$_in" ] || { echo "skip $_in"; continue; }
		"$SGU" -q "$GC/$_in" > "$GX/out" 2> /dev/null
		if [ "$_sq" = yes ]; then
			tr -d "\"'" < "$GX/out" > "$GX/a"; tr -d "\"'" < "$GC/$_gen" > "$GX/b"
		else
			cp "$GX/out" "$GX/a"; cp "$GC/$_gen" "$GX/b"
		fi
		case $_in in sample/*)	# leaves on one path summed, not overwritten
			sed -i 's/ [0-9]*$//' "$GX/a" "$GX/b" ;;
		esac
		cmp -s "$GX/a" "$GX/b" && echo "pass $_in" || echo "FAIL guess: conformance $_in"
	done > "$GX/cases"
	PASSED=$((PASSED + $(grep -c '^pass' "$GX/cases")))
	FAILED=$((FAILED + $(grep -c '^FAIL' "$GX/cases")))
	SKIPPED=$((SKIPPED + $(grep -c '^skip' "$GX/cases")))
	grep -v '^pass' "$GX/cases"
	"$SGU" "$GC/guess/invalid-perf-with-empty-line-after-event-line.txt" > /dev/null 2> "$GX/err"
	grep -q 'line.txt:3: not an event header' "$GX/err" && pass "guess: conformance invalid-perf: bad lines named" \
		|| fail "guess: conformance invalid-perf: bad lines named" "$(head -3 "$GX/err")"
fi
