# The rest of FlameGraph's collapsers (issue 20), sourced by run.sh: stap,
# elfutils (eu-stack), aix, pmc, faulthandler, wcp, ljp, java-exceptions,
# ibmjava, go, vtune-mc, xdebug and perf-sched.  tests/data/DIR/cases
# lists each case; its expected output is the original script's on the
# same input, merged and sorted (the scripts' own order is their hash's).
# FLAMEGRAPH_DIR=DIR (a FlameGraph checkout; gawk and php for the awk and
# PHP ones) runs the scripts again.  The elfutils and go inputs are real
# eu-stack and go tool pprof -raw output; the others are written by hand.
FGM=$TMP/fgmore
mkdir -p "$FGM"
FGM_TOOLS="stap:stap elfutils:elfutils aix:aix pmc:pmc faulthandler:faulthandler wcp:wcp ljp:ljp
javaexc:java-exceptions ibmjava:ibmjava goraw:go vtunemc:vtune-mc xdebug:xdebug perfsched:perf-sched"

for _p in $FGM_TOOLS; do
	run_cases "$(pwd)/$B/stackcollapse-${_p#*:}" "tests/data/${_p%%:*}" "${_p#*:}"
done

# The original's output, merged and sorted, for the case args $2... of
# tool $1 (run in the data folder).
fgm_norm() { awk '{ n = $NF; sub(/ [^ ]*$/, ""); s[$0] += n } END { for (k in s) printf "%s %s\n", k, s[k] }' | LC_ALL=C sort; }
fgm_script() {
	_t=$1; shift
	case $_t in
	ljp) awk -f "$FLAMEGRAPH_DIR/stackcollapse-ljp.awk" "$@" ;;
	perf-sched) _v=""; for _x in "$@"; do case $_x in --*) _v="$_v -v $(echo "${_x#--}" | tr - _)=1" ;; esac; done
		gawk $_v -f "$FLAMEGRAPH_DIR/stackcollapse-perf-sched.awk" own.txt ;;
	xdebug) _a=""; for _x in "$@"; do case $_x in -*) _a="$_a $_x" ;; *) cp "$_x" "$FGM/x.xt" ;; esac; done
		php "$FLAMEGRAPH_DIR/stackcollapse-xdebug.php" $_a "$FGM/x.xt" | awk '{ n = $NF; sub(/ [^ ]*$/, ""); printf "%s %.0f\n", $0, n }' ;;
	go) perl "$FLAMEGRAPH_DIR/stackcollapse-go.pl" "$@" ;;
	*) perl "$FLAMEGRAPH_DIR/stackcollapse-$_t.pl" "$@" ;;
	esac 2>/dev/null | fgm_norm
}
if [ -n "${FLAMEGRAPH_DIR:-}" ] && [ -f "$FLAMEGRAPH_DIR/stackcollapse-stap.pl" ] &&
   command -v gawk >/dev/null && command -v php >/dev/null; then
	for _p in $FGM_TOOLS; do
		_d=tests/data/${_p%%:*}
		grep -v '^#' "$_d/cases" | while read -r _name _want _args; do
			(cd "$_d" && eval "set -- $_args" && fgm_script "${_p#*:}" "$@") > "$FGM/want"
			cmp -s "$FGM/want" "$_d/results/$_want" && echo pass || echo "FAIL ${_p#*:}/$_name: expected output is not the script's"
		done
	done > "$FGM/re"
	PASSED=$((PASSED + $(grep -c '^pass' "$FGM/re")))
	FAILED=$((FAILED + $(grep -c '^FAIL' "$FGM/re")))
	grep '^FAIL' "$FGM/re"
else
	skip "fgmore: expected outputs against the scripts" "set FLAMEGRAPH_DIR to a full FlameGraph checkout (with gawk and php)"
fi

# Independent checks, one per behaviour the cases do not pin down.
SCB=$(pwd)/$B
"$SCB/stackcollapse-go" tests/data/goraw/inlined.txt > "$FGM/go"
_want=$(awk '/^Samples:/ { s = 1; next } /^Locations/ { s = 0 } s && /: [0-9]/ { t += $1 } END { print t }' tests/data/goraw/inlined.txt)
[ "$(awk '{ t += $NF } END { print t }' "$FGM/go")" = "$_want" ] && pass "go: every sample counts ($_want)" \
	|| fail "go: every sample counts" "$(cat "$FGM/go")"
grep -q '^runtime.main;main.main;main.midB;main.leafA [0-9]' "$FGM/go" \
	&& pass "go: functions inlined into a location are frames (the script drops them)" \
	|| fail "go: inlined functions are frames" "$(head -5 "$FGM/go")"
"$SCB/stackcollapse-ibmjava" --shorten-pkgs tests/data/ibmjava/own.txt > "$FGM/ij"
grep -q ';java/lang/Thread.sleep 1$' "$FGM/ij" && grep -q '^main;c.e.a.Main.main;c.e.a.Main.spin' "$FGM/ij" \
	&& pass "ibmjava: --shorten-pkgs keeps a name of two parts (the script empties it)" \
	|| fail "ibmjava: --shorten-pkgs keeps a two-part name" "$(cat "$FGM/ij")"
cp tests/data/xdebug/own.xt "$FGM/in.xt"
"$SCB/stackcollapse-xdebug" "$FGM/in.xt" > /dev/null
cmp -s "$FGM/in.xt" tests/data/xdebug/own.xt && pass "xdebug: the input is left as it was (the script rewrites it)" \
	|| fail "xdebug: the input is left as it was"
awk '{ print } /^3\t7\t1/ { print "3\t7\tR\t\t\t1" }' tests/data/xdebug/own.xt > "$FGM/r.xt"
"$SCB/stackcollapse-xdebug" -c "$FGM/r.xt" | cmp -s - tests/data/xdebug/results/count.folded \
	&& pass "xdebug: a return-value (R) line pops nothing" || fail "xdebug: an R line pops nothing"
# durations: the trace's last exit less its first entry, in microseconds
_want=$(awk -F'\t' '/^1\t0\t0/ { a = $4 } /^1\t0\t1/ { b = $4 } END { printf "%.0f\n", (b - a) * 1e6 }' tests/data/xdebug/own.xt)
[ "$("$SCB/stackcollapse-xdebug" tests/data/xdebug/own.xt | awk '{ t += $NF } END { print t }')" = "$_want" ] \
	&& pass "xdebug: durations add up to the trace's ($_want us)" || fail "xdebug: durations add up"
printf 'Full stacks:\n\n50.00%% === (4 samples)\n0: leaf\n1: root\n' > "$FGM/w.txt"
"$SCB/stackcollapse-wcp" "$FGM/w.txt" | grep -qx 'root;leaf 4' \
	&& pass "wcp: a last stack with no empty line after it counts (the script drops it)" || fail "wcp: a last stack counts"
head -9 tests/data/ljp/own.txt > "$FGM/l.txt"
"$SCB/stackcollapse-ljp" "$FGM/l.txt" | grep -qx 'sun.misc.Unsafe.park 7' \
	&& pass "ljp: a last trace with no Total line after it counts" || fail "ljp: a last trace counts"
printf ' 0x1 : f+0x1/0x2 [k]\n 3\n 5\n' > "$FGM/s.txt"
"$SCB/stackcollapse-stap" "$FGM/s.txt" > "$FGM/s.out"
[ "$(cat "$FGM/s.out")" = "f 3" ] && pass "stap: a count with no frames before it is no stack (the script writes \" 5\")" \
	|| fail "stap: a count with no frames" "$(cat "$FGM/s.out")"
sed 's/^server_main_thrd /     server_main /' tests/data/perfsched/own.txt > "$FGM/pad.txt"
"$SCB/stackcollapse-perf-sched" "$FGM/pad.txt" > "$FGM/pad.out"
cmp -s "$FGM/pad.out" tests/data/perfsched/results/own.folded \
	&& pass "perf-sched: a header padded with blanks is not a frame" || fail "perf-sched: a padded header" "$(cat "$FGM/pad.out")"
printf 'nothing to see\n' > "$FGM/none.txt"
for _p in $FGM_TOOLS; do
	expect_exit 1 "${_p#*:}: no stacks: exit 1" "$SCB/stackcollapse-${_p#*:}" -q "$FGM/none.txt"
done
# flame tells each by its content
for _p in stap:schedule elfutils:clock_nanosleep aix:_event_sleep pmc:_umtx_op_err faulthandler:threading.py \
	  wcp:event_loop ljp:com.example.Calc.add javaexc:Pool.take ibmjava:LockSupport.park goraw:main.leafA \
	  vtunemc:parse_config xdebug:ret_ord perfsched:epoll_wait; do
	_in=$(ls tests/data/${_p%%:*}/own.* | head -1)
	"$B/flame" "$_in" -o "$FGM/a.svg" 2> "$FGM/e"
	grep -q "${_p#*:}" "$FGM/a.svg" && pass "${_p%%:*}: flame detects it" || fail "${_p%%:*}: flame detects it" "$(head -3 "$FGM/e")"
done
# async-profiler's collapsed output (already collapsed stacks) draws as is
printf 'java/lang/Thread.run;com/example/Worker.run_[j];Unsafe_Park_[k] 12\nall;[unknown_Java] 3\n' > "$FGM/ap.txt"
"$B/flame" "$FGM/ap.txt" -o "$FGM/ap.svg" 2> "$FGM/e" && grep -q 'Unsafe_Park (12 samples' "$FGM/ap.svg" \
	&& pass "async-profiler collapsed output: flame draws it" || fail "async-profiler collapsed output" "$(cat "$FGM/e")"
