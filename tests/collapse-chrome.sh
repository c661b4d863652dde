# Chrome .cpuprofile and trace-event tests (sourced by run.sh).  The
# expected stacks of tests/data/chrome were worked out by hand (see the
# comments); the shared samples are checked against what speedscope's
# importer shows for them (its jest snapshots, samples/chrome/expected,
# through tests/tools/speedscope_snap.py) and, for complete ("X") events,
# against FlameGraph's stackcollapse-chrome-tracing.py when it is there
# (FLAMEGRAPH_DIR, or /work/bench-data/FlameGraph).
CHD=tests/data/chrome
CHX=$TMP/chrome
CHS=../shared/samples/chrome
mkdir -p "$CHX"
chc() { "$B/flame" --to collapsed "$@" -o - 2> "$CHX/err"; }

# parents.cpuprofile: nodes joined by "parent"; sample times 5, 15, 35,
# 75, 155, 125 (went back: held at 155), 325, 725: each sample weighs
# the time to the next.  handle 10 + 20, a;b 40, the idle sample (80)
# and the last (0) weigh nothing, gc 0, the anonymous function 170, and
# node 7 (400) is no node.
printf '(anonymous main.js:10) 170\n(anonymous main.js:10);handle 30\n(anonymous main.js:10);handle;a:b 40\n' > "$CHX/want"
chc "$CHD/parents.cpuprofile" > "$CHX/out"
cmp -s "$CHX/out" "$CHX/want" && pass "chrome: cpuprofile by parent links, time deltas, idle and a bad node" \
	|| fail "chrome: cpuprofile by parent links" "$(diff "$CHX/want" "$CHX/out")"
grep -q "1 samples naming no node" "$CHX/err" && pass "chrome: a sample naming no node is counted" \
	|| fail "chrome: a sample naming no node is counted" "$(cat "$CHX/err")"
# Without timeDeltas a sample weighs 1.
sed 's/"timeDeltas": \[[^]]*\]/"x": 0/' "$CHD/parents.cpuprofile" > "$CHX/counts.cpuprofile"
printf '(anonymous main.js:10) 1\n(anonymous main.js:10);handle 3\n(anonymous main.js:10);handle;a:b 1\n(garbage collector) 1\n' > "$CHX/want"
chc "$CHX/counts.cpuprofile" > "$CHX/out"
cmp -s "$CHX/out" "$CHX/want" && pass "chrome: cpuprofile without times counts samples" \
	|| fail "chrome: cpuprofile without times" "$(diff "$CHX/want" "$CHX/out")"

# be.json, thread 1: task 100-200 holds parse (X, 110-140) and layout
# (150-170, its E unnamed): task's own 50; a last E with nothing open.
# Thread 2: worker 105-155.5 (ts as a string), idle;wait from 160 never
# ended: closed at 180, the thread's last time, holding tick 170-180.
printf 'idle:wait 10\nidle:wait;tick 10\ntask 50\ntask;layout 20\ntask;parse 30\nworker 50.5\n' > "$CHX/want"
chc "$CHD/be.json" > "$CHX/out"
cmp -s "$CHX/out" "$CHX/want" && pass "chrome: trace events B/E and X on two threads" \
	|| fail "chrome: trace events B/E and X" "$(diff "$CHX/want" "$CHX/out")"
grep -q '1 end events ("E") with no begin' "$CHX/err" && grep -q '1 begin events ("B") never ended' "$CHX/err" \
	&& pass "chrome: unmatched E and unended B are counted" || fail "chrome: unmatched events counted" "$(cat "$CHX/err")"
# stackcollapse-chrome-tracing, the script's drop-in, is the same reader:
# the same lines from a file and from stdin, exit 1 and the byte on
# malformed JSON, and a profile with no duration events refused.
"$B/stackcollapse-chrome-tracing" "$CHD/be.json" 2> /dev/null | cmp -s - "$CHX/want" \
	&& "$B/stackcollapse-chrome-tracing" < "$CHD/be.json" 2> /dev/null | cmp -s - "$CHX/want" \
	&& pass "stackcollapse-chrome-tracing: B/E and X events, from a file and stdin" \
	|| fail "stackcollapse-chrome-tracing: B/E and X events" "$("$B/stackcollapse-chrome-tracing" "$CHD/be.json" 2>&1)"
printf '{"traceEvents": [{"ph": "X", "ts": 1, "dur": 2, "name": "a"} {' > "$CHX/bad1.json"
expect_exit 1 "stackcollapse-chrome-tracing: malformed trace: exit 1" "$B/stackcollapse-chrome-tracing" "$CHX/bad1.json"
expect_err "stackcollapse-chrome-tracing: malformed trace names file and byte" "bad1.json: expected ',' or ']' at byte 61"
expect_exit 1 "stackcollapse-chrome-tracing: a cpuprofile has no duration events" \
	"$B/stackcollapse-chrome-tracing" "$CHD/parents.cpuprofile"
expect_err "stackcollapse-chrome-tracing: says why a cpuprofile is refused" 'no duration events'

# The bare event array, and one cut short (a partial trace: read as is).
python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["traceEvents"]))' "$CHD/be.json" > "$CHX/arr.json" 2>/dev/null
chc "$CHX/arr.json" | cmp -s - "$CHX/want" && pass "chrome: a bare event array" || fail "chrome: a bare event array"
head -c 300 "$CHX/arr.json" > "$CHX/part.json"
expect_exit 0 "chrome: a partial trace is read" "$B/flame" --to collapsed "$CHX/part.json" -o "$CHX/part.out"
expect_err "chrome: a partial trace is named" "a partial trace"
grep -q '^task;parse 30$' "$CHX/part.out" && pass "chrome: a partial trace keeps its events" \
	|| fail "chrome: a partial trace keeps its events" "$(cat "$CHX/part.out")"
printf '[{"ph": "X", "ts": 1, "dur": 2, "name": "a"}, ]' > "$CHX/bad.json"
expect_exit 1 "chrome: malformed trace: exit 1" "$B/flame" --to collapsed "$CHX/bad.json" -o "$CHX/bad.out"
# The offset of the ']' after the comma, and of the 'q' after the backslash.
expect_err "chrome: malformed trace names the byte" "expected a value at byte $(python3 -c 'import sys; print(open(sys.argv[1]).read().index("]"))' "$CHX/bad.json")"
printf '{"nodes": [{"id": 1, "callFrame": {"functionName": "f\\q"}}]}' > "$CHX/bad.cpuprofile"
expect_exit 2 "chrome: malformed cpuprofile: refused" "$B/flame" "$CHX/bad.cpuprofile" -o "$CHX/x.svg"
expect_err "chrome: malformed cpuprofile names the byte" "invalid escape in a string at byte $(python3 -c 'import sys; print(open(sys.argv[1]).read().index("q"))' "$CHX/bad.cpuprofile")"

# A bad value across the reader's 256 KiB windows (bytes 262142-262144)
# is named at its first byte, as one inside a window is.
if have_python; then
	for _at in 262100 262142 262143; do
		python3 -c 'import sys
pre = b"{\"traceEvents\": ["
open(sys.argv[1], "wb").write(pre + b" " * (int(sys.argv[2]) - len(pre)) + b"-01]}")' "$CHX/straddle.json" $_at
		expect_exit 2 "chrome: a bad value at byte $_at, nothing before it: exit 2" "$B/flame" --format chrome-trace --to collapsed \
			"$CHX/straddle.json" -o "$CHX/straddle.out"
		expect_err "chrome: a bad value at byte $_at is named there" "false or null at byte $_at"
	done
fi

# chunks.json: two sampled profiles (pid 1, ids 0x1 and 0x2) in
# ProfileChunk events, one chunk's args before its name, beside X and B/E
# events that are left out.  Profile 0x1: times 10 15 22 25 29 35, then a
# chunk without timeDeltas (35 35 35), then -2 (held at 35) and +8 (41):
# app.js:5 5, work:er 7, leaf 3+4, (program) 6, the idle sample and the
# zero-time ones nothing, late (at 35, next at 41) 6.  Profile 0x2 (nodes
# by children): other 50, its nameless child 25.
printf '%s\n' '(anonymous app.js:5) 5' '(anonymous app.js:5);work:er 7' '(anonymous app.js:5);work:er;late 6' \
	'(anonymous app.js:5);work:er;leaf 7' '(program) 6' 'other 50' 'other;(anonymous) 25' > "$CHX/want"
chc "$CHD/chunks.json" > "$CHX/out"
cmp -s "$CHX/out" "$CHX/want" && pass "chrome: sampled profiles in ProfileChunk events, by hand" \
	|| fail "chrome: sampled profiles in ProfileChunk events" "$(diff "$CHX/want" "$CHX/out")"
grep -q "3 duration events left out" "$CHX/err" && pass "chrome: the duration events beside samples are named" \
	|| fail "chrome: the duration events beside samples are named" "$(cat "$CHX/err")"
"$B/stackcollapse-guess" "$CHD/chunks.json" 2> /dev/null | cmp -s - "$CHX/want" \
	&& pass "chrome: stackcollapse-guess reads sampled profiles" || fail "chrome: stackcollapse-guess reads sampled profiles"
# A profile whose chunks hold samples but no nodes is named, not drawn.
printf '[{"ph":"P","name":"ProfileChunk","pid":1,"id":"0x1","args":{"data":{"cpuProfile":{"samples":[3,9]},"timeDeltas":[5,5]}}}]' \
	> "$CHX/nonode.json"
chc "$CHX/nonode.json" > /dev/null
grep -q "1 sampled profiles whose chunks hold samples but no nodes skipped" "$CHX/err" \
	&& pass "chrome: a sampled profile without nodes is named" || fail "chrome: a sampled profile without nodes" "$(cat "$CHX/err")"
# Every cut of it: never a crash, exit 0 or 1 (a partial trace).
_bad=
_n=$(wc -c < "$CHD/chunks.json")
_i=1
while [ $_i -lt "$_n" ]; do
	head -c $_i "$CHD/chunks.json" > "$CHX/cut.json"
	"$B/flame" --format chrome-trace --to collapsed "$CHX/cut.json" -o /dev/null 2> /dev/null
	_rc=$?
	[ $_rc -le 2 ] || _bad="$_bad $_i:$_rc"
	_i=$((_i + 97))
done
[ -z "$_bad" ] && pass "chrome: cuts of a sampled trace never crash" || fail "chrome: cuts of a sampled trace" "$_bad"
if have_python; then
	python3 tests/tools/chromeprof.py "$CHD/chunks.json" | cmp -s - "$CHX/want" \
		&& pass "chrome: chromeprof.py agrees with the hand-worked stacks" \
		|| fail "chrome: chromeprof.py agrees with the hand-worked stacks"
	# The shared traces' sampled profiles against the reference.
	if [ -d "$CHS" ]; then
		_d=
		for _f in chrome-65-simple-timeline.json chrome-66-worker.json chrome-69-simple.json \
			chrome-70-worker.json chrome-116-Trace-20230603T221323.json chrome-141-no-arg-data.json; do
			python3 tests/tools/chromeprof.py "$CHS/$_f" > "$CHX/want"
			chc "$CHS/$_f" > "$CHX/out"
			[ -s "$CHX/want" ] && cmp -s "$CHX/out" "$CHX/want" || _d="$_d $_f"
		done
		[ -z "$_d" ] && pass "chrome: sampled profiles of 6 shared traces as chromeprof.py" \
			|| fail "chrome: sampled profiles of shared traces as chromeprof.py" "$_d"
	fi
fi

if [ -d "$CHS" ] && have_python; then
	_out=$(python3 tests/tools/speedscope_snap.py "$CHS/expected/speedscope-chrome.test.ts.snap" "$CHS" "$B/flame" \
		chrome-65-simple.cpuprofile node-10.11.0-example.cpuprofile chrome-65-simple-timeline.json)
	# (the last: a trace whose CpuProfile event speedscope reads twice,
	# whole and chunked)
	[ "$(printf '%s\n' "$_out" | grep -c '^SAME')" = 4 ] && pass "chrome: cpuprofiles as speedscope weighs them (4)" \
		|| fail "chrome: cpuprofiles as speedscope weighs them" "$_out"
	# Trace events whose frames speedscope names by event name alone (it
	# adds args to the others) and that it keeps in one profile.
	_out=$(python3 tests/tools/speedscope_snap.py "$CHS/expected/speedscope-trace-event.test.ts.snap" \
		"$CHS/trace-event" "$B/flame" bex-interaction.json too-many-end-events.json \
		end-event-with-empty-stack.json must-retain-original-order.json simple-hermes.json matching-x.json \
		out-of-order.json x-events-matching-end.json x-events-matching-start.json)
	[ "$(printf '%s\n' "$_out" | grep -c '^SAME')" = 10 ] && pass "chrome: trace events as speedscope nests them (10)" \
		|| fail "chrome: trace events as speedscope nests them" "$_out"
	"$B/flame" --to collapsed "$CHS/chrome-65-sucrase.cpuprofile" -o "$CHX/sucrase" 2> "$CHX/err"
	[ -s "$CHX/sucrase" ] && [ ! -s "$CHX/err" ] && pass "chrome: the 1 MB sucrase cpuprofile reads clean" \
		|| fail "chrome: sucrase cpuprofile" "$(cat "$CHX/err")"
else
	skip "chrome: shared samples against speedscope" "$CHS or python3 absent"
fi

_fg=${FLAMEGRAPH_DIR:-/work/bench-data/FlameGraph}/stackcollapse-chrome-tracing.py
if [ -f "$_fg" ] && [ -d "$CHS" ] && have_python; then
	for _f in chrome-65-simple-timeline.json chrome-66-worker.json chrome-69-simple.json \
		chrome-70-worker.json chrome-116-Trace-20230603T221323.json; do
		# The script reads only X events, from {"traceEvents": [...]}.
		python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
d = d["traceEvents"] if isinstance(d, dict) else d
json.dump({"traceEvents": [e for e in d if isinstance(e, dict) and e.get("ph") == "X"]}, open(sys.argv[2], "w"))' \
			"$CHS/$_f" "$CHX/x.json"
		python3 "$_fg" "$CHX/x.json" > "$CHX/fg.out"
		"$B/flame" --format chrome-trace --to collapsed "$CHX/x.json" -o "$CHX/fl.out" 2> /dev/null
		"$B/stackcollapse-chrome-tracing" "$CHX/x.json" 2> /dev/null | cmp -s - "$CHX/fl.out" \
			&& pass "stackcollapse-chrome-tracing: $_f as flame --to collapsed" \
			|| fail "stackcollapse-chrome-tracing: $_f as flame --to collapsed"
		_d=$(python3 tests/tools/normfolded.py --help >/dev/null 2>&1; python3 -c 'import sys, collections
def load(p):
    c = collections.Counter()
    for l in open(p):
        s, v = l.rstrip("\n").rsplit(" ", 1)
        if float(v) > 0:
            c[s] += float(v)
    return c
a, b = load(sys.argv[1]), load(sys.argv[2])
print(sum(1 for k in set(a) | set(b) if abs(a[k] - b[k]) > 1e-6 * max(1.0, abs(a[k]))))' "$CHX/fg.out" "$CHX/fl.out")
		[ "$_d" = 0 ] && [ -s "$CHX/fl.out" ] && pass "chrome: $_f X events as stackcollapse-chrome-tracing.py" \
			|| fail "chrome: $_f against stackcollapse-chrome-tracing.py" "$_d stacks differ"
	done
else
	skip "chrome: against stackcollapse-chrome-tracing.py" "set FLAMEGRAPH_DIR to a FlameGraph checkout"
fi
