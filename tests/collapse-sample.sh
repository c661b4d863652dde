# stackcollapse-sample tests (sourced by run.sh).  tests/data/sample's
# expected outputs were made by running inferno-collapse-sample on our own
# input (INFERNO_BIN=DIR runs it again); the shared conformance data holds
# inferno's on theirs.  Where inferno keeps only the last of leaves on the
# same path, flame sums them: those stacks are checked against sums worked
# out from the report itself.
SSA=$(pwd)/$B/stackcollapse-sample
SD=tests/data/sample
SC=../shared/conformance/collapsers/sample
SX=$TMP/sample
mkdir -p "$SX"

sa_same() {
	_n=$1 _w=$2
	shift 2
	"$SSA" "$@" > "$SX/out" 2> "$SX/err"
	if cmp -s "$SX/out" "$_w"; then pass "sample: $_n"
	else fail "sample: $_n" "$(diff "$_w" "$SX/out" | head -6)"; fi
}

sa_same "own input, default" "$SD/results/own.default.folded" "$SD/own.txt"
sa_same "own input, --no-modules" "$SD/results/own.no-modules.folded" --no-modules "$SD/own.txt"
gzip -c "$SD/own.txt" > "$SX/own.txt.gz"
sa_same "gzip input" "$SD/results/own.default.folded" "$SX/own.txt.gz"
# A report whose output is many write buffers (the tree writes 256 KB at
# a time): on a full disk it stops at the first failed write, exit 1
# (stdio may try once more what it holds, when the file is closed).
{ sed '/^Call graph:/q' "$SD/own.txt"
  sed -n '/^Call graph:/,/^Total number in stack/p' "$SD/own.txt" | sed '1d;$d' |
	awk '{ l[NR] = $0 } END { for (i = 1; i <= 4000; i++) for (j = 1; j <= NR; j++) { s = l[j]; sub(/Thread_/, "Thread_" i "-", s); print s } }'
  sed -n '/^Total number in stack/,$p' "$SD/own.txt"; } > "$SX/many.txt"
if [ -w /dev/full ] && command -v strace > /dev/null 2>&1; then
	strace -f -e trace=write -o "$SX/trace" "$SSA" "$SX/many.txt" > /dev/full 2> "$SX/err"
	_rc=$? _w=$(grep -c '^[0-9]* *write(1,' "$SX/trace")
	[ "$_rc" = 1 ] && [ "$_w" -le 2 ] && grep -q "write error on '<stdout>'" "$SX/err" \
		&& pass "sample: a full disk ends the writing at the first failed write" \
		|| fail "sample: a full disk ends the writing at the first failed write" "exit $_rc, $_w writes: $(cat "$SX/err")"
else
	skip "sample: a full disk ends the writing" "no /dev/full or strace"
fi
[ "$("$SSA" "$SX/many.txt" | wc -c)" -gt 1000000 ] && pass "sample: the full-disk input is many buffers" \
	|| fail "sample: the full-disk input is many buffers"

if [ -n "${INFERNO_BIN:-}" ] && [ -x "$INFERNO_BIN/inferno-collapse-sample" ]; then
	for _o in default no-modules; do
		_a=; [ "$_o" = no-modules ] && _a=--no-modules
		"$INFERNO_BIN/inferno-collapse-sample" $_a "$SD/own.txt" | cmp -s - "$SD/results/own.$_o.folded" \
			&& pass "sample: own $_o output is inferno's" || fail "sample: own $_o output is inferno's"
	done
else
	skip "sample: own expected outputs against inferno" "set INFERNO_BIN to inferno's bin directory"
fi

# Leaves on one path are summed (a function called from two places of its
# caller): 5 + 7; inferno would say 7.
printf 'Call graph:\n    12 Thread_1\n    + 12 main  (in a)\n    +   5 f  (in a) + 4\n    +   7 f  (in a) + 9\nTotal number in stack\n' > "$SX/dup.txt"
printf 'Thread_1;a`main;a`f 12\n' > "$SX/dup.want"
sa_same "leaves on one path are summed" "$SX/dup.want" "$SX/dup.txt"
# Counts: 19 digits and the largest 64-bit one exact, one past it read as
# 0 (and named), a '+' sign, a tab before the space, leading zeros.
printf 'Call graph:\n    9 T\n    + 1234567890123456789 a\n    + 18446744073709551615 b\n    + 18446744073709551616 c\n    + +5 d\n    + 5\t e\n    + 012 f\nTotal number in stack\n' > "$SX/counts.txt"
printf 'T;a 1234567890123456789\nT;b 18446744073709551615\nT;c 0\nT;d 5\nT;e 5\nT;f 12\n' > "$SX/counts.want"
sa_same "counts up to 2^64-1, '+', tab, leading zeros" "$SX/counts.want" "$SX/counts.txt"
grep -q 'counts.txt:5: the sample count is not a number' "$SX/err" && pass "sample: a count past 2^64-1 is named" \
	|| fail "sample: a count past 2^64-1 is named" "$(cat "$SX/err")"
# A sum past 2^64-1 is written as flamegraph reads it, a decimal.
printf 'Call graph:\n    9 T\n    + 18446744073709551615 a\n    + 1 a\nTotal number in stack\n' > "$SX/wrap.txt"
printf 'T;a 1.84467440737096e+19\n' > "$SX/wrap.want"
sa_same "a sum past 2^64-1" "$SX/wrap.want" "$SX/wrap.txt"
# A thread line with a queue name: no module made of it.
printf 'Call graph:\n    3 Thread_9   DispatchQueue_1: com.apple.main-thread  (serial)\n    + 3 main  (in a)\nTotal number in stack\n' > "$SX/queue.txt"
printf 'Thread_9   DispatchQueue_1: com.apple.main-thread;a`main 3\n' > "$SX/queue.want"
sa_same "a thread's queue name is no module" "$SX/queue.want" "$SX/queue.txt"

# The stacks are written from a tree walk (sample_tree), not sorted as
# strings: a node's own stack sorts as its name, those under it as its name
# and ';', so names with a byte below ';' after another's name (' ', '\t',
# '!', '.', ':') come between "T;a`f" and "T;a`f;..."; a byte above 0x7f
# after them; a ';' in a name splits it ("f;g" is f's child g, summed with
# the g below f without modules); an empty name is a frame.
printf 'Call graph:\n    20 T\n    + 3 f  (in a)\n    + 2 f  (in a) + 4\n    + ! 1 x  (in a)\n    + ! 1 g;h  (in a)\n    + ! 1 g  (in a)\n    + 1 f!  (in a)\n    + 1 f.cold  (in a)\n    + 1 f g  (in a)\n    + 1 f\tz  (in a)\n    + 1 f\303\251  (in a)\n    + 1 f;g  (in a)\n    + 1 f;  (in a)\n    + 1 f  (in b)\n    + 1 (in a)\n    + 1 [f]\n    + 1 f:  (in a)\n    + 1 f:x  (in a)\nTotal number in stack\n' > "$SX/order.txt"
printf 'T;[f] 1\nT;a` 1\nT;a`f 3\nT;a`f\tz 1\nT;a`f g 1\nT;a`f! 1\nT;a`f.cold 1\nT;a`f: 1\nT;a`f:x 1\nT;a`f; 1\nT;a`f;a`g 1\nT;a`f;a`g;h 1\nT;a`f;a`x 1\nT;a`f;g 1\nT;a`f\303\251 1\nT;b`f 1\n' > "$SX/order.want"
sa_same "sorted: names after a prefix name, ';' in names" "$SX/order.want" "$SX/order.txt"
printf 'T; 1\nT;[f] 1\nT;f 4\nT;f\tz 1\nT;f g 1\nT;f! 1\nT;f.cold 1\nT;f: 1\nT;f:x 1\nT;f; 1\nT;f;g 2\nT;f;g;h 1\nT;f;x 1\nT;f\303\251 1\n' > "$SX/order-nm.want"
sa_same "sorted, --no-modules: a name's ';' joins a frame" "$SX/order-nm.want" --no-modules "$SX/order.txt"
# A Rust frame's "$u3b$" is a ';' once fixed: a frame boundary too, the
# stack summed with the one spelled alike.
printf 'Call graph:\n    9 T\n    + 5 f  (in a)\n    + ! 2 g  (in a)\n    + ! 3 g\n    + 4 f$u3b$g::h0123456789abcdef\n    + 1 f$u3b$g::h0123456789abcdef  (in a)\nTotal number in stack\n' > "$SX/rsemi.txt"
printf 'T;a`f;a`g 2\nT;a`f;g 4\nT;f;g 4\n' > "$SX/rsemi.want"
sa_same "a ';' from a fixed Rust name splits the frame" "$SX/rsemi.want" "$SX/rsemi.txt"
printf 'T;f;g 10\n' > "$SX/rsemi.want"
sa_same "a ';' from a fixed Rust name, --no-modules" "$SX/rsemi.want" --no-modules "$SX/rsemi.txt"
# The same stacks as flame's (which keeps them as strings in a table), for
# several inputs at once, from stdin and with CRLF line ends.
for _o in default no-modules; do
	_a=; [ "$_o" = no-modules ] && _a=--no-modules
	set -- "$SD/own.txt" "$SX/order.txt" "$SD/own.txt" "$SX/dup.txt"
	[ -f "$SC/sample.txt" ] && set -- "$@" "$SC/sample.txt"
	"$B/flame" $_a --format sample --collapsed -o "$SX/flame.folded" "$@" 2> /dev/null
	sa_same "several inputs ($_o): flame's stacks" "$SX/flame.folded" -q $_a "$@"
	sed 's/$/\r/' "$SX/order.txt" > "$SX/crlf.txt"
	"$B/flame" $_a --format sample --collapsed -o "$SX/flame.folded" "$SX/order.txt" 2> /dev/null
	sa_same "CRLF ($_o): flame's stacks" "$SX/flame.folded" $_a "$SX/crlf.txt"
	"$SSA" $_a < "$SX/order.txt" > "$SX/out" 2> "$SX/err"
	cmp -s "$SX/out" "$SX/flame.folded" && pass "sample: stdin ($_o): flame's stacks" \
		|| fail "sample: stdin ($_o): flame's stacks" "$(diff "$SX/flame.folded" "$SX/out" | head -6)"
done

# Bad lines: named with their line, skipped, the rest kept; exit 0.
printf 'Call graph:\n    9 Thread_1\n    + 9 main  (in a)\n    +   x f  (in a)\n    +  1 odd  (in a)\n    + |:!\n+ 2 nospaces\n    +   4 g  (in a)\nTotal number in stack\n' > "$SX/bad.txt"
expect_exit 0 "sample: bad lines are warnings" "$SSA" "$SX/bad.txt"
# A bad count reads as 0, an odd indent as the level below, so "odd" is a
# thread and g (4 spaces in) its child; the indent-only and unindented
# lines are skipped.
printf 'Thread_1;a`main;a`f 0\nThread_1;a`odd;a`g 4\n' > "$SX/bad.want"
cmp -s "$TMP/out" "$SX/bad.want" && pass "sample: bad lines named, every sample kept" \
	|| fail "sample: bad lines named, every sample kept" "$(cat "$TMP/out")"
printf 'Call graph:\n    9 Thread_1\n    + 9 main  (in a)\n    +     4 g  (in a)\n    +       4 h  (in a)\nTotal number in stack\n' > "$SX/skip.txt"
printf 'Thread_1;a`main;[missing];a`g;a`h 4\n' > "$SX/skip.want"
sa_same "a skipped level is filled, the nodes below kept" "$SX/skip.want" -q "$SX/skip.txt"
expect_err "sample: a bad count is named" "bad.txt:4: the sample count is not a number"
expect_err "sample: odd indentation is named" "bad.txt:5: an odd number of indent characters"
expect_err "sample: an indent-only line is named" "bad.txt:6: a call graph line of indent characters only"
expect_err "sample: a line without 4 spaces is named" "bad.txt:7: a call graph line that does not start with 4 spaces"
head -n 4 "$SD/own.txt" > "$SX/nograph.txt"
expect_exit 1 "sample: no call graph: exit 1" "$SSA" "$SX/nograph.txt"
expect_err "sample: no call graph is named" "no \"Call graph:\" line"
sed '/^Total number/,$d' "$SD/own.txt" > "$SX/cut.txt"
expect_exit 1 "sample: a call graph cut short: exit 1" "$SSA" "$SX/cut.txt"
cmp -s "$TMP/out" "$SD/results/own.default.folded" && pass "sample: a call graph cut short keeps every stack" \
	|| fail "sample: a call graph cut short keeps every stack" "$(diff "$SD/results/own.default.folded" "$TMP/out")"
expect_exit 2 "sample: an unknown option: exit 2" "$SSA" --bogus "$SD/own.txt"

"$B/flame" "$SD/own.txt" -o "$SX/a.svg" 2> "$SX/err1"
"$B/flame" --format sample "$SD/own.txt" -o "$SX/b.svg" 2> "$SX/err2"
cmp -s "$SX/a.svg" "$SX/b.svg" && grep -q 'demo`main' "$SX/a.svg" && pass "sample: flame detects it" \
	|| fail "sample: flame detects it" "$(cat "$SX/err1")"
"$B/flame" --no-modules "$SD/own.txt" -o "$SX/c.svg" 2> "$SX/err3"
grep -q 'demo`main' "$SX/c.svg" && fail "sample: flame takes --no-modules" || pass "sample: flame takes --no-modules"

# sa_total FILE: the leaf nodes' counts summed, idle leaves left out,
# worked out from the report by awk (a leaf: the next node is no deeper).
sa_total() {
	awk -v idle='__psynch_cvwait __select __semwait_signal __ulock_wait __wait4 __workq_kernreturn kevent mach_msg_trap read semaphore_wait_trap' '
	function flush() { if (have) { ok = 1; for (i in w) if (substr(fn, length(fn) - length(w[i]) + 1) == w[i]) ok = 0; if (ok) t += cnt } have = 0 }
	BEGIN { split(idle, w, " ") }
	/^Call graph:/ { on = 1; next }
	/^Total number in stack/ { if (leafok) flush(); on = 0 }
	on && /^    / {
		rest = substr($0, 5); match(rest, /^[ +|:!]*/); d = RLENGTH
		if (have && d <= pd) flush()
		rest = substr(rest, d + 1); split(rest, f, " "); cnt = f[1]
		fn = rest; sub(/^[0-9]+ /, "", fn); sub(/ *\(.*/, "", fn)
		have = 1; pd = d; leafok = 1
	}
	END { print t + 0 }' "$1"
}

if [ ! -d "$SC" ]; then
	skip "conformance/collapsers/sample" "../shared/conformance is not present"
else
	for _o in default no-modules; do
		_a=; [ "$_o" = no-modules ] && _a=--no-modules
		"$SSA" -q $_a "$SC/sample.txt" > "$SX/conf"
		# The same stacks as inferno's...
		sed 's/ [0-9]*$//' "$SX/conf" > "$SX/a"
		sed 's/ [0-9]*$//' "$SC/results/sample.inferno-$_o.folded" > "$SX/b"
		cmp -s "$SX/a" "$SX/b" && pass "sample: conformance ($_o): inferno's stacks" \
			|| fail "sample: conformance ($_o): inferno's stacks" "$(diff "$SX/b" "$SX/a" | head -4)"
		# ...the counts of those on one leaf path alone the same...
		awk 'NR == FNR { w[$0] = 1; next } !($0 in w)' "$SC/results/sample.inferno-$_o.folded" "$SX/conf" \
			| sed 's/ [0-9]*$//' > "$SX/differ"
		# ...and every leaf counted once: the total worked out from the report.
		_want=$(sa_total "$SC/sample.txt")
		_got=$(awk '{ t += $NF } END { print t + 0 }' "$SX/conf")
		[ "$_got" = "$_want" ] && pass "sample: conformance ($_o): total $_want, every leaf once" \
			|| fail "sample: conformance ($_o): total" "got $_got, want $_want"
		_n=$(wc -l < "$SX/differ")
		[ "$_n" -le 2 ] && pass "sample: conformance ($_o): only repeated leaf paths differ ($_n)" \
			|| fail "sample: conformance ($_o): only repeated leaf paths differ" "$(cat "$SX/differ")"
	done
	sed 's/[[:space:]]*$//' "$SC/results/sample-default.txt" | grep -v '^$' | sed 's/ [0-9]*$//' > "$SX/w"
	"$SSA" -q "$SC/sample.txt" | sed 's/ [0-9]*$//' | cmp -s - "$SX/w" && pass "sample: inferno's test sample-default: stacks" \
		|| fail "sample: inferno's test sample-default: stacks"
	sa_same "conformance end-before-call-graph-start = inferno (empty)" \
		"$SC/results/end-before-call-graph-start.inferno-default.folded" -q "$SC/end-before-call-graph-start.txt"
	# inferno stops at the first bad line; flame names it (file:line)
	# and reads on (these inputs' one thread is idle: no stacks).
	for _s in bad-stack-line invalid-samples-field no-four-spaces odd-indentation \
		skipped-indentation stack-line-only-indent-chars; do
		"$SSA" "$SC/$_s.txt" > "$SX/out" 2> "$SX/err"
		_rc=$?
		[ "$_rc" = 0 ] && grep -q "$_s.txt:2[0-9]: " "$SX/err" && pass "sample: conformance $_s: named, read on" \
			|| fail "sample: conformance $_s: named, read on" "exit $_rc: $(head -3 "$SX/err")"
	done
	"$SSA" "$SC/end-before-call-graph-end.txt" > "$SX/out" 2> "$SX/err"
	[ $? = 1 ] && grep -q "ended before the call graph did" "$SX/err" \
		&& pass "sample: conformance end-before-call-graph-end: exit 1, named" \
		|| fail "sample: conformance end-before-call-graph-end: exit 1, named" "$(cat "$SX/err")"
fi

# flame's graph takes a report's stacks from the tree as frame ids (handed
# to the renderer); FLAME_TABLE=1 takes the table's way: the same
# SVG and messages for every report made above, the shared ones, several
# at once, mixed with other formats, with --no-modules.
_bad= _n=0
for _set in "$SD/own.txt" "$SX"/*.txt "$SX/own.txt.gz" "$SD/own.txt $SX/order.txt $SX/own.txt.gz" \
	"$SD/own.txt examples/threads.perf.gz examples/threads.folded" \
	"$(ls "$SC"/*.txt 2> /dev/null | tr '\n' ' ')"; do
	[ -n "$_set" ] || continue
	for _o in "" --no-modules; do
		"$B/flame" --countname n $_o $_set -o "$SX/ids.svg" 2> "$SX/ids.err"
		_r1=$?
		FLAME_TABLE=1 "$B/flame" --countname n $_o $_set -o "$SX/tab.svg" 2> "$SX/tab.err"
		_r2=$?
		_n=$((_n + 1))
		{ [ $_r1 = $_r2 ] && cmp -s "$SX/ids.svg" "$SX/tab.svg" && cmp -s "$SX/ids.err" "$SX/tab.err"; } \
			|| _bad="$_bad [$_o $_set: exit $_r1/$_r2]"
	done
done
[ -z "$_bad" ] && [ $_n -gt 30 ] && pass "sample: flame draws reports from the tree's frame ids as from the table ($_n runs)" \
	|| fail "sample: flame draws reports from the tree's frame ids as from the table" "$_n runs; $_bad"
# A stack summed past 2^64 over inputs: a fractional count either way.
printf 'Call graph:\n    9223372036854775807 Thread_1\n    + 9223372036854775807 main  (in x) + 1  [0x1]\n\nTotal number in stack (recursive counted multiple times):\n' > "$SX/huge.txt"
"$B/flame" --compact always "$SX/huge.txt" "$SX/huge.txt" "$SX/huge.txt" -o "$SX/ids.svg" 2> /dev/null
FLAME_TABLE=1 "$B/flame" --compact always "$SX/huge.txt" "$SX/huge.txt" "$SX/huge.txt" -o "$SX/tab.svg" 2> /dev/null
cmp -s "$SX/ids.svg" "$SX/tab.svg" && grep -q 'data-fractional="1"' "$SX/ids.svg" \
	&& pass "sample: sums past 2^64 over inputs drawn alike from frame ids (compact form)" \
	|| fail "sample: sums past 2^64 over inputs drawn alike from frame ids (compact form)"
