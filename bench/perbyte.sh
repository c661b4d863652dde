#!/bin/sh
# Issue 20's speed targets in one run: stackcollapse-dtrace, -sample and
# -pprof on ~100 MB inputs, per byte against stackcollapse-perf (one
# thread) on perf script text, and against inferno's collapser of the same
# format.  Every program runs once a round, in turns, ROUNDS rounds
# (default 7); CPU time (user + sys) is from `perf stat -e task-clock`
# (to the millisecond) when perf runs here, else from GNU time (10 ms
# steps); medians.  MB/s are of the input per CPU second.
#
# Inputs (made by make bench's collapsers and pprof sections, which this
# runs first when one is missing), in OUT (default bench/out):
#   big.sample, many.dtrace real inputs repeated with names changed, so
#                           nearly every stack is new (78,812 in sample's,
#                           31,682 in DTrace's; perf100.txt has 31,124)
#   big.dtrace              DTrace's repeated with offsets changed only:
#                           434 stacks once they are dropped
#   rep.sample              the same report repeated as it is
#   big.pprof, few.pprof    generated profiles: 100k and 1k distinct stacks
#   distinct.pprof          and one of 1.17M: nearly a stack a sample
#   perf106.txt             tests/data/perf's recordings repeated
#   perf100.txt             the first 100 MB of a real recording (or the
#                           test recordings repeated when there is none)
#   perf100.pb              perf100.txt's samples as a pprof profile
#                           (flame --to pprof, inflated): the same
#                           profile in both formats, so the last line
#                           compares the two collapsers per profile
# The CPU rows run both collapsers on one thread; a second table gives the
# wall-clock time of the two on their default threads (as many as cores:
# perf's workers, pprof's sample readers), in turns too, and a last one
# the instructions of flame's rows (callgrind, when valgrind is here):
# those do not move with the host.  The memory's latency at random
# (tests/tools/memlat) is printed too: the CPU ratios move with it.
# INFERNO_BIN: where inferno-collapse-{dtrace,sample} are (else PATH).
# BEFORE: a build directory of an older flame to run in the same turns.
# PAIRS: how many pairs of the perf collapser and each of dtrace, sample
# and pprof run back to back (default 3 * ROUNDS; see the table).
B=${B:-build}
OUT=${OUT:-bench/out}
ROUNDS=${ROUNDS:-7}
IBIN=${INFERNO_BIN:-$(dirname "$(command -v inferno-collapse-dtrace || echo ./x)")}
mkdir -p "$OUT"

# The inputs the collapsers section makes (in bench/out whatever OUT
# says), and those the pprof section makes.
CIN="big.dtrace many.dtrace big.sample rep.sample perf106.txt"
PIN="big.pprof few.pprof distinct.pprof perf100.txt"
for f in $CIN; do
	[ -s "$OUT/$f" ] && continue
	BENCH_ONLY=collapsers CROUNDS=1 B=$B sh bench/run.sh > /dev/null
	for g in $CIN; do
		[ "$OUT" = bench/out ] || [ -s "$OUT/$g" ] || cp "bench/out/$g" "$OUT/$g"
	done
	break
done
for f in $PIN; do
	[ -s "$OUT/$f" ] || { B=$B OUT=$OUT sh bench/pprof.sh > /dev/null; break; }
done
if [ ! -s "$OUT/perf100.pb" ]; then
	$B/flame --to pprof -o "$OUT/perf100.pb.gz" "$OUT/perf100.txt" 2> /dev/null &&
		gzip -dc "$OUT/perf100.pb.gz" > "$OUT/perf100.pb"
	rm -f "$OUT/perf100.pb.gz"
fi
for f in $CIN $PIN perf100.pb; do
	[ -s "$OUT/$f" ] || { echo "perbyte: $OUT/$f could not be made" >&2; exit 1; }
done

use_perf=0
perf stat -e task-clock -x, -o "$OUT/pb.cpu" true 2> /dev/null && use_perf=1
# warm CMD... INPUT: INPUT read into the page cache, untimed, just before
# its run.  This host trims its cache as it goes (fincore: big.pprof
# went from 99 to 82 MB cached, perf100.txt from 95 to 81, in 50 s with
# nothing else running), so a run could read some MB from the disk,
# more the longer since the input's last run: 7.6% of a pprof run's
# profile was readahead then.
warm() {
	for _last; do :; done
	cat "$_last" > /dev/null
}

# cpu_ms CMD...: the CPU milliseconds of one run, output thrown away;
# a run that fails stops the benchmark (its time would mean nothing).
cpu_ms() {
	warm "$@"
	if [ $use_perf = 1 ]; then
		perf stat -e task-clock -x, -o "$OUT/pb.cpu" -- "$@" < /dev/null > /dev/null 2> "$OUT/pb.err" || return 1
		awk -F, '/task-clock/ { printf "%.1f\n", $1 }' "$OUT/pb.cpu"
	else
		/usr/bin/time -f '%U %S' -o "$OUT/pb.cpu" "$@" < /dev/null > /dev/null 2> "$OUT/pb.err" || return 1
		awk '{ printf "%.1f\n", ($1 + $2) * 1000 }' "$OUT/pb.cpu"
	fi
}

# The runs: "NAME INPUT PROGRAM ARGS...", one a line.
{
	echo "perf-real perf100.txt $B/stackcollapse-perf --threads 1"
	echo "perf-tests perf106.txt $B/stackcollapse-perf --threads 1"
	echo "dtrace big.dtrace $B/stackcollapse-dtrace"
	echo "dtrace-many many.dtrace $B/stackcollapse-dtrace"
	echo "sample big.sample $B/stackcollapse-sample"
	echo "sample-repeated rep.sample $B/stackcollapse-sample"
	echo "pprof big.pprof $B/stackcollapse-pprof --threads 1"
	echo "pprof-1k few.pprof $B/stackcollapse-pprof --threads 1"
	echo "pprof-distinct distinct.pprof $B/stackcollapse-pprof --threads 1"
	echo "pprof-of-perf-real perf100.pb $B/stackcollapse-pprof --threads 1"
	if [ -x "$IBIN/inferno-collapse-dtrace" ]; then
		echo "inferno-dtrace big.dtrace $IBIN/inferno-collapse-dtrace --nthreads 1"
		echo "inferno-dtrace-many many.dtrace $IBIN/inferno-collapse-dtrace --nthreads 1"
		echo "inferno-sample big.sample $IBIN/inferno-collapse-sample"
		echo "inferno-sample-repeated rep.sample $IBIN/inferno-collapse-sample"
	fi
	if [ -n "${BEFORE:-}" ]; then
		echo "before-dtrace big.dtrace $BEFORE/stackcollapse-dtrace"
		echo "before-dtrace-many many.dtrace $BEFORE/stackcollapse-dtrace"
		echo "before-sample big.sample $BEFORE/stackcollapse-sample"
		echo "before-pprof big.pprof $BEFORE/stackcollapse-pprof --threads 1"
		echo "before-pprof-distinct distinct.pprof $BEFORE/stackcollapse-pprof --threads 1"
		echo "before-perf-real perf100.txt $BEFORE/stackcollapse-perf --threads 1"
	fi
} > "$OUT/pb.runs"

for f in $CIN $PIN; do cat "$OUT/$f"; done > /dev/null
# The memory's answer to loads at random, before and after the rounds:
# the pprof rows read a table of keys at random, the perf rows text in
# order, so their ratio moves with it from one machine (or hour) to the
# next.
[ -x "$B/tests/memlat" ] || make -s "$B/tests/memlat" B="$B" > /dev/null
lat() { "$B/tests/memlat" 1 16 2> /dev/null | awk '{ printf "%s%s MB %s ns", (NR > 1 ? ", " : ""), $1, $2 }'; }
lat0=$(lat)
: > "$OUT/pb.t"
r=0
while [ $r -lt "$ROUNDS" ]; do
	r=$((r + 1))
	while read -r name in prog; do
		# shellcheck disable=SC2086
		if ! ms=$(cpu_ms $prog "$OUT/$in"); then
			echo "perbyte: $prog $OUT/$in failed: $(head -c 300 "$OUT/pb.err")" >&2
			exit 1
		fi
		echo "$name $ms $(wc -c < "$OUT/$in")" >> "$OUT/pb.t"
	done < "$OUT/pb.runs"
done

echo "per byte, $ROUNDS rounds in turns, median CPU ($([ $use_perf = 1 ] && echo 'perf stat task-clock' || echo 'GNU time'))"
awk '{ n[$1]++; v[$1, n[$1]] = $2; size[$1] = $3; if (!($1 in order)) { order[$1] = ++k; names[k] = $1 } }
	function median(x,   i, j, t, a) {
		for (i = 1; i <= n[x]; i++) a[i] = v[x, i]
		for (i = 2; i <= n[x]; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
		return a[int((n[x] + 1) / 2)]
	}
	END {
		for (i = 1; i <= k; i++) { m = names[i]; ms[m] = median(m); mbs[m] = size[m] / 1e3 / ms[m] }
		printf "%-24s %8s %9s %8s %10s %10s %10s\n", "program", "MB", "CPU ms", "MB/s", "/perf-real", "/perf-tests", "inferno x"
		for (i = 1; i <= k; i++) {
			m = names[i]
			inf = ("inferno-" m in ms) ? sprintf("%.1fx", ms["inferno-" m] / ms[m]) : ""
			printf "%-24s %8.1f %9.1f %8.0f %10.2f %10.2f %10s\n", m, size[m] / 1e6, ms[m], mbs[m],
				mbs[m] / mbs["perf-real"], mbs[m] / mbs["perf-tests"], inf
		}
		if ("pprof-of-perf-real" in ms)
			printf "the same profile: perf text %.1f ms, as pprof %.1f ms (%.1fx)\n",
				ms["perf-real"], ms["pprof-of-perf-real"], ms["perf-real"] / ms["pprof-of-perf-real"]
	}' "$OUT/pb.t"
echo "a load at random: $lat0 before the rounds, $(lat) after (tests/tools/memlat)"

# The same ratios from pairs: each of issue 20's rows run right after the
# perf collapser or right before it (the order swapped every round), and
# the median of the pairs' ratios.  A round above runs every program once,
# so a row and perf-real there may be seconds apart; on a host whose
# speed drifts by a third within a minute, the ratio of two medians
# moves with the drift, and a pair's much less.
PAIRS=${PAIRS:-$((ROUNDS * 3))}
: > "$OUT/pb.p"
for run in "dtrace big.dtrace $B/stackcollapse-dtrace" "dtrace-many many.dtrace $B/stackcollapse-dtrace" \
	"sample big.sample $B/stackcollapse-sample" \
	"pprof big.pprof $B/stackcollapse-pprof --threads 1"; do
	set -- $run
	name=$1 in=$2
	shift 2
	r=0
	while [ $r -lt "$PAIRS" ]; do
		r=$((r + 1))
		if [ $((r % 2)) = 1 ]; then
			a=$(cpu_ms "$B/stackcollapse-perf" --threads 1 "$OUT/perf100.txt") &&
				b=$(cpu_ms "$@" "$OUT/$in") || { echo "perbyte: $* $OUT/$in failed" >&2; exit 1; }
		else
			b=$(cpu_ms "$@" "$OUT/$in") &&
				a=$(cpu_ms "$B/stackcollapse-perf" --threads 1 "$OUT/perf100.txt") ||
				{ echo "perbyte: $* $OUT/$in failed" >&2; exit 1; }
		fi
		echo "$name $a $b $(wc -c < "$OUT/perf100.txt") $(wc -c < "$OUT/$in")" >> "$OUT/pb.p"
	done
done
echo "per byte against the perf collapser in pairs, $PAIRS pairs each, the order swapped every pair"
awk '{ n[$1]++; v[$1, n[$1]] = ($5 / $3) / ($4 / $2); if (!($1 in seen)) { seen[$1] = 1; names[++k] = $1 } }
	function sorted(x, a,   i, j, t) {
		for (i = 1; i <= n[x]; i++) a[i] = v[x, i]
		for (i = 2; i <= n[x]; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	}
	END {
		for (i = 1; i <= k; i++) {
			m = names[i]
			sorted(m, a)
			printf "%-24s median %.2fx (quartiles %.2fx to %.2fx)\n", m, a[int((n[m] + 1) / 2)],
				a[int((n[m] + 3) / 4)], a[int((3 * n[m] + 1) / 4)]
		}
	}' "$OUT/pb.p"

# Wall-clock milliseconds of one run (GNU date's nanoseconds).
wall_ms() {
	warm "$@"
	_t0=$(date +%s%N)
	"$@" < /dev/null > /dev/null 2> "$OUT/pb.err" || return 1
	_t1=$(date +%s%N)
	echo $(((_t1 - _t0) / 1000000))
}
: > "$OUT/pb.w"
r=0
while [ $r -lt "$ROUNDS" ]; do
	r=$((r + 1))
	for run in "perf-real perf100.txt $B/stackcollapse-perf" "pprof big.pprof $B/stackcollapse-pprof"; do
		set -- $run
		name=$1 in=$2
		shift 2
		ms=$(wall_ms "$@" "$OUT/$in") || { echo "perbyte: $* $OUT/$in failed" >&2; exit 1; }
		echo "$name $ms $(wc -c < "$OUT/$in")" >> "$OUT/pb.w"
	done
done
echo "wall clock, default threads ($(getconf _NPROCESSORS_ONLN) cores), $ROUNDS rounds in turns, median"
awk '{ n[$1]++; v[$1, n[$1]] = $2; size[$1] = $3 }
	function median(x,   i, j, t, a) {
		for (i = 1; i <= n[x]; i++) a[i] = v[x, i]
		for (i = 2; i <= n[x]; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
		return a[int((n[x] + 1) / 2)]
	}
	END {
		p = median("perf-real"); q = median("pprof")
		printf "perf-real %.1f MB %d ms, pprof %.1f MB %d ms: pprof per byte %.2fx the perf collapser\n",
			size["perf-real"] / 1e6, p, size["pprof"] / 1e6, q, (size["pprof"] / q) / (size["perf-real"] / p)
	}' "$OUT/pb.w"
# Instructions, which do not move with the host: each of flame's rows
# (BEFORE's too) once under callgrind, about a minute and a half
# (PERBYTE_INSTR=0 leaves it out).  Its hashes are seeded the same each
# time: a drawn seed moved the counts by up to 0.5%.  Per byte against
# the perf collapser's they say how much of a ratio above is work and how
# much waiting on memory; before and after a change, what it took off
# whatever the host did.
if [ "${PERBYTE_INSTR:-1}" != 0 ] && command -v valgrind > /dev/null 2>&1; then
	: > "$OUT/pb.i"
	grep -v '^inferno-' "$OUT/pb.runs" | while read -r name in prog; do
		# shellcheck disable=SC2086
		FLAME_HASH_SEED=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null $prog "$OUT/$in" \
			< /dev/null > /dev/null 2> "$OUT/pb.err" || { echo "perbyte: $prog $OUT/$in failed under valgrind" >&2; continue; }
		awk -v n="$name" -v size="$(wc -c < "$OUT/$in")" '/I *refs:/ { gsub(",", "", $NF); print n, $NF, size }' \
			"$OUT/pb.err" >> "$OUT/pb.i"
	done
	echo "instructions (callgrind, one run each, hashes seeded alike: the same on any host and in any run)"
	awk '{ ins[$1] = $2; size[$1] = $3; names[++k] = $1 }
		END {
			p = ("perf-real" in ins) ? ins["perf-real"] / size["perf-real"] : 0
			printf "%-24s %8s %12s %10s %12s\n", "program", "MB", "M instr", "instr/B", "x perf-real"
			for (i = 1; i <= k; i++) {
				m = names[i]
				printf "%-24s %8.1f %12.1f %10.2f %12s\n", m, size[m] / 1e6, ins[m] / 1e6, ins[m] / size[m],
					p ? sprintf("%.2f", ins[m] / size[m] / p) : "-"
			}
		}' "$OUT/pb.i"
	rm -f "$OUT/pb.i"
elif [ "${PERBYTE_INSTR:-1}" != 0 ]; then
	echo "instructions: skipped (valgrind is not installed)"
fi
rm -f "$OUT/pb.cpu" "$OUT/pb.err"
