# Java Flight Recorder recordings (collapse/jfr), sourced by run.sh.  Two
# readings to compare with: recordings written by tests/tools/jfrwrite.py
# from the documented layout, with the stacks it wrote; and the JDK's own
# `jfr print --json` (read by tests/tools/jfrstacks.py) on recordings of
# tests/data/jfr/Work.java: one kept here with what jfr gave for it, and,
# when a JDK is installed, new ones made by the test.
FLJ=$(pwd)/$B/flame
JD=tests/data/jfr
JT=$TMP/jfr
mkdir -p "$JT"

jfr_same() {
	if cmp -s "$2" "$3"; then pass "jfr: $1"; else fail "jfr: $1" "$(diff "$2" "$3" | head -8)"; fi
}

# jfr_read NAME WANT FILE [flame options]: flame's stacks of FILE, sorted,
# are WANT's.
jfr_read() {
	_n=$1 _w=$2 _f=$3
	shift 3
	"$FLJ" --collapsed "$@" "$_f" 2> "$JT/err" | LC_ALL=C sort > "$JT/got"
	jfr_same "$_n" "$_w" "$JT/got"
}

jfr_written() {
	for _o in "" "--fixed" "--seed 5 --chunks 3" "--fixed --seed 9 --chunks 2 --samples 1500"; do
		python3 tests/tools/jfrwrite.py "$JT/w.jfr" "$JT/w.want" $_o
		jfr_read "written recording ($_o) read exactly" "$JT/w.want" "$JT/w.jfr"
		grep -q 'byte [0-9]' "$JT/err" && fail "jfr: written recording ($_o): no fault" "$(cat "$JT/err")"
	done
	grep -q 'samples name a stack trace the recording does not hold' "$JT/err" &&
		grep -q 'jdk.NativeMethodSample events' "$JT/err" && grep -q 'cut short by the JVM' "$JT/err" \
		&& pass "jfr: what is not drawn is said (unknown stacks, native samples, cut stacks)" \
		|| fail "jfr: notes" "$(cat "$JT/err")"
}

jfr_kept() {
	jfr_read "a recording of five threads, as jfr reads it" "$JD/work.want" "$JD/work.jfr"
	gzip -c "$JD/work.jfr" > "$JT/work.jfr.gz"
	jfr_read "gzipped, from stdin" "$JD/work.want" - --format jfr < "$JT/work.jfr.gz"
	cat "$JD/work.jfr" "$JD/work.jfr" > "$JT/two.jfr"
	awk '{ n = $NF; $NF = ""; print $0 n * 2 }' "$JD/work.want" > "$JT/two.want"
	jfr_read "two chunks, read one after the other" "$JT/two.want" "$JT/two.jfr"
	"$FLJ" "$JD/work.jfr" -o "$JT/work.svg" 2> /dev/null && grep -q 'Work.fib' "$JT/work.svg" \
		&& pass "jfr: flame tells a .jfr by its content and draws it" \
		|| fail "jfr: flame work.jfr" "$(head -c 300 "$JT/work.svg")"
}

# Cut and spoiled recordings: never a crash, the fault named by byte,
# exit 1 (or 2 when no sample is left); samples of whole chunks kept.
jfr_faults() {
	_size=$(wc -c < "$JD/work.jfr")
	_bad=
	for _cut in 3 40 68 200 5000 $((_size / 2)) $((_size - 40)) $((_size - 1)); do
		head -c "$_cut" "$JD/work.jfr" > "$JT/cut.jfr"
		"$FLJ" --collapsed --format jfr "$JT/cut.jfr" > /dev/null 2> "$JT/err"
		_rc=$?
		{ [ "$_rc" = 1 ] || [ "$_rc" = 2 ]; } && grep -q 'byte [0-9]' "$JT/err" || _bad="$_bad $_cut:$_rc"
	done
	[ -z "$_bad" ] && pass "jfr: a recording cut anywhere: the fault named by its byte, no crash" \
		|| fail "jfr: cut recordings (cut:exit)" "$_bad"
	cat "$JD/work.jfr" > "$JT/cut2.jfr"
	head -c $((_size / 2)) "$JD/work.jfr" >> "$JT/cut2.jfr"
	jfr_read "a whole chunk before a cut one is kept" "$JD/work.want" "$JT/cut2.jfr"
	grep -q "byte $_size: " "$JT/err" && pass "jfr: the cut chunk named at its offset" \
		|| fail "jfr: cut chunk offset" "$(cat "$JT/err")"
	python3 -c 'import random, sys
d = bytearray(open(sys.argv[1], "rb").read())
r = random.Random(7)
for i in range(int(sys.argv[3])):
    out = bytearray(d)
    for _ in range(r.randrange(1, 8)):
        out[r.randrange(68, len(out))] = r.randrange(256)
    open("%s/spoilt%d.jfr" % (sys.argv[2], i), "wb").write(out)' "$JD/work.jfr" "$JT" 40
	_bad=
	for _f in "$JT"/spoilt*.jfr; do
		"$FLJ" --collapsed --format jfr "$_f" > /dev/null 2>&1
		[ $? -lt 3 ] || _bad="$_bad $(basename "$_f")"
	done
	[ -z "$_bad" ] && pass "jfr: 40 recordings with bytes spoilt: no crash" || fail "jfr: spoilt" "$_bad"
}

# New recordings when a JDK is here: the CPU-samples settings, and
# javac under settings=profile (every event type a profile records).
jfr_live() {
	for _t in java javac jfr; do
		if ! command -v $_t > /dev/null 2>&1; then
			skip "jfr: recordings made here" "$_t is not installed (a JDK)"
			return
		fi
	done
	javac -d "$JT/cls" "$JD/Work.java" 2> "$JT/err" || { fail "jfr: javac Work.java" "$(cat "$JT/err")"; return; }
	java -XX:StartFlightRecording=filename="$JT/live.jfr",settings="$JD/samples.jfc" -cp "$JT/cls" \
		Work 1500 > /dev/null 2>&1
	javac -J-XX:StartFlightRecording=filename="$JT/javac.jfr",settings=profile -d "$JT/cls2" \
		"$JD/Work.java" > /dev/null 2>&1
	for _r in live javac; do
		if [ ! -s "$JT/$_r.jfr" ]; then
			fail "jfr: recording $_r.jfr was not made"
			continue
		fi
		jfr print --json --stack-depth 4096 --events jdk.ExecutionSample "$JT/$_r.jfr" |
			python3 tests/tools/jfrstacks.py > "$JT/$_r.want"
		jfr_read "$_r.jfr, made here, as jfr reads it" "$JT/$_r.want" "$JT/$_r.jfr"
	done
}

jfr_written
jfr_kept
jfr_faults
jfr_live
