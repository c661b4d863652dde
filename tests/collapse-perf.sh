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

. tests/collapse-perf-cli.sh
. tests/collapse-perf-conformance.sh
