# stackcollapse-perf tests (sourced by run.sh; "sh tests/collapse-perf.sh
# update" rewrites the golden results).
SCP=$(pwd)/$B/stackcollapse-perf
PD=tests/data/perf
P=$TMP/perf
mkdir -p "$P" "$PD/results"

# Golden cases on perf recordings made on this machine (tests/record-perf.sh).
grep -v '^#' "$PD/cases" | while read -r name args; do
	(cd "$PD" && eval "set -- $args" && "$SCP" "$@") > "$P/$name.folded" 2> "$P/$name.err"
	if [ "$PERF_GOLDEN" = update ]; then
		cp "$P/$name.folded" "$PD/results/$name.folded"
	elif cmp -s "$P/$name.folded" "$PD/results/$name.folded"; then
		echo "pass perf/$name"
	else
		echo "fail perf/$name"
		diff "$PD/results/$name.folded" "$P/$name.folded" | head -10
	fi
done > "$P/golden.out"
[ "$PERF_GOLDEN" = update ] && return 0 2>/dev/null
PASSED=$((PASSED + $(grep -c '^pass' "$P/golden.out")))
grep -q '^fail' "$P/golden.out" && { FAILED=$((FAILED + $(grep -c '^fail' "$P/golden.out"))); grep -v '^pass' "$P/golden.out"; }

# Nothing valid is lost: the output's total is the sum of the periods of
# the events kept, counted here with awk straight from perf's text.
periods() {	# periods FILE EVENT: sum of periods of EVENT samples
	zcat -f "$1" | awk -v ev="$2" '
		/[0-9]+\.[0-9]+:[ \t]/ && $0 ~ (" " ev ":") {
			n = split($0, w, /[ \t]+/)
			for (i = 1; i <= n; i++) if (w[i] == ev ":" || index(w[i], ev ":") == 1) { p = w[i - 1]; break }
			s += (p ~ /^[0-9]+$/) ? p : 1
		}
		END { printf "%d\n", s }'
}
total() { awk '{ s += $NF } END { printf "%d\n", s }' "$1"; }
for f in threads cpp node dwarf pidtid system; do
	want=$(periods "$PD/$f.txt.gz" cycles)
	"$SCP" "$PD/$f.txt.gz" > "$P/t.folded" 2>/dev/null
	got=$(total "$P/t.folded")
	[ "$got" = "$want" ] && pass "perf/$f keeps every sample's period ($want)" \
		|| fail "perf/$f keeps every sample's period" "got $got, want $want"
done
want=$(periods "$PD/events.txt.gz" instructions)
"$SCP" --event-filter instructions "$PD/events.txt.gz" > "$P/t.folded" 2>/dev/null
[ "$(total "$P/t.folded")" = "$want" ] && pass "perf/--event-filter keeps that event's samples" \
	|| fail "perf/--event-filter keeps that event's samples" "got $(total "$P/t.folded"), want $want"
"$SCP" "$PD/events.txt.gz" > /dev/null 2> "$P/err"
grep -q "kept only 'cycles' events.*'instructions'" "$P/err" && pass "perf/several events: warns and names the other" \
	|| fail "perf/several events: warns and names the other" "$(cat "$P/err")"

# Output order: stacks are kept as lists of frame ids and sorted through
# ranked names, so names that begin other names ("f", "f.g", "f!"), a
# process or DSO name holding a ';' and stacks that begin other stacks
# must still come out bytewise sorted and summed exactly as awk and
# LC_ALL=C sort make them from the stacks the generator wrote.
awk 'BEGIN {
	srand(7); nv = split("f f.g f! f~ fg f.g.h e E f.g! _f", v, " ")
	for (i = 0; i < 12000; i++) {
		d = 1 + int(rand() * 5); comm = (rand() < 0.3) ? "a;b" : "a"
		printf "%s 1 %d.000001: 1 cycles:\n", comm, i
		st = comm
		for (k = 0; k < d; k++) f[k] = v[1 + int(rand() * nv)]
		for (k = d - 1; k >= 0; k--) printf "\t%x %s+0x%x (/bin/x)\n", 4096 + k, f[k], k
		if (rand() < 0.2) printf "\t1 [unknown] (/lib/x;y.so)\n"
		print ""
	}
}' > "$P/order.txt"
awk 'BEGIN { RS = ""; FS = "\n" } {
	split($1, h, " "); s = h[1]
	for (i = NF; i >= 2; i--) {
		split($i, w, " "); n = w[2]; sub(/\+0x[0-9a-f]+$/, "", n)
		if (n == "[unknown]") n = "[x;y.so]"
		s = s ";" n
	}
	c[s]++
} END { for (s in c) print s " " c[s] }' "$P/order.txt" | LC_ALL=C sort > "$P/order.want"
# FLAME_PAR_MIN=1: the stacks are sorted and written on two threads
# (over several blocks of output) however few they are.
for th in 1 2 2p; do
	_min=32768
	[ "$th" = 2p ] && _min=1
	FLAME_PAR_MIN=$_min FLAME_CHUNK=4096 "$SCP" --threads ${th%p} "$P/order.txt" > "$P/order.got" 2>&1
	cmp -s "$P/order.got" "$P/order.want" && pass "perf/bytewise order of stacks with prefix names ($th threads)" \
		|| fail "perf/bytewise order of stacks with prefix names ($th threads)" "$(diff "$P/order.want" "$P/order.got" | head)"
done
# A full disk: the first failed write's reason is the one told, exit 1,
# whether one thread or two write the blocks; nothing is written after it.
for th in 1 2p; do
	_min=32768
	[ "$th" = 2p ] && _min=1
	if [ -w /dev/full ]; then
		FLAME_PAR_MIN=$_min "$SCP" --threads ${th%p} "$P/order.txt" > /dev/full 2> "$P/full.err"
		_rc=$?
		[ "$_rc" = 1 ] && grep -q "write error on '<stdout>': No space left on device" "$P/full.err" \
			&& pass "perf: a full disk is named with its reason, exit 1 ($th threads)" \
			|| fail "perf: a full disk is named with its reason ($th threads)" "exit $_rc: $(cat "$P/full.err")"
	else
		skip "perf: a full disk ($th threads)" "no /dev/full"
	fi
done
[ "$(wc -l < "$P/order.want")" -gt 4096 ] && pass "perf: the full-disk input is more than two blocks of stacks" \
	|| fail "perf: the full-disk input is more than two blocks of stacks" "$(wc -l < "$P/order.want") stacks"

. tests/collapse-perf-cli.sh
. tests/collapse-perf-conformance.sh
