#!/bin/sh
# browser.sh: how huge flame graphs behave in a browser (issue 17).  On a
# generated profile of 10,000 deep, varied stacks drawn with --minwidth 0
# (about 214k frames), the SVG's size and, in Debian's chromium driven by
# playwright-core (tests/browser/bench.mjs), the seconds to load it to a
# usable graph, to run a regex search and to click-zoom, for flame and for
# flamegraph.pl and inferno-flamegraph when bench/peers.sh finds them
# (FLAMEGRAPH_DIR, INFERNO_DIR, ...).  Then flame on about a million
# frames.  Skipped, and said so, without node, chromium or playwright-core.
# BENCH_SHOTS=DIR also saves screenshots of each step there.
set -eu
B=${B:-build}
OUT=bench/out/browser
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
if ! command -v node > /dev/null 2>&1; then
	echo "browser benchmark: skipped (node is not installed)"
	exit 0
elif [ ! -x "$CHROMIUM" ]; then
	echo "browser benchmark: skipped (no chromium at $CHROMIUM; apt-get install chromium)"
	exit 0
elif [ ! -d tests/browser/node_modules/playwright-core ]; then
	echo "browser benchmark: skipped (playwright-core is not installed: cd tests/browser && npm ci)"
	exit 0
fi
mkdir -p "$OUT"
export CHROMIUM

# Graphs for each NAME=SVG, one row each; a tool that failed reads "-".
measure() {
	shots=
	if [ -n "${BENCH_SHOTS:-}" ]; then
		mkdir -p "$BENCH_SHOTS"
		shots="--shots $BENCH_SHOTS"
	fi
	# shellcheck disable=SC2086
	node tests/browser/bench.mjs $shots "$@" | awk '{
		printf "%-22s %9.1f MB %9s s %9s s %9s s\n", $1, $2 / 1e6, $3, $4, $5 }'
}

"$B/tests/genfolded" -n 10000 -d 10000 -D 66 -s 42 > "$OUT/huge.folded"
"$B/flamegraph" --minwidth 0 "$OUT/huge.folded" > "$OUT/flame.svg"
frames=$(sed -n 's/.*id="fg-data".* data-frames="\([0-9]*\)".*/\1/p' "$OUT/flame.svg")
echo "input: 10,000 stacks up to 66 deep, --minwidth 0: $frames frames"
set -- flame="$OUT/flame.svg"
"$B/flamegraph" --minwidth 0 --compact never "$OUT/huge.folded" > "$OUT/flame-classic.svg"
set -- "$@" flame-classic="$OUT/flame-classic.svg"
sh bench/peers.sh > "$OUT/peers.txt" 2> /dev/null || true
PEERS=bench/out/peers/bin
if [ -e "$PEERS/flamegraph.pl" ] && command -v perl > /dev/null 2>&1; then
	perl "$PEERS/flamegraph.pl" --minwidth 0 "$OUT/huge.folded" > "$OUT/flamegraph-pl.svg" 2> /dev/null &&
		set -- "$@" flamegraph.pl="$OUT/flamegraph-pl.svg"
else
	echo "flamegraph.pl: not found (set FLAMEGRAPH_DIR); left out"
fi
if [ -e "$PEERS/inferno-flamegraph" ]; then
	"$PEERS/inferno-flamegraph" --minwidth 0 "$OUT/huge.folded" > "$OUT/inferno.svg" 2> /dev/null &&
		set -- "$@" inferno="$OUT/inferno.svg"
else
	echo "inferno-flamegraph: not found (set INFERNO_DIR); left out"
fi
printf '%-22s %12s %11s %11s %11s\n' graph size load search zoom
measure "$@"

# A million frames: flame only (the others need minutes to load it).
"$B/tests/genfolded" -n 47000 -d 47000 -D 66 -s 7 > "$OUT/million.folded"
"$B/flamegraph" --minwidth 0 "$OUT/million.folded" > "$OUT/million.svg"
frames=$(sed -n 's/.*id="fg-data".* data-frames="\([0-9]*\)".*/\1/p' "$OUT/million.svg")
echo "flame on $frames frames:"
measure flame-1M="$OUT/million.svg"
rm -f "$OUT/huge.folded" "$OUT/million.folded"

# The README's screenshots: default, searched, zoomed and dark views of the
# example profile, remade here so they show the viewer as it is.
SHOTS=bench/screenshots
mkdir -p "$SHOTS"
"$B/flamegraph" examples/templates.folded > "$OUT/example.svg"
BENCH_SEARCH='memmove|execve' node tests/browser/bench.mjs --shots "$SHOTS" example="$OUT/example.svg" > /dev/null
echo "screenshots: $(ls "$SHOTS" | tr '\n' ' ')"
