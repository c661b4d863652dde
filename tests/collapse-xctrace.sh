# stackcollapse-xctrace tests (sourced by run.sh).  tests/data/xctrace's
# expected output was made by running inferno-collapse-xctrace on our own
# document (INFERNO_BIN=DIR runs it again); the shared conformance data
# holds inferno's on its test exports.
SXC=$(pwd)/$B/stackcollapse-xctrace
XD=tests/data/xctrace
XC=../shared/conformance/collapsers/xctrace
XX=$TMP/xctrace
mkdir -p "$XX"

xc_same() {
	_n=$1 _w=$2
	shift 2
	"$SXC" "$@" > "$XX/out" 2> "$XX/err"
	if cmp -s "$XX/out" "$_w"; then pass "xctrace: $_n"
	else fail "xctrace: $_n" "$(diff "$_w" "$XX/out" | head -6)"; fi
}

xc_same "own document" "$XD/results/own.folded" "$XD/own.xml"
if [ -n "${INFERNO_BIN:-}" ] && [ -x "$INFERNO_BIN/inferno-collapse-xctrace" ]; then
	"$INFERNO_BIN/inferno-collapse-xctrace" "$XD/own.xml" | cmp -s - "$XD/results/own.folded" \
		&& pass "xctrace: own expected output is inferno's" || fail "xctrace: own expected output is inferno's"
else
	skip "xctrace: own expected output against inferno" "set INFERNO_BIN to inferno's bin directory"
fi
# Independently: one sample per row that has a backtrace.
_rows=$(grep -o '<backtrace' "$XD/own.xml" | wc -l)
[ "$(awk '{ t += $NF } END { print t }' "$XD/results/own.folded")" = "$_rows" ] \
	&& pass "xctrace: one sample per row with a backtrace ($_rows)" || fail "xctrace: one sample per row"
# 2 MB: tags straddle the 256 KiB reads; 60000 more samples of one stack.
awk '/^<row><backtrace ref="21"/ { for (i = 0; i < 60000; i++) print "<row><backtrace ref=\"21\"/></row>" } { print }' \
	"$XD/own.xml" > "$XX/big.xml"
sed 's/^\(start;main;"quoted" & .* A\) 2$/\1 60002/' "$XD/results/own.folded" > "$XX/big.want"
xc_same "2 MB, tags across reads" "$XX/big.want" "$XX/big.xml"
gzip -c "$XD/own.xml" > "$XX/own.xml.gz"
xc_same "gzip input" "$XD/results/own.folded" "$XX/own.xml.gz"
head -n 7 "$XD/own.xml" > "$XX/cut.xml"
expect_exit 1 "xctrace: a document cut short: exit 1" "$SXC" "$XX/cut.xml"
expect_err "xctrace: ... named" "ends inside <trace-query-result>"
printf 'start;main;std::vector<int>::at(unsigned long) const;demo::parse 2\n' > "$XX/cut.want"
cmp -s "$TMP/out" "$XX/cut.want" && pass "xctrace: ... the rows before kept" || fail "xctrace: ... the rows before kept" "$(cat "$TMP/out")"
sed 's|<frame ref="14"/><frame ref="15"/></backtrace></row>|<frame ref="99"/><frame ref="15"/></backtrace></row>|' "$XD/own.xml" > "$XX/badref.xml"
expect_exit 0 "xctrace: a dangling ref is a warning" "$SXC" "$XX/badref.xml"
expect_err "xctrace: ... named with its byte" "a frame ref to no frame given before"
printf '<?xml version="1.0"?>\n<other/>\n' > "$XX/other.xml"
expect_exit 1 "xctrace: other XML: exit 1" "$SXC" --quiet "$XX/other.xml"
awk 'BEGIN { printf "<?xml version=\"1.0\"?>\n<trace-query-result><node><row><backtrace id=\"1\"><frame id=\"2\" name=\""; for (i = 0; i < 1200000; i++) printf "a"; print "" }' > "$XX/huge.xml"
expect_exit 1 "xctrace: a tag over 1 MiB is refused" "$SXC" "$XX/huge.xml"
expect_err "xctrace: ... with its offset" "a tag of more than"
"$B/flame" "$XD/own.xml" -o "$XX/a.svg" 2> "$XX/e"
grep -q 'demo::parse' "$XX/a.svg" && pass "xctrace: flame detects it" || fail "xctrace: flame detects it" "$(cat "$XX/e")"

if [ ! -d "$XC" ]; then
	skip "conformance/collapsers/xctrace" "../shared/conformance is not present"
else
	for _s in basic simple_frame_without_binary_info; do
		xc_same "conformance $_s = inferno" "$XC/results/$_s.inferno-default.folded" -q "$XC/$_s.xml"
		sed 's/[[:space:]]*$//' "$XC/results/$_s.folded" | grep -v '^$' > "$XX/want"
		xc_same "inferno's test $_s" "$XX/want" -q "$XC/$_s.xml"
	done
fi
