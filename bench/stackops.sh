#!/bin/sh
# stackops.sh: what a chain of five stack operators costs over plain
# rendering (issue 19's target: at most 20%), on a folded file of many
# distinct stacks.
#
# Input: STACKOPS_FOLDED, else bench/out/real/real.folded (bench/record-real.sh
# makes it from a real recording), else 250k distinct generated stacks.
# The programs run in turns (A B C D A B C D ...), STACKOPS_ROUNDS (5)
# times each, and each gets its median wall time and, with GNU time, its
# median CPU time (user + system), which these shared VMs disturb less:
#   flamegraph        flamegraph IN                  (plain)
#   flame             flame IN -o x.svg              (plain)
#   flame+ops         flame OPS IN -o x.svg
#   stackfilter|fg    stackfilter OPS IN | flamegraph
# and checks that flame+ops and the pipeline draw the same SVG.
set -eu
B=${B:-build}
ROUNDS=${STACKOPS_ROUNDS:-5}
OUT=bench/out/stackops
TIME=/usr/bin/time
mkdir -p "$OUT"
case $ROUNDS in '' | *[!0-9]* | 0) echo "stackops: STACKOPS_ROUNDS takes a positive whole number" >&2; exit 2 ;; esac

IN=${STACKOPS_FOLDED:-bench/out/real/real.folded}
if [ ! -s "$IN" ]; then
	IN=$OUT/gen.folded
	[ -s "$IN" ] || "$B/tests/genfolded" -n 300000 -d 250000 -D 40 -s 19 > "$IN"
fi
echo "input: $IN: $(wc -l < "$IN") lines, $(awk -v s="$(wc -c < "$IN")" 'BEGIN { printf "%.1f MB", s / 1e6 }')"

# Five operators, one of each family, that find something in perf and in
# generated stacks alike.
set -- --exclude '^\[unknown\]$|^Lorg/example/send' --group '^([a-z_]+)(\.|::).*->$1' --fold '_\[k\]$' \
	--fold-pct 0.01 --group '^(do_|sys_|parse|decode)=>$1'
echo "operators: $*"

# one NAME CMD...: one timed run; "wall_ns cpu_s" appended to NAME.t.
one() {
	name=$1
	shift
	t0=$(date +%s%N)
	if [ -x "$TIME" ]; then
		"$TIME" -f '%U %S' -o "$OUT/$name.cpu" "$@" 2> "$OUT/$name.err"
	else
		"$@" 2> "$OUT/$name.err"
		echo '0 0' > "$OUT/$name.cpu"
	fi
	t1=$(date +%s%N)
	echo "$((t1 - t0)) $(tail -n 1 "$OUT/$name.cpu" | awk '{ print $1 + $2 }')" >> "$OUT/$name.t"
}

rm -f "$OUT"/*.t
cat "$IN" > /dev/null	# warm the page cache
r=0
while [ "$r" -lt "$ROUNDS" ]; do
	one flamegraph "$B/flamegraph" --title T -o "$OUT/fg.svg" "$IN"
	one flame "$B/flame" --title T "$IN" -o "$OUT/flame.svg"
	one flame_ops "$B/flame" --title T "$@" "$IN" -o "$OUT/ops.svg"
	one stackfilter_fg sh -c 'f=$1; o=$2; b=$3; shift 3; "$b/stackfilter" "$@" "$f" | "$b/flamegraph" --title T -o "$o"' \
		sh "$IN" "$OUT/pipe.svg" "$B" "$@"
	r=$((r + 1))
done

# median FILE COLUMN
median() { cut -d' ' -f"$2" "$1" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
base_w=$(median "$OUT/flamegraph.t" 1)
flame_w=$(median "$OUT/flame.t" 1)
flame_c=$(median "$OUT/flame.t" 2)
printf '%-16s %9s %9s %12s %12s\n' program "wall s" "cpu s" "wall/flgraph" "cpu/flame"
for n in flamegraph flame flame_ops stackfilter_fg; do
	w=$(median "$OUT/$n.t" 1)
	c=$(median "$OUT/$n.t" 2)
	awk -v n="$n" -v w="$w" -v c="$c" -v b="$base_w" -v fc="$flame_c" \
		'BEGIN { printf "%-16s %9.3f %9.2f %12.2f %12.2f\n", n, w / 1e9, c, w / b, (fc > 0 ? c / fc : 0) }'
done
awk -v a="$(median "$OUT/flame_ops.t" 1)" -v b="$flame_w" -v c="$(median "$OUT/flame_ops.t" 2)" -v d="$flame_c" \
	'BEGIN { printf "five operators in flame: %+.0f%% wall, %+.0f%% CPU over plain flame (target: at most +20%%)\n",
		100 * (a / b - 1), (d > 0 ? 100 * (c / d - 1) : 0) }'
grep -h 'dropped' "$OUT/flame_ops.err" | sed 's/^/  /'
cmp -s "$OUT/ops.svg" "$OUT/pipe.svg" && echo "same SVG from flame and stackfilter | flamegraph: yes" \
	|| echo "same SVG from flame and stackfilter | flamegraph: NO"
rm -f "$OUT"/*.svg
