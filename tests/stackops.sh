# Stack operators (sourced by run.sh): each operator on hand-made stacks
# against expectations written by hand; on real collapsed profiles
# against tests/tools/stackops_ref.py, which applies the same rules to the
# text the slow way; sums kept by the operators that only reshape; chains
# and their order; flame and stackfilter giving the same stacks; --summary
# of the reshaped profile; usage errors.
SF=$(pwd)/$B/stackfilter
S=$TMP/stackops
mkdir -p "$S"

cat > "$S/in.folded" <<'EOF'
main;parse;lex;memchr 10
main;parse;lex 5
main;run;libc.so!malloc;libc.so!brk 4
main;run;libc.so!free 2
main;run;work;work;work 6
main;run;work;libc.so!malloc 3
idle 20
EOF

# want NAME [OPS...]: stackfilter OPS on in.folded prints exactly the
# lines on stdin (written by hand below).
want() {
	_n=$1
	shift
	cat > "$S/want"
	"$SF" "$@" "$S/in.folded" > "$S/got" 2> "$S/err"
	cmp -s "$S/want" "$S/got" && pass "stackops: $_n" || fail "stackops: $_n" "$(diff "$S/want" "$S/got")"
}

want "--group merges a library's frames into one" --group 'libc\.so!.*->libc' <<'EOF'
idle 20
main;parse;lex 5
main;parse;lex;memchr 10
main;run;libc 6
main;run;work;libc 3
main;run;work;work;work 6
EOF
want "--group =>: one frame per entry into the group" --group '(libc)\.so!.*=>$1' <<'EOF'
idle 20
main;parse;lex 5
main;parse;lex;memchr 10
main;run;libc <<libc.so!free>> 2
main;run;libc <<libc.so!malloc>> 4
main;run;work;libc <<libc.so!malloc>> 3
main;run;work;work;work 6
EOF
want "--group list: first match wins, empty NAME keeps a frame out" \
	--group 'free->' --group 'libc\.so!.*->libc' <<'EOF'
idle 20
main;parse;lex 5
main;parse;lex;memchr 10
main;run;libc 4
main;run;libc.so!free 2
main;run;work;libc 3
main;run;work;work;work 6
EOF
want "--group \$1 \$0 \$\$ in NAME" --group '^(m)(a)in$->$2$1 $0 $$' <<'EOF'
am main $;parse;lex 5
am main $;parse;lex;memchr 10
am main $;run;libc.so!free 2
am main $;run;libc.so!malloc;libc.so!brk 4
am main $;run;work;libc.so!malloc 3
am main $;run;work;work;work 6
idle 20
EOF
want "--fold: frames gone, cost to the caller" --fold 'lex|work' <<'EOF'
idle 20
main;parse 5
main;parse;memchr 10
main;run 6
main;run;libc.so!free 2
main;run;libc.so!malloc 3
main;run;libc.so!malloc;libc.so!brk 4
EOF
want "--fold everything: the root frame stays" --fold '.' <<'EOF'
idle 20
main 30
EOF
want "--fold-pct 10: frames under 5 of 50 inclusive folded" --fold-pct 10 <<'EOF'
idle 20
main;parse;lex 5
main;parse;lex;memchr 10
main;run 2
main;run;libc.so!malloc 4
main;run;work;libc.so!malloc 3
main;run;work;work;work 6
EOF
want "--include" --include malloc <<'EOF'
main;run;libc.so!malloc;libc.so!brk 4
main;run;work;libc.so!malloc 3
EOF
grep -qx "stackfilter: --include 'malloc' dropped 43 of 50 samples" "$S/err" \
	&& pass "stackops: --include says what it dropped" || fail "stackops: --include report" "$(cat "$S/err")"
want "--exclude" --exclude '^idle$' <<'EOF'
main;parse;lex 5
main;parse;lex;memchr 10
main;run;libc.so!free 2
main;run;libc.so!malloc;libc.so!brk 4
main;run;work;libc.so!malloc 3
main;run;work;work;work 6
EOF
grep -qx "stackfilter: --exclude '^idle\$' dropped 20 of 50 samples" "$S/err" \
	&& pass "stackops: --exclude says what it dropped" || fail "stackops: --exclude report" "$(cat "$S/err")"
want "--focus: outermost match is the root" --focus '^work$' <<'EOF'
work;libc.so!malloc 3
work;work;work 6
EOF
want "--callers: inverted paths to the outermost match" --callers '^work$' <<'EOF'
work;run;main 9
EOF
want "--callers of a leaf" --callers 'malloc' <<'EOF'
libc.so!malloc;run;main 4
libc.so!malloc;work;run;main 3
EOF
want "--callees: innermost match is the root" --callees '^work$' <<'EOF'
work 6
work;libc.so!malloc 3
EOF
want "a chain, in order" --exclude '^idle$' --group 'libc\.so!.*->libc' --fold '^lex$' --focus '^run$' <<'EOF'
run;libc 6
run;work;libc 3
run;work;work;work 6
EOF
grep -qx "stackfilter: --focus '^run\$' dropped 15 of 30 samples" "$S/err" \
	&& pass "stackops: a filter later in a chain counts what is left" || fail "stackops: chain report" "$(cat "$S/err")"
want "order matters: --focus then --exclude of a frame it cut" --focus '^run$' --exclude '^main$' <<'EOF'
run;libc.so!free 2
run;libc.so!malloc;libc.so!brk 4
run;work;libc.so!malloc 3
run;work;work;work 6
EOF
want "order matters: --exclude then --focus" --exclude '^main$' --focus '^run$' </dev/null
want "no operator: the stacks as they came, sorted" <<'EOF'
idle 20
main;parse;lex 5
main;parse;lex;memchr 10
main;run;libc.so!free 2
main;run;libc.so!malloc;libc.so!brk 4
main;run;work;libc.so!malloc 3
main;run;work;work;work 6
EOF

# Empty and trailing fields are frames too, and come back as they were.
printf 'a;;b 1\na; 2\n;x 3\nb;a;;b 4\n' > "$S/odd.folded"
"$SF" --fold '^x$' "$S/odd.folded" > "$S/got"
printf ' 3\na; 2\na;;b 1\nb;a;;b 4\n' > "$S/want"
cmp -s "$S/want" "$S/got" && pass "stackops: empty fields kept, a lone match leaves its root" \
	|| fail "stackops: empty fields" "$(diff "$S/want" "$S/got")"
"$SF" --focus '^$' "$S/odd.folded" > "$S/got" 2>/dev/null
printf ' 2\n;b 5\n;x 3\n' > "$S/want"
cmp -s "$S/want" "$S/got" && pass "stackops: an empty frame can be matched" \
	|| fail "stackops: empty frame match" "$(diff "$S/want" "$S/got")"

# Usage errors: exit 2 naming the option and the pattern.
for _t in stackfilter flame; do
	expect_exit 2 "stackops: $_t invalid regex is a usage error" "$B/$_t" --fold 'a(' "$S/in.folded"
	expect_err "stackops: $_t names the pattern and the regex error" "--fold 'a(': "
	expect_exit 2 "stackops: $_t empty pattern" "$B/$_t" --include '' "$S/in.folded"
	expect_err "stackops: $_t says the pattern is empty" "--include: empty pattern"
	expect_exit 2 "stackops: $_t bad --fold-pct" "$B/$_t" --fold-pct 101 "$S/in.folded"
	expect_err "stackops: $_t names the bad --fold-pct" "--fold-pct '101'"
	expect_exit 2 "stackops: $_t --group without an arrow" "$B/$_t" --group 'abc' "$S/in.folded"
	expect_err "stackops: $_t --group names what is missing" "--group 'abc': expected PATTERN->NAME"
done
expect_exit 2 "stackops: flame --flamechart refuses operators (not yet)" "$B/flame" --flamechart --fold x "$S/in.folded"

# flame takes the same options and gives the same stacks.  (No globbing:
# the operator lists below are split on spaces only.)
set -f
_ops="--exclude ^idle\$ --group libc\\.so!.*=>libc --fold-pct 5 --callers ^run\$"
# shellcheck disable=SC2086
"$SF" $_ops "$S/in.folded" > "$S/sf" 2> "$S/sf.err"
# shellcheck disable=SC2086
"$B/flame" --collapsed $_ops "$S/in.folded" > "$S/fl" 2> "$S/fl.err"
cmp -s "$S/sf" "$S/fl" && [ -s "$S/sf" ] && pass "stackops: flame --collapsed and stackfilter give the same stacks" \
	|| fail "stackops: flame and stackfilter differ" "$(diff "$S/sf" "$S/fl")"
sed 's/^flame: //' "$S/fl.err" > "$S/fl.msg"
sed 's/^stackfilter: //' "$S/sf.err" > "$S/sf.msg"
cmp -s "$S/sf.msg" "$S/fl.msg" && pass "stackops: flame reports the same drops" \
	|| fail "stackops: flame reports" "$(cat "$S/sf.err" "$S/fl.err")"
# Drawing with operators goes from the stack model straight to the
# renderer: the same frames as stackfilter | flamegraph.
_ops2="--group ^__[a-z]*->libc --exclude ^cmp\$|^idle\$ --fold-pct 2 --focus ^(main|msort_with_tmp.part.0)\$"
for _f in "$S/in.folded" examples/threads.folded; do
	# shellcheck disable=SC2086
	"$B/flame" --title T $_ops2 "$_f" -o "$S/direct.svg" 2>/dev/null
	# shellcheck disable=SC2086
	"$SF" $_ops2 "$_f" 2>/dev/null | "$B/flamegraph" --title T > "$S/pipe.svg"
	[ "$(grep -c '<title>' "$S/direct.svg")" -gt 3 ] && "$B/tests/svgframes" -c "$S/pipe.svg" "$S/direct.svg" > "$S/cmp" 2>&1 \
		&& pass "stackops: flame draws $(basename "$_f") as stackfilter | flamegraph" \
		|| fail "stackops: flame draws $(basename "$_f") as stackfilter | flamegraph" "$(head -5 "$S/cmp")"
done
set +f
# --diff applies the operators to each profile.
printf 'main;a;x 5\nmain;b 5\n' > "$S/d1.folded"
printf 'main;a;x 2\nmain;b 9\n' > "$S/d2.folded"
"$B/flame" --diff --fold '^x$' --exclude '^b$' "$S/d1.folded" "$S/d2.folded" -o "$S/d.svg" 2> "$S/err"
grep -o '<title>[^ ]* ([0-9]* samples[^;]*; before [0-9]* ' "$S/d.svg" | sed 's/<title>//; s/ (/ /; s/ samples.*before / /' > "$S/got"
printf 'all 2 5 \nmain 2 5 \na 2 5 \n' > "$S/want"
cmp -s "$S/want" "$S/got" && [ "$(grep -c dropped "$S/err")" = 2 ] \
	&& pass "stackops: flame --diff reshapes both profiles" || fail "stackops: flame --diff" "$(cat "$S/got" "$S/err")"
# Large drops are written with thousands separators.
printf 'a;b 1234567\nc 8\n' > "$S/big.folded"
"$SF" --exclude '^b$' "$S/big.folded" > /dev/null 2> "$S/err"
grep -qx "stackfilter: --exclude '^b\$' dropped 1,234,567 of 1,234,575 samples" "$S/err" \
	&& pass "stackops: drop counts with thousands separators" || fail "stackops: drop count format" "$(cat "$S/err")"
# --top-functions reports the reshaped profile: lex folded into parse.
"$B/flame" --fold '^lex$' "$S/in.folded" -o "$S/x.svg" --top-functions 20 > "$S/top" 2>&1
awk '$5 == "parse" { print $1, $3 }' "$S/top" > "$S/got"
echo "5 15" > "$S/want"
cmp -s "$S/want" "$S/got" && ! grep -q ' lex$' "$S/top" && pass "stackops: --top-functions shows the reshaped profile" \
	|| fail "stackops: --top-functions after --fold" "$(cat "$S/top")"

# esc TEXT: a pattern matching the frame TEXT whole, in ERE and Python.
esc() { printf '^%s$' "$(printf '%s' "$1" | sed 's/[][\\.*^$(){}?+|/]/\\&/g')"; }

# sum FILE: the total of a collapsed file's counts.
sum() { awk '{ s += $NF } END { printf "%.0f\n", s }' "$1"; }

# ref_case FILE NAME OPS...: stackfilter OPS on FILE writes what the
# reference writes, stacks and drop reports alike.
ref_case() {
	_f=$1 _n=$2
	shift 2
	"$SF" "$@" "$_f" > "$S/got" 2> "$S/got.err"
	python3 tests/tools/stackops_ref.py "$@" < "$_f" > "$S/ref" 2> "$S/ref.err"
	sed 's/^stackfilter: //; :a; s/\([0-9]\),\([0-9][0-9][0-9]\)/\1\2/; ta' "$S/got.err" > "$S/got.msg"
	if cmp -s "$S/ref" "$S/got" && cmp -s "$S/ref.err" "$S/got.msg"; then
		pass "stackops: $(basename "$_f") $_n as the reference"
	else
		fail "stackops: $(basename "$_f") $_n as the reference ($*)" \
			"$(diff "$S/ref" "$S/got" | head -6; diff "$S/ref.err" "$S/got.msg")"
	fi
}

# stackops_real FILE: every operator, and a chain of five, on FILE with
# patterns drawn from its heaviest stack; sums kept where nothing drops.
stackops_real() {
	_heavy=$(awk '{ c = $NF + 0; if (c > m) { m = c; s = $0 } } END { sub(/ [0-9.]+$/, "", s); print s }' "$1")
	_leaf=$(esc "${_heavy##*;}")
	_mid=$(printf '%s\n' "$_heavy" | awk -F';' '{ print (NF > 1 ? $2 : $1) }')
	_mid=$(esc "$_mid")
	_g='^([a-z])[a-z_]*$->$1*'
	ref_case "$1" "--group" --group "$_g"
	ref_case "$1" "--group =>" --group '_\[k\]$=>kernel'
	ref_case "$1" "--fold" --fold '_\[k\]$'
	ref_case "$1" "--fold-pct" --fold-pct 2
	ref_case "$1" "--include" --include "$_leaf"
	ref_case "$1" "--exclude" --exclude "$_mid"
	ref_case "$1" "--focus" --focus "$_mid"
	ref_case "$1" "--callers" --callers "$_leaf"
	ref_case "$1" "--callees" --callees "$_mid"
	ref_case "$1" "a chain of five" --exclude '^\[unknown\]$' --group '_\[k\]$=>kernel' --fold-pct 1 \
		--group "$_g" --focus "$_mid"
	_in=$(sum "$1")
	for _op in "--group=$_g" '--fold=_\[k\]$' --fold-pct=5 --fold=.; do
		[ "$(sum "$1")" = "$("$SF" "$_op" "$1" | sum /dev/stdin)" ] \
			&& pass "stackops: $(basename "$1") $_op keeps the total $_in" \
			|| fail "stackops: $(basename "$1") $_op changed the total $_in"
	done
}

# Real profiles: our perf recordings, the examples, and ../shared's
# collapsed samples when present, each against the reference script.
if ! have_python; then
	skip "stackops: operators on real profiles against the reference" "python3 is not installed"
else
	_real=
	for _f in tests/data/perf/*.txt.gz; do
		_o=$S/real-$(basename "$_f" .txt.gz).folded
		"$B/stackcollapse-perf" "$_f" > "$_o" 2>/dev/null && _real="$_real $_o"
	done
	_real="$_real $(ls examples/*.folded)"
	if [ -d ../shared/samples/collapsed ]; then
		for _f in ../shared/samples/collapsed/*.txt; do
			# Normalised (encodings, CRLF, repeats summed) by the tool itself
			# with no operator, so the reference reads plain text.
			_o=$S/shared-$(basename "$_f" .txt).folded
			"$SF" "$_f" > "$_o" 2>/dev/null && [ -s "$_o" ] && _real="$_real $_o"
		done
	else
		skip "stackops: ../shared/samples/collapsed" "not present"
	fi
	for _f in $_real; do
		stackops_real "$_f"
	done
fi
