#!/bin/sh
# bench/json.sh (make bench, section json): flame reading ~100 MB of
# generated speedscope JSON, .cpuprofile and trace events (MB/s of input,
# user+sys CPU seconds, peak RSS), and, on a smaller trace, FlameGraph's
# stackcollapse-chrome-tracing.py in turns with flame (FLAMEGRAPH_DIR, or
# /work/bench-data/FlameGraph; left out when absent).
set -e
B=${B:-build}
OUT=bench/out
RUN=$B/tests/runstat
MB=${BENCH_JSON_MB:-100}
mkdir -p "$OUT"

# A speedscope file: 4000 frames, samples of 50000 distinct stacks 8-40
# deep (some far more often than others).
ss=$OUT/big.speedscope.json
if [ ! -s "$ss" ] || [ "$(cat "$OUT/big.json.params" 2>/dev/null)" != "$MB pool" ]; then
	awk -v mb="$MB" 'BEGIN { srand(42); nf = 4000
		printf "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\"shared\":{\"frames\":["
		for (i = 0; i < nf; i++) printf "%s{\"name\":\"ns::module%d::function_%d(int, char const*)\"}", i ? "," : "", i % 97, i
		printf "]},\"profiles\":[{\"type\":\"sampled\",\"name\":\"big\",\"unit\":\"nanoseconds\",\"startValue\":0,\"endValue\":0,\"samples\":["
		n = int(mb * 1000000 / 130)
		# Samples repeat stacks, as real ones do: 50000 distinct.
		for (p = 0; p < 50000; p++) {
			d = 8 + int(rand() * 33); f = int(rand() * 50); line = "["
			for (k = 0; k < d; k++) { line = line (k ? "," : "") f; f = (f * 7 + int(rand() * 3) + k) % nf }
			pool[p] = line "]"
		}
		for (s = 0; s < n; s++)
			printf "%s%s", s ? ",\n" : "", pool[int(rand() * rand() * 50000)]
		printf "],\"weights\":["
		for (s = 0; s < n; s++) printf "%s%d", s ? "," : "", 1000 + int(rand() * 9000)
		printf "]}]}\n" }' > "$ss"
	# A .cpuprofile: 30000 nodes (parents by id), samples with time deltas.
	awk -v mb="$MB" 'BEGIN { srand(7); nn = 30000
		printf "{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\",\"scriptId\":\"0\",\"url\":\"\",\"lineNumber\":-1,\"columnNumber\":-1},\"hitCount\":0}"
		for (i = 2; i <= nn; i++)
			printf ",\n{\"id\":%d,\"parent\":%d,\"callFrame\":{\"functionName\":\"fn%d\",\"scriptId\":\"%d\",\"url\":\"https://example.com/app/bundle%d.js\",\"lineNumber\":%d,\"columnNumber\":%d},\"hitCount\":1}", i, i < 20 ? 1 : int(i / (2 + int(rand() * 3))), i, i % 50, i % 50, i % 9000, i % 80
		n = int(mb * 1000000 / 12)
		printf "],\"startTime\":1000,\"endTime\":%d,\"samples\":[", 1000 + n * 1000
		for (s = 0; s < n; s++) printf "%s%d", s ? "," : "", 2 + int(rand() * (nn - 1))
		printf "],\"timeDeltas\":["
		for (s = 0; s < n; s++) printf "%s%d", s ? "," : "", 900 + int(rand() * 300)
		printf "]}\n" }' > "$OUT/big.cpuprofile"
	# Trace events: per thread, tasks holding nested X events.
	awk -v mb="$MB" 'BEGIN { srand(3); printf "{\"traceEvents\":[\n"; n = int(mb * 1000000 / 110); t = 0
		for (s = 0; s < n; s += 4) {
			tid = s % 7; t += 50
			printf "%s{\"pid\":1,\"tid\":%d,\"ph\":\"X\",\"cat\":\"toplevel\",\"name\":\"Task%d\",\"ts\":%d,\"dur\":40}", s ? ",\n" : "", tid, s % 13, t
			printf ",\n{\"pid\":1,\"tid\":%d,\"ph\":\"X\",\"cat\":\"v8\",\"name\":\"FunctionCall\",\"ts\":%d,\"dur\":30}", tid, t + 5
			printf ",\n{\"pid\":1,\"tid\":%d,\"ph\":\"X\",\"cat\":\"v8\",\"name\":\"V8.Execute%d\",\"ts\":%d,\"dur\":%d}", tid, s % 5, t + 6, 10 + s % 11
			printf ",\n{\"pid\":1,\"tid\":%d,\"ph\":\"X\",\"cat\":\"blink\",\"name\":\"Layout\",\"ts\":%d,\"dur\":3}", tid, t + 36
		}
		printf "\n]}\n" }' > "$OUT/big.trace.json"
	echo "$MB pool" > "$OUT/big.json.params"
fi

# measure NAME CMD...: median of 3 runs of user+sys CPU (runstat gives
# wall time, so the CPU comes from time's -f where present, else wall).
cpu() {
	if command -v /usr/bin/time >/dev/null 2>&1; then
		/usr/bin/time -f '%U %S %M' "$@" > /dev/null 2> "$OUT/json.time" || true
		tail -n 1 "$OUT/json.time" | awk '{ printf "%.3f %d\n", $1 + $2, $3 }'
	else
		"$RUN" -o /dev/null -- "$@" 2> "$OUT/json.time" || true
		tail -n 1 "$OUT/json.time"
	fi
}
measure() {
	name=$1 in=$2
	shift 2
	size=$(wc -c < "$in")
	for i in 1 2 3; do cpu "$@"; done | sort -n | sed -n 2p > "$OUT/json.med"
	read -r t rss < "$OUT/json.med"
	printf '%-34s %6.1f MB %7.2f s CPU %6.0f MB/s %7.1f MB peak RSS\n' "$name" \
		"$(awk "BEGIN { print $size / 1e6 }")" "$t" "$(awk "BEGIN { print $size / 1e6 / $t }")" \
		"$(awk "BEGIN { print $rss / 1024 }")"
	LAST=$t
}

for f in "$ss" "$OUT/big.cpuprofile" "$OUT/big.trace.json"; do cat "$f" > /dev/null; done
measure "flame speedscope" "$ss" "$B/flame" --to collapsed "$ss" -o -
measure "flame cpuprofile" "$OUT/big.cpuprofile" "$B/flame" --to collapsed "$OUT/big.cpuprofile" -o -
measure "flame chrome-trace" "$OUT/big.trace.json" "$B/flame" --to collapsed "$OUT/big.trace.json" -o -
measure "flame --to speedscope (speedscope)" "$ss" "$B/flame" "$ss" --to speedscope -o -

fg=${FLAMEGRAPH_DIR:-/work/bench-data/FlameGraph}/stackcollapse-chrome-tracing.py
if [ -f "$fg" ] && command -v python3 >/dev/null 2>&1; then
	head -c 20000000 "$OUT/big.trace.json" | sed '$d' > "$OUT/mid.trace.json"
	sed -i '$s/,$//' "$OUT/mid.trace.json"
	printf '\n]}\n' >> "$OUT/mid.trace.json"
	measure "flame chrome-trace (20 MB)" "$OUT/mid.trace.json" "$B/flame" --to collapsed "$OUT/mid.trace.json" -o -
	tf=$LAST
	measure "stackcollapse-chrome-tracing.py" "$OUT/mid.trace.json" python3 "$fg" "$OUT/mid.trace.json"
	echo "stackcollapse-chrome-tracing.py: $(awk "BEGIN { printf \"%.1fx\", $LAST / $tf }") the CPU of flame"
else
	echo "stackcollapse-chrome-tracing.py: not found (set FLAMEGRAPH_DIR to compare)"
fi
