#!/bin/sh
# perfdata.sh: stackcollapse-perf reading perf.data itself against the
# pipelines that convert it to text first (issue 16), on the recordings
# bench/record-real.sh makes:
#   perf.data        system-wide, frame pointers (perf record -a -g)
#   perf-dwarf.data  a C++ compile, perf record --call-graph dwarf
# Contestants, run in turns (A B C A B C ...) in the same run so that the
# ratios hold however loaded the machine is:
#   ours       stackcollapse-perf FILE
#   script     perf script -i FILE | stackcollapse-perf
#   script-inf perf script -i FILE | inferno-collapse-perf (when found)
#   ours-1     stackcollapse-perf --threads 1 FILE (all on one thread)
#   before     PD_BEFORE FILE, when PD_BEFORE names another build's
#              stackcollapse-perf (to compare a change)
# Each gets its median wall time, its median CPU time (user + sys of every
# process of the pipeline), MB/s of perf.data (by wall time) and peak RSS
# (the largest process).  Ratios are the peer's median over ours: above 1,
# ours is that many times faster.  The stacks of ours and of
# `perf script | stackcollapse-perf` are compared too.
#
# Knobs: REAL_DIR (bench/out/real), PD_ROUNDS (3) for the frame-pointer
# file and PD_DWARF_ROUNDS (1: perf script needs minutes on it), B (build),
# PD_OUT (bench/out/perfdata).
# Skipped, exit 0, without the data, perf or GNU time.  Results: stdout and
# bench/out/perfdata/perfdata.md.
set -eu
B=${B:-build}
REAL=${REAL_DIR:-bench/out/real}
ROUNDS=${PD_ROUNDS:-3}
DROUNDS=${PD_DWARF_ROUNDS:-1}
OUT=${PD_OUT:-bench/out/perfdata}
PB=bench/out/peers/bin
TIME=/usr/bin/time
SCP=$B/stackcollapse-perf

for v in "$ROUNDS" "$DROUNDS"; do
	case $v in '' | *[!0-9]* | 0) echo "perfdata: PD_ROUNDS and PD_DWARF_ROUNDS take positive whole numbers, not '$v'" >&2; exit 2 ;; esac
done
if [ ! -s "$REAL/perf.data" ] && [ ! -s "$REAL/perf-dwarf.data" ]; then
	echo "perfdata: skipped: no perf.data in $REAL (make them with: sh bench/record-real.sh)"
	exit 0
fi
if [ ! -x "$TIME" ]; then
	echo "perfdata: skipped: GNU time is not at $TIME (Debian: apt-get install time)"
	exit 0
fi
if ! command -v perf > /dev/null 2>&1; then
	echo "perfdata: skipped: no perf to compare with (Debian: apt-get install linux-perf)"
	exit 0
fi
[ -x "$SCP" ] || { echo "perfdata: '$SCP' not built (run make first)" >&2; exit 1; }
mkdir -p "$OUT"
sh bench/peers.sh > "$OUT/peers.txt"
ICP=
[ -x "$PB/inferno-collapse-perf" ] && ICP=$PB/inferno-collapse-perf

# run NAME CMD...: one timed run of a shell command line; its stdout to
# NAME.out, "wall cpu rss_kb" appended to NAME.t.  A failure is reported
# and left out.
run() {
	name=$1
	shift
	if "$TIME" -f '%e %U %S %M' -o "$OUT/$name.time" sh -c "$*" > "$OUT/$name.out" 2> "$OUT/$name.err"; then
		awk '{ print $1, $2 + $3, $4 }' "$OUT/$name.time" | tail -n 1 >> "$OUT/$name.t"
	else
		echo "perfdata: $name failed: $* (see $OUT/$name.err)" >&2
	fi
}

# median NAME FIELD: the median of a column of NAME.t (1 wall, 2 cpu, 3 rss).
median() {
	sort -n -k "$2" "$OUT/$1.t" | awk -v f="$2" '{ v[NR] = $f } END { if (NR) print v[int((NR + 1) / 2)] }'
}

# row TAG NAME LABEL SIZE: one line of the table, with the ratios to ours.
row() {
	[ -s "$OUT/$1_$2.t" ] || return 0
	w=$(median "$1_$2" 1)
	c=$(median "$1_$2" 2)
	r=$(median "$1_$2" 3)
	ow=$(median "$1_ours" 1)
	oc=$(median "$1_ours" 2)
	printf '| %s | %s | %.2f | %.2f | %.1f | %.0f | %.1fx | %.1fx |\n' "$1" "$3" "$w" "$c" \
		"$(awk -v s="$4" -v w="$w" 'BEGIN { print s / 1e6 / (w > 0 ? w : 1e-9) }')" \
		"$(awk -v r="$r" 'BEGIN { print r / 1024 }')" \
		"$(awk -v a="$w" -v b="$ow" 'BEGIN { print (b > 0 ? a / b : 0) }')" \
		"$(awk -v a="$c" -v b="$oc" 'BEGIN { print (b > 0 ? a / b : 0) }')"
}

# bench TAG FILE ROUNDS: every contestant on FILE, in turns.
bench() {
	tag=$1
	f=$2
	n=$3
	size=$(wc -c < "$f")
	rm -f "$OUT/$tag"_*.t
	cat "$f" > /dev/null	# the page cache, for everyone alike
	i=0
	while [ "$i" -lt "$n" ]; do
		i=$((i + 1))
		run "${tag}_ours" "'$SCP' '$f'"
		run "${tag}_ours1" "'$SCP' --threads 1 '$f'"
		[ -z "${PD_BEFORE:-}" ] || run "${tag}_before" "'$PD_BEFORE' '$f'"
		run "${tag}_script" "perf script -i '$f' 2>/dev/null | '$SCP'"
		[ -z "$ICP" ] || run "${tag}_inf" "perf script -i '$f' 2>/dev/null | '$ICP'"
	done
	{
		echo "### $tag: $(basename "$f"), $(awk -v s="$size" 'BEGIN { printf "%.1f MB", s / 1e6 }'), $n round(s)"
		echo
		echo "| file | program | wall s | CPU s | MB/s | peak RSS MB | wall ratio | CPU ratio |"
		echo "|---|---|---|---|---|---|---|---|"
		row "$tag" ours "stackcollapse-perf perf.data" "$size"
		row "$tag" ours1 "stackcollapse-perf --threads 1 perf.data" "$size"
		row "$tag" before "before: $(basename "${PD_BEFORE:-}") perf.data" "$size"
		row "$tag" script "perf script \\| stackcollapse-perf" "$size"
		row "$tag" inf "perf script \\| inferno-collapse-perf" "$size"
		if [ -s "$OUT/${tag}_script.out" ]; then
			d=$(diff "$OUT/${tag}_ours.out" "$OUT/${tag}_script.out" | grep -c '^[<>]' || true)
			echo
			echo "stacks: $(wc -l < "$OUT/${tag}_ours.out") from perf.data, $(wc -l < "$OUT/${tag}_script.out")" \
				"through perf script; lines that differ: $d"
		fi
		[ -n "$ICP" ] || echo "(inferno-collapse-perf not found: see bench/peers.sh)"
		echo
	} > "$OUT/$tag.md"
	cat "$OUT/$tag.md"
}

: > "$OUT/perfdata.md"
if [ -s "$REAL/perf.data" ]; then
	bench fp "$REAL/perf.data" "$ROUNDS"
	cat "$OUT/fp.md" >> "$OUT/perfdata.md"
else
	echo "perfdata: no $REAL/perf.data: frame pointers skipped"
fi
if [ -s "$REAL/perf-dwarf.data" ]; then
	bench dwarf "$REAL/perf-dwarf.data" "$DROUNDS"
	cat "$OUT/dwarf.md" >> "$OUT/perfdata.md"
else
	echo "perfdata: no $REAL/perf-dwarf.data: DWARF skipped (make it with: sh bench/record-real.sh)"
fi
rm -f "$OUT"/*.out
