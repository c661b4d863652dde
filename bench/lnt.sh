#!/bin/sh
# lnt.sh: flame --to lnt (perf.data to an LNT v2 profile) against the
# tools that do the same or part of it:
#   cPerf          LNT's own importer (lnt/testing/profile/cPerf.cpp), run
#                  when CPERF names a standalone build of it (built outside
#                  this repo: g++ -O2 -DSTANDALONE cPerf.cpp $(pkg-config
#                  --cflags --libs python3-embed)); it writes the raw dict
#                  'lnt profile upgrade' would then turn into a v2 file
#   perf report    perf report -g none --sort sym --stdio: the per-function part
#                  only, no disassembly
# Input: LNT_PERFDATA, else bench/out/real/perf.data (bench/record-real.sh),
# else a recording of gcc made here.  The programs run in turns,
# LNT_ROUNDS (3) times each (cPerf once, under LNT_CPERF_TIMEOUT seconds,
# default 1800: it is slow on system-wide recordings), and each gets its
# median CPU time (user + system, objdump's included) and peak RSS.
set -eu
B=${B:-build}
ROUNDS=${LNT_ROUNDS:-3}
OUT=bench/out/lnt
TIME=/usr/bin/time
mkdir -p "$OUT"
case $ROUNDS in '' | *[!0-9]* | 0) echo "lnt: LNT_ROUNDS takes a positive whole number" >&2; exit 2 ;; esac
[ -x "$TIME" ] || { echo "lnt: needs GNU time ($TIME)" >&2; exit 0; }

IN=${LNT_PERFDATA:-bench/out/real/perf.data}
if [ ! -s "$IN" ]; then
	IN=$OUT/gcc.data
	command -v perf > /dev/null 2>&1 || { echo "lnt: no perf.data and no perf to record one" >&2; exit 0; }
	[ -s "$IN" ] || perf record -q -F 1999 -o "$IN" -- sh -c \
		'for i in 1 2 3 4; do gcc -O2 -Ilib -c lib/stackops.c -o /dev/null; done' > /dev/null 2>&1
fi
MB=$(awk -v s="$(wc -c < "$IN")" 'BEGIN { printf "%.1f", s / 1e6 }')
echo "input: $IN: $MB MB"

# one NAME CMD...: one timed run, "cpu_seconds rss_kb" appended to $OUT/NAME.
one() {
	_n=$1
	shift
	if "$TIME" -f '%U %S %M' -o "$OUT/$_n.t" "$@" > /dev/null 2> "$OUT/$_n.err"; then
		awk '{ printf "%.3f %d\n", $1 + $2, $3 }' "$OUT/$_n.t" >> "$OUT/$_n"
	else
		echo "lnt: $_n failed: $(tail -2 "$OUT/$_n.err")" >&2
	fi
}
rm -f "$OUT/flame" "$OUT/perf-report" "$OUT/cperf"
r=0
while [ $r -lt "$ROUNDS" ]; do
	one flame "$B/flame" --to lnt "$IN" -o "$OUT/out.lntprof"
	command -v perf > /dev/null 2>&1 && one perf-report perf report -i "$IN" -g none --sort sym --stdio
	r=$((r + 1))
done
if [ -n "${CPERF:-}" ] && [ -x "$CPERF" ]; then
	one cperf timeout "${LNT_CPERF_TIMEOUT:-1800}" "$CPERF" "$IN"
fi

# median of column 1 and its RSS
med() { sort -n "$1" | awk '{ a[NR] = $0 } END { print a[int((NR + 1) / 2)] }'; }
f=$(med "$OUT/flame" | cut -d' ' -f1)
printf '| program | median CPU | MB/s | peak RSS | ratio to flame |\n|---|---|---|---|---|\n'
for p in flame perf-report cperf; do
	[ -s "$OUT/$p" ] || continue
	set -- $(med "$OUT/$p")
	awk -v n="$p" -v c="$1" -v k="$2" -v mb="$MB" -v f="$f" 'BEGIN {
		printf "| %s | %.2f s | %.0f | %.1f MB | %s |\n", n, c, (c > 0 ? mb / c : 0), k / 1024,
		       n == "flame" ? "" : sprintf("%.1f", c / f) }'
done
