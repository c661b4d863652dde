#!/bin/sh
# bench/before-after.sh OLD NEW: every tool of two builds on the same
# inputs, in turns (old, new, old, new, ...), ROUNDS times each (default
# 5); prints the median wall time and peak RSS of each and new/old.  OLD
# and NEW are folders holding the tools (a checkout after make, or its
# build/).  Inputs: the real recording when REAL_DIR has one (see
# bench/record-real.sh; perf text cut to PERF_MB, default 400), and
# generated ETW and PerfView inputs made with NEW's test generators.
set -eu
old=$1 new=$2
ROUNDS=${ROUNDS:-5}
OUT=bench/out/ba
REAL_DIR=${REAL_DIR:-/work/bench-data/real}
mkdir -p "$OUT"
gen=$new/tests
[ -x "$gen/genwpa" ] || gen=$new/build/tests

inputs() {
	if [ -s "$REAL_DIR/perf.txt" ]; then
		[ -s "$OUT/perf.txt" ] || head -c $((${PERF_MB:-400} << 20)) "$REAL_DIR/perf.txt" > "$OUT/perf.txt"
		[ -s "$OUT/real.folded" ] || cp "$REAL_DIR/real.folded" "$OUT/real.folded"
	else
		echo "no real recording in $REAL_DIR (bench/record-real.sh): perf and folded rows left out" >&2
	fi
	[ -s "$OUT/etw.csv" ] || "$gen/genwpa" -n 780000 -d 20000 -s 7 > "$OUT/etw.csv"
	[ -s "$OUT/pv.xml" ] || "$gen/genpv" -x -n 1300000 > "$OUT/pv.xml"
}

# one DIR TOOL ARGS...: wall seconds and peak KB of one run, on a line.
one() {
	dir=$1 tool=$2
	shift 2
	/usr/bin/time -f '%e %M' -o "$OUT/t" "$dir/$tool" "$@" > /dev/null 2>> "$OUT/stderr" || true
	tail -n 1 "$OUT/t"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# row NAME TOOL ARGS...: the tool of both builds in turns.
row() {
	name=$1
	shift
	: > "$OUT/old" ; : > "$OUT/new"
	i=0
	while [ $i -lt "$ROUNDS" ]; do
		one "$old" "$@" >> "$OUT/old"
		one "$new" "$@" >> "$OUT/new"
		i=$((i + 1))
	done
	to=$(cut -d' ' -f1 "$OUT/old" | median) tn=$(cut -d' ' -f1 "$OUT/new" | median)
	ro=$(cut -d' ' -f2 "$OUT/old" | median) rn=$(cut -d' ' -f2 "$OUT/new" | median)
	awk -v n="$name" -v to="$to" -v tn="$tn" -v ro="$ro" -v rn="$rn" 'BEGIN {
		printf "%-34s %7.3f s %7.3f s  %5.2fx   %7.1f MB %7.1f MB\n", n, to, tn,
			(to > 0 ? tn / to : 0), ro / 1024, rn / 1024 }'
}

[ -x /usr/bin/time ] || { echo "before-after: needs GNU time (apt-get install time)" >&2; exit 1; }
inputs
printf '%-34s %9s %9s  %6s   %10s %10s\n' "work" "old" "new" "new/old" "old RSS" "new RSS"
if [ -s "$OUT/real.folded" ]; then
	row "flamegraph, real folded" flamegraph "$OUT/real.folded"
	row "stackcollapse-perf --threads 1" stackcollapse-perf --threads 1 "$OUT/perf.txt"
	row "stackcollapse-perf (all cores)" stackcollapse-perf "$OUT/perf.txt"
	row "flame, perf text" flame "$OUT/perf.txt" -o /dev/null
fi
row "stackcollapse-etw, CSV" stackcollapse-etw "$OUT/etw.csv"
row "stackcollapse-perfview, XML" stackcollapse-perfview "$OUT/pv.xml"
row "flame, ETW CSV" flame "$OUT/etw.csv" -o /dev/null
