#!/bin/sh
# make fuzz: runs each libFuzzer target for FUZZ_SECONDS (default 60),
# seeded from and adding to tests/fuzz/corpus/TARGET/.  Crashes are left
# in build-fuzz/ as crash-* files.
set -e
for bin in "$@"; do
	name=$(basename "$bin")
	name=${name#fuzz_}
	corpus=tests/fuzz/corpus/$name
	mkdir -p "$corpus" build-fuzz/new-$name
	echo "fuzzing $name for ${FUZZ_SECONDS}s"
	"$bin" -max_total_time="$FUZZ_SECONDS" -max_len=65536 -timeout=10 \
		-artifact_prefix=build-fuzz/ build-fuzz/new-$name "$corpus" 2>&1 | tail -3
	# Keep only a minimal set that covers what the whole run found.
	"$bin" -merge=1 "$corpus" build-fuzz/new-$name 2>&1 | tail -1
done
