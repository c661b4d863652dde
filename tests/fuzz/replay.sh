# Replays each fuzz target's saved corpus (tests/fuzz/corpus/TARGET/)
# through a plain build of the target: a crash or sanitizer report fails.
# Sourced by run.sh.
for _t in tests/fuzz/fuzz_*.c; do
	_name=$(basename "$_t" .c)
	_name=${_name#fuzz_}
	_bin=$B/tests/replay_$_name
	_corpus=tests/fuzz/corpus/$_name
	if [ ! -x "$_bin" ]; then
		fail "fuzz corpus $_name" "$_bin was not built"
	elif [ ! -d "$_corpus" ]; then
		skip "fuzz corpus $_name" "no corpus saved yet"
	elif _out=$(find "$_corpus" -type f -print0 | xargs -0 "$_bin" 2>&1); then
		pass "fuzz corpus $_name ($(find "$_corpus" -type f | wc -l) inputs)"
	else
		fail "fuzz corpus $_name" "$(printf '%s\n' "$_out" | tail -20)"
	fi
done
