# The hash seed (lib/hkey.c: each process hashes with a secret of its own)
# must not show in any output: every input under tests/data and examples
# that flame reads, drawn and collapsed under two seeds, gives the same
# bytes, messages and exit status, and so on two threads under the
# second; so does difffolded.  A table read out in the order of its slots
# would fail here.  Sourced by run.sh.

SEED_FL=$B/flame
# seed_run N OUT ARGS...: flame under seed N into OUT.{out,err,rc}.
seed_run() {
	_sn=$1 _o=$2
	shift 2
	FLAME_HASH_SEED=$_sn "$SEED_FL" "$@" > "$_o.out" 2> "$_o.err"
	echo $? > "$_o.rc"
}
seed_same() {
	cmp -s "$TMP/s1.out" "$TMP/s2.out" && cmp -s "$TMP/s1.err" "$TMP/s2.err" &&
		cmp -s "$TMP/s1.rc" "$TMP/s2.rc"
}
# The two seeds must make two secrets, or all of this proves nothing.
if [ -x "$B/tests/test_hkey" ] &&
	[ "$(FLAME_HASH_SEED=1 "$B/tests/test_hkey" print)" != "$(FLAME_HASH_SEED=7777777 "$B/tests/test_hkey" print)" ]; then
	pass "seeds: the two seeds make two secrets"
else
	fail "seeds: the two seeds make two secrets" "test_hkey print gave one hash for both (or is missing)"
fi
_bad= _tbad= _n=0 _read=0
for _f in $(find tests/data examples -type f -not -path '*/results/*' -not -name cases \
	-not -name args -not -name '*.sh' -not -name '*.svg' | sort); do
	for _to in svg collapsed; do
		seed_run 1 "$TMP/s1" --to $_to --threads 1 "$_f"
		seed_run 7777777 "$TMP/s2" --to $_to --threads 1 "$_f"
		_n=$((_n + 1))
		[ "$(cat "$TMP/s1.rc")" = 0 ] && _read=$((_read + 1))
		seed_same || _bad="$_bad $_f($_to)"
		mv "$TMP/s2.out" "$TMP/s1.out" && mv "$TMP/s2.err" "$TMP/s1.err" && mv "$TMP/s2.rc" "$TMP/s1.rc"
		seed_run 7777777 "$TMP/s2" --to $_to --threads 2 "$_f"
		seed_same || _tbad="$_tbad $_f($_to)"
	done
done
[ -z "$_bad" ] && pass "seeds: $_n runs over tests/data and examples alike under two seeds" ||
	fail "seeds: runs over tests/data and examples alike under two seeds" "$_bad"
[ -z "$_tbad" ] && pass "seeds: the same on two threads" ||
	fail "seeds: the same on two threads" "$_tbad"
# Most of them read: else the loop above proves little.
[ $_read -ge 150 ] && pass "seeds: flame read $_read of the $_n runs" ||
	fail "seeds: flame read $_read of the $_n runs" "expected 150 at least"
# Several inputs at once (their names interned in one table), and the
# differential graph.
seed_run 1 "$TMP/s1" --to svg examples/threads.folded examples/threads.perf.gz tests/data/pprof/basic.pb.gz
seed_run 2 "$TMP/s2" --to svg examples/threads.folded examples/threads.perf.gz tests/data/pprof/basic.pb.gz
seed_same && pass "seeds: several inputs in one graph" || fail "seeds: several inputs in one graph"
FLAME_HASH_SEED=1 "$B/difffolded" examples/threads.folded examples/templates.folded > "$TMP/s1.out" 2>&1
FLAME_HASH_SEED=2 "$B/difffolded" examples/threads.folded examples/templates.folded > "$TMP/s2.out" 2>&1
cmp -s "$TMP/s1.out" "$TMP/s2.out" && [ -s "$TMP/s1.out" ] && pass "seeds: difffolded" ||
	fail "seeds: difffolded"
