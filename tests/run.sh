#!/bin/sh
# The whole suite: unit tests, golden tests, flamegraph.pl reference
# frames, CLI behaviour, conformance data (when ../shared is present),
# browser tests (when chromium is), fuzz corpus replay.  Ends with
# "N passed, N failed, N skipped"; exits 1 when anything failed.
B=${B:-build}
export B
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export TMP

# suite NAME FILE: sources one suite and says how it went, so a long run
# shows progress as it goes.
suite() {
	_p0=$PASSED _f0=$FAILED _s0=$SKIPPED _suite=$1
	. "$2"	# may set its own positional parameters
	printf '%-22s %d passed, %d failed, %d skipped\n' "$_suite:" $((PASSED - _p0)) $((FAILED - _f0)) \
		$((SKIPPED - _s0))
}

unit_tests() {
for t in "$B"/tests/test_*; do
	[ -x "$t" ] || continue
	# Each unit binary prints "N passed, N failed" for its own checks.
	out=$("$t" 2>&1)
	line=$(printf '%s\n' "$out" | tail -n 1)
	p=$(echo "$line" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
	f=$(echo "$line" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
	if [ -z "$p" ]; then
		fail "$(basename "$t") (crashed or no summary)" "$out"
		continue
	fi
	PASSED=$((PASSED + p))
	FAILED=$((FAILED + f))
	[ "$f" = 0 ] || printf '%s\n' "$out" | grep '^FAIL' | head -20
done
}
_p0=$PASSED _f0=$FAILED
unit_tests
printf '%-22s %d passed, %d failed, %d skipped\n' "unit:" $((PASSED - _p0)) $((FAILED - _f0)) 0

suite golden tests/golden.sh
suite cli tests/cli.sh
suite conformance tests/conformance.sh
suite collapse-perf tests/collapse-perf.sh
suite perfdata tests/perfdata.sh
suite collapse-vsp tests/collapse-vsp.sh
suite collapse-etw tests/collapse-etw.sh
suite collapse-etl tests/collapse-etl.sh
suite collapse-perfview tests/collapse-perfview.sh
suite collapse-dtrace tests/collapse-dtrace.sh
suite collapse-sample tests/collapse-sample.sh
suite collapse-vtune tests/collapse-vtune.sh
suite collapse-ghcprof tests/collapse-ghcprof.sh
suite collapse-xctrace tests/collapse-xctrace.sh
suite collapse-instruments tests/collapse-instruments.sh
suite collapse-bpftrace tests/collapse-bpftrace.sh
suite collapse-jstack tests/collapse-jstack.sh
suite collapse-gdb tests/collapse-gdb.sh
suite collapse-recursive tests/collapse-recursive.sh
suite collapse-guess tests/collapse-guess.sh
suite collapse-lnt tests/collapse-lnt.sh
# issue 20: the rest of FlameGraph's collapsers
suite collapse-fgmore tests/collapse-fgmore.sh
suite collapse-pprof tests/collapse-pprof.sh
suite collapse-jfr tests/collapse-jfr.sh
suite collapse-speedscope tests/collapse-speedscope.sh
suite collapse-chrome tests/collapse-chrome.sh
suite flame tests/flame.sh
suite seeds tests/seeds.sh
suite stackops tests/stackops.sh
suite truncated tests/truncated.sh
suite options tests/options.sh
suite install tests/install.sh
suite perfsym tests/perfsym.sh
suite flame-record tests/flame-record.sh
suite windows tests/windows.sh
suite shape tests/shape.sh
suite fuzz tests/fuzz/replay.sh
suite browser tests/browser/run.sh

echo "$PASSED passed, $FAILED failed, $SKIPPED skipped"
[ "$FAILED" = 0 ]
