# stackcollapse-dtrace tests (sourced by run.sh).  Expected outputs are
# the originals': tests/data/dtrace/results/* were made by running
# inferno-collapse-dtrace on our own inputs (with INFERNO_BIN=DIR set,
# this suite runs it again to show they still are), and the shared
# conformance data holds inferno's and stackcollapse.pl's on theirs.
SDT=$(pwd)/$B/stackcollapse-dtrace
DD=tests/data/dtrace
DC=../shared/conformance/collapsers/dtrace
DX=$TMP/dtrace
mkdir -p "$DX"

# dt_same NAME WANT ARGS...: the tool's stdout is WANT, byte for byte.
dt_same() {
	_n=$1 _w=$2
	shift 2
	"$SDT" "$@" > "$DX/out" 2> "$DX/err"
	if cmp -s "$DX/out" "$_w"; then pass "dtrace: $_n"
	else fail "dtrace: $_n" "$(diff "$_w" "$DX/out" | head -6)"; fi
}

dt_same "own input, default" "$DD/results/own.default.folded" "$DD/own.txt"
dt_same "own input, --includeoffset" "$DD/results/own.includeoffset.folded" --includeoffset "$DD/own.txt"
gzip -c "$DD/own.txt" > "$DX/own.txt.gz"
dt_same "gzip input" "$DD/results/own.default.folded" "$DX/own.txt.gz"
tr -d '\r' < "$DD/own.txt" | sed 's/$/\r/' > "$DX/crlf.txt"
dt_same "CRLF line ends" "$DD/results/own.default.folded" "$DX/crlf.txt"
# Two inputs are summed: each stack twice its count.
awk '{ n = $NF; $NF = ""; print $0 n * 2 }' "$DD/results/own.default.folded" > "$DX/twice"
dt_same "two inputs are summed" "$DX/twice" "$DD/own.txt" "$DD/own.txt"

if [ -n "${INFERNO_BIN:-}" ] && [ -x "$INFERNO_BIN/inferno-collapse-dtrace" ]; then
	"$INFERNO_BIN/inferno-collapse-dtrace" "$DD/own.txt" | cmp -s - "$DD/results/own.default.folded" \
		&& pass "dtrace: own expected output is inferno's" || fail "dtrace: own expected output is inferno's"
	"$INFERNO_BIN/inferno-collapse-dtrace" --includeoffset "$DD/own.txt" \
		| cmp -s - "$DD/results/own.includeoffset.folded" \
		&& pass "dtrace: own --includeoffset output is inferno's" \
		|| fail "dtrace: own --includeoffset output is inferno's"
else
	skip "dtrace: own expected outputs against inferno" "set INFERNO_BIN to inferno's bin directory"
fi

# Bad input: named, the stacks before kept.
printf 'CPU ID FUNCTION:NAME\n\n  a`f+0x1\n  a`main\n  3\n\n  a`g\n  a`main\n' > "$DX/cut.txt"
expect_exit 1 "dtrace: a stack without its count: exit 1" "$SDT" "$DX/cut.txt"
[ "$(cat "$TMP/out")" = 'a`main;a`f 3' ] && pass "dtrace: the stacks before a cut are kept" \
	|| fail "dtrace: the stacks before a cut are kept" "$(cat "$TMP/out")"
expect_err "dtrace: the cut names its line" "2 frames from line 7 have no count"
printf 'CPU ID FUNCTION:NAME\n\n  5\n\n  a`f\n  2\n' > "$DX/nostack.txt"
expect_exit 0 "dtrace: a count without a stack is a warning" "$SDT" "$DX/nostack.txt"
[ "$(cat "$TMP/out")" = 'a`f 2' ] && pass "dtrace: a count without a stack is skipped (inferno writes \" 5\")" \
	|| fail "dtrace: a count without a stack is skipped" "$(cat "$TMP/out")"
expect_err "dtrace: ... and named" "nostack.txt:3: a count without a stack"
expect_exit 0 "dtrace: -q silences warnings" "$SDT" -q "$DX/nostack.txt"
[ -s "$TMP/err" ] && fail "dtrace: -q silences warnings" "$(cat "$TMP/err")" || pass "dtrace: -q leaves stderr empty"
printf 'only a header\n' > "$DX/header.txt"
expect_exit 0 "dtrace: only a header: exit 0, as inferno" "$SDT" "$DX/header.txt"
expect_err "dtrace: only a header is named" "ended in its header"
expect_exit 1 "dtrace: a missing file: exit 1" "$SDT" "$DX/nope.txt"
expect_err "dtrace: a missing file is named" "cannot open"
expect_exit 2 "dtrace: an unknown option: exit 2" "$SDT" --bogus "$DD/own.txt"
expect_exit 0 "dtrace: inferno's -n 2 -v are accepted" "$SDT" -n 2 -v "$DD/own.txt"
printf 'h\n\n  a`f\n  18446744073709551616\n  1\n' > "$DX/big.txt"
expect_exit 0 "dtrace: a count past 64 bits is a frame" "$SDT" "$DX/big.txt"
[ "$(cat "$TMP/out")" = '18446744073709551616;a`f 1' ] && pass "dtrace: ... as in inferno" \
	|| fail "dtrace: ... as in inferno" "$(cat "$TMP/out")"

# Plain frames are read 16 bytes at a time and copied in 16-byte moves:
# every length from 1 to 48 bytes, led by 0 to 20 blanks (a tab among
# them), with an offset or none, blanks after or none.  The stacks are
# collapsed here too, by awk, to compare: with --includeoffset every
# frame keeps its offset but the leaf.
awk -v IN="$DX/lens.txt" -v WANT="$DX/lens.want" -v WANTO="$DX/lens.wanto" 'BEGIN {
	print "CPU     ID                    FUNCTION:NAME" > IN
	print "" > IN
	for (len = 1; len <= 48; len++) {
		st = sto = ""
		for (b = 0; b <= 20; b++) {
			name = sprintf("%c", 97 + b)
			if (len >= 3)
				name = name "`"
			while (length(name) < len)
				name = name sprintf("%c", 65 + (length(name) + len) % 26)
			pad = ""
			for (i = 0; i < b; i++)
				pad = pad (i == 3 ? "\t" : " ")
			off = b % 3 == 2 ? "" : "+0x" b
			print pad name off (b % 3 == 1 ? "  " : "") > IN
			st = b == 0 ? name : name ";" st
			sto = b == 0 ? name : name off ";" sto
		}
		print "  " len > IN
		print "" > IN
		print st " " len > WANT
		print sto " " len > WANTO
	}
}'
for _o in "" --includeoffset; do
	_w=$DX/lens.want
	[ -n "$_o" ] && _w=$DX/lens.wanto
	LC_ALL=C sort "$_w" > "$DX/lens.sorted"
	"$SDT" $_o "$DX/lens.txt" | LC_ALL=C sort | cmp -s - "$DX/lens.sorted" \
		&& pass "dtrace: frames of 1 to 48 bytes, 0 to 20 blanks before ${_o:-(default)}" \
		|| fail "dtrace: frames of 1 to 48 bytes, 0 to 20 blanks before ${_o:-(default)}" \
			"$("$SDT" $_o "$DX/lens.txt" | LC_ALL=C sort | diff "$DX/lens.sorted" - | head -4)"
	cat "$DX/lens.txt" | "$SDT" $_o | LC_ALL=C sort | cmp -s - "$DX/lens.sorted" \
		&& pass "dtrace: ... read from a pipe ${_o:-(default)}" || fail "dtrace: ... read from a pipe ${_o:-(default)}"
done

# flame tells DTrace output from its content.
"$B/flame" --format dtrace "$DD/own.txt" -o "$DX/a.svg" 2> "$DX/err1"
"$B/flame" "$DD/own.txt" -o "$DX/b.svg" 2> "$DX/err2"
cmp -s "$DX/a.svg" "$DX/b.svg" && grep -q '^<svg' "$DX/b.svg" && pass "dtrace: flame detects it" \
	|| fail "dtrace: flame detects it" "$(cat "$DX/err2")"
"$B/flame" --includeoffset --format dtrace "$DD/own.txt" -o "$DX/c.svg" 2> "$DX/err3"
grep -q 'main+0x9' "$DX/c.svg" && pass "dtrace: flame takes --includeoffset" \
	|| fail "dtrace: flame takes --includeoffset" "$(cat "$DX/err3")"

# The shared conformance data: every input, both options, against
# inferno's output and, where the two agree, stackcollapse.pl's.
if [ ! -d "$DC" ]; then
	skip "conformance/collapsers/dtrace" "../shared/conformance is not present"
else
	for _in in "$DC"/*.txt; do
		_s=$(basename "$_in" .txt)
		for _o in default includeoffset; do
			_a=; [ "$_o" = includeoffset ] && _a=--includeoffset
			dt_same "conformance $_s ($_o) = inferno" "$DC/results/$_s.inferno-$_o.folded" -q $_a "$_in"
		done
	done
	# inferno's own test files (CRLF, no final newline: compared as
	# inferno's tests do, trailing blanks trimmed).
	for _p in "example-dtrace-stacks dtrace-example" "example-dtrace-stacks dtrace-example-offsets --includeoffset" \
		"flamegraph-bug flamegraph-bug --includeoffset" "hex-addresses hex-addresses" "java java" \
		"rust-names rust-names" "stack-ustack stack-ustack"; do
		set -- $_p
		"$SDT" -q $3 "$DC/$1.txt" > "$DX/out"
		sed 's/[[:space:]]*$//' "$DC/results/$2.txt" | grep -v '^$' > "$DX/want"
		cmp -s "$DX/out" "$DX/want" && pass "dtrace: inferno's test $2" \
			|| fail "dtrace: inferno's test $2" "$(diff "$DX/want" "$DX/out" | head -4)"
	done
	# stackcollapse.pl agrees where there are no Rust hashes to strip;
	# with offsets it cuts the leaf wrongly (FlameGraph #202), so not there.
	for _s in example-dtrace-stacks java only-header-lines; do
		dt_same "conformance $_s = stackcollapse.pl" "$DC/results/$_s.perl-default.folded" -q "$DC/$_s.txt"
	done
fi
