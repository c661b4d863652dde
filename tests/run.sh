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

. tests/golden.sh
. tests/cli.sh
. tests/conformance.sh
. tests/collapse-perf.sh
. tests/collapse-vsp.sh
. tests/collapse-etw.sh
. tests/collapse-perfview.sh
. tests/flame.sh
. tests/truncated.sh
. tests/fuzz/replay.sh
. tests/browser/run.sh

echo "$PASSED passed, $FAILED failed, $SKIPPED skipped"
[ "$FAILED" = 0 ]
