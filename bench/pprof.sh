#!/bin/sh
# make bench's pprof section (issue 20): stackcollapse-pprof on a ~100 MB
# profile tests/tools/pprofgen.py writes (100k distinct stacks of 5-40
# frames over 60k locations, 2M samples), plain and gzipped, against
# stackcollapse-perf (one thread) on 100 MB of perf script text: the head
# of the real recording in /work/bench-data when there is one, else the
# test recordings repeated; both on one thread (each on its default
# threads spends more CPU for less wall time: bench/perbyte.sh compares
# those by wall clock).  Run in turns, 3 rounds; MB/s are of the
# input as given, per CPU second (user + sys: other work on the machine
# inflates wall time), and the wall time and peak RSS of the best round.
# Real profiles, when there are some (PPROF_REAL: files, default the
# shared samples' large.cpu.pb.gz), are read inflated, REPEAT runs a
# measurement (they are small: the per-byte figure includes starting the
# program REPEAT times).  PPROF_BEFORE=path/to/an/older/stackcollapse-pprof
# runs it in the same turns ("before").
B=${B:-build}
REPEAT=${REPEAT:-20}
OUT=${OUT:-bench/out}
RUN=$B/tests/runstat
mkdir -p "$OUT"
if ! command -v python3 > /dev/null 2>&1 || [ ! -x /usr/bin/time ]; then
	echo "pprof: skipped (python3 writes the profile; GNU time gives CPU time)"
	exit 0
fi
[ -s "$OUT/big.pprof" ] || python3 tests/tools/pprofgen.py big "$OUT/big.pprof" 100
[ -s "$OUT/big.pprof.gz" ] || gzip -6 -c "$OUT/big.pprof" > "$OUT/big.pprof.gz"
# The same size with 1,000 distinct stacks: the reading per sample, with
# little of the building and writing of stacks.
[ -s "$OUT/few.pprof" ] || python3 tests/tools/pprofgen.py big "$OUT/few.pprof" 100 --stacks 1000
# And with 2M: nearly every sample a stack of its own (1.17M), the
# shape of profiles whose writers merge a stack's samples into one (Go,
# perf_data_converter): the writing of 683 MB of stacks is the most of it.
[ -s "$OUT/distinct.pprof" ] || python3 tests/tools/pprofgen.py big "$OUT/distinct.pprof" 100 --stacks 2000000
REAL=${BENCH_REAL_PERF:-/work/bench-data/real/perf.txt}
if [ ! -s "$OUT/perf100.txt" ]; then
	if [ -s "$REAL" ]; then
		head -c 100000000 "$REAL" > "$OUT/perf100.txt"
	else
		i=0
		while [ $i -lt 80 ]; do
			for f in threads cpp node dwarf pidtid system; do zcat "tests/data/perf/$f.txt.gz"; done
			i=$((i + 1))
		done | head -c 100000000 > "$OUT/perf100.txt"
	fi
fi

# The real profiles, inflated (the protobuf reading is what is measured).
: > "$OUT/pp.real"
for _r in ${PPROF_REAL:-../shared/samples/pprof/large.cpu.pb.gz}; do
	[ -s "$_r" ] || continue
	_b=$(basename "$_r" .gz)
	{ gzip -dc "$_r" 2> /dev/null || cat "$_r"; } > "$OUT/real-$_b"
	echo "real-$_b" >> "$OUT/pp.real"
done

# one NAME FILE CMD...: one run; appends "NAME cpu wall rss" to $OUT/pp.t.
one() {
	_n=$1 _f=$2
	shift 2
	/usr/bin/time -f '%U %S' -o "$OUT/pp.cpu" "$RUN" -o /dev/null -- "$@" "$_f" 2> "$OUT/pp.stat" || true
	echo "$_n $(awk '{ print $1 + $2 }' "$OUT/pp.cpu") $(tail -n 1 "$OUT/pp.stat") $(wc -c < "$_f")" >> "$OUT/pp.t"
}
: > "$OUT/pp.t"
cat "$OUT/big.pprof" "$OUT/big.pprof.gz" "$OUT/few.pprof" "$OUT/perf100.txt" > /dev/null
for r in 1 2 3; do
	one stackcollapse-pprof "$OUT/big.pprof" "$B/stackcollapse-pprof" --threads 1
	one stackcollapse-pprof-gz "$OUT/big.pprof.gz" "$B/stackcollapse-pprof" --threads 1
	one stackcollapse-pprof-1k-stacks "$OUT/few.pprof" "$B/stackcollapse-pprof" --threads 1
	one stackcollapse-perf-1thread "$OUT/perf100.txt" "$B/stackcollapse-perf" --threads 1
	[ -z "$PPROF_BEFORE" ] || one stackcollapse-pprof-before "$OUT/big.pprof" "$PPROF_BEFORE"
	[ -z "$PPROF_BEFORE" ] || one stackcollapse-pprof-1k-stacks-before "$OUT/few.pprof" "$PPROF_BEFORE"
	while read -r _b; do
		# REPEAT runs as one: sizes are counted REPEAT times below.
		one "x$REPEAT-$_b" "$OUT/$_b" sh -c 'for i in $(seq '"$REPEAT"'); do "$0" "$1" > /dev/null; done' \
			"$B/stackcollapse-pprof"
		[ -z "$PPROF_BEFORE" ] || one "x$REPEAT-$_b-before" "$OUT/$_b" \
			sh -c 'for i in $(seq '"$REPEAT"'); do "$0" "$1" > /dev/null; done' "$PPROF_BEFORE"
	done < "$OUT/pp.real"
done
echo "pprof input: $(wc -c < "$OUT/big.pprof" | awk '{ printf "%.1f", $1 / 1e6 }') MB" \
	"($(wc -c < "$OUT/big.pprof.gz" | awk '{ printf "%.1f", $1 / 1e6 }') MB gzipped)," \
	"$("$B/stackcollapse-pprof" "$OUT/big.pprof" | wc -l) distinct stacks; perf text: $(wc -c < "$OUT/perf100.txt" | awk '{ printf "%.1f", $1 / 1e6 }') MB"
awk '{ if ($1 ~ /^x[0-9]+-/) { r = substr($1, 2); sub(/-.*/, "", r); $5 *= r }
	if (!($1 in cpu) || $2 < cpu[$1]) { cpu[$1] = $2; wall[$1] = $3; rss[$1] = $4; size[$1] = $5 } }
	END { for (n in cpu) { printf "%-28s CPU %6.2f s %7.0f MB/s per CPU s   wall %6.2f s   %7.1f MB peak RSS\n",
		n, cpu[n], size[n] / 1e6 / cpu[n], wall[n], rss[n] / 1024
		mbs[n] = size[n] / 1e6 / cpu[n] }
	if (mbs["stackcollapse-perf-1thread"] > 0)
		printf "pprof per byte: %.2fx the perf collapser (plain), %.2fx (gzipped, of the compressed bytes), %.2fx (1k stacks)\n",
			mbs["stackcollapse-pprof"] / mbs["stackcollapse-perf-1thread"],
			mbs["stackcollapse-pprof-gz"] / mbs["stackcollapse-perf-1thread"],
			mbs["stackcollapse-pprof-1k-stacks"] / mbs["stackcollapse-perf-1thread"] }' "$OUT/pp.t" | sort
