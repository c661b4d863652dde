# speedscope reader and writer tests (sourced by run.sh).  The expected
# stacks of tests/data/speedscope were worked out by hand from the
# events and samples in each file (see the comments); the shared samples
# are checked against what speedscope's own importer shows for them (its
# jest snapshot, samples/speedscope/expected).  flame --to speedscope is
# checked by tests/tools/speedscope_check.py against the file-format spec,
# and by reading it back.
SSD=tests/data/speedscope
SSX=$TMP/speedscope
SSS=../shared/samples/speedscope
mkdir -p "$SSX"
ssc() { "$B/flame" --to collapsed "$@" -o - 2> "$SSX/err"; }

# evented-ms.json: main opens at 0, parse;json runs 0.5-2, emité 2-2.25,
# main closes at 3: main's own time is 0.5 + 0.75; ';' in a name is ':'.
# The profiles come before the shared frames.
printf 'main 1.25\nmain;emit\303\251 0.25\nmain;parse:json 1.5\n' > "$SSX/want"
ssc "$SSD/evented-ms.json" > "$SSX/out"
cmp -s "$SSX/out" "$SSX/want" && pass "speedscope: evented profile, ms, frames after profiles" \
	|| fail "speedscope: evented profile" "$(diff "$SSX/want" "$SSX/out")"
# mixed.json: two profiles, so each stack starts with its name.  cpu:
# [a,b] 10 + 40, [a,c] 20, [a,9] names no frame, [a] has no weight.
# wall;clock: a 0-4 and 5-10, a;c 4-5.
printf 'cpu;a;b 50\ncpu;a;c 20\nwall:clock;a 9\nwall:clock;a;c 1\n' > "$SSX/want"
ssc "$SSD/mixed.json" > "$SSX/out"
cmp -s "$SSX/out" "$SSX/want" && pass "speedscope: two profiles under their names" \
	|| fail "speedscope: two profiles" "$(diff "$SSX/want" "$SSX/out")"
grep -q "1 samples without a weight" "$SSX/err" && grep -q "1 samples or events naming a frame past" "$SSX/err" \
	&& pass "speedscope: a sample without a weight or frame is skipped and counted" \
	|| fail "speedscope: skipped samples counted" "$(cat "$SSX/err")"

# Malformed JSON: refused with the byte offset, what came before kept.
printf '{"profiles": [}' > "$SSX/bad.json"
expect_exit 2 "speedscope: malformed JSON, no samples: exit 2" "$B/flame" --format speedscope "$SSX/bad.json" -o "$SSX/x.svg"
expect_err "speedscope: malformed JSON names the byte" "expected a value at byte $(python3 -c 'import sys; print(open(sys.argv[1]).read().index("}"))' "$SSX/bad.json")"
python3 -c "import sys; sys.stdout.write('{\"profiles\":' + '[' * 600)" > "$SSX/deep.json" 2>/dev/null &&
	{ expect_exit 2 "speedscope: 600 levels deep: refused" "$B/flame" --format speedscope "$SSX/deep.json" -o "$SSX/x.svg"
	  expect_err "speedscope: nesting limit named with its byte" "nested deeper than 512 levels at byte 523"; }
head -c 420 "$SSD/mixed.json" > "$SSX/cut.json"
expect_exit 1 "speedscope: cut short after a profile: exit 1" "$B/flame" --to collapsed "$SSX/cut.json" -o "$SSX/cut.out"
expect_err "speedscope: cut short: the end is named" "the input ends early (at byte 420"
grep -q '^cpu;a;b 50$' "$SSX/cut.out" && pass "speedscope: cut short: the samples before the cut are kept" \
	|| fail "speedscope: cut short keeps samples" "$(cat "$SSX/cut.out")"

# The shared samples: speedscope's snapshot shows a;b;c 2+3 (or 1+1+3),
# a;b;d 4 and a;b 5 for every one of them (two-sampled: twice).
if [ -d "$SSS" ]; then
	printf 'a;b 5\na;b;c 5\na;b;d 4\n' > "$SSX/want"
	for _f in simple.speedscope.json simple-no-pretty-print.speedscope.json simple-sampled.speedscope.json; do
		ssc "$SSS/$_f" > "$SSX/out"
		cmp -s "$SSX/out" "$SSX/want" && pass "speedscope: $_f as speedscope imports it" \
			|| fail "speedscope: $_f" "$(diff "$SSX/want" "$SSX/out")"
	done
	ssc "$SSS/two-sampled.speedscope.json" | sed -n 's/^one;//p' > "$SSX/out"
	cmp -s "$SSX/out" "$SSX/want" && pass "speedscope: two-sampled.speedscope.json, profile one" \
		|| fail "speedscope: two-sampled" "$(diff "$SSX/want" "$SSX/out")"
	ssc "$SSS/invalid/incomplete-trace.json" > /dev/null
	grep -q "1 frames never closed" "$SSX/err" && pass "speedscope: a frame never closed is named" \
		|| fail "speedscope: a frame never closed" "$(cat "$SSX/err")"
else
	skip "speedscope: shared samples" "$SSS absent"
fi

# flame --to speedscope: the spec's shape, the unit, and read back to the
# same stacks and totals, from several formats.
if have_python; then
	"$B/flame" --to speedscope examples/threads.perf.gz -o "$SSX/perf.json" 2> /dev/null
	check "speedscope: perf (cpu-clock) written in nanoseconds, as the spec has it" \
		python3 tests/tools/speedscope_check.py "$SSX/perf.json" nanoseconds
	"$B/flame" --to speedscope examples/templates.folded -o "$SSX/t.json"
	check "speedscope: collapsed input written with unit none" \
		python3 tests/tools/speedscope_check.py "$SSX/t.json" none
	printf 'not json\n' > "$SSX/no.json"
	expect_exit 1 "speedscope: the checker can fail" python3 tests/tools/speedscope_check.py "$SSX/no.json"
else
	skip "speedscope: writer against the spec" "no python3"
fi
_n=0
for _in in examples/templates.folded examples/threads.folded examples/threads.perf.gz tests/data/gdb/own.txt \
	tests/data/dtrace/own.txt tests/data/perfview/bare.json "$SSD/evented-ms.json" "$SSD/mixed.json" \
	tests/data/chrome/be.json tests/data/chrome/parents.cpuprofile; do
	_n=$((_n + 1))
	"$B/flame" --to collapsed "$_in" -o "$SSX/a$_n" 2> /dev/null
	"$B/flame" --to speedscope "$_in" -o "$SSX/s$_n.json" 2> /dev/null
	"$B/flame" --to collapsed "$SSX/s$_n.json" -o "$SSX/b$_n" 2> "$SSX/err"
	if [ -s "$SSX/a$_n" ] && cmp -s "$SSX/a$_n" "$SSX/b$_n" && [ ! -s "$SSX/err" ]; then
		pass "speedscope: round trip of $_in"
	else
		fail "speedscope: round trip of $_in" "$(diff "$SSX/a$_n" "$SSX/b$_n" | head -5; cat "$SSX/err")"
	fi
done
# Totals independently of flame's own formatting: awk sums both sides.
_t1=$(awk '{ t += $NF } END { printf "%.6f", t }' "$SSX/a1")
_t2=$(grep -o '"endValue":[0-9.]*' "$SSX/s1.json" | cut -d: -f2)
[ "$(awk -v t="$_t2" 'BEGIN { printf "%.6f", t }')" = "$_t1" ] && pass "speedscope: endValue is the total ($_t1)" \
	|| fail "speedscope: endValue is the total" "$_t1 vs $_t2"
