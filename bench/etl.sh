#!/bin/sh
# make bench's .etl section (issue 18): stackcollapse-etw on a ~200 MB
# trace made by tests/tools/genetl from one tests/tools/etlwrite.py wrote
# (1.6M samples with stacks on 4 CPUs), with plain, LZ77 and
# LZ77+Huffman compressed buffers, and on the shared PerfView trace when
# present.  MB/s are of the trace's data as written (compressed: also of
# the decompressed buffers), best of 3 wall times, and of CPU time; peak
# RSS.  A quarter of the trace is read too: the reader's memory follows
# the distinct stacks, not the samples, so its peak RSS should be about
# the whole trace's.
B=${B:-build}
OUT=${OUT:-bench/out}
RUN=$B/tests/runstat
SETW=$B/stackcollapse-etw
mkdir -p "$OUT"
if ! command -v python3 > /dev/null 2>&1; then
	echo "etl: skipped (python3 writes the template trace)"
	exit 0
fi
if [ ! -s "$OUT/etl.template" ]; then
	python3 tests/tools/etlwrite.py "$OUT/etl.template" "$OUT/etl.want" --samples 20000 --seed 11
fi
[ -s "$OUT/big.etl" ] || "$B/tests/genetl" -n 80 "$OUT/etl.template" > "$OUT/big.etl"
[ -s "$OUT/bigz.etl" ] || "$B/tests/genetl" -z -n 80 "$OUT/etl.template" > "$OUT/bigz.etl"
[ -s "$OUT/bigh.etl" ] || "$B/tests/genetl" -h -n 80 "$OUT/etl.template" > "$OUT/bigh.etl"
[ -s "$OUT/quarter.etl" ] || "$B/tests/genetl" -n 20 "$OUT/etl.template" > "$OUT/quarter.etl"
# The same trace in 64 KiB buffers, the size xperf and WPR write by
# default (the template's 8 KiB make a Huffman table every 8 KiB).
if [ ! -s "$OUT/etl64.template" ]; then
	python3 tests/tools/etlwrite.py "$OUT/etl64.template" "$OUT/etl64.want" --samples 20000 --seed 11 \
		--bufsize 65536
fi
[ -s "$OUT/big64z.etl" ] || "$B/tests/genetl" -z -n 80 "$OUT/etl64.template" > "$OUT/big64z.etl"
[ -s "$OUT/big64h.etl" ] || "$B/tests/genetl" -h -n 80 "$OUT/etl64.template" > "$OUT/big64h.etl"
plain=$(wc -c < "$OUT/big.etl")

# etl_measure NAME FILE [PLAIN]: best of 3 runs; PLAIN, the bytes of the
# trace uncompressed (default: big.etl's).
etl_measure() {
	p=${3:-$plain}
	best=
	for i in 1 2 3; do
		"$RUN" -o /dev/null -- "$SETW" "$2" 2> "$OUT/etl.stat" || true
		t=$(tail -n 1 "$OUT/etl.stat" | cut -d' ' -f1)
		rss=$(tail -n 1 "$OUT/etl.stat" | cut -d' ' -f2)
		if [ -z "$best" ] || awk "BEGIN { exit !($t < $best) }"; then best=$t; bestrss=$rss; fi
	done
	size=$(wc -c < "$2")
	awk -v n="$1" -v t="$best" -v s="$size" -v p="$p" -v r="$bestrss" 'BEGIN {
		printf "%-22s %7.1f MB %7.3f s %6.0f MB/s", n, s / 1e6, t, s / 1e6 / t
		if (n ~ /compressed/) printf " (%.0f MB/s decompressed)", p / 1e6 / t
		printf " %7.1f MB peak RSS\n", r / 1024 }'
	# On a shared machine wall time includes waiting for a CPU: the CPU
	# time (GNU time, when there is one) says what the reader costs.
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f '%U %S' "$SETW" "$2" 2> "$OUT/etl.cpu" > /dev/null
		awk -v s="$size" -v p="$p" -v n="$1" '{ t = $1 + $2
			printf "%-22s CPU %.3f s: %.0f MB/s", "", t, s / 1e6 / t
			if (n ~ /compressed/) printf " (%.0f MB/s decompressed)", p / 1e6 / t
			printf "\n" }' "$OUT/etl.cpu"
	fi
}

cat "$OUT/big.etl" "$OUT/bigz.etl" "$OUT/bigh.etl" "$OUT/quarter.etl" > /dev/null
etl_measure "etl plain buffers" "$OUT/big.etl"
etl_measure "etl compressed LZ77" "$OUT/bigz.etl"
etl_measure "etl compressed Huffman" "$OUT/bigh.etl"
etl_measure "etl plain, a quarter" "$OUT/quarter.etl"
[ -s "$OUT/big64.etl" ] || "$B/tests/genetl" -n 80 "$OUT/etl64.template" > "$OUT/big64.etl"
plain64=$(wc -c < "$OUT/big64.etl")
etl_measure "etl compressed LZ77, 64 KiB buffers" "$OUT/big64z.etl" "$plain64"
etl_measure "etl compressed Huffman, 64 KiB buffers" "$OUT/big64h.etl" "$plain64"
if [ -f ../shared/samples/etl/net.4.5.2.x64.etl.zip ]; then
	etl_measure "net.4.5.2.x64.etl.zip" ../shared/samples/etl/net.4.5.2.x64.etl.zip
else
	echo "net.4.5.2.x64.etl.zip: skipped (../shared is not present)"
fi
