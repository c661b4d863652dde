#!/bin/sh
# make demo: renders each examples/*.folded to examples/*.svg.
#   sh examples/render.sh PATH/TO/flamegraph
set -e
fg=${1:-./flamegraph}
dir=$(dirname "$0")
for f in "$dir"/*.folded; do
	name=$(basename "$f" .folded)
	"$fg" --title "$name: perf record -g" -o "$dir/$name.svg" "$f"
	echo "wrote $dir/$name.svg"
done
"$fg" --inverted --title "threads, inverted" -o "$dir/threads-icicle.svg" "$dir/threads.folded"
echo "wrote $dir/threads-icicle.svg"
