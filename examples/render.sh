#!/bin/sh
# make demo: draws the examples.
#   sh examples/render.sh [BUILD_DIR [OUT_DIR]]
# First the main job: flame turns a real perf recording (perf script text,
# gzipped, as examples/record.sh made it) into OUT_DIR/threads-perf.svg in
# one command.  Then flamegraph renders each examples/*.folded.  OUT_DIR
# is examples/ unless given; the last line names the graph to open.
set -e
bin=${1:-.}
dir=$(dirname "$0")
out=${2:-$dir}
mkdir -p "$out"
for f in "$dir"/*.folded; do
	name=$(basename "$f" .folded)
	"$bin/flamegraph" --title "$name: perf record -g" -o "$out/$name.svg" "$f"
	echo "wrote $out/$name.svg"
done
"$bin/flamegraph" --inverted --title "threads, inverted" -o "$out/threads-icicle.svg" "$dir/threads.folded"
echo "wrote $out/threads-icicle.svg"
"$bin/flame" --title "threads: perf record --call-graph dwarf" -o "$out/threads-perf.svg" "$dir/threads.perf.gz"
echo "wrote $out/threads-perf.svg from $dir/threads.perf.gz, with flame: open it in a browser"
