# stackcollapse-perf: exit codes, messages and hostile input (sourced).
C=$P/cli
mkdir -p "$C"

run() { _r=$1 _n=$2; shift 2; expect_exit "$_r" "perf cli: $_n" "$SCP" "$@"; }
has_err() { expect_err "perf cli: $1" "$2"; }
same() { cmp -s "$2" "$3" && pass "perf cli: $1" || fail "perf cli: $1" "$(diff "$2" "$3" | head -6)"; }

run 1 "a missing file exits 1" "$C/nope.txt"
has_err "a missing file is named" "cannot open '$C/nope.txt': No such file or directory"
run 2 "an unknown option exits 2" --bogus
run 2 "a bad --threads exits 2" --threads x
run 0 "--help exits 0" --help
grep -q '^Usage: stackcollapse-perf' "$TMP/out" && pass "perf cli: --help text" || fail "perf cli: --help text"
run 0 "empty input exits 0" /dev/null
[ -s "$TMP/out" ] && fail "perf cli: empty input writes nothing" || pass "perf cli: empty input writes nothing"

# A hand-made input: header forms, comm with spaces, no period, CRLF.
printf '%s\n' \
	'my prog 123/456 [001] 10.000001: 250 cycles: ' \
	'	ffffffff81000001 do_syscall_64+0x1f ([kernel.kallsyms])' \
	'	    55d0 std::function<int (int, int)>::operator()+0x10 (/opt/a b/app)' \
	'	    55d1 (anonymous namespace)::run(int) (/opt/a b/app)' \
	'	    55d2 main (/opt/a b/app)' \
	'' \
	'my prog 123/457 10.000002: cycles:' \
	'	    55d2 main (/opt/a b/app)' \
	'' \
	'other 99 10.5: 7 cycles:' \
	'	    7f00 [unknown] (/usr/lib/libc.so.6)' \
	'	    7f01 foo (/tmp/x (deleted))' > "$C/hand.txt"
"$SCP" "$C/hand.txt" > "$C/hand.folded" 2> "$TMP/err"
printf '%s\n' \
	'my_prog;main 1' \
	'my_prog;main;(anonymous namespace)::run;std::function<int (int, int)>::operator;do_syscall_64 250' \
	'other;foo;[libc.so.6] 7' > "$C/want.folded"
same "headers, names with spaces and parentheses, DSOs with spaces, a last stack with no blank line" "$C/want.folded" "$C/hand.folded"
"$SCP" --tid --kernel "$C/hand.txt" | grep -q '^my_prog-123/456;main;(anonymous namespace)::run;std::function<int (int, int)>::operator;do_syscall_64_\[k\] 250$' \
	&& pass "perf cli: --tid and --kernel" || fail "perf cli: --tid and --kernel"
"$SCP" --pid "$C/hand.txt" | grep -q '^other-?;foo;\[libc.so.6\] 7$' && pass "perf cli: --pid without a PID gives comm-?" \
	|| fail "perf cli: --pid without a PID gives comm-?"
sed 's/$/\r/' "$C/hand.txt" > "$C/crlf.txt"
"$SCP" "$C/crlf.txt" > "$C/crlf.folded" 2>/dev/null
same "CRLF input" "$C/want.folded" "$C/crlf.folded"
gzip -c "$C/hand.txt" > "$C/hand.txt.gz"
"$SCP" "$C/hand.txt.gz" > "$C/gz.folded"
same ".gz input" "$C/want.folded" "$C/gz.folded"
"$SCP" - < "$C/hand.txt" > "$C/stdin.folded"
same "stdin" "$C/want.folded" "$C/stdin.folded"
"$SCP" -o "$C/o.folded" "$C/hand.txt"
same "-o writes the same" "$C/want.folded" "$C/o.folded"

# A garbage line inside a stack is skipped and reported; the rest stays.
printf '%s\n' 'app 1 1.0: 5 cycles:' '	1 leaf (/a)' 'THIS IS NOT A FRAME' '	2 mid (/a)' '	3 root (/a)' '' \
	'app 1 2.0: 3 cycles:' '	3 root (/a)' > "$C/garbage.txt"
run 0 "a garbage line does not fail the run" "$C/garbage.txt"
printf 'app;root 3\napp;root;mid;leaf 5\n' > "$C/want2.folded"
same "a garbage line inside a stack keeps the rest" "$C/want2.folded" "$TMP/out"
has_err "malformed lines are named file:line" "garbage.txt:3: not a stack frame"
has_err "malformed lines are counted" "skipped 1 malformed lines"

# Hostile sizes and bytes.
awk 'BEGIN { print "deep 1 1.0: 1 cycles:"; for (i = 0; i < 10000; i++) printf "\t%x f%d (/d)\n", i, i; print "" }' > "$C/deep.txt"
run 0 "a 10,000-frame stack" "$C/deep.txt"
[ "$(awk -F';' '{ print NF }' "$TMP/out")" = 10001 ] && pass "perf cli: the 10,000 frames are all kept" \
	|| fail "perf cli: the 10,000 frames are all kept"
awk 'BEGIN { printf "big 1 1.0: 1 cycles:\n\t1 "; for (i = 0; i < 1048576; i++) printf "x"; print " (/d)"; print "" }' > "$C/long.txt"
run 0 "a 1 MB line" "$C/long.txt"
# Compressed bytes make fixed, deterministic garbage.
cat "$PD"/*.txt.gz | tail -c +3 > "$C/random.bin"
run 0 "binary garbage" "$C/random.bin"
printf '\n' | cat "$C/random.bin" - "$C/hand.txt" > "$C/mixed.txt"
"$SCP" "$C/mixed.txt" > "$C/mixed.folded" 2>/dev/null
[ "$(grep -acxFf "$C/want.folded" "$C/mixed.folded")" = 3 ] && pass "perf cli: valid stacks after binary garbage are kept" \
	|| fail "perf cli: valid stacks after binary garbage are kept" "$(head -c 300 "$C/mixed.folded")"

# Threads: 4 KB chunks (FLAME_CHUNK) push even small inputs through many
# chunks; output and messages must not depend on the thread count.
threads_same() {	# threads_same NAME ARGS...
	_n=$1
	shift
	FLAME_CHUNK=4096 "$SCP" --threads 1 "$@" > "$C/th1.out" 2> "$C/th1.err"
	for _t in 2 3 8; do
		FLAME_CHUNK=4096 "$SCP" --threads $_t "$@" > "$C/th.out" 2> "$C/th.err"
		if ! cmp -s "$C/th1.out" "$C/th.out" || ! cmp -s "$C/th1.err" "$C/th.err"; then
			fail "perf threads: $_n (--threads $_t)" "$(diff "$C/th1.out" "$C/th.out" | head -4; diff "$C/th1.err" "$C/th.err" | head -4)"
			return
		fi
	done
	"$SCP" --threads 1 "$@" > "$C/big.out" 2>/dev/null
	cmp -s "$C/th1.out" "$C/big.out" && pass "perf threads: $_n is the same for 1, 2, 3 and 8 threads" \
		|| fail "perf threads: $_n chunked and unchunked differ"
}
threads_same "all recordings" "$PD"/*.txt.gz
threads_same "--all --tid" --all --tid "$PD"/threads.txt.gz "$PD"/node.txt.gz
threads_same "--event-filter" --event-filter instructions "$PD/events.txt.gz"
threads_same "--srcline" --srcline "$PD/srcline.txt.gz"
threads_same "garbage and messages" "$C/mixed.txt" "$C/garbage.txt" "$PD/srcline.txt.gz"
threads_same "no call chains (no blank lines to cut at)" "$PD/nocallchain.txt.gz"

# The frame memo (one tidying per distinct frame text) must not change a
# byte: against the memo turned off, on every recording and on text made
# to hit its corners (java roots, --skip-after, bad and "(comm)" frames,
# names too long to keep, more distinct frames than it has slots).
awk 'BEGIN {
	for (e = 0; e < 3000; e++) {
		printf "%s 1 1.0: 1 cycles:\n", e % 3 == 0 ? "java" : "cc"
		for (k = 0; k < 6; k++) {
			f = (e * 7 + k * 13) % 9000
			printf "\t%x Lpkg/C%d;m (/d%d.so)\n", e + k, f, f % 5
		}
		if (e % 5 == 0) printf "\t1 stop (/s)\n\t2 (cc) (/d)\n\tbad frame\n"
		if (e % 7 == 0) { printf "\t3 "; for (i = 0; i < 300; i++) printf "L"; printf " (/long)\n" }
		printf "\t4 main (/bin/x)\n\n"
	}
	# One-line events of another event (skipped) with the text of kept ones,
	# blank-line ended and, as perf right-aligns them, not.
	for (e = 0; e < 4; e++) {
		printf "cc 1 1.0: 1 instructions: %x onel (/d)\n\ncc 1 1.0: 1 cycles: %x onel (/d)\n\n", e, e
		printf "   cc 1 1.0: 1 instructions: %x twol (/d)\n   cc 1 1.0: 1 cycles: %x twol (/d)\n", e, e
	}
}' > "$C/memo.txt"
memo_same() {	# memo_same NAME ARGS...
	_n=$1
	shift
	"$SCP" "$@" > "$C/memo.out" 2> "$C/memo.err"
	FLAME_PERF_NO_MEMO=1 "$SCP" "$@" > "$C/nomemo.out" 2> "$C/nomemo.err"
	cmp -s "$C/memo.out" "$C/nomemo.out" && cmp -s "$C/memo.err" "$C/nomemo.err" && [ -s "$C/memo.out" ] \
		&& pass "perf memo: $_n the same as without it" \
		|| fail "perf memo: $_n differs from without it" "$(diff "$C/memo.out" "$C/nomemo.out" | head -4)"
}
memo_same "all recordings" "$PD"/*.txt.gz
memo_same "--kernel --jit --pid --tid" --kernel --jit --pid --tid "$PD"/*.txt.gz
memo_same "memo corners" "$C/memo.txt"
memo_same "memo corners, --skip-after" --skip-after stop --all "$C/memo.txt"

# --inline: addr2line names the frames inlined at an address.  The oracle
# is addr2line itself, run here on an address inside the inlined inner().
if command -v gcc > /dev/null 2>&1 && command -v addr2line > /dev/null 2>&1 && command -v nm > /dev/null 2>&1; then
	gcc -O2 -g -fno-pie -no-pie -o "$C/prog" tests/data/perf-inline/prog.c 2>/dev/null
	base=$(nm "$C/prog" | awk '$3 == "outer" { print $1 }')
	pc=
	for off in $(seq 0 80); do
		a=$(printf '%x' $((0x$base + off)))
		if [ "$(addr2line -e "$C/prog" -i -f -s -C "$a" | sed -n 1p)" = inner ]; then pc=$a; break; fi
	done
	if [ -z "$pc" ]; then
		skip "perf cli: --inline" "the compiler did not inline inner()"
	else
		main=$(nm "$C/prog" | awk '$3 == "main" { print $1 }')
		printf 'prog 1 1.0: 1 cycles:\n\t%s outer+0x%x (%s)\n\t%s main (%s)\n\n' "$pc" $((0x$pc - 0x$base)) "$C/prog" "$main" "$C/prog" > "$C/inl.txt"
		"$SCP" --inline "$C/inl.txt" > "$TMP/out" 2> "$TMP/err"
		grep -qx 'prog;main;outer;inner 1' "$TMP/out" && pass "perf cli: --inline adds the inlined frames" \
			|| fail "perf cli: --inline adds the inlined frames" "$(cat "$TMP/out" "$TMP/err")"
		"$SCP" --inline --context "$C/inl.txt" > "$TMP/out" 2>/dev/null
		grep -q '^prog;main:.*prog.c:[0-9]*;outer:prog.c:[0-9]*;inner:prog.c:[0-9]* 1$' "$TMP/out" \
			&& pass "perf cli: --context adds file:line" || fail "perf cli: --context adds file:line" "$(cat "$TMP/out")"
		# A runtime address addr2line cannot map: found again from outer+0xOFF via nm.
		printf 'prog 1 1.0: 1 cycles:\n\t%x outer+0x%x (%s)\n\n' $((0x7f0000000000 + 0x$pc)) $((0x$pc - 0x$base)) "$C/prog" > "$C/rt.txt"
		"$SCP" --inline "$C/rt.txt" > "$TMP/out" 2>/dev/null
		grep -qx 'prog;outer;inner 1' "$TMP/out" && pass "perf cli: --inline falls back to nm for runtime addresses" \
			|| fail "perf cli: --inline falls back to nm for runtime addresses" "$(cat "$TMP/out")"
		printf 'prog 1 1.0: 1 cycles:\n\t-e outer (%s)\n\n' "$C/prog" > "$C/evil.txt"
		"$SCP" --inline "$C/evil.txt" > "$TMP/out" 2>/dev/null
		grep -qx 'prog;outer 1' "$TMP/out" && pass "perf cli: --inline passes no options from the profile to addr2line" \
			|| fail "perf cli: --inline passes no options from the profile to addr2line" "$(cat "$TMP/out")"
		mkdir -p "$C/nobin" && ln -sf "$SCP" "$C/nobin/scp"
		PATH="$C/nobin" "$C/nobin/scp" --inline "$C/inl.txt" > "$TMP/out" 2> "$TMP/err"
		grep -qx 'prog;main;outer 1' "$TMP/out" && grep -q 'needs addr2line' "$TMP/err" \
			&& pass "perf cli: without addr2line --inline says so and goes on" \
			|| fail "perf cli: without addr2line --inline says so and goes on" "$(cat "$TMP/out" "$TMP/err")"
	fi
else
	skip "perf cli: --inline" "gcc, addr2line or nm is missing"
fi

# Java names lose their "L" under any root starting with "java" (as
# stackcollapse-perf.pl since FlameGraph e54f142), with or without --pid
# and --tid: those options change the root frame only.
printf '%s\n' \
	'java 100/101 [000] 1.0: 3 cycles:' \
	'	7f01 Ljava/io/PrintStream;::print (/tmp/perf-100.map)' \
	'	7f02 Interpreter (/tmp/perf-100.map)' \
	'' \
	'javac 200/201 [000] 2.0: 5 cycles:' \
	'	7f01 Lcom/sun/Main;::run (/tmp/perf-200.map)' \
	'' \
	'myjava 300/301 [000] 3.0: 7 cycles:' \
	'	7f01 Lorg/x/Y;::z (/tmp/perf-300.map)' \
	'' > "$C/java.txt"
printf '%s\n' 'java;Interpreter;java/io/PrintStream:::print 3' 'javac;com/sun/Main:::run 5' \
	'myjava;Lorg/x/Y:::z 7' > "$C/java-want.folded"
"$SCP" "$C/java.txt" > "$C/java.folded" 2>/dev/null
same "Java names tidied under roots starting with java" "$C/java-want.folded" "$C/java.folded"
sed 's/^java;/java-100;/; s/^javac;/javac-200;/; s/^myjava;/myjava-300;/' "$C/java-want.folded" > "$C/java-pid.folded"
"$SCP" --pid "$C/java.txt" > "$C/java.folded" 2>/dev/null
same "--pid tidies Java names as without it" "$C/java-pid.folded" "$C/java.folded"
sed 's/^java;/java-100\/101;/; s/^javac;/javac-200\/201;/; s/^myjava;/myjava-300\/301;/' "$C/java-want.folded" > "$C/java-tid.folded"
"$SCP" --tid --jit "$C/java.txt" | sed 's/_\[j\]//g' > "$C/java.folded"
same "--tid tidies Java names as without it" "$C/java-tid.folded" "$C/java.folded"

# Command names perf prints that look like other header fields: ":-1"
# (a task that exited, TID -1), colons, spaces and digits; with and
# without PID, TID, CPU, period and time; the one-line form without a
# call chain.  Every sample keeps its command name and its event.
printf '%s\n' \
	':-1    -1 [001]   546.707147:     200040 cpu-clock:ppp: ' \
	'	ffffffff81000001 do_exit+0x1f ([kernel.kallsyms])' \
	'' \
	'kworker/0:1H   123 [002]   546.708000:     200040 cpu-clock:ppp: ' \
	'	ffffffff81000003 worker_thread ([kernel.kallsyms])' \
	'' \
	'Web Content  4242/4243 [003]   546.709000:     200040 cpu-clock:ppp: ' \
	'	7f00 js::RunScript (/usr/lib/libxul.so)' \
	'' \
	'a:b 12   777/778 [000]   546.710000:     200040 cpu-clock:ppp: ' \
	'	7f01 main (/opt/ab)' \
	'' \
	':-1    -1/-1    [001]   546.711000:     100 instructions:ppp: ' \
	'	ffffffff81000001 do_exit+0x1f ([kernel.kallsyms])' \
	'' \
	'Web Content  4242/4244   546.712000:     5 cpu-clock:ppp: ' \
	'	7f00 js::RunScript (/usr/lib/libxul.so)' \
	'' \
	'a:b 12   777/779 [000]     7 cpu-clock:ppp: ' \
	'	7f01 main (/opt/ab)' \
	'' \
	'a:b 12   777/780     9 cpu-clock:ppp: ' \
	'	7f01 main (/opt/ab)' \
	'' \
	'Web Content [003]   546.713000:     11 cpu-clock:ppp: ' \
	'	7f00 js::RunScript (/usr/lib/libxul.so)' \
	'' \
	':-1   546.714000:     13 cpu-clock:ppp: ' \
	'	ffffffff81000001 do_exit+0x1f ([kernel.kallsyms])' \
	'' \
	':-1    -1 [001]   546.715000: cpu-clock:ppp: ' \
	'	ffffffff81000001 do_exit+0x1f ([kernel.kallsyms])' \
	'' \
	':-1    -1 [001]   546.716000:     17 cpu-clock:ppp:  ffffffff81000001 do_exit+0x1f ([kernel.kallsyms])' \
	':-1    -1/-1 [001]   546.717000:     19 cpu-clock:ppp:  ffffffff81000001 do_exit+0x1f ([kernel.kallsyms])' \
	'' > "$C/comm.txt"
run 0 "command names like other fields" "$C/comm.txt"
printf '%s\n' ':-1;do_exit 200090' 'Web_Content;js::RunScript 200056' 'a:b_12;main 200056' \
	'kworker/0:1H;worker_thread 200040' > "$C/comm-want.folded"
same "command names with ':-1', colons, spaces and digits keep their samples" "$C/comm-want.folded" "$TMP/out"
has_err "the :-1 samples are read as cpu-clock" "kept only 'cpu-clock' events; skipped 1 samples of other events such as 'instructions'"
printf '%s\n' ':-1--1/-1;do_exit 19' ':-1-?/-1;do_exit 200058' ':-1-?/?;do_exit 13' \
	'Web_Content-4242/4243;js::RunScript 200040' 'Web_Content-4242/4244;js::RunScript 5' \
	'Web_Content-?/?;js::RunScript 11' 'a:b_12-777/778;main 200040' 'a:b_12-777/779;main 7' \
	'a:b_12-777/780;main 9' 'kworker/0:1H-?/123;worker_thread 200040' > "$C/comm-tid.folded"
"$SCP" --tid "$C/comm.txt" > "$C/comm.folded" 2>/dev/null
same "--tid: each header's PID and TID, '?' where perf printed none" "$C/comm-tid.folded" "$C/comm.folded"
"$SCP" --event-filter instructions "$C/comm.txt" > "$C/comm.folded" 2> "$TMP/err"
printf ':-1;do_exit 100\n' | cmp -s - "$C/comm.folded" && pass "perf cli: --event-filter keeps the :-1 instructions sample only" \
	|| fail "perf cli: --event-filter keeps the :-1 instructions sample only" "$(cat "$C/comm.folded")"
has_err "--event-filter counts the cpu-clock samples it skips" "skipped 12 samples of other events such as 'cpu-clock'"
"$SCP" --event-filter cpu-clock "$C/comm.txt" > "$C/comm.folded" 2>/dev/null
same "--event-filter cpu-clock keeps what the first event keeps" "$C/comm-want.folded" "$C/comm.folded"
threads_same "command names like other fields" "$C/comm.txt"
