#!/bin/sh
# make bench: flamegraph throughput (MB/s of collapsed input) and peak RSS
# on a generated input of 1M lines and ~90k distinct deep stacks, memory
# against input size, SVG size, and ratios to flamegraph.pl and
# inferno-flamegraph when they are on PATH (or FLAMEGRAPH_PL/INFERNO).
set -e
B=${B:-build}
OUT=bench/out
mkdir -p "$OUT"
FG=$B/flamegraph
RUN=$B/tests/runstat
# make bench builds it; perbyte.sh and a run by hand may come first.
[ -x "$RUN" ] || make -s "$RUN" B="$B" > /dev/null || { echo "bench: cannot build $RUN" >&2; exit 1; }
LINES=${BENCH_LINES:-1000000}
DISTINCT=${BENCH_DISTINCT:-90000}

# measure NAME CMD...: best of 3 wall times; prints MB/s and peak RSS.
measure() {
	name=$1
	shift
	best=
	for i in 1 2 3; do
		"$RUN" -o "$OUT/$name.svg" -- "$@" 2> "$OUT/$name.stat" || true
		t=$(tail -n 1 "$OUT/$name.stat" | cut -d' ' -f1)
		rss=$(tail -n 1 "$OUT/$name.stat" | cut -d' ' -f2)
		if [ -z "$best" ] || awk "BEGIN { exit !($t < $best) }"; then best=$t; bestrss=$rss; fi
	done
	mbs=$(awk "BEGIN { printf \"%.0f\", $size / 1e6 / $best }")
	printf '%-28s %8.3f s %8s MB/s %8.1f MB peak RSS\n' "$name" "$best" "$mbs" "$(awk "BEGIN { print $bestrss / 1024 }")"
	eval "T_$name=$best"
}

# BENCH_ONLY="perf flame" runs only those sections (flamegraph, perf, etw,
# etl, pprof, jfr, perfview, flame, stackops, collapsers, perbyte, json, real, perfdata, browser); the perf input is still made when flame needs it.
section() { [ -z "${BENCH_ONLY:-}" ] || case " $BENCH_ONLY " in *" $1 "*) true ;; *) false ;; esac; }
if section flamegraph; then
big=$OUT/big.folded
if [ ! -s "$big" ] || [ "$(cat "$OUT/big.params" 2>/dev/null)" != "$LINES $DISTINCT" ]; then
	echo "generating $LINES lines, $DISTINCT distinct stacks..."
	"$B/tests/genfolded" -n "$LINES" -d "$DISTINCT" -D 60 -s 42 > "$big"
	echo "$LINES $DISTINCT" > "$OUT/big.params"
fi
size=$(wc -c < "$big")
mb=$(echo "$size" | awk '{ printf "%.1f", $1 / 1e6 }')
distinct=$(sed 's/ [0-9]*$//' "$big" | LC_ALL=C sort -u | wc -l)
echo "input: $mb MB, $(wc -l < "$big") lines, $distinct distinct stacks"

cat "$big" > /dev/null	# warm the page cache
measure flamegraph "$FG" "$big"
# A big graph comes in the compact form (--compact auto): its frames are
# data, counted in the data-frames attribute, not <g> elements.
svgframes=$(sed -n 's/.*id="fg-data".* data-frames="\([0-9]*\)".*/\1/p' "$OUT/flamegraph.svg")
[ -n "$svgframes" ] || svgframes=$(grep -c '^<g><title>' "$OUT/flamegraph.svg" || true)
echo "svg: $(wc -c < "$OUT/flamegraph.svg") bytes, $svgframes frames"

# Memory follows distinct stacks, not input size: the same stacks twice.
cat "$big" "$big" > "$OUT/double.folded"
"$RUN" -o /dev/null -- "$FG" "$OUT/double.folded" 2> "$OUT/double.stat"
echo "2x input (same stacks):      peak RSS $(tail -n 1 "$OUT/double.stat" | awk '{ printf "%.1f MB", $2 / 1024 }')"
rm -f "$OUT/double.folded"
gzip -1 -c "$big" > "$OUT/big.folded.gz"
"$RUN" -o /dev/null -- "$FG" "$OUT/big.folded.gz" 2> "$OUT/gz.stat"
echo "gzip input:                  $(tail -n 1 "$OUT/gz.stat" | awk -v s="$size" '{ printf "%.0f MB/s of uncompressed input", s / 1e6 / $1 }')"
rm -f "$OUT/big.folded.gz"

# Against the reference implementations, on a 250k-line sample (the Perl
# script needs minutes for the full input).
head -n 250000 "$big" > "$OUT/sample.folded"
ssize=$(wc -c < "$OUT/sample.folded")
"$RUN" -o "$OUT/sample.svg" -- "$FG" "$OUT/sample.folded" 2> "$OUT/s.stat"
ts=$(tail -n 1 "$OUT/s.stat" | cut -d' ' -f1)
PL=${FLAMEGRAPH_PL:-$(command -v flamegraph.pl || true)}
if [ -n "$PL" ]; then
	"$RUN" -o "$OUT/sample-pl.svg" -- perl "$PL" "$OUT/sample.folded" 2> "$OUT/pl.stat" || true
	tp=$(tail -n 1 "$OUT/pl.stat" | cut -d' ' -f1)
	echo "flamegraph.pl on 250k lines: $tp s vs $ts s: $(awk "BEGIN { printf \"%.0fx\", $tp / $ts }") faster;" \
	     "SVG $(wc -c < "$OUT/sample.svg") vs $(wc -c < "$OUT/sample-pl.svg") bytes"
else
	echo "flamegraph.pl: not on PATH (set FLAMEGRAPH_PL to compare)"
fi
INF=${INFERNO:-$(command -v inferno-flamegraph || true)}
if [ -n "$INF" ]; then
	measure inferno "$INF" "$big"
	echo "inferno-flamegraph: $(awk "BEGIN { printf \"%.1fx\", $T_inferno / $T_flamegraph }") slower than flamegraph"
else
	echo "inferno-flamegraph: not on PATH (set INFERNO to compare)"
fi
rm -f "$OUT/sample.folded"

fi
# ---- stackcollapse-perf ----
# Input: the perf recordings in tests/data/perf concatenated to >= 1 GB
# (real perf script text from several programs, call graphs, a JIT map).
SCP=$B/stackcollapse-perf
pin=$OUT/perf.txt
if { section perf || section flame; } && [ ! -s "$pin" ]; then
	echo "building a perf script input of >= 1 GB from tests/data/perf..."
	for f in threads cpp node dwarf pidtid system events; do zcat "tests/data/perf/$f.txt.gz"; done > "$OUT/one.txt"
	n=$((1100000000 / $(wc -c < "$OUT/one.txt") + 1))
	i=0
	while [ $i -lt $n ]; do cat "$OUT/one.txt"; i=$((i + 1)); done > "$pin"
	rm -f "$OUT/one.txt"
fi
if section perf; then
size=$(wc -c < "$pin")
echo "perf script input: $(echo "$size" | awk '{ printf "%.1f", $1 / 1e6 }') MB"
cat "$pin" > /dev/null
measure stackcollapse_perf_1 "$SCP" --threads 1 "$pin"
measure stackcollapse_perf_all "$SCP" "$pin"
cat "$pin" "$pin" > "$OUT/perf2.txt"
"$RUN" -o /dev/null -- "$SCP" --threads 1 "$OUT/perf2.txt" 2> "$OUT/p2.stat"
echo "2x input (same stacks), 1 thread: peak RSS $(tail -n 1 "$OUT/p2.stat" | awk '{ printf "%.1f MB", $2 / 1024 }')"
rm -f "$OUT/perf2.txt"
gzip -1 -c "$pin" > "$OUT/perf.txt.gz"
"$RUN" -o /dev/null -- "$SCP" --threads 1 "$OUT/perf.txt.gz" 2> "$OUT/pgz.stat"
echo "gzip input, 1 thread:        $(tail -n 1 "$OUT/pgz.stat" | awk -v s="$size" '{ printf "%.0f MB/s of uncompressed input", s / 1e6 / $1 }')"
t0=$(date +%s.%N); gzip -dc "$OUT/perf.txt.gz" > /dev/null; t1=$(date +%s.%N)
echo "  (gzip -dc alone:           $(awk -v s="$size" -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f MB/s", s / 1e6 / (b - a) }'))"
rm -f "$OUT/perf.txt.gz"
head -c 200000000 "$pin" > "$OUT/psample.txt"
"$RUN" -o /dev/null -- "$SCP" --threads 1 "$OUT/psample.txt" 2> "$OUT/ps.stat"
ts=$(tail -n 1 "$OUT/ps.stat" | cut -d' ' -f1)
"$RUN" -o /dev/null -- "$SCP" "$OUT/psample.txt" 2> "$OUT/ps2.stat"
ts2=$(tail -n 1 "$OUT/ps2.stat" | cut -d' ' -f1)
SPL=${STACKCOLLAPSE_PERF_PL:-$(command -v stackcollapse-perf.pl || true)}
if [ -n "$SPL" ]; then
	"$RUN" -o /dev/null -- perl "$SPL" "$OUT/psample.txt" 2> "$OUT/spl.stat" || true
	tp=$(tail -n 1 "$OUT/spl.stat" | cut -d' ' -f1)
	echo "stackcollapse-perf.pl on 200 MB: $tp s vs $ts s (1 thread), $ts2 s (all cores):" \
	     "$(awk "BEGIN { printf \"%.0fx and %.0fx\", $tp / $ts, $tp / $ts2 }") faster"
else
	echo "stackcollapse-perf.pl: not on PATH (set STACKCOLLAPSE_PERF_PL to compare)"
fi
ICP=${INFERNO_COLLAPSE_PERF:-$(command -v inferno-collapse-perf || true)}
if [ -n "$ICP" ]; then
	measure inferno_collapse_perf "$ICP" "$pin"
else
	echo "inferno-collapse-perf: not on PATH (set INFERNO_COLLAPSE_PERF to compare)"
fi
rm -f "$OUT/psample.txt" "$OUT"/*.svg

fi

if section etw; then
# ---- stackcollapse-etw ----
SETW=$B/stackcollapse-etw
ein=$OUT/wpa.csv
if [ ! -s "$ein" ]; then
	echo "generating a 500 MB wpaexporter CSV..."
	"$B/tests/genwpa" -n 780000 -d 20000 -s 7 > "$ein"
fi
size=$(wc -c < "$ein")
echo "wpaexporter CSV input: $(echo "$size" | awk '{ printf "%.1f", $1 / 1e6 }') MB"
cat "$ein" > /dev/null
measure stackcollapse_etw "$SETW" "$ein"

fi

if section etl; then
# ---- .etl traces (bench/etl.sh) ----
B=$B OUT=$OUT sh bench/etl.sh
fi

if section pprof; then
# ---- pprof profiles (bench/pprof.sh) ----
B=$B OUT=$OUT sh bench/pprof.sh
fi

if section jfr; then
# ---- Java Flight Recorder recordings (bench/jfr.sh) ----
B=$B OUT=$OUT sh bench/jfr.sh
fi

if section perfview; then
# ---- stackcollapse-perfview ----
# Generated PerfView files of ~200 MB: the interned XML form (3M samples
# of 20k stacks) and JSON (frames listed per sample).  Memory follows
# distinct frames and stacks: the XML with twice the samples is shown too.
SPV=$B/stackcollapse-perfview
for kind in xml json; do
	pvin=$OUT/big.PerfView.$kind
	if [ ! -s "$pvin" ]; then
		echo "generating a ~200 MB PerfView $kind file..."
		if [ $kind = xml ]; then "$B/tests/genpv" -x -n 2600000 > "$pvin"; else "$B/tests/genpv" -j -n 95000 > "$pvin"; fi
	fi
	size=$(wc -c < "$pvin")
	echo "PerfView $kind input: $(echo "$size" | awk '{ printf "%.1f", $1 / 1e6 }') MB"
	cat "$pvin" > /dev/null
	measure stackcollapse_perfview_$kind "$SPV" "$pvin"
done
"$B/tests/genpv" -x -n 5200000 > "$OUT/big2.PerfView.xml"
"$RUN" -o /dev/null -- "$SPV" "$OUT/big2.PerfView.xml" 2> "$OUT/pv2.stat"
echo "XML with 2x the samples (same stacks): peak RSS $(tail -n 1 "$OUT/pv2.stat" | awk '{ printf "%.1f MB", $2 / 1024 }')"
rm -f "$OUT/big2.PerfView.xml"

fi

if section flame; then
# ---- flame vs the pipeline ----
# flame on perf script text against stackcollapse-perf | flamegraph, same
# title and count name (flame names perf's event, "cycles", where
# flamegraph says "samples"), so the SVGs can be compared byte for byte.  This machine's timing
# noise is larger than the difference, so the two are run in turns, 7
# times each, and both the fastest and the median run are given.
# versus NAME INPUT: flame and the pipeline on INPUT, interleaved.
versus() {
	vin=$2
	size=$(wc -c < "$vin")
	: > "$OUT/vf.t"
	: > "$OUT/vp.t"
	for i in 1 2 3 4 5 6 7; do
		"$RUN" -- "$B/flame" --title T --countname samples "$vin" -o "$OUT/flame.svg" \
			2> "$OUT/v.stat" || true
		tail -n 1 "$OUT/v.stat" >> "$OUT/vf.t"
		"$RUN" -- sh -c '"$1" "$2" 2>/dev/null | "$3" --title T > "$4"' sh "$SCP" "$vin" "$FG" "$OUT/pipe.svg" \
			2> "$OUT/v.stat" || true
		tail -n 1 "$OUT/v.stat" >> "$OUT/vp.t"
	done
	# Runs sorted by time, flame's and the pipeline's side by side: the 1st
	# line is the fastest of each, the 4th the median.
	sort -n "$OUT/vf.t" > "$OUT/vf.s"
	sort -n "$OUT/vp.t" | paste -d' ' "$OUT/vf.s" - | awk -v s="$size" -v n="$1" '
		function line(name, t, r) {
			printf "%-28s min %.3f s (%4.0f MB/s)  median %.3f s (%4.0f MB/s)  %6.1f MB peak RSS\n",
				name, t[1], s / 1e6 / t[1], t[4], s / 1e6 / t[4], r[4] / 1024
		}
		{ ft[NR] = $1; fr[NR] = $2; pt[NR] = $3; pr[NR] = $4 }
		END {
			line("flame_" n, ft, fr)
			line("pipeline_" n, pt, pr)
			printf "flame / pipeline time: %.2f (fastest runs), %.2f (medians)\n", ft[1] / pt[1], ft[4] / pt[4]
		}'
	cmp -s "$OUT/flame.svg" "$OUT/pipe.svg" && echo "same SVG: yes" || echo "same SVG: NO"
	rm -f "$OUT/vf.t" "$OUT/vp.t" "$OUT/vf.s" "$OUT/v.stat"
}
head -c 200000000 "$pin" > "$OUT/fsample.txt"
echo "perf script input (real recordings): 200.0 MB"
versus perf "$OUT/fsample.txt"
# From a pipe flame streams (perf text to the workers, or one thread with
# --threads 1): memory must not follow the input.
size=$(wc -c < "$OUT/fsample.txt")
measure flame_stdin sh -c 'cat "$1" | "$2" --title T --countname samples - -o "$3"' sh "$OUT/fsample.txt" "$B/flame" "$OUT/stdin.svg"
cmp -s "$OUT/flame.svg" "$OUT/stdin.svg" && echo "same SVG from stdin: yes" || echo "same SVG from stdin: NO"
measure flame_stdin_1thread sh -c 'cat "$1" | "$2" --threads 1 --title T --countname samples - -o "$3"' sh "$OUT/fsample.txt" "$B/flame" "$OUT/stdin.svg"
cmp -s "$OUT/flame.svg" "$OUT/stdin.svg" && echo "same SVG from stdin, 1 thread: yes" || echo "same SVG from stdin, 1 thread: NO"
rm -f "$OUT/fsample.txt" "$OUT/flame.svg" "$OUT/pipe.svg" "$OUT/stdin.svg"
# The same with many distinct deep stacks (100k), where the pipeline's
# text round trip is larger: perf script text made from generated stacks.
"$B/tests/genfolded" -n 130000 -d 100000 -D 60 | awk '{ n = $NF; sub(/ [0-9]+$/, ""); k = split($0, f, ";")
	printf "app 1/1 0.%06d: %d cycles:\n", NR % 1000000, n
	for (i = k; i >= 1; i--) printf "\tffff %s (/x)\n", f[i]
	printf "\n" }' > "$OUT/fsample.txt"
echo "perf script input with 100k distinct stacks: $(awk -v s="$(wc -c < "$OUT/fsample.txt")" 'BEGIN { printf "%.1f MB", s / 1e6 }')"
versus deep "$OUT/fsample.txt"
rm -f "$OUT/fsample.txt" "$OUT/flame.svg" "$OUT/pipe.svg"
fi

if section stackops; then
# ---- stack operators (issue 19): five operators against plain rendering ----
# On bench/out/real/real.folded when bench/record-real.sh made it (or
# STACKOPS_FOLDED), else on 250k generated distinct stacks.
echo "---- stack operators (bench/stackops.sh) ----"
B=$B sh bench/stackops.sh
fi

if section collapsers; then
# ---- stackcollapse-dtrace and -sample (issue 20) ----
# ~100 MB inputs made by repeating a real one with its offsets or thread
# names changed each time (so the stacks differ): inferno's test inputs
# from ../shared/conformance when present, else ours in tests/data; and
# the Rust-heavy DTrace input (rust-names.txt) the same way, as its
# symbols take the most work.  inferno's collapsers (on PATH or in
# INFERNO_BIN) run in turns with ours, CROUNDS rounds (default 5); the
# medians of user+sys CPU time are compared (the machine may be shared:
# CPU time is the steadier measure), wall time and peak RSS shown too.
CC_DIR=../shared/conformance/collapsers
IBIN=${INFERNO_BIN:-$(dirname "$(command -v inferno-collapse-dtrace || echo ./x)")}
dsrc=$CC_DIR/dtrace/example-dtrace-stacks.txt
[ -f "$dsrc" ] || dsrc=tests/data/dtrace/own.txt
rsrc=$CC_DIR/dtrace/rust-names.txt
ssrc=$CC_DIR/sample/sample.txt
[ -f "$ssrc" ] || ssrc=tests/data/sample/own.txt
din=$OUT/big.dtrace
# The same with each copy's modules renamed: 31,682 stacks once offsets
# are dropped (big.dtrace keeps 434), about perf100.txt's 31,124.
dmin=$OUT/many.dtrace
rin=$OUT/big-rust.dtrace
sin=$OUT/big.sample
# The same report repeated as it is (its stacks sum up, as the perf
# input's below do): the two collapsers per byte on inputs of one shape.
srin=$OUT/rep.sample
# repeat_dtrace SRC OUT [names]: SRC's header once, then its stacks to
# >= 100 MB, "+0x" becoming "+0x<copy>" in each copy; with names,
# "module`" becoming "module<copy>`" too.
repeat_dtrace() {
	n=$((100000000 / $(wc -c < "$1") + 1))
	{ head -n 3 "$1"; tail -n +4 "$1" | awk -v n=$n -v names="${3:-}" '{ l[NR] = $0 }
		END { for (i = 1; i <= n; i++) for (j = 1; j <= NR; j++) {
			s = l[j]; sub(/\+0x/, "+0x" i, s); if (names != "") sub(/`/, i "`", s); print s } }'; } > "$2"
}
[ -s "$din" ] || repeat_dtrace "$dsrc" "$din"
[ -s "$dmin" ] || repeat_dtrace "$dsrc" "$dmin" names
[ -s "$rin" ] || [ ! -f "$rsrc" ] || repeat_dtrace "$rsrc" "$rin"
if [ ! -s "$sin" ]; then
	sn=$((100000000 / $(wc -c < "$ssrc") + 1))
	{ sed '/^Call graph:/q' "$ssrc"
	  sed -n '/^Call graph:/,/^Total number in stack/p' "$ssrc" | sed '1d;$d' | awk -v n=$sn '{ l[NR] = $0 }
		END { for (i = 1; i <= n; i++) for (j = 1; j <= NR; j++) { s = l[j]; sub(/Thread_/, "Thread_" i "-", s); print s } }'
	  sed -n '/^Total number in stack/,$p' "$ssrc"; } > "$sin"
fi
if [ ! -s "$srin" ]; then
	sn=$((100000000 / $(wc -c < "$ssrc") + 1))
	{ sed '/^Call graph:/q' "$ssrc"
	  sed -n '/^Call graph:/,/^Total number in stack/p' "$ssrc" | sed '1d;$d' | awk -v n=$sn '{ l[NR] = $0 }
		END { for (i = 1; i <= n; i++) for (j = 1; j <= NR; j++) print l[j] }'
	  sed -n '/^Total number in stack/,$p' "$ssrc"; } > "$srin"
fi
# cmeasure CMD...: "CPU_S WALL_S RSS_KB" of one run (CPU from time's -f
# where present, else the wall time).
cmeasure() {
	"$RUN" -o /dev/null -- /usr/bin/time -f '%U %S' -o "$OUT/c.cpu" "$@" 2> "$OUT/c.stat" || true
	w=$(tail -n 1 "$OUT/c.stat")
	if [ -s "$OUT/c.cpu" ]; then c=$(tail -n 1 "$OUT/c.cpu" | awk '{ print $1 + $2 }'); else c=${w%% *}; fi
	echo "$c $w"
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
for kind in dtrace many-dtrace rust-dtrace sample repeated-sample; do
	case $kind in
	dtrace) in=$din tool=dtrace ;;
	many-dtrace) in=$dmin tool=dtrace ;;
	rust-dtrace) in=$rin tool=dtrace ;;
	sample) in=$sin tool=sample ;;
	*) in=$srin tool=sample ;;
	esac
	[ -s "$in" ] || continue
	size=$(wc -c < "$in")
	echo "$kind input: $(echo "$size" | awk '{ printf "%.1f", $1 / 1e6 }') MB"
	cat "$in" > /dev/null
	peers="ours"
	[ -x "$IBIN/inferno-collapse-$tool" ] && peers="ours inferno"
	rm -f "$OUT"/c.ours "$OUT"/c.inferno
	r=0
	while [ $r -lt "${CROUNDS:-5}" ]; do
		r=$((r + 1))
		for p in $peers; do
			[ $p = ours ] && cmd=$B/stackcollapse-$tool || cmd=$IBIN/inferno-collapse-$tool
			if [ $tool = dtrace ] && [ $p = inferno ]; then
				set -- "$cmd" --nthreads 1 "$in"	# one thread: its CPU time compares
			else
				set -- "$cmd" "$in"
			fi
			cmeasure "$@" >> "$OUT/c.$p"
		done
	done
	for p in $peers; do
		c=$(cut -d' ' -f1 "$OUT/c.$p" | median)
		w=$(cut -d' ' -f2 "$OUT/c.$p" | median)
		rss=$(cut -d' ' -f3 "$OUT/c.$p" | sort -n | tail -n 1)
		printf '%-8s %-28s %7.3f s CPU %6.0f MB/s %7.3f s wall %7.1f MB peak RSS\n' "$p" \
			"$([ $p = ours ] && echo stackcollapse-$tool || echo inferno-collapse-$tool)" \
			"$c" "$(awk "BEGIN { print $size / 1e6 / $c }")" "$w" "$(awk "BEGIN { print $rss / 1024 }")"
		eval "C_$p=$c"
	done
	[ "$peers" = ours ] && echo "inferno-collapse-$tool: not found (set INFERNO_BIN to compare)" ||
		echo "inferno-collapse-$tool: $(awk "BEGIN { printf \"%.1fx\", $C_inferno / $C_ours }") the CPU time of stackcollapse-$tool (medians of ${CROUNDS:-5}, in turns)"
done
# The perf collapser per byte, the other target: tests/data/perf's
# recordings repeated to ~106 MB, one thread, the same way.
pin106=$OUT/perf106.txt
if [ ! -s "$pin106" ]; then
	for f in threads cpp node dwarf pidtid system events; do zcat "tests/data/perf/$f.txt.gz"; done > "$OUT/one.txt"
	n=$((106000000 / $(wc -c < "$OUT/one.txt") + 1))
	i=0
	while [ $i -lt $n ]; do cat "$OUT/one.txt"; i=$((i + 1)); done > "$pin106"
	rm -f "$OUT/one.txt"
fi
size=$(wc -c < "$pin106")
cat "$pin106" > /dev/null
rm -f "$OUT"/c.ours
r=0
while [ $r -lt "${CROUNDS:-5}" ]; do r=$((r + 1)); cmeasure "$B/stackcollapse-perf" --threads 1 "$pin106" >> "$OUT/c.ours"; done
c=$(cut -d' ' -f1 "$OUT/c.ours" | median)
printf '%-8s %-28s %7.3f s CPU %6.0f MB/s (perf script text, %.1f MB)\n' ours "stackcollapse-perf -t1" "$c" \
	"$(awk "BEGIN { print $size / 1e6 / $c }")" "$(awk "BEGIN { print $size / 1e6 }")"
rm -f "$OUT"/c.cpu "$OUT"/c.stat "$OUT"/c.ours "$OUT"/c.inferno

fi

if section perbyte; then
# ---- issue 20's targets in one run: dtrace, sample and pprof per byte
# against the perf collapser, and against inferno (bench/perbyte.sh) ----
echo "---- collapsers per byte (bench/perbyte.sh) ----"
B=$B OUT=$OUT sh bench/perbyte.sh
fi

if section json; then
# ---- speedscope, .cpuprofile and trace events (issue 20) ----
echo "---- JSON inputs (bench/json.sh) ----"
B=$B sh bench/json.sh
fi

if section real; then
# ---- real recording against inferno and the Perl scripts (issue 15) ----
# A system-wide recording made by bench/record-real.sh (kept out of the
# repo), ours against the peers bench/peers.sh finds, in turns, medians.
# Skipped with a message when there is no recording; absent peers are left
# out.  BENCH_ONLY=real runs it alone.
echo "---- real recording (bench/real.sh) ----"
B=$B sh bench/real.sh
fi

if section perfdata; then
# ---- perf.data read directly (issue 16) ----
# stackcollapse-perf perf.data against perf script piped into
# stackcollapse-perf and inferno-collapse-perf, in turns, on the
# recordings bench/record-real.sh makes (skipped without them).
echo "---- perf.data (bench/perfdata.sh) ----"
B=$B sh bench/perfdata.sh
fi

if section browser; then
# ---- huge graphs in a browser (issue 17) ----
# Size, load, search and zoom times in chromium for flame, flamegraph.pl
# and inferno; skipped with a message without chromium or playwright-core.
echo "---- huge graphs in a browser (bench/browser.sh) ----"
B=$B sh bench/browser.sh
fi
