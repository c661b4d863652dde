# stackcollapse-lnt and flame on LNT profiles (sourced by run.sh).
# Profiles are written here by tests/tools/lntprof.py (v1 with Python's
# pickle and zlib, v2 following LNT's documented layout), and what must
# come out is worked out by the same script reading them on its own:
# Python's pickle for v1, its own reading of the layout for v2.
SLNT=$(pwd)/$B/stackcollapse-lnt
FL=$(pwd)/$B/flame
LP="python3 tests/tools/lntprof.py"
L=$TMP/lnt
mkdir -p "$L"

lrun() { _r=$1 _n=$2; shift 2; expect_exit "$_r" "lnt: $_n" "$SLNT" "$@"; }
lerr() { expect_err "lnt: $1" "$2"; }

# same NAME WANT GOT: the files are equal.
same() {
	if cmp -s "$2" "$3"; then pass "lnt: $1"; else fail "lnt: $1" "$(diff "$2" "$3" | head -10)"; fi
}

# against FILE OPTS...: stackcollapse-lnt agrees with the reference.
against() {
	_f=$1
	shift
	$LP expect "$_f" "$@" > "$L/want" 2> "$L/perr" || { fail "lnt: reference on $_f $*" "$(tail -3 "$L/perr")"; return; }
	set -- $(printf '%s\n' "$@" | sed 's/^--root$/--root-frame/; s/^--event$/--event-filter/')
	"$SLNT" "$@" "$_f" > "$L/got" 2> /dev/null
	same "$(basename "$_f") $*" "$L/want" "$L/got"
}

if ! have_python; then
	skip "lnt: generated profiles" "no python3"
else
	for k in basic hostile many nocycles after; do
		for v in 1 1py2 1p2 1p4 2; do
			$LP make $k $v "$L/$k.$v.lntprof"
		done
	done
	for k in basic hostile nocycles after; do
		for v in 1 1py2 1p2 1p4 2; do
			for o in "" --per-instruction --table "--root none" "--root file"; do
				against "$L/$k.$v.lntprof" $o
			done
		done
	done
	for v in 1 2; do
		against "$L/many.$v.lntprof"
		against "$L/many.$v.lntprof" --per-instruction
		against "$L/many.$v.lntprof" --event instructions
		against "$L/many.$v.lntprof" --table --event instructions
		against "$L/basic.$v.lntprof" --event branch-misses --per-instruction
	done
	# Sanity of the reference itself: known numbers of the basic kind.
	printf 'cycles;idle 2.5\ncycles;main 60\ncycles;work 37.5\n' > "$L/basic.want"
	"$SLNT" "$L/basic.2.lntprof" > "$L/got" 2> /dev/null
	same "basic v2 by hand" "$L/basic.want" "$L/got"
	"$SLNT" --per-instruction --event-filter branch-misses "$L/basic.1.lntprof" > "$L/got" 2> /dev/null
	printf 'branch-misses;main;0x400000 push rbp 25\nbranch-misses;work;0x400100 add eax, 1 30\nbranch-misses;work;0x400104 jne 400100 <work> 45\n' > "$L/want"
	same "per-instruction shares by hand (25% x 100%, 75% x 40% and 60%)" "$L/want" "$L/got"
	[ "$(wc -l < "$L/got")" = 3 ] && pass "lnt: instructions without the counter are left out" \
		|| fail "lnt: instructions without the counter are left out"
	for v in 1py2 1p2 1p4 2; do
		"$SLNT" --per-instruction "$L/hostile.1.lntprof" 2> /dev/null | grep -v '^cycles;line break' > "$L/a" 2> /dev/null
		"$SLNT" --per-instruction "$L/hostile.$v.lntprof" 2> /dev/null | grep -v '^cycles;line break' > "$L/b" 2> /dev/null
		same "hostile names read alike from v1 and $v" "$L/a" "$L/b"
	done
	grep -q '^cycles;a:b;0x10 x:y 10$' "$L/a" && pass "lnt: ';' in names becomes ':'" || fail "lnt: ';' in names" "$(cat "$L/a")"

	lrun 0 "several counters: a note" "$L/basic.1.lntprof"
	lerr "the note names the counter drawn and the others" "drawing counter 'cycles' of branch-misses, cycles"
	lrun 0 "--event-filter: no note" --event-filter cycles "$L/basic.1.lntprof"
	[ -s "$TMP/err" ] && fail "lnt: --event-filter: no note" "$(cat "$TMP/err")" || pass "lnt: --event-filter: quiet"
	lrun 0 "no cycles: the first by name" "$L/nocycles.2.lntprof"
	grep -qx 'alpha;f 7' "$TMP/out" && pass "lnt: no cycles: alpha drawn" || fail "lnt: no cycles: alpha drawn" "$(cat "$TMP/out")"
	lrun 1 "an unknown counter: exit 1" --event-filter nope "$L/basic.2.lntprof"
	lerr "an unknown counter is named with the others" "no counter 'nope' in the profile (it has: branch-misses, cycles)"
	lrun 2 "a bad --root-frame: exit 2" --root-frame bogus "$L/basic.2.lntprof"
	lrun 0 "--help" --help
	grep -q -- '--per-instruction' "$TMP/out" && pass "lnt: --help names --per-instruction" \
		|| fail "lnt: --help names --per-instruction"

	# Inputs: gzip, stdin, several, -o.
	gzip -c "$L/basic.2.lntprof" > "$L/basic.2.lntprof.gz"
	"$SLNT" "$L/basic.2.lntprof.gz" > "$L/got" 2> /dev/null
	same "a gzipped profile" "$L/basic.want" "$L/got"
	"$SLNT" < "$L/basic.1.lntprof" > "$L/got" 2> /dev/null
	same "stdin" "$L/basic.want" "$L/got"
	cat "$L/basic.1.lntprof" | "$SLNT" - > "$L/got" 2> /dev/null
	same "a pipe" "$L/basic.want" "$L/got"
	"$SLNT" -o "$L/o.folded" "$L/basic.1.lntprof" 2> /dev/null
	same "-o" "$L/basic.want" "$L/o.folded"
	"$SLNT" --root-frame file "$L/basic.1.lntprof" "$L/after.2.lntprof" > "$L/got" 2> /dev/null
	{ sed 's/^cycles;/basic.1;/' "$L/basic.want"; $LP expect "$L/after.2.lntprof" --root file; } \
		| LC_ALL=C sort > "$L/want"
	same "several inputs, each under its file" "$L/want" "$L/got"
	"$SLNT" --table "$L/basic.1.lntprof" "$L/after.2.lntprof" > "$L/got" 2> /dev/null
	{ echo "# $L/basic.1.lntprof"; $LP expect "$L/basic.1.lntprof" --table
	  echo "# $L/after.2.lntprof"; $LP expect "$L/after.2.lntprof" --table; } > "$L/want"
	same "--table of several inputs" "$L/want" "$L/got"
fi

# --write-v2: our v2 writer (and bzip2 compressor), read back by our
# reader and by the independent Python one (Python's own bz2).
if have_python; then
	for k in basic hostile many nocycles; do
		"$SLNT" --write-v2 "$L/rt-$k.lntprof" "$L/$k.1.lntprof" 2> /dev/null
		for o in "" --per-instruction --table; do
			$LP expect "$L/rt-$k.lntprof" $o > "$L/want" 2> "$L/perr" || { fail "lnt: --write-v2 $k: Python cannot read it" "$(tail -2 "$L/perr")"; continue; }
			"$SLNT" $o "$L/rt-$k.lntprof" > "$L/got" 2> /dev/null
			same "--write-v2 $k $o: read back as Python reads it" "$L/want" "$L/got"
		done
		"$SLNT" --per-instruction "$L/$k.2.lntprof" > "$L/want" 2> /dev/null
		"$SLNT" --per-instruction "$L/rt-$k.lntprof" > "$L/got" 2> /dev/null
		same "--write-v2 $k: the same instructions as the Python-written v2" "$L/want" "$L/got"
	done
	"$SLNT" --write-v2 "$L/rt-basic2.lntprof" "$L/rt-basic.lntprof" 2> /dev/null
	cmp -s "$L/rt-basic.lntprof" "$L/rt-basic2.lntprof" && pass "lnt: --write-v2 of its own v2 gives the same bytes" \
		|| fail "lnt: --write-v2 of its own v2 gives the same bytes"
	lrun 2 "--write-v2 with two inputs: usage" --write-v2 "$L/x" "$L/basic.1.lntprof" "$L/basic.2.lntprof"
	lrun 1 "--write-v2 of a damaged file: exit 1" --write-v2 "$L/x" tests/data/lnt/README
	[ -e "$L/x" ] && fail "lnt: --write-v2 of a damaged file writes nothing" || pass "lnt: --write-v2 of a damaged file writes nothing"
fi

# Damaged profiles: a clear message naming the byte, exit 1, no crash;
# entries that only cannot be read are skipped, counted, and the rest kept.
if have_python; then
	bad() {	# bad KIND FROM WANT-RC TEXT
		$LP corrupt "$1" "$L/$2.lntprof" "$L/bad-$1.lntprof"
		lrun "$3" "$1: exit $3" "$L/bad-$1.lntprof"
		lerr "$1: named" "$4"
	}
	bad truncate basic.1 1 "truncated zlib data at byte"
	bad flip many.1 1 "corrupt zlib data at byte"
	bad deep basic.1 1 "pickle nested too deep (more than 64 levels) at byte 64 of the pickle"
	bad opcode basic.1 1 "unsupported pickle opcode 'c' at byte 0 of the pickle"
	bad notdict basic.1 1 "not an LNT profile: the pickle has no 'functions' dict"
	bad shared basic.1 1 "the pickle uses its values over and over"
	bad junk-entries basic.1 0 "skipped 3 entries that could not be read"
	grep -qx 'cycles;main 60' "$TMP/out" && pass "lnt: junk entries: the rest kept" \
		|| fail "lnt: junk entries: the rest kept" "$(cat "$TMP/out")"
	bad truncate many.2 1 "section"
	bad v2-size basic.2 1 "the Functions section ("
	lerr "v2-size: the size and the file's" "runs past the end of the file"
	bad v2-pool-file basic.2 1 "text pool in another file: not supported at byte"
	bad v2-bz2 many.2 1 "the LineAddresses section (at byte"
	bad v2-fn-length many.2 0 "more instructions than addresses at byte 0 of the inflated LineAddresses section"
	[ "$(wc -l < "$TMP/out")" -gt 2900 ] && pass "lnt: a lying instruction count skips only them" \
		|| fail "lnt: a lying instruction count skips only them" "$(wc -l < "$TMP/out") lines"
	bad v2-cut-functions many.2 1 "truncated number at byte"
	lerr "v2 cut: what came before is kept" "the functions before it are kept"
	[ "$(wc -l < "$TMP/out")" -gt 1000 ] && pass "lnt: v2 cut: functions before the cut drawn" \
		|| fail "lnt: v2 cut: functions before the cut drawn" "$(wc -l < "$TMP/out") lines"
	printf '\002\000garbage' > "$L/v2-garbage.lntprof"
	lrun 1 "v2 garbage: exit 1" "$L/v2-garbage.lntprof"
	lerr "v2 garbage: named" "at byte"
	lrun 1 "not a profile: exit 1" tests/data/lnt/README
	lerr "not a profile: named" "not an LNT profile (neither zlib data nor version 2) at byte 0"
	# Every cut of a small v2 file: exit 0 or 1, never a crash.
	_n=$(wc -c < "$L/basic.2.lntprof") _i=1 _crash=
	while [ "$_i" -lt "$_n" ]; do
		head -c "$_i" "$L/basic.2.lntprof" > "$L/cut.lntprof"
		"$SLNT" "$L/cut.lntprof" > /dev/null 2>&1
		[ $? -le 1 ] || _crash="$_crash $_i"
		_i=$((_i + 7))
	done
	[ -z "$_crash" ] && pass "lnt: every cut of a v2 file fails cleanly" || fail "lnt: cuts that crashed:$_crash"
fi

# LNT's own test profile (../shared, not copied here): LNT's tests say it
# holds fn1 with cycles 45 and branch-misses 10, and two instructions,
# {} at 0x100000 and {cycles: 100} at 0x100004 (tests/lnttool/Profile.py).
S=../shared/samples/lnt-profile
if [ -f "$S/test.lntprof" ] && [ -f "$S/test.v2.lntprof" ]; then
	for f in test.lntprof test.v2.lntprof; do
		"$SLNT" "$S/$f" > "$L/got" 2> /dev/null
		printf 'cycles;fn1 45\n' > "$L/want"
		same "LNT's $f: fn1 at 45% of cycles" "$L/want" "$L/got"
		"$SLNT" --per-instruction "$S/$f" > "$L/got" 2> /dev/null
		printf 'cycles;fn1;0x100004 sub r1, r0, r0 45\n' > "$L/want"
		same "LNT's $f: the counted instruction" "$L/want" "$L/got"
		"$SLNT" --table "$S/$f" > "$L/got" 2> /dev/null
		printf 'branch-misses  cycles  function\n           10      45  fn1\n' > "$L/want"
		same "LNT's $f: table" "$L/want" "$L/got"
		if have_python; then
			against "$S/$f" --per-instruction
			against "$S/$f" --event branch-misses
		fi
	done
else
	skip "lnt: LNT's test profiles" "../shared/samples/lnt-profile absent"
fi

# flame: detection, a graph, and run against run.
"$FL" tests/data/lnt/basic.lntprof -o "$L/basic.svg" 2> "$L/err"
[ $? = 0 ] && grep -q 'work' "$L/basic.svg" && pass "lnt: flame draws a v1 profile" \
	|| fail "lnt: flame draws a v1 profile" "$(cat "$L/err")"
"$FL" --collapsed tests/data/lnt/basic.v2.lntprof > "$L/got" 2> /dev/null
"$SLNT" tests/data/lnt/basic.lntprof > "$L/want" 2> /dev/null
same "flame --collapsed on v2 = stackcollapse-lnt on v1" "$L/want" "$L/got"
"$FL" --collapsed --per-instruction --root-frame none --event-filter branch-misses \
	tests/data/lnt/basic.v2.lntprof > "$L/got" 2> /dev/null
"$SLNT" --per-instruction --root-frame none --event-filter branch-misses tests/data/lnt/basic.lntprof \
	> "$L/want" 2> /dev/null
same "flame takes the lnt options" "$L/want" "$L/got"
cat tests/data/lnt/basic.v2.lntprof | "$FL" --collapsed - > "$L/got" 2> /dev/null
same "flame reads a v2 profile from a pipe" "$L/basic.want" "$L/got"
"$FL" --format lnt --collapsed tests/data/lnt/basic.lntprof > "$L/got" 2> /dev/null
same "flame --format lnt" "$L/basic.want" "$L/got"
expect_exit 1 "lnt: flame: an unknown counter" "$FL" --event-filter nope tests/data/lnt/basic.lntprof -o "$L/x.svg"
expect_err "lnt: flame names the file and the counter" "basic.lntprof: no counter 'nope'"
if have_python; then
	# --diff through flame's own path must be difffolded | flamegraph.
	"$SLNT" "$L/basic.1.lntprof" > "$L/a.folded" 2> /dev/null
	"$SLNT" "$L/after.2.lntprof" > "$L/b.folded" 2> /dev/null
	"$B/difffolded" "$L/a.folded" "$L/b.folded" | "$B/flamegraph" --title T > "$L/want.svg"
	"$FL" --diff --classic-diff --title T "$L/basic.1.lntprof" "$L/after.2.lntprof" -o "$L/got.svg" 2> /dev/null
	same "flame --diff of two runs = difffolded | flamegraph" "$L/want.svg" "$L/got.svg"
	"$FL" --diff "$L/basic.1.lntprof" "$L/after.2.lntprof" -o "$L/d.svg" 2> /dev/null
	grep -q '<title>new (5 samples.*new in AFTER' "$L/d.svg" && grep -q '<title>idle (0 samples.*gone from AFTER' "$L/d.svg" \
		&& pass "lnt: flame --diff shows new and gone functions" \
		|| fail "lnt: flame --diff shows new and gone functions"
	"$FL" --diff "$L/basic.1.lntprof" "$L/basic.2.lntprof" -o "$L/d.svg" --summary "$L/sum.json" 2> /dev/null
	[ $? = 0 ] && pass "lnt: flame --diff of a v1 and its v2" || fail "lnt: flame --diff of a v1 and its v2"
	"$FL" --minwidth 0 "$L/hostile.1.lntprof" -o "$L/h.svg" 2> /dev/null
	if grep -q '<script>alert' "$L/h.svg"; then fail "lnt: hostile names are escaped in the SVG"
	elif grep -q '&lt;script&gt;alert' "$L/h.svg"; then pass "lnt: hostile names are escaped in the SVG"
	else fail "lnt: hostile names are escaped in the SVG" "not found"; fi
	xml_ok "$L/h.svg" && pass "lnt: the hostile SVG is well-formed XML" || fail "lnt: hostile SVG XML"
fi

# ---------------------------------------------------------------------
# flame --to lnt: perf.data to an LNT v2 profile, as LNT's cPerf and
# 'lnt profile upgrade' make one.  Profiles are read back with
# lntprof.py's reader and checked by tests/tools/lntperf.py.
LPF="python3 tests/tools/lntperf.py"

# A stand-in objdump (LNT's tests use one too): answers for files named
# in $FAKE_BIN only, from $FAKE_STUB.objdump.out (-t), .p.out (-p) and,
# for -d, .0xSTART.out, or $FAKE_DIS lines "ADDR" printed as
# instructions.
cat > "$L/objdump" <<'SH'
#!/bin/sh
eval "f=\${$#}"
case " $FAKE_BIN " in *" $f "*) ;; *) exit 1;; esac
for a in "$@"; do
	case "$a" in
	--start-address=*)
		[ -n "$FAKE_DIS" ] && { for x in $FAKE_DIS; do printf '  %s:\tinsn at %s\n' "$x" "$x"; done; exit 0; }
		exec cat "$FAKE_STUB.objdump.${a#*=}.out";;
	-t) exec cat "$FAKE_STUB.objdump.out";;
	-p) exec cat "$FAKE_STUB.objdump.p.out";;
	esac
done
exit 1
SH
chmod +x "$L/objdump"

# LNT's own perf.data inputs (tests/testing/Inputs in llvm-lnt; not
# copied here) and what LNT's tests/testing/cPerf.py expects of them.
S=../shared/samples/perf-data/lnt
if [ -f "$S/fib-aarch64.perf_data" ] && [ -f "$S/fib2-aarch64.perf_data" ] && have_python; then
	# fib's symbol and segment, written here: ET_EXEC text at 0x400000.
	printf '00000000004006c8 l     F .text\t0000000000000038 fib\n' > "$L/fib.objdump.out"
	printf '    LOAD off    0x0 vaddr 0x400000 paddr 0x400000 align 2**16\n         filesz 0x1 memsz 0x1 flags r-x\n' \
		> "$L/fib.objdump.p.out"
	dis="4006c8 4006cc 4006d0 4006d4 4006d8 4006dc 4006e0 4006e4 4006e8 4006ec 4006f0 4006f4 4006f8 4006fc"
	cat > "$L/fib.want" <<'W'
total cycles 240949386
fn fib cycles 99.77243187496647
insn fib 4196040 cycles 22.476272172208624
insn fib 4196044 cycles 20.81533649797271
insn fib 4196060 cycles 10.065491723992467
insn fib 4196068 cycles 5.858831022967777
insn fib 4196080 cycles 7.57924022814841
insn fib 4196084 cycles 19.240308514111305
insn fib 4196088 cycles 13.964519840598708
W
	cat > "$L/fib2.want" <<'W'
total branch-misses 1820692
total cache-misses 33054
total cycles 243618286
fn fib branch-misses 99.7405382129432
fn fib cache-misses 75.18000847098688
fn fib cycles 99.78902404723429
insn fib 4196040 branch-misses 21.904846340904687
insn fib 4196040 cache-misses 37.4486921529175
insn fib 4196040 cycles 23.48637833693693
insn fib 4196044 branch-misses 2.6443747907452115
insn fib 4196044 cache-misses 17.08651911468813
insn fib 4196044 cycles 20.34001001463117
insn fib 4196060 branch-misses 30.264575146698622
insn fib 4196060 cache-misses 20.69215291750503
insn fib 4196060 cycles 9.787981545863996
insn fib 4196068 branch-misses 0.11195131191739062
insn fib 4196068 cache-misses 2.3621730382293764
insn fib 4196068 cycles 7.702120542412432
insn fib 4196080 branch-misses 19.03265916580028
insn fib 4196080 cache-misses 3.8229376257545273
insn fib 4196080 cycles 7.362266427937867
insn fib 4196084 branch-misses 4.9891297644011345
insn fib 4196084 cache-misses 7.553319919517103
insn fib 4196084 cycles 18.387547715628735
insn fib 4196088 branch-misses 21.05246347953268
insn fib 4196088 cache-misses 11.03420523138833
insn fib 4196088 cycles 12.93369541658887
W
	for k in fib fib2; do
		FAKE_BIN=/root/fib FAKE_STUB=$L/fib FAKE_DIS=$dis OBJDUMP=$L/objdump \
			"$FL" --to lnt "$S/$k-aarch64.perf_data" -o "$L/$k.lntprof" 2> "$L/err"
		if [ $? != 0 ]; then
			fail "lnt: --to lnt on LNT's $k-aarch64.perf_data" "$(cat "$L/err")"
		elif $LPF expect "$L/$k.lntprof" "$L/$k.want" > "$L/perr" 2>&1; then
			pass "lnt: --to lnt on LNT's $k-aarch64.perf_data: cPerf's counters per function and instruction"
		else
			fail "lnt: --to lnt on LNT's $k-aarch64.perf_data" "$(cat "$L/perr")"
		fi
		FAKE_BIN=/root/fib FAKE_STUB=$L/fib FAKE_DIS=$dis OBJDUMP=$L/objdump \
			"$FL" --to lnt "$S/$k-aarch64.perf_data" -o - 2> /dev/null | cmp -s - "$L/$k.lntprof" \
			&& pass "lnt: --to lnt $k to stdout, the same bytes" || fail "lnt: --to lnt $k to stdout, the same bytes"
	done
	# Each of LNT's segment layouts (ET_DYN, ET_EXEC, an ET_DYN whose
	# addresses are not its offsets): 'correct' holds over 98% (cPerf.py).
	for k in dyn exec shifted; do
		if [ ! -f "$S/segments-$k.objdump.out" ]; then
			skip "lnt: --to lnt segments-$k" "objdump outputs absent"
			continue
		fi
		FAKE_BIN=/tmp/segments-$k FAKE_STUB=$S/segments-$k FAKE_DIS=0 OBJDUMP=$L/objdump \
			"$FL" --to lnt "$S/segments-$k.perf_data" -o "$L/seg.lntprof" 2> "$L/err"
		python3 -c '
import sys; sys.path.insert(0, "tests/tools"); import lntprof
d = lntprof.load(sys.argv[1])
assert d["counters"]["cpu-clock"] > 10000000, d["counters"]
assert d["functions"]["correct"]["counters"]["cpu-clock"] > 98.0, d["functions"]
' "$L/seg.lntprof" > "$L/perr" 2>&1 && pass "lnt: --to lnt on LNT's segments-$k: 'correct' over 98%" \
			|| fail "lnt: --to lnt on LNT's segments-$k" "$(cat "$L/err" "$L/perr")"
	done
else
	skip "lnt: --to lnt on LNT's perf.data inputs" "$S absent or no python3"
fi

# Recordings made here, checked against perf's own reading of them (perf
# script: the periods, the symbols and offsets perf resolves) and
# objdump's disassembly, by lntperf.py.
R=$L/rec
mkdir -p "$R/we ird;dir"
if ! command -v perf > /dev/null 2>&1 || ! command -v objdump > /dev/null 2>&1 || ! have_python; then
	skip "lnt: --to lnt on recordings made here" "no perf, objdump or python3"
elif ! cc -O1 -o "$R/we ird;dir/spin" tests/data/lnt/spin.c ||
     ! perf record -q -F 2999 -e cpu-clock -e task-clock -o "$R/a.data" -- "$R/we ird;dir/spin" 20000000 \
	> /dev/null 2>&1 || [ ! -s "$R/a.data" ]; then
	skip "lnt: --to lnt on recordings made here" "perf cannot record here"
else
	SPIN="$R/we ird;dir/spin"
	own() {	# own NAME DATA: --to lnt of DATA agrees with perf script and objdump
		perf script -i "$2" -F event,ip,sym,symoff,dso,period > "$R/script" 2> /dev/null
		if ! "$FL" --to lnt "$2" -o "$R/$1.lntprof" 2> "$R/err"; then
			fail "lnt: --to lnt $1" "$(cat "$R/err")"
		elif $LPF own "$R/$1.lntprof" "$R/script" "$SPIN" > "$R/perr" 2>&1; then
			pass "lnt: --to lnt $1: totals, functions, instructions as perf and objdump see them"
		else
			fail "lnt: --to lnt $1" "$(cat "$R/perr")"
		fi
	}
	own "two events" "$R/a.data"
	perf record -q -F 2999 -z -o "$R/z.data" -- "$SPIN" 20000000 > /dev/null 2>&1 && own "zstd" "$R/z.data"
	perf record -q -F 2999 -o "$R/b.data" -- "$SPIN" 30000000 > /dev/null 2>&1 && own "another run" "$R/b.data"
	# Several inputs are one profile (LNT merges a recording's parts):
	# the totals add up, whatever each file numbers its events.
	"$FL" --to lnt "$R/a.data" "$R/b.data" -o "$R/ab.lntprof" 2> /dev/null
	python3 -c '
import sys; sys.path.insert(0, "tests/tools"); import lntprof
a, b, ab = (lntprof.load(f)["counters"] for f in sys.argv[1:])
want = {k: a.get(k, 0) + b.get(k, 0) for k in set(a) | set(b)}
assert ab == want, (ab, want)
' "$R/two events.lntprof" "$R/another run.lntprof" "$R/ab.lntprof" > "$R/perr" 2>&1 \
		&& pass "lnt: --to lnt of two recordings: the totals add up" \
		|| fail "lnt: --to lnt of two recordings: the totals add up" "$(cat "$R/perr")"
	# Pipe mode, from stdin: the same profile as from the file.
	perf record -q -F 2999 -o - -- "$SPIN" 20000000 2> /dev/null > "$R/p.data"
	"$FL" --to lnt - -o "$R/p1.lntprof" < "$R/p.data" 2> /dev/null
	"$FL" --to lnt "$R/p.data" -o "$R/p2.lntprof" 2> /dev/null
	if [ -s "$R/p1.lntprof" ] && cmp -s "$R/p1.lntprof" "$R/p2.lntprof"; then
		pass "lnt: --to lnt of a pipe-mode recording from stdin"
	else
		fail "lnt: --to lnt of a pipe-mode recording from stdin"
	fi
	"$SLNT" --table "$R/two events.lntprof" > "$R/t" 2> "$R/err"
	grep -q ' spin_a$' "$R/t" && grep -q ' spin_b$' "$R/t" && grep -q 'cpu-clock' "$R/t" && grep -q 'task-clock' "$R/t" \
		&& pass "lnt: stackcollapse-lnt reads what --to lnt wrote" \
		|| fail "lnt: stackcollapse-lnt reads what --to lnt wrote" "$(cat "$R/t" "$R/err")"
	# Run against run: two recordings as a differential graph.
	"$SLNT" "$R/zstd.lntprof" > "$R/a.folded" 2> /dev/null
	"$SLNT" "$R/another run.lntprof" > "$R/b.folded" 2> /dev/null
	"$B/difffolded" "$R/a.folded" "$R/b.folded" | "$B/flamegraph" --title T > "$R/want.svg"
	"$FL" --diff --classic-diff --title T "$R/zstd.lntprof" "$R/another run.lntprof" -o "$R/got.svg" 2> /dev/null
	# LNT's counters are fractions: the pipeline's text keeps 15 digits,
	# so a count within 1e-13 of a half (57.49999999999999, written 57.5)
	# rounds up there and down in flame.  Everything but the rounded
	# counts in the tooltips must be the same, and those at most 1 apart.
	sed 's/([0-9,]* samples,/(N samples,/' "$R/want.svg" > "$R/want.n"
	sed 's/([0-9,]* samples,/(N samples,/' "$R/got.svg" > "$R/got.n"
	same "--diff of two --to lnt profiles = difffolded | flamegraph (but rounded counts)" "$R/want.n" "$R/got.n"
	paste -d '\n' "$R/want.svg" "$R/got.svg" | sed -n 's/.*(\([0-9,]*\) samples,.*/\1/p' | tr -d , |
		awk 'NR % 2 { a = $1; next } { d = a - $1; if (d > 1 || d < -1) bad++ } END { exit bad > 0 }' \
		&& pass "lnt: the pipeline's counts and flame's are at most 1 apart" \
		|| fail "lnt: the pipeline's counts and flame's are at most 1 apart" "$(diff "$R/want.svg" "$R/got.svg" | head -6)"
	"$FL" --diff "$R/zstd.lntprof" "$R/another run.lntprof" -o "$R/d.svg" 2> "$R/err"
	[ $? = 0 ] && grep -q 'spin_a' "$R/d.svg" && pass "lnt: flame --diff of two --to lnt profiles" \
		|| fail "lnt: flame --diff of two --to lnt profiles" "$(cat "$R/err")"
	# No objdump: the totals stay, no functions, said on stderr.
	expect_exit 0 "lnt: --to lnt without objdump" env OBJDUMP=/nonexistent/objdump "$FL" --to lnt "$R/b.data" -o "$R/n.lntprof"
	expect_err "lnt: --to lnt without objdump says so" "objdump named no function in "
	"$SLNT" --table "$R/n.lntprof" > "$R/t" 2> /dev/null
	[ "$(wc -l < "$R/t")" = 1 ] && pass "lnt: --to lnt without objdump: no functions" \
		|| fail "lnt: --to lnt without objdump: no functions" "$(cat "$R/t")"
fi
expect_exit 1 "lnt: --to lnt of something not perf.data" "$FL" --to lnt tests/data/lnt/README -o "$L/x.lntprof"
expect_err "lnt: --to lnt names the file" "tests/data/lnt/README: "
[ -e "$L/x.lntprof" ] && fail "lnt: --to lnt of a bad input writes nothing" || pass "lnt: --to lnt of a bad input writes nothing"
expect_exit 1 "lnt: --to lnt of a missing file" "$FL" --to lnt "$L/none.data" -o "$L/x.lntprof"
expect_err "lnt: --to lnt of a missing file named" "cannot open '$L/none.data'"
expect_exit 2 "lnt: --to lnt with a stack operator: usage" "$FL" --to lnt --exclude x "$L/none.data" -o "$L/x.lntprof"
expect_err "lnt: --to lnt with a stack operator: said" "no stack operators or filters"
