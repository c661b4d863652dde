#!/bin/sh
# real.sh: our tools against inferno and FlameGraph's Perl scripts on a real
# system-wide recording (issue 15), on this machine, in one run.
#
# These VMs swing 30% from one run to the next, so only ratios taken within
# one run mean anything: the programs of a group run in turns (A B C A B C
# ...), REAL_ROUNDS times each (5), and each gets its median wall time, the
# MB/s that makes, and its median peak RSS (GNU time's %M).  Groups:
#   folded    flamegraph vs inferno-flamegraph on the whole real.folded
#   folded-s  the same and flamegraph.pl on every k-th stack of it
#             (REAL_PERL_STACKS, 60000: flamegraph.pl needs minutes for all)
#   perf      stackcollapse-perf --threads 1 and default (all cores) vs
#             inferno-collapse-perf --nthreads 1 and default (all cores),
#             and flame (SVG out) on the same text, all cores and 1 thread
#   perf-s    stackcollapse-perf vs stackcollapse-perf.pl on the first
#             REAL_PERL_MB (200) MB of the text, cut at a sample's end
# The ratio column is this program's median over the reference's: above 1,
# the reference (ours) is that many times faster.  CPU is user + sys time
# (GNU time's %U + %S), median, with its ratio taken the same way: on a
# machine shared with other work it moves less than the wall time.
# REAL_GROUPS ("folded folded-s perf perf-s") runs only the groups named.
#
# Inputs: REAL_DIR (bench/out/real) as bench/record-real.sh leaves it; peers
# as bench/peers.sh finds them.  Missing data skips everything, a missing
# peer skips its rows, each with a message; the exit status is then 0.
# Results: stdout and bench/out/realrun/real.md; outputs and timings there.
set -eu
B=${B:-build}
REAL=${REAL_DIR:-bench/out/real}
ROUNDS=${REAL_ROUNDS:-5}
PERL_STACKS=${REAL_PERL_STACKS:-60000}
PERL_MB=${REAL_PERL_MB:-200}
GROUPS_RUN=${REAL_GROUPS:-folded folded-s perf perf-s}
OUT=bench/out/realrun
PB=bench/out/peers/bin
TIME=/usr/bin/time

for v in "$ROUNDS" "$PERL_STACKS" "$PERL_MB"; do
	case $v in '' | *[!0-9]* | 0) echo "real: REAL_ROUNDS, REAL_PERL_STACKS and REAL_PERL_MB take positive whole numbers, not '$v'" >&2; exit 2 ;; esac
done
if [ ! -s "$REAL/perf.txt" ] || [ ! -s "$REAL/real.folded" ]; then
	echo "real: skipped: no recording in $REAL (make one with: sh bench/record-real.sh)"
	exit 0
fi
if [ ! -x "$TIME" ]; then
	echo "real: skipped: GNU time is not at $TIME (Debian: apt-get install time)"
	exit 0
fi
for t in flamegraph stackcollapse-perf flame; do
	[ -x "$B/$t" ] || { echo "real: '$B/$t' not built (run make first)" >&2; exit 1; }
done
mkdir -p "$OUT"
sh bench/peers.sh > "$OUT/peers.txt"
have() { [ -x "$PB/$1" ]; }

# selected TAG: whether REAL_GROUPS names the group.
selected() { case " $GROUPS_RUN " in *" $1 "*) true ;; *) false ;; esac; }

# run TAG_NAME CMD...: one timed run; stdout to TAG_NAME.out, "ns rss_kb
# cpu_ns" appended to TAG_NAME.t.  A failing run is reported and left out.
run() {
	name=$1
	shift
	t0=$(date +%s%N)
	if "$TIME" -f '%M %U %S' -o "$OUT/$name.rss" "$@" > "$OUT/$name.out" 2> "$OUT/$name.err"; then
		t1=$(date +%s%N)
		echo "$((t1 - t0)) $(tail -n 1 "$OUT/$name.rss" | awk '{ printf "%s %.0f", $1, ($2 + $3) * 1e9 }')" >> "$OUT/$name.t"
	else
		echo "real: $name failed: $* (see $OUT/$name.err)" >&2
	fi
}

# invoke TAG NAME INPUT: the command line each contestant runs.
invoke() {
	n=$2
	in=$3
	case $n in
	fg) run "$1_$n" "$B/flamegraph" "$in" ;;
	ifg) run "$1_$n" "$PB/inferno-flamegraph" "$in" ;;
	fgpl) run "$1_$n" perl "$PB/flamegraph.pl" "$in" ;;
	scp1) run "$1_$n" "$B/stackcollapse-perf" --threads 1 "$in" ;;
	scp) run "$1_$n" "$B/stackcollapse-perf" "$in" ;;
	icp1) run "$1_$n" "$PB/inferno-collapse-perf" --nthreads 1 "$in" ;;
	icp) run "$1_$n" "$PB/inferno-collapse-perf" "$in" ;;
	scppl) run "$1_$n" perl "$PB/stackcollapse-perf.pl" "$in" ;;
	flame) run "$1_$n" "$B/flame" "$in" ;;
	flame1) run "$1_$n" "$B/flame" --threads 1 "$in" ;;
	esac
}

label() {
	case $1 in
	fg) echo "flamegraph" ;;
	ifg) echo "inferno-flamegraph" ;;
	fgpl) echo "flamegraph.pl" ;;
	scp1) echo "stackcollapse-perf --threads 1" ;;
	scp) echo "stackcollapse-perf (all cores)" ;;
	icp1) echo "inferno-collapse-perf --nthreads 1" ;;
	icp) echo "inferno-collapse-perf (all cores)" ;;
	scppl) echo "stackcollapse-perf.pl" ;;
	flame) echo "flame, perf text to SVG (all cores)" ;;
	flame1) echo "flame --threads 1" ;;
	esac
}

# group TAG INPUT NAME...: ROUNDS rounds of every NAME in turn on INPUT.
group() {
	tag=$1
	in=$2
	shift 2
	for n; do rm -f "$OUT/${tag}_$n.t"; done
	rm -f "$OUT/$tag.input"
	selected "$tag" || return 0
	cat "$in" > /dev/null	# warm the page cache
	r=1
	while [ "$r" -le "$ROUNDS" ]; do
		for n; do invoke "$tag" "$n" "$in"; done
		r=$((r + 1))
	done
	echo "$in" > "$OUT/$tag.input"
}

# median FILE COLUMN: the median of a column of numbers.
median() {
	sort -n -k"$2,$2" "$1" | awk -v c="$2" '{ v[NR] = $c }
		END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# row TAG NAME [REF]: a table row: NAME's median, MB/s and RSS, and the
# ratio of its median time to REF's.
row() {
	f=$OUT/$1_$2.t
	selected "$1" || return 0
	if [ ! -s "$f" ]; then
		printf '| %s | %s | failed | | | | | |\n' "$(label "$2")" "$1"
		return
	fi
	size=$(wc -c < "$(cat "$OUT/$1.input")")
	ns=$(median "$f" 1)
	kb=$(median "$f" 2)
	cpu=$(median "$f" 3)
	ratio=
	cratio=
	if [ -n "${3:-}" ] && [ -s "$OUT/$1_$3.t" ]; then
		ratio=$(awk -v a="$ns" -v b="$(median "$OUT/$1_$3.t" 1)" 'BEGIN { printf "%.2f", a / b }')
		ratio="$ratio (vs $(label "$3"))"
		cratio=$(awk -v a="$cpu" -v b="$(median "$OUT/$1_$3.t" 3)" 'BEGIN { if (b > 0) printf "%.2f", a / b }')
	fi
	awk -v l="$(label "$2")" -v t="$1" -v ns="$ns" -v kb="$kb" -v s="$size" -v r="$ratio" -v c="$cpu" -v cr="$cratio" 'BEGIN {
		printf "| %s | %s | %.3f s | %.0f | %.1f MB | %s | %.3f s | %s |\n", l, t, ns / 1e9, s / 1e6 / (ns / 1e9), kb / 1024, r, c / 1e9, cr
	}'
}

# sorted_diff A B: how many lines the two files do not share.
sorted_diff() {
	LC_ALL=C sort "$1" > "$OUT/a.sorted"
	LC_ALL=C sort "$2" > "$OUT/b.sorted"
	LC_ALL=C comm -3 "$OUT/a.sorted" "$OUT/b.sorted" | wc -l
	rm -f "$OUT/a.sorted" "$OUT/b.sorted"
}

# ---- inputs ----
text=$REAL/perf.txt
folded=$REAL/real.folded
distinct=$(wc -l < "$folded")
# Every k-th stack of real.folded (all distinct already), at least
# PERL_STACKS of them, for flamegraph.pl.
fsample=$OUT/sample.folded
k=$((distinct / PERL_STACKS))
[ "$k" -ge 1 ] || k=1
awk -v k="$k" 'NR % k == 0' "$folded" > "$fsample"
# The first PERL_MB MB of perf.txt, up to the blank line ending a sample.
psample=$OUT/sample.perf.txt
if selected perf-s; then
	awk -v n="$((PERL_MB * 1000000))" '{ b += length($0) + 1; print } b >= n && $0 == "" { exit }' "$text" > "$psample"
fi

mb() { awk -v s="$(wc -c < "$1")" 'BEGIN { printf "%.1f MB", s / 1e6 }'; }
{
	echo "machine: $(nproc) CPUs ($(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)), $(awk '/MemTotal/ { printf "%.0f GB", $2 / 1048576 }' /proc/meminfo) RAM, load average at start $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "build: $(git rev-parse --short HEAD 2>/dev/null || echo unknown), $("$B"/flamegraph --version 2>/dev/null | head -n 1 || true); $(cc --version | head -n 1)"
	echo "$ROUNDS rounds in turns, medians; date $(date '+%Y-%m-%d %H:%M')"
	echo "peers:"
	sed 's/^/  /' "$OUT/peers.txt"
	echo "inputs:"
	echo "  perf.txt: $(mb "$text") of perf script text, $(grep -c '^[^[:space:]#]' "$text" || true) samples"
	echo "  real.folded: $(mb "$folded"), $distinct distinct stacks"
	echo "  sample.folded (one stack in $k): $(mb "$fsample"), $(wc -l < "$fsample") distinct stacks"
	if selected perf-s; then
		echo "  sample.perf.txt (first $PERL_MB MB): $(mb "$psample"), $(grep -c '^[^[:space:]#]' "$psample" || true) samples"
	fi
} | tee "$OUT/real.md"

# ---- runs ----
list() { for n; do case $n in fg | scp1 | scp | flame | flame1) echo "$n" ;; ifg) have inferno-flamegraph && echo "$n" ;; \
	icp*) have inferno-collapse-perf && echo "$n" ;; fgpl) have flamegraph.pl && echo "$n" ;; \
	scppl) have stackcollapse-perf.pl && echo "$n" ;; esac; done; }
echo "running (each group $ROUNDS rounds in turns)..." >&2
# shellcheck disable=SC2046
group folded "$folded" $(list fg ifg)
# shellcheck disable=SC2046
group folded-s "$fsample" $(list fg ifg fgpl)
# shellcheck disable=SC2046
group perf "$text" $(list scp1 scp icp1 icp flame flame1)
# shellcheck disable=SC2046
group perf-s "$psample" $(list scp1 scp scppl)

# ---- table ----
{
	echo
	echo "| program | input | median | MB/s | peak RSS | time ratio | CPU | CPU ratio |"
	echo "|---|---|---|---|---|---|---|---|"
	row folded fg
	have inferno-flamegraph && row folded ifg fg
	row folded-s fg
	have inferno-flamegraph && row folded-s ifg fg
	have flamegraph.pl && row folded-s fgpl fg
	row perf scp1
	row perf scp
	have inferno-collapse-perf && row perf icp1 scp1
	have inferno-collapse-perf && row perf icp scp
	row perf flame scp
	row perf flame1 scp1
	row perf-s scp1
	row perf-s scp
	have stackcollapse-perf.pl && row perf-s scppl scp1
	have stackcollapse-perf.pl && row perf-s scppl scp
	echo
	# The outputs the timings came from, compared (not timed).
	if selected perf; then
		cmp -s "$OUT/perf_scp1.out" "$OUT/perf_scp.out" && s=yes || s=NO
		echo "stackcollapse-perf, 1 thread and all cores: same output: $s"
	fi
	if selected perf && have inferno-collapse-perf; then
		echo "stackcollapse-perf vs inferno-collapse-perf on perf.txt: $(sorted_diff "$OUT/perf_scp.out" "$OUT/perf_icp.out") lines differ (sorted; of $(wc -l < "$OUT/perf_scp.out"))"
	fi
	if selected perf-s && have stackcollapse-perf.pl; then
		echo "stackcollapse-perf vs stackcollapse-perf.pl on sample.perf.txt: $(sorted_diff "$OUT/perf-s_scp.out" "$OUT/perf-s_scppl.out") lines differ (sorted; of $(wc -l < "$OUT/perf-s_scp.out"))"
	fi
	echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee -a "$OUT/real.md"
for n in fg ifg fgpl scp1 scp icp1 icp scppl flame flame1; do
	have_any=$(list "$n")
	[ -n "$have_any" ] || echo "real: $(label "$n"): not found, left out (see bench/peers.sh)" >&2
done
# The outputs are large (the collapsed text, SVGs): keep only the numbers.
rm -f "$OUT"/*.out
exit 0
