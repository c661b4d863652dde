#!/bin/sh
# make bench's jfr section (issue 20): flame on Java Flight Recorder
# recordings against the JDK's own reader (`jfr print --json`, its stacks
# counted by tests/tools/jfrstacks.py), in turns, 3 rounds, CPU time
# (user + sys; every process of the pipeline) and peak RSS of the best
# round.  Inputs: a recording of tests/data/jfr/Work.java made here with
# settings=profile (JDK needed, else skipped), ten times over, and one
# jfrwrite.py writes (900k samples in 3 chunks).
B=${B:-build}
OUT=${OUT:-bench/out}
RUN=$B/tests/runstat
mkdir -p "$OUT"
if ! command -v python3 > /dev/null 2>&1 || [ ! -x /usr/bin/time ]; then
	echo "jfr: skipped (python3 writes the recording; GNU time gives CPU time)"
	exit 0
fi
[ -s "$OUT/big.jfr" ] || python3 tests/tools/jfrwrite.py "$OUT/big.jfr" "$OUT/big.jfr.want" \
	--samples 300000 --chunks 3 --seed 4
if command -v java > /dev/null 2>&1 && command -v jfr > /dev/null 2>&1 && [ ! -s "$OUT/work.jfr" ]; then
	javac -d "$OUT/jfrcls" tests/data/jfr/Work.java &&
		java -XX:StartFlightRecording=filename="$OUT/work.jfr",settings=profile -cp "$OUT/jfrcls" \
			Work 20000 > /dev/null 2>&1
	# Ten copies one after the other: a recording of ten chunks, long
	# enough for flame's time to be measured.
	[ -s "$OUT/work.jfr" ] && for i in 0 1 2 3 4 5 6 7 8 9; do cat "$OUT/work.jfr"; done > "$OUT/work10.jfr"
fi

# one NAME FILE CMD: one run of CMD (a shell command reading $1); appends
# "NAME cpu wall rss bytes" to $OUT/jfr.t.
one() {
	_n=$1 _f=$2
	/usr/bin/time -f '%U %S' -o "$OUT/jfr.cpu" "$RUN" -o /dev/null -- sh -c "$3" sh "$_f" \
		2> "$OUT/jfr.stat" || true
	echo "$_n $(awk '{ print $1 + $2 }' "$OUT/jfr.cpu") $(tail -n 1 "$OUT/jfr.stat") $(wc -c < "$_f")" >> "$OUT/jfr.t"
}
: > "$OUT/jfr.t"
for r in 1 2 3; do
	one flame-written "$OUT/big.jfr" "$B/flame --collapsed \"\$1\" 2> /dev/null"
	if [ -s "$OUT/work10.jfr" ]; then
		one flame-recorded "$OUT/work10.jfr" "$B/flame --collapsed \"\$1\" 2> /dev/null"
		one jfr-print-recorded "$OUT/work10.jfr" \
			"jfr print --json --stack-depth 4096 --events jdk.ExecutionSample \"\$1\" | python3 tests/tools/jfrstacks.py"
	fi
done
[ -s "$OUT/work10.jfr" ] || echo "jfr: no JDK, so no recording; the JDK's reader not measured"
for f in "$OUT/big.jfr" "$OUT/work10.jfr"; do
	[ -s "$f" ] && echo "$(basename "$f"): $(wc -c < "$f" | awk '{ printf "%.1f", $1 / 1e6 }') MB," \
		"$("$B/flame" --collapsed "$f" 2> /dev/null | awk '{ s += $NF } END { print s + 0 }') samples"
done
awk '{ if (!($1 in cpu) || $2 < cpu[$1]) { cpu[$1] = $2; wall[$1] = $3; rss[$1] = $4; size[$1] = $5 } }
	END { for (n in cpu) printf "%-22s CPU %6.2f s %7.0f MB/s per CPU s   wall %6.2f s   %7.1f MB peak RSS\n",
		n, cpu[n], size[n] / 1e6 / (cpu[n] > 0 ? cpu[n] : 0.001), wall[n], rss[n] / 1024
	if (cpu["flame-recorded"] > 0)
		printf "jfr print | jfrstacks.py takes %.0fx flame'\''s CPU time on the recording\n",
			cpu["jfr-print-recorded"] / cpu["flame-recorded"] }' "$OUT/jfr.t" | sort
