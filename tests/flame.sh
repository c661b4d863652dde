# flame and difffolded tests (sourced by run.sh): every format fixture
# through flame gives the stacks and the SVG frames of its single-purpose
# collapser piped into flamegraph; detection, near misses, exit codes,
# differential graphs, the summary and its thresholds, --split-by.
FL=$(pwd)/$B/flame
F=$TMP/flame
mkdir -p "$F"
frun() { _r=$1 _n=$2; shift 2; expect_exit "$_r" "flame: $_n" "$FL" "$@"; }

e2e() {	# e2e COLLAPSER FILE...: flame == COLLAPSER FILE | flamegraph
	_c=$1
	shift
	for _f in "$@"; do
		_n=$(basename "$_f")
		"$B/$_c" "$_f" > "$F/want.folded" 2>/dev/null
		"$FL" --collapsed "$_f" > "$F/got.folded" 2>/dev/null
		cmp -s "$F/want.folded" "$F/got.folded" && pass "flame: $_n detected, stacks as $_c" \
			|| fail "flame: $_n stacks as $_c" "$(diff "$F/want.folded" "$F/got.folded" | head -5)"
		"$B/flamegraph" --title T "$F/want.folded" > "$F/want.svg" 2>/dev/null
		# flame names the unit of perf's periods; the pipeline cannot.
		"$FL" --title T --countname samples "$_f" -o "$F/got.svg" 2>/dev/null
		"$B/tests/svgframes" -c "$F/want.svg" "$F/got.svg" > "$F/cmp" 2>&1 \
			&& pass "flame: $_n SVG frames as the pipeline" || fail "flame: $_n SVG frames" "$(head -5 "$F/cmp")"
	done
}
e2e stackcollapse-perf tests/data/perf/*.txt.gz
# perf text reaches the renderer as frame ids, never spelled out: the
# same SVG, byte for byte, as from its collapsed text, whatever rewrites
# the stacks, over two inputs, and cut into many chunks for two threads.
_pf=tests/data/perf
for _o in "" --reverse "--max-depth 3" "--base main" --inverted "--minwidth 2"; do
	_bad=
	for _f in "$_pf"/*.txt.gz; do
		"$B/stackcollapse-perf" "$_f" > "$F/ids.folded" 2>/dev/null
		"$FL" --title T --countname n $_o "$F/ids.folded" -o "$F/want.svg" 2>/dev/null
		FLAME_CHUNK=4096 "$FL" --threads 2 --title T --countname n $_o "$_f" -o "$F/got.svg" 2>/dev/null
		cmp -s "$F/want.svg" "$F/got.svg" || _bad="$_bad $(basename "$_f")"
	done
	[ -z "$_bad" ] && pass "flame: perf text as ids draws as its collapsed text ($_o)" \
		|| fail "flame: perf text as ids ($_o)" "differs:$_bad"
done
"$B/stackcollapse-perf" "$_pf/cpp.txt.gz" > "$F/ids1.folded" 2>/dev/null
"$B/stackcollapse-perf" "$_pf/node.txt.gz" > "$F/ids2.folded" 2>/dev/null
"$FL" --title T --countname n "$F/ids1.folded" "$F/ids2.folded" -o "$F/want.svg" 2>/dev/null
"$FL" --title T --countname n "$_pf/cpp.txt.gz" "$_pf/node.txt.gz" -o "$F/got.svg" 2>/dev/null
cmp -s "$F/want.svg" "$F/got.svg" && pass "flame: two perf inputs as ids draw as their collapsed text" \
	|| fail "flame: two perf inputs as ids" "$(cmp "$F/want.svg" "$F/got.svg")"
"$FL" --title T --countname n "$F/ids2.folded" "$_pf/cpp.txt.gz" -o "$F/got.svg" 2>/dev/null
"$FL" --title T --countname n "$F/ids2.folded" "$F/ids1.folded" -o "$F/want.svg" 2>/dev/null
cmp -s "$F/want.svg" "$F/got.svg" && pass "flame: collapsed text, then perf text as ids" \
	|| fail "flame: collapsed text, then perf text as ids" "$(cmp "$F/want.svg" "$F/got.svg")"
e2e stackcollapse-etw tests/data/etw/cpu.csv tests/data/etw/weighted.csv tests/data/etw/dumper-shifted.txt
e2e stackcollapse-vsp tests/data/vsp/tree-*.csv tests/data/vsp/graph-*.csv
e2e stackcollapse-perfview tests/data/perfview/*.PerfView.xml tests/data/perfview/*.PerfView.json
for f in examples/*.folded tests/data/flamegraph-inputs/*.folded; do
	"$B/flamegraph" --title T "$f" > "$F/want.svg" 2>/dev/null
	"$FL" --title T "$f" -o "$F/got.svg" 2>/dev/null
	"$B/tests/svgframes" -c "$F/want.svg" "$F/got.svg" > /dev/null 2>&1 || echo "$f"
done > "$F/bad"
[ -s "$F/bad" ] && fail "flame: collapsed inputs draw as flamegraph" "$(cat "$F/bad")" \
	|| pass "flame: every collapsed example and test input draws as flamegraph does"
# flame hands its stacks to the renderer without copying them, except
# where the renderer must rewrite or keep order: each way draws the same.
for _i in timeline chain gen; do
	for _o in --flamechart --reverse --inverted "--colors chain" "--minwidth 5"; do
		# shellcheck disable=SC2086
		"$B/flamegraph" --title T $_o tests/data/flamegraph-inputs/$_i.folded > "$F/want.svg" 2>/dev/null
		# shellcheck disable=SC2086
		"$FL" --format collapsed --title T $_o tests/data/flamegraph-inputs/$_i.folded -o "$F/got.svg" 2>/dev/null
		cmp -s "$F/want.svg" "$F/got.svg" || echo "$_i $_o"
	done
done > "$F/bad"
[ -s "$F/bad" ] && fail "flame: renderer options draw as flamegraph" "$(cat "$F/bad")" \
	|| pass "flame: --flamechart, --reverse, --inverted, chain colours, --minwidth as flamegraph"
# --flamechart keeps the samples' order: perf events as they come (a
# stack that comes back later is a new run), PerfView by Time, ETW rows
# as they come; a VS report (no time) sorted; every sample kept.
printf 'app 10 1.000001: 1 cycles:\n\tffff a (/x)\n\tffff main (/x)\n\n' > "$F/ord.perf"
printf 'app 10 1.000002: 1 cycles:\n\tffff b (/x)\n\tffff main (/x)\n\n' >> "$F/ord.perf"
printf 'app 10 1.000003: 2 cycles:\n\tffff b (/x)\n\tffff main (/x)\n\n' >> "$F/ord.perf"
printf 'app 10 1.000004: 1 cycles:\n\tffff a (/x)\n\tffff main (/x)\n\n' >> "$F/ord.perf"
frun 0 "--flamechart --collapsed on perf" --flamechart --collapsed "$F/ord.perf"
printf 'app;main;a 1\napp;main;b 3\napp;main;a 1\n' | cmp -s - "$TMP/out" && pass "flame --flamechart: perf events in order, runs merged" \
	|| fail "flame --flamechart perf order" "$(cat "$TMP/out")"
printf '{"Samples": [{"Time": 3, "Stack": ["a", "main"]}, {"Time": 1, "Stack": ["b", "main"]},\n' > "$F/ord.json"
printf ' {"Time": 2, "Stack": ["b", "main"], "Metric": 2}, {"Time": 4, "Stack": ["b", "main"]}]}\n' >> "$F/ord.json"
frun 0 "--flamechart --collapsed on PerfView" --flamechart --collapsed "$F/ord.json"
printf 'main;b 3\nmain;a 1\nmain;b 1\n' | cmp -s - "$TMP/out" && pass "flame --flamechart: PerfView samples by Time" \
	|| fail "flame --flamechart PerfView order" "$(cat "$TMP/out")"
for _p in stackcollapse-perf:tests/data/perf/threads.txt.gz stackcollapse-perf:tests/data/perf/pidtid.txt.gz \
	  stackcollapse-etw:tests/data/etw/cpu.csv stackcollapse-etw:tests/data/etw/dumper-shifted.txt \
	  stackcollapse-vsp:tests/data/vsp/tree-en.csv stackcollapse-perfview:tests/data/perfview/inline.PerfView.xml; do
	_t=${_p%%:*} _f=${_p#*:}
	"$B/$_t" "$_f" > "$F/want" 2>/dev/null
	"$FL" --flamechart --collapsed "$_f" 2>/dev/null | awk '{ n = $NF; sub(/ [^ ]*$/, ""); s[$0] += n } END { for (k in s) print k, s[k] }' \
		| LC_ALL=C sort > "$F/got"
	cmp -s "$F/want" "$F/got" || echo "$_f"
done > "$F/bad"
[ -s "$F/bad" ] && fail "flame --flamechart keeps every sample" "$(cat "$F/bad")" \
	|| pass "flame --flamechart: the runs sum to the collapser's stacks (perf, ETW CSV and dumper, VS, PerfView)"
"$B/stackcollapse-vsp" tests/data/vsp/tree-en.csv > "$F/want"
frun 0 "--flamechart on a VS report" --flamechart --collapsed tests/data/vsp/tree-en.csv
cmp -s "$F/want" "$TMP/out" && pass "flame --flamechart: a VS report's stacks sorted" || fail "flame --flamechart VS"
expect_err "flame --flamechart: VS has no time order, said" "has no time order"
frun 0 "differential collapsed input" --collapsed tests/data/flamegraph-inputs/diff.folded
LC_ALL=C sort tests/data/flamegraph-inputs/diff.folded | cmp -s - "$TMP/out" \
	&& pass "flame: 'stack N M' input keeps both counts" || fail "flame: two-count collapsed" "$(head -3 "$TMP/out")"
gzip -c tests/data/etw/cpu.csv > "$F/cpu.csv.gz"
"$B/stackcollapse-perfview" --to-json -o "$F/s.PerfView.json.zip" tests/data/perfview/results/inline.folded
frun 0 "gzipped wpaexporter CSV" --collapsed "$F/cpu.csv.gz"
"$B/stackcollapse-etw" tests/data/etw/cpu.csv | cmp -s - "$TMP/out" && pass "flame: gzip detected under the CSV" || fail "flame: gzip CSV"
frun 0 "zipped PerfView JSON" --collapsed "$F/s.PerfView.json.zip"
cmp -s "$TMP/out" tests/data/perfview/results/inline.folded && pass "flame: zip member detected as JSON" || fail "flame: zip JSON"
frun 0 "stdin" --collapsed - < tests/data/etw/cpu.csv
"$B/stackcollapse-etw" tests/data/etw/cpu.csv | cmp -s - "$TMP/out" && pass "flame: stdin detected" || fail "flame: stdin"
# stdin: a pipe is read once (its start kept for the second look), a
# redirected file is rewound; both give what the file gives.
for _f in tests/data/etw/cpu.csv tests/data/perf/pidtid.txt.gz tests/data/perfview/inline.PerfView.xml \
	  tests/data/vsp/tree-en.csv "$F/s.PerfView.json.zip" tests/data/flamegraph-inputs/diff.folded; do
	"$FL" --collapsed "$_f" > "$F/want" 2>/dev/null
	cat "$_f" | "$FL" --collapsed - > "$F/pipe" 2>/dev/null
	"$FL" --collapsed - < "$_f" > "$F/redir" 2>/dev/null
	cat "$_f" | "$FL" --collapsed --format "$(basename "$_f" | sed 's/.*PerfView.json.zip/perfview-json/; s/cpu.csv/wpa-csv/;
		s/pidtid.*/perf/; s/inline.*/perfview-xml/; s/tree-en.csv/vs-calltree/; s/diff.folded/collapsed/')" - > "$F/given" 2>/dev/null
	[ -s "$F/want" ] && cmp -s "$F/want" "$F/pipe" && cmp -s "$F/want" "$F/redir" && cmp -s "$F/want" "$F/given" \
		|| echo "$_f"
done > "$F/bad"
[ -s "$F/bad" ] && fail "flame: stdin as a pipe or a redirect reads as the file" "$(cat "$F/bad")" \
	|| pass "flame: stdin as a pipe, a redirect or with --format reads as the file (6 formats, gzip, zip)"
frun 0 "PerfView warnings" --collapsed tests/data/perfview/bare.json
expect_err "flame: PerfView places are file:line:col" "bare.json:3:83: sample skipped"
frun 0 "--format overrides detection" --format collapsed --collapsed tests/data/flamegraph-inputs/basic.folded
frun 0 "default title names the input" tests/data/etw/cpu.csv
grep -q 'Flame Graph: cpu.csv' "$TMP/out" && pass "flame: title names cpu.csv" || fail "flame: default title"
frun 0 "default title of a chart" --flamechart tests/data/etw/cpu.csv
grep -q '>Flame Chart: cpu.csv<' "$TMP/out" && pass "flame: a chart's title says Flame Chart" || fail "flame: chart title"
frun 0 "default title of an icicle graph" --inverted tests/data/etw/cpu.csv
grep -q '>Icicle Graph: cpu.csv<' "$TMP/out" && pass "flame: an inverted graph's title says Icicle Graph" || fail "flame: icicle title"
frun 0 "several inputs are merged" --collapsed tests/data/perfview/inline.PerfView.xml tests/data/perfview/wrapped.PerfView.json
cmp -s "$TMP/out" tests/data/perfview/results/merged.folded && pass "flame: merged stacks" || fail "flame: merged stacks"

# Filters on perf input: the stacks of the single tool's --tid/--pid
# roots, and for --begin/--end the events cut out of the text with awk.
PF=tests/data/perf/pidtid.txt.gz
"$B/stackcollapse-perf" --tid "$PF" | sed -n 's|^worker-3-4387/4391;|worker-3;|p' > "$F/want"
frun 0 "perf --tid" --collapsed --tid 4391 "$PF"
[ -s "$F/want" ] && cmp -s "$F/want" "$TMP/out" && pass "flame: perf --tid keeps that thread's stacks" \
	|| fail "flame: perf --tid" "$(diff "$F/want" "$TMP/out" | head -3)"
"$B/stackcollapse-perf" "$PF" | grep -v '^worker-2;' > "$F/want"
frun 0 "perf --process" --collapsed --process threads,perf-exec,worker-1,worker-3 --pid 4387 "$PF"
cmp -s "$F/want" "$TMP/out" && pass "flame: perf --process and --pid" || fail "flame: perf --process" "$(diff "$F/want" "$TMP/out" | head -3)"
gzip -dc "$PF" | awk -v RS= -v ORS='\n\n' '{ split($0, w, " "); t = w[3]; sub(/:$/, "", t); if (t + 0 >= 2470.2 && t + 0 < 2470.6) print }' \
	| "$B/stackcollapse-perf" > "$F/want"
frun 0 "perf --begin/--end" --collapsed --begin 2470.2 --end 2470.6 "$PF"
[ -s "$F/want" ] && cmp -s "$F/want" "$TMP/out" && pass "flame: perf --begin/--end cut by the header's time" \
	|| fail "flame: perf --begin/--end" "$(diff "$F/want" "$TMP/out" | head -3)"
# Two events in one recording: flame keeps the first, says what it left
# out, and --event-filter picks the other, as stackcollapse-perf does.
# --max-inflate reaches perf text in a zip as it does every other format.
if have_python; then
	gzip -dc tests/data/perf/threads.txt.gz > "$F/threads.txt"
	python3 -c 'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED); z.write(sys.argv[2], "threads.txt"); z.close()' \
		"$F/perf.zip" "$F/threads.txt"
	frun 1 "zipped perf text over --max-inflate" --collapsed --max-inflate 1000 "$F/perf.zip"
	expect_err "flame: --max-inflate named for a zipped perf file" "over the limit of 1000"
	"$B/stackcollapse-perf" "$F/threads.txt" > "$F/want" 2>/dev/null
	frun 0 "zipped perf text" --collapsed "$F/perf.zip"
	cmp -s "$F/want" "$TMP/out" && pass "flame: zipped perf text: the collapser's stacks" || fail "flame: zipped perf"
else
	skip "flame: zipped perf text" "no python3"
fi
frun 0 "perf with two events" --collapsed tests/data/perf/events.txt.gz
_ninstr=$(gzip -dc tests/data/perf/events.txt.gz | grep -cE '^[^ 	].* instructions:')
expect_err "flame: the skipped event is named" "kept only 'cycles' events; skipped $_ninstr samples of other events such as 'instructions'"
frun 2 "perf with two events, a filter that drops the rest" --collapsed --tid 1 tests/data/perf/events.txt.gz
expect_err "flame: only the other event's samples are called other events" "skipped $_ninstr samples of other events"
"$B/stackcollapse-perf" --event-filter instructions tests/data/perf/events.txt.gz > "$F/want" 2>/dev/null
frun 0 "perf --event-filter" --collapsed --event-filter instructions tests/data/perf/events.txt.gz
[ -s "$F/want" ] && cmp -s "$F/want" "$TMP/out" && pass "flame --event-filter: the stacks of stackcollapse-perf --event-filter" \
	|| fail "flame --event-filter" "$(diff "$F/want" "$TMP/out" | head -3)"
frun 2 "perf --pid without PIDs in the input (nothing left)" --collapsed --pid 1 tests/data/perf/nocallchain.txt.gz
expect_err "flame: events that cannot be filtered are counted" "events dropped: they print no PID"
grep -q 'other events' "$TMP/err" && fail "flame: filtered events are not called other events" "$(cat "$TMP/err")" \
	|| pass "flame: events the filters dropped are not called other events"
frun 0 "filters on a format without them" --collapsed --pid 1 tests/data/vsp/tree-instr.csv
expect_err "flame: ignored filters are named" "vs-calltree input has no process, thread or time to filter on"

# Near misses and exit codes.
printf 'Name,Count,Stack Size\nmain,3,12\n' > "$F/other.csv"
frun 1 "a CSV that is not wpaexporter's" "$F/other.csv"
expect_err "flame: near miss: says it cannot tell, lists formats" "cannot tell its format; name it with --format (one of: perf, perf.data, wpa-csv"
# Near misses of other shapes: each is refused or said to hold nothing,
# never drawn as if it were a profile.
printf '<?xml version="1.0"?>\n<root><Frame ID="1">x</Frame></root>\n' > "$F/other.xml"
frun 1 "XML that is not PerfView's" "$F/other.xml"
expect_err "flame: other XML: cannot tell" "other.xml: cannot tell its format"
printf '{"metadata": {"source": "DevTools"}, "events": [{"name": "a", "ts": 1}]}\n' > "$F/trace.json"
frun 2 "JSON that is not PerfView's (nor speedscope's or Chrome's)" "$F/trace.json" -o "$F/trace.svg"
expect_err "flame: other JSON: says it is no PerfView stack file" "trace.json: no samples: not a PerfView stack file"
# A Chrome trace is one now (issue 20).
printf '{"traceEvents": [{"name": "a", "ph": "X", "ts": 1, "dur": 2}]}\n' > "$F/chrome.json"
frun 0 "a Chrome trace is drawn" "$F/chrome.json" -o "$F/chrome.svg"
printf 'main: 12\nfoo: bar baz\n' > "$F/colons.txt"
frun 1 "text with colons that is not perf script" "$F/colons.txt"
# Collapsed stacks with a few bad lines are still collapsed stacks (as
# flamegraph.pl draws them), the bad lines counted.
printf 'a;b 3\na;c 2\nNOT A STACK\nd 5\nx;y 1\nBAD 12V.43\n' > "$F/fewbad.folded"
frun 0 "collapsed input with a few bad lines" --collapsed "$F/fewbad.folded"
printf 'a;b 3\na;c 2\nd 5\nx;y 1\n' | cmp -s - "$TMP/out" && pass "flame: a few bad lines: the rest drawn" \
	|| fail "flame: few bad lines" "$(cat "$TMP/out")"
expect_err "flame: the bad lines counted with the first one's line" "fewbad.folded:3: ignored 2 lines"
printf 'PERFILE2\150\0\0\0\0\0\0\0\0\0\0\0\0\0\0' > "$F/perf.data"
frun 1 "a perf.data cut short" "$F/perf.data"
expect_err "flame: perf.data cut short: named with its byte offset" "perf.data: byte 0: perf.data header cut short"
"$FL" tests/data/etw/cpu.csv -o "$F/made.svg" 2>/dev/null
frun 1 "an SVG given back" "$F/made.svg"
expect_err "flame: an SVG is named as one" "made.svg: an SVG image already, not a profile"
printf 'Process,Thread ID\nx (1),2\n' > "$F/nostack.csv"
frun 1 "a CSV with Process but no Stack column" "$F/nostack.csv"
# perf script -F +srcline writes "  file:line" after frames: not malformed.
frun 0 "perf -F +srcline output without --srcline" --collapsed tests/data/perf/srcline.txt.gz
[ -s "$TMP/err" ] && fail "flame: srcline lines are not warned about" "$(head -2 "$TMP/err")" \
	|| pass "flame: srcline lines are not warned about"
printf 'a 1 0.1: 1 cycles:\n\tffff f (x)\n  where.c:1\n\tthis is not a frame\n\tffff main (x)\n' > "$F/bad.perf"
frun 0 "a bad frame line after a srcline line (a warning)" --format perf --collapsed "$F/bad.perf"
expect_err "flame: the bad frame is still named" "bad.perf:4: not a stack frame"
# From a pipe perf text goes to the same workers, line numbers intact.
cat "$F/bad.perf" | expect_exit 0 "flame: perf text from a pipe, a bad frame" "$FL" --collapsed -
expect_err "flame: a bad frame from a pipe is named with its line" "<stdin>:4: not a stack frame"
# Cut into 4 KB chunks (FLAME_CHUNK, as stackcollapse-perf's tests do):
# any thread count gives the collapser's stacks, from a file or a pipe.
"$B/stackcollapse-perf" --threads 1 tests/data/perf/threads.txt.gz > "$F/threads.want" 2>/dev/null
for _th in 1 2 3; do
	gzip -dc tests/data/perf/threads.txt.gz | FLAME_CHUNK=4096 "$FL" --threads $_th --collapsed - 2>/dev/null \
		| cmp -s - "$F/threads.want" || echo "pipe, $_th threads"
	FLAME_CHUNK=4096 "$FL" --threads $_th --collapsed tests/data/perf/threads.txt.gz 2>/dev/null \
		| cmp -s - "$F/threads.want" || echo "file, $_th threads"
done > "$F/bad"
[ -s "$F/bad" ] && fail "flame: perf workers give the same stacks" "$(cat "$F/bad")" \
	|| pass "flame: perf text in 4 KB chunks on 1-3 threads, from a file or a pipe: the collapser's stacks"
# One exit rule in every tool: rows that cannot be used are warnings (0),
# an input that breaks off is an error (1); flame agrees with each collapser.
printf '{"Samples": [{"Stack": ["a", "b"]},\n {"Stack": ["d"' > "$F/cut.json"
for _p in stackcollapse-etw:tests/data/etw/malformed.csv:0 stackcollapse-etw:tests/data/etw/dumper.txt:0 \
	  stackcollapse-vsp:tests/data/vsp/malformed.csv:0 stackcollapse-perfview:tests/data/perfview/bare.json:0 \
	  stackcollapse-perf:$F/bad.perf:0 stackcollapse-perfview:$F/cut.json:1; do
	_t=${_p%%:*} _w=${_p##*:} _f=${_p#*:}
	_f=${_f%:*}
	"$B/$_t" "$_f" > /dev/null 2>&1
	_a=$?
	"$FL" "$_f" -o "$F/rule.svg" 2> /dev/null
	_b=$?
	[ "$_a" = "$_w" ] && [ "$_b" = "$_w" ] || echo "$(basename "$_f"): $_t $_a, flame $_b, want $_w"
done > "$F/rule"
[ -s "$F/rule" ] && fail "flame and the collapsers: one exit rule" "$(cat "$F/rule")" \
	|| pass "flame and every collapser: skipped rows exit 0, a broken input exits 1"
frun 2 "unknown --format lists the known" --format foo x
expect_err "flame: unknown format message" "unknown --format 'foo' (known: perf, perf.data, wpa-csv"
frun 1 "missing input" "$F/none.txt"
expect_err "flame: missing input named" "cannot open '$F/none.txt'"
printf '{"Samples": []}' > "$F/nothing.json"
frun 2 "no samples" "$F/nothing.json"
frun 2 "no samples, --collapsed" --collapsed "$F/nothing.json"
frun 2 "no samples, --collapsed --flamechart" --collapsed --flamechart "$F/nothing.json"
# No input named and stdin a terminal: say so rather than wait for typing.
if command -v script > /dev/null 2>&1; then
	script -qec "'$FL' -o '$F/tty.svg'" /dev/null < /dev/null > "$F/tty.out" 2>&1
	_rc=$?
	[ "$_rc" = 2 ] && grep -q 'no input: name a profile, or pipe one in' "$F/tty.out" \
		&& pass "flame: no input on a terminal is a usage error" || fail "flame: terminal stdin" "exit $_rc: $(head -c 300 "$F/tty.out")"
else
	skip "flame: terminal stdin" "no script(1)"
fi
frun 2 "stdin named twice" --diff - - < /dev/null
expect_err "flame: stdin twice is named" "stdin ('-') can be read only once"
frun 2 "unknown option" --no-such-option x
frun 2 "--diff needs two inputs" --diff x
frun 1 "write error" -o /dev/full tests/data/etw/cpu.csv
frun 0 "--help" --help
grep -q -- '--split-by' "$TMP/out" && grep -q -- '--countname' "$TMP/out" && pass "flame: --help lists its and flamegraph's options" \
	|| fail "flame: --help"

# diff_frames SVG: flame --diff of before.folded/after.folded below drawn
# as the issue asks, checked on the frames svgframes extracts.
diff_frames() {
	"$B/tests/svgframes" "$1" > "$F/frames.tsv"
	# y x width fill title; 140 samples span 1180 px (20 gone + 120 after).
	awk -F'\t' -v px=1180 '
	function w(n) { return n * px / 140 }
	function near(a, b) { return a - b < 0.15 && b - a < 0.15 }
	{ name = $5; sub(/ \(.*/, "", name); fr[name] = $0; wd[name] = $3; fill[name] = $4; t[name] = $5 }
	END {
		if (!near(wd["gone"], w(20)) || fill["gone"] != "url(#fg-gone)") print "gone: " fr["gone"]
		if (t["gone"] !~ /^gone \(0 samples, 0.00%; before 20 samples, 20.00%; -20 samples, -20.00 points; gone from AFTER\)$/) print "gone title: " t["gone"]
		if (!near(wd["new"], w(20)) || fill["new"] !~ /^rgb\(255,/ || t["new"] !~ /new in AFTER/) print "new: " fr["new"]
		if (!near(wd["grow"], w(50)) || fill["grow"] != "rgb(255,0,0)") print "grow: " fr["grow"]
		if (t["grow"] != "grow (50 samples, 41.67%; before 10 samples, 10.00%; +40 samples, +31.67 points)") print "grow title: " t["grow"]
		if (fill["shrink"] !~ /,255\)$/ || fill["shrink"] == "rgb(255,255,255)") print "shrink: " fr["shrink"]
		if (t["same"] != "same (40 samples, 33.33%; before 40 samples, 40.00%; 0 samples, -6.67 points)") print "same: " t["same"]
		# A frame that is not a leaf: its own inclusive counts.
		if (!near(wd["main"], w(140)) || t["main"] !~ /^main \(120 samples, 100.00%; before 100 samples, 100.00%; \+20 samples/) print "main: " fr["main"]
	}' "$F/frames.tsv" > "$F/bad"
	[ -s "$F/bad" ] && fail "flame --diff: widths, fills, per-frame tooltips" "$(cat "$F/bad")" \
		|| pass "flame --diff: gone drawn hatched at BEFORE width, new/grown red, inclusive tooltips"
}

# Differential: grown, shrunk, new and vanished stacks.
printf 'main;grow 10\nmain;shrink 30\nmain;gone 20\nmain;same 40\n' > "$F/before.folded"
printf 'main;grow 50\nmain;shrink 10\nmain;new 20\nmain;same 40\n' > "$F/after.folded"
DF=$(pwd)/$B/difffolded
"$DF" "$F/before.folded" "$F/after.folded" > "$TMP/out"
printf 'main;gone 20 0\nmain;grow 10 50\nmain;new 0 20\nmain;same 40 40\nmain;shrink 30 10\n' > "$F/want"
cmp -s "$TMP/out" "$F/want" && pass "difffolded: union with both counts" || fail "difffolded: union" "$(cat "$TMP/out")"
printf 'main;a 10\n' > "$F/b1"; printf 'main;a 30\nmain;b 10\n' > "$F/a1"
"$DF" -n "$F/b1" "$F/a1" | grep -qx 'main;a 40 30' && pass "difffolded -n scales BEFORE to AFTER's total" || fail "difffolded -n"
printf 'main;f [0x7f3a12] 5\n' > "$F/h1"; printf 'main;f [0xdeadbeef] 7\n' > "$F/h2"
"$DF" -s "$F/h1" "$F/h2" | grep -qx 'main;f \[0x...\] 5 7' && pass "difffolded -s strips hex" || fail "difffolded -s"
expect_exit 2 "difffolded: one file is a usage error" "$DF" "$F/h1"
frun 0 "--diff" --diff "$F/before.folded" "$F/after.folded" -o "$F/diff.svg" --summary "$F/sum.json"
for fr in main grow shrink new same gone; do
	grep -q "<title>$fr " "$F/diff.svg" || echo "$fr"
done > "$F/missing"
[ -s "$F/missing" ] && fail "flame --diff: frames" "$(cat "$F/missing")" || pass "flame --diff: grown, shrunk, new and gone stacks drawn"
diff_frames "$F/diff.svg"
"$DF" "$F/before.folded" "$F/after.folded" | "$B/flamegraph" --title T > "$F/want.svg"
"$FL" --title T --classic-diff --diff "$F/before.folded" "$F/after.folded" -o "$F/got.svg"
"$B/tests/svgframes" -c "$F/want.svg" "$F/got.svg" > "$F/cmp" 2>&1 && pass "flame --classic-diff: as difffolded | flamegraph" \
	|| fail "flame --classic-diff vs pipeline" "$(head -5 "$F/cmp")"
"$B/flamegraph" --title T tests/data/flamegraph-inputs/diff.folded > "$F/want.svg"
"$FL" --title T tests/data/flamegraph-inputs/diff.folded -o "$F/got.svg"
"$B/tests/svgframes" -c "$F/want.svg" "$F/got.svg" > "$F/cmp" 2>&1 && pass "flame: 'stack N M' input drawn as flamegraph draws it" \
	|| fail "flame: differential collapsed input" "$(head -5 "$F/cmp")"
frun 0 "--diff --normalize" --diff --normalize "$F/before.folded" "$F/after.folded" -o "$F/n.svg"
grep -q '<title>grow (50 samples, 41.67%; before 12 samples, 10.00%; +38 samples, +31.67 points)</title>' "$F/n.svg" \
	&& pass "flame --normalize: BEFORE scaled by 120/100" || fail "flame --normalize" "$(grep -o '<title>grow[^<]*' "$F/n.svg")"
frun 0 "--diff --negate" --diff --negate "$F/before.folded" "$F/after.folded" -o "$F/neg.svg"
grep -q 'blue grew, red shrank' "$F/neg.svg" && grep -q 'red grew, blue shrank' "$F/diff.svg" \
	&& pass "flame --diff: the legend follows --negate" || fail "flame --diff legend"
frun 2 "--classic-diff without --diff" --classic-diff "$F/before.folded"
if have_python; then
	python3 - "$F/sum.json" > "$F/sumcheck" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
assert s["before_total"] == 100 and s["after_total"] == 120, s
top = s["top_self"][0]
# grow: 10% of 100 before, 50/120 = 41.67% after: +31.67 points
assert top["function"] == "grow" and top["before"] == 10 and top["after"] == 50, top
assert abs(top["delta_pct"] - 31.6667) < 0.001, top
incl = {e["function"]: e for e in s["top_inclusive"]}
assert incl["main"]["before"] == 100 and incl["main"]["after"] == 120
assert incl["gone"]["after"] == 0 and incl["gone"]["before"] == 20
# What lost share, most first: shrink 30% -> 8.33%, gone 20% -> 0, same 40% -> 33.33%.
assert [e["function"] for e in s["top_self_shrunk"]] == ["shrink", "gone", "same"], s["top_self_shrunk"]
assert all(e["delta_pct"] < 0 for e in s["top_inclusive_shrunk"])
print("ok")
PY
	grep -qx ok "$F/sumcheck" && pass "flame --summary: totals and top self/inclusive deltas" || fail "flame --summary" "$(cat "$F/sumcheck")"
else
	skip "flame --summary" "no python3"
fi
# Names are untrusted bytes: the summary stays valid JSON whatever they hold.
printf 'main;ok\377\001"\\x 5\n' > "$F/ub.folded"; printf 'main;ok\377\001"\\x 9\nmain;y 1\n' > "$F/ua.folded"
frun 0 "--summary with invalid UTF-8 and control bytes in names" --diff "$F/ub.folded" "$F/ua.folded" -o "$F/u.svg" --summary "$F/u.json"
if have_python; then
	python3 -c 'import json, sys; s = json.load(open(sys.argv[1], encoding="utf-8")); assert any(e["function"] == "ok\ufffd\x01\"\\x" for e in s["top_self"]), s' "$F/u.json" 2> "$F/uerr" \
		&& pass "flame --summary: hostile names give valid JSON" || fail "flame --summary: hostile names" "$(cat "$F/uerr")"
else
	skip "flame --summary: hostile names" "no python3"
fi
frun 3 "--fail-if-self-grows passed" --diff "$F/before.folded" "$F/after.folded" -o "$F/d.svg" --fail-if-self-grows 30
expect_err "flame: the function that grew is named" "flame: grow: self share grew by 31.67 points (10.00% to 41.67%)"
grep -q '<title>grow ' "$F/d.svg" && pass "flame --fail-if-self-grows: the graph is still written" \
	|| fail "flame --fail-if: graph written"
frun 0 "--fail-if-self-grows not passed" --diff "$F/before.folded" "$F/after.folded" -o "$F/d.svg" --fail-if-self-grows 32
frun 3 "--fail-if-total-grows" --diff "$F/before.folded" "$F/after.folded" -o "$F/d.svg" --fail-if-total-grows 5
frun 0 "--diff across formats" --diff tests/data/perfview/inline.PerfView.xml tests/data/perfview/wrapped.PerfView.json -o "$F/x.svg"
printf 'main;a 1\n' | expect_exit 0 "flame: --diff with AFTER from stdin" "$FL" --diff "$F/before.folded" - -o "$F/stdin-diff.svg"
grep -q '>Differential Flame Graph: before.folded to stdin<' "$F/stdin-diff.svg" && pass "flame: --diff title names stdin" \
	|| fail "flame: --diff stdin title" "$(grep -o '<text id="title"[^<]*' "$F/stdin-diff.svg")"

# --split-by: one graph per busiest thread, listed on stdout.
frun 0 "--split-by thread" --split-by thread --top 2 tests/data/etw/cpu.csv -o "$F/split"
[ "$(wc -l < "$TMP/out")" = 2 ] && [ -f "$(head -1 "$TMP/out")" ] && pass "flame: --split-by lists 2 files that exist" \
	|| fail "flame: --split-by files" "$(cat "$TMP/out")"
grep -q 'CPU Usage flame graph of ' "$(head -1 "$TMP/out")" && pass "flame: --split-by titles as UIforETW" || fail "flame: split titles"
# perf: a process is one graph whatever its threads are called, a thread
# keeps one graph when renamed (TID 4390 ran as "threads", then
# "worker-2"); busiest first; sums checked against the collapser's roots.
all_count() { sed -n 's/.*<title>all (\([0-9,]*\) .*/\1/p' "$1" | tr -d ,; }
"$B/stackcollapse-perf" --pid --tid "$PF" > "$F/pt.folded"
frun 0 "--split-by process on perf" --split-by process --top 5 "$PF" -o "$F/sp"
want=$(awk '{ t += $NF } END { printf "%.0f", t }' "$F/pt.folded")
[ "$(cat "$TMP/out")" = "$F/sp/threads_4387.svg" ] && [ "$(all_count "$F/sp/threads_4387.svg")" = "$want" ] \
	&& pass "flame: perf --split-by process: one graph per PID, named after its main thread" \
	|| fail "flame: perf --split-by process" "$(cat "$TMP/out"; all_count "$F/sp/threads_4387.svg"; echo "want $want")"
frun 0 "--split-by thread on perf" --split-by thread --top 2 --minwidth 0 "$PF" -o "$F/st"
want=$(awk '$1 ~ /-4387\/4390;/ { t += $NF } END { printf "%.0f", t }' "$F/pt.folded")
printf '%s\n' "$F/st/worker-1_4387_4389.svg" "$F/st/worker-2_4387_4390.svg" | cmp -s - "$TMP/out" \
	&& pass "flame: perf --split-by thread: the 2 busiest, busiest first, COMM_PID_TID" \
	|| fail "flame: perf --split-by thread" "$(cat "$TMP/out")"
[ "$(all_count "$F/st/worker-2_4387_4390.svg")" = "$want" ] && grep -q '<title>threads-4387/4390 ' "$F/st/worker-2_4387_4390.svg" \
	&& pass "flame: perf --split-by thread: a renamed thread is one graph" \
	|| fail "flame: perf renamed thread" "$(all_count "$F/st/worker-2_4387_4390.svg"), want $want"
# --split-by with --flamechart: each thread's graph in time order (T11
# ran a, b, a while T12 ran x between them: three frames, not two).
printf 'app 10/11 1.000001: 1 cycles:\n\tffff a (/x)\n\tffff main (/x)\n\n' > "$F/tt.perf"
printf 'app 10/12 1.000002: 1 cycles:\n\tffff x (/x)\n\tffff main (/x)\n\n' >> "$F/tt.perf"
printf 'app 10/11 1.000003: 1 cycles:\n\tffff b (/x)\n\tffff main (/x)\n\n' >> "$F/tt.perf"
printf 'app 10/11 1.000004: 1 cycles:\n\tffff a (/x)\n\tffff main (/x)\n\n' >> "$F/tt.perf"
frun 0 "--split-by thread --flamechart" --flamechart --split-by thread --top 1 "$F/tt.perf" -o "$F/stc"
"$B/tests/svgframes" "$F/stc/app_10_11.svg" 2>/dev/null | awk -F'\t' '$1 == 37.0 { sub(/ \(.*/, "", $5); printf "%s ", $5 }' > "$F/order"
[ "$(cat "$F/order")" = "a b a " ] && pass "flame --split-by --flamechart: a thread's samples in time order" \
	|| fail "flame --split-by --flamechart" "frames: $(cat "$F/order")"
printf 'a b;x 1\na_b;y 2\n' > "$F/names.folded"
frun 0 "--split-by, two names one file name" --split-by process --top 5 "$F/names.folded" -o "$F/sn"
printf '%s\n' "$F/sn/a_b.svg" "$F/sn/a_b-2.svg" | cmp -s - "$TMP/out" && grep -q '<title>a b ' "$F/sn/a_b-2.svg" \
	&& pass "flame: --split-by never writes two groups to one file" || fail "flame: split name clash" "$(cat "$TMP/out")"
frun 2 "--split-by needs -o" --split-by thread tests/data/etw/cpu.csv
# --split-by roots carry the PID and TID; Java names are tidied all the same.
printf 'java 100/101 [000] 1.0: 3 cycles:\n\t7f01 Ljava/io/PrintStream;::print (/tmp/perf-100.map)\n\n' > "$F/java.perf"
frun 0 "--split-by thread on Java" --split-by thread --top 1 "$F/java.perf" -o "$F/sj"
grep -q '<title>java/io/PrintStream:::print ' "$F/sj/java_100_101.svg" && ! grep -q 'Ljava/' "$F/sj/java_100_101.svg" \
	&& pass "flame: --split-by tidies Java names" || fail "flame: --split-by tidies Java names" "$(cat "$TMP/out")"
# perf headers of exited tasks (":-1") and names with spaces and digits
# keep their samples, their event and their time stamp for --begin.
printf '%s\n' ':-1    -1 [001]   546.707147:     200040 cpu-clock:ppp: ' '	ffff do_exit ([kernel.kallsyms])' '' \
	'a:b 12   777/778 [000]   546.710000:     3 cpu-clock:ppp: ' '	7f01 main (/opt/ab)' '' \
	'Web Content [003]   546.713000:     11 cpu-clock:ppp: ' '	7f00 run (/opt/w)' '' > "$F/comm.perf"
frun 0 "perf :-1 headers" --collapsed "$F/comm.perf"
printf '%s\n' ':-1;do_exit 200040' 'Web_Content;run 11' 'a:b_12;main 3' | cmp -s - "$TMP/out" \
	&& pass "flame: perf headers of exited tasks and odd names keep their samples" \
	|| fail "flame: perf headers of exited tasks and odd names" "$(cat "$TMP/out" "$TMP/err")"
frun 0 "perf :-1 headers, --begin" --collapsed --begin 546.709 "$F/comm.perf"
printf '%s\n' 'Web_Content;run 11' 'a:b_12;main 3' | cmp -s - "$TMP/out" \
	&& pass "flame: --begin reads the time stamps of such headers" || fail "flame: --begin on odd headers" "$(cat "$TMP/out")"

# Empty input (an empty file, /dev/null on stdin, an empty gzip, from a
# file or stdin) is an input with no samples in every tool, with the exit
# status the README gives: flamegraph and flame 2, the collapsers and
# difffolded 0 with nothing written.
: > "$F/empty.txt"
gzip -c "$F/empty.txt" > "$F/empty.gz"
empty_rc() {	# empty_rc RC TOOL ARGS...: each empty input, as a file and on stdin
	_rc=$1 _t=$2
	shift 2
	for _e in "$F/empty.txt" "$F/empty.gz"; do
		expect_exit "$_rc" "empty input: $_t $* $(basename "$_e") exits $_rc" "$B/$_t" "$@" "$_e"
		[ "$_rc" = 0 ] && { [ -s "$TMP/out" ] && fail "empty input: $_t writes nothing" "$(head -c 200 "$TMP/out")" \
			|| pass "empty input: $_t $* $(basename "$_e") writes nothing"; }
		"$B/$_t" "$@" - < "$_e" > /dev/null 2>&1
		_got=$?
		[ "$_got" = "$_rc" ] && pass "empty input: $_t $* - < $(basename "$_e") exits $_rc" \
			|| fail "empty input: $_t $* - < $(basename "$_e") exits $_rc" "exit $_got"
	done
	# No FILE at all reads stdin too (difffolded needs its two: "-").
	case "$_t" in difffolded) set -- "$@" - ;; esac
	"$B/$_t" "$@" < /dev/null > /dev/null 2>&1
	_got=$?
	[ "$_got" = "$_rc" ] && pass "empty input: $_t $* < /dev/null exits $_rc" \
		|| fail "empty input: $_t $* < /dev/null exits $_rc" "exit $_got"
}
empty_rc 2 flamegraph
empty_rc 2 flame
empty_rc 2 flame --collapsed
empty_rc 2 flame --flamechart
empty_rc 2 flame --format perf
empty_rc 0 stackcollapse-perf
empty_rc 0 stackcollapse-vsp
empty_rc 0 stackcollapse-etw
empty_rc 0 stackcollapse-perfview
empty_rc 0 difffolded "$F/empty.txt"
"$FL" "$F/empty.txt" -o "$F/empty.svg" 2> "$TMP/err"
grep -q "empty.txt: empty input" "$TMP/err" && grep -q "no samples" "$TMP/err" && ! grep -q -- "--format" "$TMP/err" \
	&& pass "flame: an empty input is named and has no samples (not an unknown format)" \
	|| fail "flame: an empty input is named and has no samples" "$(cat "$TMP/err")"
grep -q "No valid input" "$F/empty.svg" && pass "flame: an empty input still writes an SVG saying so, as flamegraph" \
	|| fail "flame: an empty input still writes an SVG saying so"
printf '\n  \r\n\n' > "$F/blank.txt"
frun 2 "input of blank lines only is empty too" "$F/blank.txt"
frun 0 "--diff with an empty BEFORE draws AFTER" --diff "$F/empty.txt" tests/data/perf/threads.txt.gz -o "$F/ediff.svg"

# What the weights count, from the input: perf's clock periods are
# nanoseconds, other events' periods count the event, no period counts
# samples; --countname wins.  Piped input is titled by its kind.
unit_is() {	# unit_is NAME WANT TEXT ARGS...
	_n=$1 _w=$2 _t=$3
	shift 3
	printf '%b' "$_t" | "$FL" "$@" - -o "$F/unit.svg" 2> /dev/null
	_got=$(sed -n 's/.*data-countname="\([^"]*\)".*/\1/p' "$F/unit.svg" | head -1)
	[ "$_got" = "$_w" ] && grep -q "<title>all ([0-9,]* $_w, 100%)</title>" "$F/unit.svg" \
		&& pass "flame: $_n counts $_w" || fail "flame: $_n counts $_w" "got '$_got'"
}
unit_is "perf cpu-clock periods" ns 'p 1 1.0: 250000 cpu-clock:\n\t1 f (/x)\n\n'
unit_is "perf task-clock periods" ns 'p 1 1.0: 250000 task-clock:u:\n\t1 f (/x)\n\n'
unit_is "perf cycles periods" cycles 'p 1 1.0: 1000 cycles:\n\t1 f (/x)\n\n'
unit_is "perf events without a period" samples 'p 1 1.0: cpu-clock:\n\t1 f (/x)\n\n'
unit_is "collapsed stacks" samples 'a;b 3\n'
unit_is "--countname" ms 'p 1 1.0: 250000 cpu-clock:\n\t1 f (/x)\n\n' --countname ms
unit_is "--countname samples" samples 'p 1 1.0: 250000 cpu-clock:\n\t1 f (/x)\n\n' --countname samples
printf 'p 1 1.0: 1 cpu-clock:\n\t1 f (/x)\n\n' | "$FL" - -o "$F/unit.svg" 2> /dev/null
grep -q '>Flame Graph: perf script text from stdin<' "$F/unit.svg" \
	&& pass "flame: piped input is titled by its kind" || fail "flame: piped input is titled by its kind"
printf 'p 1 1.0: 1 cpu-clock:\n\t1 f (/x)\n\n' | "$FL" --title T - -o "$F/unit.svg" 2> /dev/null
grep -q '>T<' "$F/unit.svg" && pass "flame: --title wins over the piped kind" || fail "flame: --title wins over the piped kind"
