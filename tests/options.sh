# The command line every tool shares (sourced by run.sh): -h, --help and
# --version in each tool; each stackcollapse tool's options taken by flame
# with the same meaning; flame --summary and --top-functions on one profile.
O=$TMP/options
mkdir -p "$O"
TOOLS="flame flamegraph stackcollapse-perf stackcollapse-etw stackcollapse-vsp stackcollapse-perfview stackcollapse-lnt stackcollapse-pprof difffolded stackfilter"

_want_version=$("$B/flamegraph" --version | sed 's/^flamegraph //')
for _t in $TOOLS; do
	for _o in -h --help; do
		expect_exit 0 "options: $_t $_o exits 0" "$B/$_t" $_o
		grep -q "^Usage: $_t " "$TMP/out" && [ ! -s "$TMP/err" ] && pass "options: $_t $_o: usage on stdout" \
			|| fail "options: $_t $_o: usage on stdout" "$(head -3 "$TMP/out" "$TMP/err")"
		grep -q -- '--version' "$TMP/out" && pass "options: $_t $_o lists --version" \
			|| fail "options: $_t $_o lists --version"
	done
	expect_exit 0 "options: $_t --version exits 0" "$B/$_t" --version
	[ "$(cat "$TMP/out")" = "$_t $_want_version" ] && pass "options: $_t --version is '$_t $_want_version'" \
		|| fail "options: $_t --version" "$(cat "$TMP/out")"
	expect_exit 2 "options: $_t --no-such-option exits 2" "$B/$_t" --no-such-option
	expect_err "options: $_t names the bad option and --help" "'--no-such-option'"
	expect_err "options: $_t points to --help" "Try '$_t --help'"
	if "$B/$_t" --version > /dev/full 2>/dev/null; then
		fail "options: $_t --version to a full disk fails"
	else
		pass "options: $_t --version to a full disk fails"
	fi
done
grep -q "^VERSION *:= *${_want_version##* }$" Makefile && pass "options: the version is the Makefile's" \
	|| fail "options: the version is the Makefile's" "$_want_version"

# Every option that a stackcollapse tool lists in its help, with the same
# output through flame --collapsed.  Options with values get one that fits.
value_for() {
	case $1 in
	--event-filter) echo cpu-clock ;;
	--skip-after) echo main ;;
	--threads) echo 2 ;;
	--grep) echo ntdll ;;
	--weight) echo Weight ;;
	--metric) echo calls ;;
	--root) echo main ;;
	--sample-type) echo samples ;;
	--symbols) echo . ;;
	*) echo "" ;;
	esac
}
same_as_tool() {	# same_as_tool TOOL INPUT SKIP-REGEX
	_tool=$1 _in=$2 _skip=$3
	for _opt in $("$B/$_tool" --help | sed -n 's/^  \(-., \)\{0,1\}\(--[a-z-]*\).*/\2/p'); do
		echo "$_opt" | grep -Eq "$_skip" && continue
		_v=$(value_for "$_opt")
		"$B/$_tool" $_opt $_v "$_in" > "$O/want" 2>/dev/null
		_rw=$?
		"$B/flame" --collapsed $_opt $_v "$_in" > "$O/got" 2>"$O/err"
		_rg=$?
		if [ "$_rg" -ne 0 ] && grep -q "option" "$O/err"; then
			fail "options: flame takes $_tool's $_opt" "$(cat "$O/err")"
		elif [ "$_rw" -eq 0 ] && ! cmp -s "$O/want" "$O/got"; then
			fail "options: flame $_opt gives $_tool's stacks" "$(diff "$O/want" "$O/got" | head -5)"
		else
			pass "options: flame $_opt $_v as $_tool"
		fi
	done
}
# Left out: what flame has as its own (--pid, --tid, --process, --begin,
# --end: filters in flame; -o; --split, --top: flame's --split-by), and
# what needs a tool absent here (--inline, --context: addr2line).
same_as_tool stackcollapse-perf tests/data/perf/threads.txt.gz '^--(pid|tid|output|help|version|inline|context)$'
same_as_tool stackcollapse-etw tests/data/etw/dumper.txt '^--(pid|tid|process|begin|end|split|top|output|help|version)$'
same_as_tool stackcollapse-etw tests/data/etw/weighted.csv '^--(pid|tid|process|begin|end|split|top|output|help|version|nmi)$'
same_as_tool stackcollapse-vsp tests/data/vsp/tree-en.csv '^--(output|help|version)$'
same_as_tool stackcollapse-vsp tests/data/vsp/graph-vs2010.csv '^--(output|help|version|metric)$'
same_as_tool stackcollapse-pprof tests/data/pprof/basic.pb.gz '^--(output|help|version|quiet|verbose|nthreads)$'

# --threads means the same in flame as in stackcollapse-perf.
expect_exit 0 "options: flame --threads 0 (all cores)" "$B/flame" --collapsed --threads 0 tests/data/perf/threads.txt.gz
expect_exit 2 "options: flame --threads 2.5 is a usage error" "$B/flame" --collapsed --threads 2.5 tests/data/perf/threads.txt.gz
expect_exit 2 "options: stackcollapse-perf --threads 2.5 too" "$B/stackcollapse-perf" --threads 2.5 tests/data/perf/threads.txt.gz
expect_exit 2 "options: flame --top-functions 0 is a usage error" "$B/flame" --top-functions 0 examples/threads.folded

# --summary and --top-functions for one profile, checked against awk's sums
# of the collapsed stacks (self: the leaf; total: each stack once).
_in=tests/data/perf/threads.txt.gz
"$B/flame" --collapsed "$_in" > "$O/p.folded" 2>/dev/null
awk '{ c = $NF; $NF = ""; sub(/ $/, ""); n = split($0, f, ";"); self[f[n]] += c; delete seen
	for (i = 1; i <= n; i++) if (!(f[i] in seen)) { seen[f[i]] = 1; tot[f[i]] += c }
	all += c }
	END { for (k in tot) printf "%.0f %.0f %s\n", self[k], tot[k], k; printf "%.0f\n", all > "/dev/stderr" }' \
	"$O/p.folded" 2> "$O/total" | LC_ALL=C sort -k1,1nr -k2,2nr -k3 > "$O/want.self"
expect_exit 0 "options: flame --summary on one profile" "$B/flame" "$_in" -o "$O/p.svg" --summary "$O/s.json" --top-functions 5
if have_python; then
	python3 - "$O/s.json" "$O/want.self" "$(cat "$O/total")" > "$O/py" 2>&1 <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
want = [l.split(' ', 2) for l in open(sys.argv[2]).read().splitlines()]
total = float(sys.argv[3])
assert s["total"] == total, (s["total"], total)
top = s["top_self"]
assert len(top) == min(20, len(want)), len(top)
for got, w in zip(top, want):
    assert got["self"] == float(w[0]) and got["total"] == float(w[1]), (got, w)
    assert abs(got["pct"] - 100 * float(w[0]) / total) < 1e-3, got
incl = [t["total"] for t in s["top_inclusive"]]
assert incl == sorted(incl, reverse=True), incl
PY
	[ $? = 0 ] && pass "options: --summary JSON has the stacks' self and total weights" \
		|| fail "options: --summary JSON" "$(cat "$O/py")"
else
	skip "options: --summary JSON" "python3 is not installed"
fi
head -n 5 "$O/want.self" | awk '{ print $1, $2 }' > "$O/want.top"
sed 1d "$TMP/out" | awk '{ print $1, $3 }' > "$O/got.top"
cmp -s "$O/want.top" "$O/got.top" && [ "$(wc -l < "$TMP/out")" = 6 ] \
	&& pass "options: --top-functions 5 prints the 5 heaviest, on stdout with -o" \
	|| fail "options: --top-functions 5" "$(cat "$TMP/out")"
"$B/flame" "$_in" --top-functions 3 > "$O/svg" 2> "$O/table"
head -c 5 "$O/svg" | grep -q '<?xml' && [ "$(wc -l < "$O/table")" = 4 ] \
	&& pass "options: --top-functions goes to stderr when the SVG is on stdout" \
	|| fail "options: --top-functions with the SVG on stdout" "$(head -3 "$O/table")"
printf 'a;b\033[31m 3\n' > "$O/ctl.folded"
"$B/flame" "$O/ctl.folded" -o "$O/ctl.svg" --top-functions 3 > "$O/ctl.out" 2>&1
if grep -q "$(printf '\033')" "$O/ctl.out"; then
	fail "options: --top-functions writes no control bytes from names"
else
	pass "options: --top-functions writes no control bytes from names"
fi

# The README's format table is flame's (collapse/format.c's) row for row.
sed -n '/<!-- formats: flame --list-formats -->/,/<!-- \/formats -->/p' README.md \
	| sed -n 's/^| `\([^`]*\)` | \(.*\) |$/\1\t\2/p' > "$O/readme.formats"
"$B/flame" --list-formats > "$O/flame.formats"
[ -s "$O/flame.formats" ] && cmp -s "$O/readme.formats" "$O/flame.formats" \
	&& pass "options: the README lists the formats of the format table" \
	|| fail "options: README's format table" "$(diff "$O/flame.formats" "$O/readme.formats")"
"$B/flame" --help | grep -q "content: $(cut -f1 "$O/flame.formats" | paste -sd, - | sed 's/,/, /g')$" \
	&& pass "options: flame --help names every format" || fail "options: flame --help formats"

# --to: every writer named in the error for an unknown one is in --help's
# line; collapsed and svg are what --collapsed and the default write.
_to=$("$B/flame" --to nonsense tests/data/perf/threads.txt.gz 2>&1 >/dev/null | sed -n 's/.*(known: \(.*\))$/\1/p')
# The help's --to paragraph, its lines joined.
_tohelp=$("$B/flame" --help | sed -n '/^  --to FORMAT/,/^  --[a-z]/p' | sed '$d' | tr -s ' \n' '  ')
printf '%s\n' "$_tohelp" | grep -q -- "--to FORMAT write FORMAT: $(echo "$_to" | sed 's/^svg/svg (the default)/') *\$" \
	&& [ -n "$_to" ] && pass "options: flame --help names every --to format ($_to)" \
	|| fail "options: flame --help names every --to format" "error lists '$_to'; help: $("$B/flame" --help | grep -- --to)"
"$B/flame" --to collapsed tests/data/perf/threads.txt.gz > "$O/to.folded" 2> /dev/null
"$B/flame" --collapsed tests/data/perf/threads.txt.gz > "$O/c.folded" 2> /dev/null
[ -s "$O/to.folded" ] && cmp -s "$O/to.folded" "$O/c.folded" && pass "options: --to collapsed is --collapsed" \
	|| fail "options: --to collapsed is --collapsed"
"$B/flame" --to svg tests/data/perf/threads.txt.gz > "$O/to.svg" 2> /dev/null
"$B/flame" tests/data/perf/threads.txt.gz > "$O/c.svg" 2> /dev/null
[ -s "$O/to.svg" ] && cmp -s "$O/to.svg" "$O/c.svg" && pass "options: --to svg is the default" \
	|| fail "options: --to svg is the default"
"$B/flame" --to nonsense tests/data/perf/threads.txt.gz > /dev/null 2>&1
[ $? = 2 ] && pass "options: an unknown --to is a usage error (exit 2)" || fail "options: unknown --to exits 2"

# Progress on stderr: on a terminal (script(1) gives the tool one) a line
# for a big input (FLAME_PROGRESS_MIN lowers "big" for the test), taken
# off the screen before any message; nothing when stderr is not one.
if command -v script > /dev/null 2>&1; then
	_pin=tests/data/perf/threads.txt.gz
	for _t in "stackcollapse-perf --threads 1" flame; do
		FLAME_PROGRESS_MIN=1 script -qec "$B/$_t $_pin > $O/prog.out" /dev/null > "$O/tty" 2>&1
		_name=${_t%% *}
		grep -q "$_name: $_pin: .*%" "$O/tty" && pass "options: $_name shows progress on a terminal" \
			|| fail "options: $_name shows progress on a terminal" "$(od -c "$O/tty" | head -5)"
		FLAME_PROGRESS_MIN=1 "$B/$_name" $_pin > "$O/prog.out" 2> "$O/notty"
		grep -q '%' "$O/notty" && fail "options: $_name shows no progress off a terminal" "$(cat "$O/notty")" \
			|| pass "options: $_name shows no progress off a terminal"
	done
	printf 'main;a 1\nbad line\n' | gzip > "$O/warn.gz"
	FLAME_PROGRESS_MIN=1 script -qec "$B/flamegraph $O/warn.gz > $O/prog.svg" /dev/null > "$O/tty" 2>&1
	# The message starts a line of its own: after the line was blanked ("\r  \r").
	tr '\r' '\n' < "$O/tty" | grep -q '^flamegraph: ignored 1 lines' \
		&& pass "options: a message takes the progress line off first" \
		|| fail "options: a message takes the progress line off first" "$(od -c "$O/tty" | head -8)"
else
	skip "options: progress on a terminal" "script(1) is not installed"
fi
