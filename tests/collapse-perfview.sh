# stackcollapse-perfview tests (sourced by run.sh).  Expected outputs of
# the fixtures in tests/data/perfview were worked out by hand; round trips
# are checked against tests/tools/normfolded.py, an independent model.
SPV=$(pwd)/$B/stackcollapse-perfview
PD=tests/data/perfview
P=$TMP/perfview
mkdir -p "$P"

run_cases "$SPV" "$PD" perfview

prun() { _r=$1 _n=$2; shift 2; expect_exit "$_r" "perfview: $_n" "$SPV" "$@"; }
perr() { expect_err "perfview: $1" "$2"; }
pout() {	# pout NAME WANT: the last prun's stdout is WANT
	printf '%s' "$2" > "$P/want"
	cmp -s "$TMP/out" "$P/want" && pass "perfview: $1" || fail "perfview: $1" "$(head -c 400 "$TMP/out")"
}

# Leniency, each with its note on stderr.
prun 0 "JSON with BOM, strings, trailing comma" "$PD/wrapped.PerfView.json"
perr "BOM noted" "byte-order mark"
perr "numbers as strings noted" "numbers given as strings"
perr "trailing comma noted with file:line:col" "wrapped.PerfView.json:6:2: trailing comma"
prun 0 "CoreCLR's unescaped paths" "$PD/coreclr.PerfView.json"
perr "invalid escape noted" "invalid escape"
prun 0 "unusable metrics are warnings: exit 0" "$PD/bare.json"
perr "negative metric named" "bare.json:3:83: sample skipped: a negative Metric"
perr "out-of-range metric named" "bare.json:4:56: sample skipped: the Metric is not a finite number"
perr "skipped samples counted" "skipped 3 samples"

# Well-formed JSON or XML that holds no sample is said to, not passed
# over in silence (a Chrome trace, some other XML, an empty list).
printf '{"traceEvents": [{"name": "a", "ph": "X"}]}' > "$P/trace.json"
printf '<?xml version="1.0"?>\n<root><a/></root>\n' > "$P/other.xml"
printf '{"Samples": []}' > "$P/none.json"
for _f in trace.json other.xml none.json; do
	prun 0 "no samples in $_f: a warning" "$P/$_f"
	perr "no samples in $_f: named" "$_f: no samples: not a PerfView stack file"
done
printf '{"Samples": [{"Stack": ["a"]}]}' > "$P/one.json"
prun 0 "one sample: no such warning" "$P/one.json"
[ -s "$TMP/err" ] && fail "perfview: one sample: quiet" "$(cat "$TMP/err")" || pass "perfview: one sample: quiet"

# Broken input: file:line:col, exit 1, the samples before the fault kept.
printf '{"Samples": [{"Stack": ["a", "b"]},\n {"Stack": ["c", "b"], "Metric": 2},\n {"Stack": ["d"' > "$P/cut.json"
prun 1 "JSON cut short" "$P/cut.json"
perr "JSON cut short: where" "cut.json:3:15: broken JSON: the input ends"
pout "JSON cut short: samples before it kept" "b;a 1
b;c 2
"
printf '{"Samples": [{"Stack": ["a"]} {"Stack": ["b"]}]}' > "$P/comma.json"
prun 1 "JSON missing comma" "$P/comma.json"
perr "JSON missing comma: where" "comma.json:1:31: broken JSON: expected ',' or ']'"
printf '<StackSource><Samples>\n<Sample Metric="2">a\nb</Sample>\n</Frames>' > "$P/mismatch.xml"
prun 1 "XML mismatched tag" "$P/mismatch.xml"
perr "XML mismatched tag: where" "mismatch.xml:4:9: broken XML: </Frames> does not close <Samples>"
pout "XML mismatched tag: samples before it kept" "b;a 2
"
printf '<StackSource><Samples><Sample Metric=2>a</Sample></Samples></StackSource>' > "$P/unquoted.xml"
prun 1 "XML unquoted attribute" "$P/unquoted.xml"
perr "XML unquoted attribute: message" "unquoted.xml:1:38: broken XML: an attribute value must be quoted"
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "["; }' > "$P/deep.json"
prun 1 "JSON nested 100000 deep" "$P/deep.json"
perr "JSON nesting limit" "nested deeper than 256 levels"
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "<a>"; }' > "$P/deep.xml"
prun 1 "XML nested 100000 deep" "$P/deep.xml"
perr "XML nesting limit" "nested deeper than 256 levels"
printf '<StackSource><Samples><Sample>a &foo; &#xZZ; &#0; &#x110000; &amp b &#65;</Sample></Samples></StackSource>' > "$P/ent.xml"
prun 0 "malformed references are kept as written" "$P/ent.xml"
pout "malformed references: text (';' becomes ':' in names)" "a &foo: &#xZZ: &#0: &#x110000: &amp b A 1
"
perr "malformed reference named" "ent.xml:1:33: malformed entity or character reference '&foo;'"
cat > "$P/undef.xml" <<'XML'
<StackSource><Frames><Frame ID="0">main</Frame><Frame ID="1">f</Frame></Frames>
<Stacks><Stack ID="0" CallerID="-1" FrameID="0"/><Stack ID="1" CallerID="0" FrameID="1"/>
<Stack ID="2" CallerID="3" FrameID="1"/><Stack ID="3" CallerID="2" FrameID="1"/>
<Stack ID="4" CallerID="0" FrameID="9"/><Stack ID="99999999" CallerID="0" FrameID="1"/></Stacks>
<Samples><Sample StackID="1" Metric="5"/><Sample StackID="2"/><Sample StackID="4"/>
<Sample StackID="7"/><Sample StackID="1" Metric="1e999"/><Sample StackID="x"/></Samples></StackSource>
XML
prun 1 "undefined stacks, loops, bad IDs" "$P/undef.xml"
pout "undefined stacks: the good samples kept" "main;f 5
"
perr "ID out of range named" "undef.xml:4:41: Stack ID 99999999 is out of range"
perr "broken stacks counted" "samples of 3 stacks skipped"
perr "non-integer StackID named" "StackID=\"x\" is not an integer"
printf 'a;b 1\n' > "$P/folded.txt"
prun 1 "not PerfView" "$P/folded.txt"
perr "not PerfView: message" "folded.txt:1:1: not PerfView JSON or XML"
: > "$P/empty.json"
prun 0 "empty input is no samples, as in every tool" "$P/empty.json"
perr "empty input: message" "empty input"
prun 1 "missing file" "$P/none.xml"
perr "missing file: message" "cannot open '$P/none.xml': No such file or directory"
prun 2 "--zip needs --to-xml/--to-json" --zip "$PD/inline.PerfView.xml"
prun 2 "bad --max-inflate" --max-inflate 12Q "$PD/inline.PerfView.xml"
prun 2 "bad --begin" --begin x "$PD/inline.PerfView.xml"
prun 0 "--help" --help
grep -q -- '--to-xml' "$TMP/out" && pass "perfview: --help on stdout" || fail "perfview: --help on stdout"
prun 1 "write error" -o /dev/full "$PD/inline.PerfView.xml"

# PerfView-written files (../shared, read in place): totals from the Metric
# attributes summed with awk, one stack resolved by hand.
S=../shared/samples/perfview-xml
if [ -f "$S/ls.strace.perfview.xml" ]; then
	for x in "$S"/*.perfview.xml; do
		n=$(basename "$x")
		want=$(grep -o 'Metric="[0-9.]*"' "$x" | tr -dc '0-9.\n' | awk '{ s += $1 } END { printf "%.3f", s }')
		got=$("$SPV" "$x" | awk '{ s += $NF } END { printf "%.3f", s }')
		[ "$want" = "$got" ] && pass "perfview: $n total ($want)" || fail "perfview: $n total" "$got, wanted $want"
		got=$("$SPV" --time-order "$x" | awk '{ s += $NF } END { printf "%.3f", s }')
		[ "$want" = "$got" ] && pass "perfview: $n --time-order total" || fail "perfview: $n --time-order total" "$got"
	done
	# Sample 96: StackID 245 -> frame 7, caller 244 -> frame 160, caller
	# 241 -> frame 157, caller 234 -> frame 154 (CallerID -1); Metric 0.048.
	"$SPV" "$S/ls.strace.perfview.xml" > "$P/ls.folded"
	grep -qxF 'Path: .;Syscall: getdents64;Arguments: 3, /* 0 entries */, 32768;Return Code: 0 0.048' "$P/ls.folded" \
		&& pass "perfview: ls stack of sample 96" || fail "perfview: ls stack of sample 96"
	grep -q '^Path: <Unknown>;' "$P/ls.folded" && ! grep -q '&lt;' "$P/ls.folded" \
		&& pass "perfview: ls entities decoded" || fail "perfview: ls entities decoded"
	# Time 33.682 <= Time < 33.9 keeps samples 100 (0.049) and 101 (0.047).
	got=$("$SPV" --begin 33.682 --end 33.9 "$S/ls.strace.perfview.xml" | awk '{ s += $NF } END { printf "%.3f", s }')
	[ "$got" = 0.096 ] && pass "perfview: --begin/--end on ls" || fail "perfview: --begin/--end on ls" "$got"
	"$SPV" --to-xml "$P/ls.folded" | "$SPV" > "$P/ls2.folded"
	cmp -s "$P/ls.folded" "$P/ls2.folded" && pass "perfview: ls -> folded -> XML -> folded" \
		|| fail "perfview: ls -> folded -> XML -> folded"
else
	skip "perfview: PerfView-written samples" "no ../shared"
fi

# Round trips: collapsed -> PerfView XML/JSON (plain and zipped) ->
# collapsed is the input summed and sorted, for every test input.
"$B/tests/genfolded" 3000 7 > "$P/gen.folded" 2>/dev/null || "$B/tests/genfolded" > "$P/gen.folded"
if have_python; then
	bad=""
	for f in tests/data/flamegraph-inputs/*.folded examples/*.folded tests/data/perf/results/*.folded "$P/gen.folded"; do
		[ -f "$f" ] || continue
		python3 tests/tools/normfolded.py "$f" > "$P/norm"
		for m in xml json; do
			"$SPV" --to-$m "$f" 2>/dev/null | "$SPV" > "$P/rt" 2>/dev/null
			cmp -s "$P/norm" "$P/rt" || bad="$bad $f($m)"
			"$SPV" --to-$m -o "$P/rt.PerfView.$m.zip" "$f" 2>/dev/null
			"$SPV" "$P/rt.PerfView.$m.zip" > "$P/rt" 2>/dev/null
			cmp -s "$P/norm" "$P/rt" || bad="$bad $f($m.zip)"
		done
	done
	[ -z "$bad" ] && pass "perfview: round trips of every folded test input" || fail "perfview: round trips" "$bad"
	"$SPV" --to-xml "$PD/../flamegraph-inputs/unicode.folded" > "$P/u.xml" && xml_ok "$P/u.xml" \
		&& pass "perfview: written XML is well-formed" || fail "perfview: written XML is well-formed"
	printf 'a<b>&"c";tab\011tab 3\n' > "$P/markup.folded"
	printf 'a<b>&"c";\001ctl\011tab 3\n' > "$P/ctl.folded"
	"$SPV" --to-xml "$P/markup.folded" > "$P/m.xml" && xml_ok "$P/m.xml" && "$SPV" "$P/m.xml" | cmp -s - "$P/markup.folded" \
		&& pass "perfview: markup and control characters survive XML" || fail "perfview: markup in XML" "$(cat "$P/m.xml")"
	"$SPV" --to-xml "$P/ctl.folded" > "$P/c.xml" 2> "$P/c.err" && xml_ok "$P/c.xml" && grep -q 'U+FFFD' "$P/c.err" \
		&& pass "perfview: control characters XML cannot hold become U+FFFD, with a note" \
		|| fail "perfview: control characters in XML" "$(cat "$P/c.err")"
	"$SPV" --to-json "$P/ctl.folded" > "$P/m.json" && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$P/m.json" \
		&& "$SPV" "$P/m.json" | cmp -s - "$P/ctl.folded" \
		&& pass "perfview: written JSON is valid and round trips" || fail "perfview: JSON validity" "$(cat "$P/m.json")"
	# Zips PerfView would open: one member named after the file, deflated.
	python3 - "$P/rt.PerfView.xml.zip" > "$P/zipinfo" <<'PY'
import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
assert z.testzip() is None
print(len(z.infolist()), z.infolist()[0].filename, z.infolist()[0].compress_type)
PY
	grep -qx '1 rt.PerfView.xml 8' "$P/zipinfo" && pass "perfview: -o x.zip is a valid one-member deflated zip" \
		|| fail "perfview: zip output" "$(cat "$P/zipinfo")"
	# Damaged and hostile archives, made with python's zipfile.
	python3 - "$P" "$PD/inline.PerfView.xml" <<'PY'
import sys, zipfile, struct
d, src = sys.argv[1], sys.argv[2]
data = open(src, 'rb').read()
with zipfile.ZipFile(d + '/stored.zip', 'w', zipfile.ZIP_STORED) as z:
    z.writestr('s.PerfView.xml', data)
b = bytearray(open(d + '/stored.zip', 'rb').read())
i = b.index(b'HelperNested')
b[i] ^= 0x20
open(d + '/badcrc.zip', 'wb').write(b)
full = open(d + '/stored.zip', 'rb').read()
open(d + '/truncated.zip', 'wb').write(full[:len(full) // 2])
with zipfile.ZipFile(d + '/bomb.zip', 'w', zipfile.ZIP_DEFLATED) as z:
    z.writestr('bomb.PerfView.xml', b'<a>' + b' ' * (200 << 20) + b'</a>')
# The same bomb whose directory claims 1000 bytes.
b = bytearray(open(d + '/bomb.zip', 'rb').read())
c = b.rindex(b'PK\x01\x02')
b[c + 24:c + 28] = struct.pack('<I', 1000)
open(d + '/liar.zip', 'wb').write(b)
with zipfile.ZipFile(d + '/multi.zip', 'w', zipfile.ZIP_DEFLATED) as z:
    z.writestr('readme.txt', 'not this')
    z.writestr('dir/', '')
    z.writestr('x.PerfView.xml', data)
with zipfile.ZipFile(d + '/none.zip', 'w') as z:
    z.writestr('a.txt', 'a')
    z.writestr('b.txt', 'b')
PY
	prun 0 "stored zip member" "$P/stored.zip"
	cmp -s "$TMP/out" "$PD/results/inline.folded" && pass "perfview: stored zip member read" || fail "perfview: stored zip member read"
	prun 1 "zip with a bad CRC" "$P/badcrc.zip"
	perr "bad CRC named" "CRC-32 mismatch"
	prun 1 "truncated zip" "$P/truncated.zip"
	perr "truncated zip named" "truncated zip archive"
	prun 1 "zip bomb over --max-inflate" --max-inflate 10M "$P/bomb.zip"
	perr "zip bomb: the limit is named" "would inflate to 209715207 bytes, over the limit of 10485760"
	prun 1 "zip bomb lying about its size" "$P/liar.zip"
	perr "lying zip: stopped at its declared size" "inflates past 1000 bytes"
	prun 1 "zip bomb from a pipe" --max-inflate 1M - < "$P/bomb.zip"
	perr "zip bomb from a pipe: stopped" "over the limit of 1048576"
	prun 0 "zip bomb under the default limit is just read" "$P/bomb.zip"
	prun 0 "multi-member zip: the .xml member" "$P/multi.zip"
	cmp -s "$TMP/out" "$PD/results/inline.folded" && pass "perfview: .xml member found through the directory" \
		|| fail "perfview: multi-member zip"
	prun 1 "zip without a .json/.xml member" "$P/none.zip"
	perr "zip without a member: message" "zip archive has 2 files and none ends in .json, .xml or .etl"
	"$SPV" --to-json "$PD/results/inline.folded" | gzip -c > "$P/j.json.gz"
	prun 0 "gzipped JSON" "$P/j.json.gz"
	cmp -s "$TMP/out" "$PD/results/inline.folded" && pass "perfview: gzipped JSON read" || fail "perfview: gzipped JSON read"
else
	skip "perfview: round trips and zips" "no python3"
fi
