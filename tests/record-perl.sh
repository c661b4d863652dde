#!/bin/sh
# Records what flamegraph.pl draws for every golden case, as frame lists
# (results/perl.frames) and its SVG's size (results/perl.size), so the test suite can check flame's geometry
# against it on machines without Perl or flamegraph.pl.
#   FLAMEGRAPH_PL=/path/to/flamegraph.pl sh tests/record-perl.sh
# Needs a built tree (make).  Only a frame list is kept, never the SVG.
set -e
: "${FLAMEGRAPH_PL:?set FLAMEGRAPH_PL to flamegraph.pl}"
B=${B:-build}
top=$(pwd)
for dir in tests/data/flamegraph/*/; do
	dir=${dir%/}
	[ -f "$dir/no-perl" ] && continue
	mkdir -p "$dir/results"
	(cd "$dir" && eval "set -- $(cat args)" && perl "$FLAMEGRAPH_PL" "$@") > /tmp/record-perl.svg 2>/dev/null || true
	"$top/$B/tests/svgframes" /tmp/record-perl.svg > "$dir/results/perl.frames"
	wc -c < /tmp/record-perl.svg | tr -d ' ' > "$dir/results/perl.size"
	echo "recorded $dir ($(wc -l < "$dir/results/perl.frames") frames)"
done
rm -f /tmp/record-perl.svg
