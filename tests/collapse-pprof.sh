# stackcollapse-pprof, flame on pprof profiles, and flame --to pprof
# (sourced by run.sh).  What must come out is worked out elsewhere:
# tests/tools/pprofgen.py writes profiles byte by byte and computes their
# stacks from its own description of them; go tool pprof -raw (when Go is
# installed) reads the real profiles in ../shared/samples/pprof and what
# flame writes, and pprofgen.py turns its text into stacks.
SPP=$(pwd)/$B/stackcollapse-pprof
FL=$(pwd)/$B/flame
PG="python3 tests/tools/pprofgen.py"
P=$TMP/pprof
SHP=../shared/samples/pprof
mkdir -p "$P"

psame() {	# psame NAME WANT GOT
	if cmp -s "$2" "$3"; then pass "pprof: $1"; else fail "pprof: $1" "$(diff "$2" "$3" | head -10)"; fi
}

have_go=0
command -v go > /dev/null 2>&1 && go tool pprof -h > /dev/null 2>&1 && have_go=1
# goraw FILE TYPE_INDEX: go tool pprof's reading of FILE as collapsed
# stacks (go is run once per file: $P/raw holds the last file's text).
_rawof=
goraw() {
	[ "$_rawof" = "$1" ] || go tool pprof -raw -symbolize=none "$1" > "$P/raw" 2> /dev/null
	_rawof=$1
	$PG raw "$2" < "$P/raw"
}

if ! have_python; then
	skip "pprof: generated profiles" "no python3"
else
	# Each also on one thread, by the loop for every x86-64 and by the
	# one for x86-64-v3 (the default where the processor has AVX2 and
	# BMI2; FLAME_BASELINE=1 asks for the other).
	grep -qw avx2 /proc/cpuinfo 2> /dev/null && grep -qw bmi2 /proc/cpuinfo ||
		skip "pprof: the x86-64-v3 loop" "no AVX2 and BMI2 here: the baseline's loop reads both ways"
	for k in basic shuffled unpacked default baddefault heap notypes huge deep long wrap prefixes \
		bigids values usual usualwrap inlined inlinedlazy; do
		$PG make $k "$P/$k.pb"
		$PG make $k "$P/$k.pb.gz" --gzip
		for o in "" "--labels"; do
			$PG expect $k $o > "$P/want"
			"$SPP" $o "$P/$k.pb" > "$P/got" 2> /dev/null
			psame "$k $o" "$P/want" "$P/got"
			"$FL" --collapsed $o "$P/$k.pb.gz" > "$P/got" 2> /dev/null
			psame "flame $k.pb.gz $o" "$P/want" "$P/got"
			for _base in 0 1; do
				FLAME_BASELINE=$_base "$SPP" --threads 1 $o "$P/$k.pb" > "$P/got" 2> /dev/null
				psame "$k $o, one thread, FLAME_BASELINE=$_base" "$P/want" "$P/got"
			done
		done
	done
	for t in samples cpu; do
		$PG expect basic $t --labels > "$P/want"
		"$SPP" --sample-type $t --labels "$P/basic.pb.gz" > "$P/got" 2> /dev/null
		psame "--sample-type $t --labels" "$P/want" "$P/got"
	done
	# By hand: inlined frames outer first, ';' and tabs tidied, a system
	# name when the name is empty, [FILE] and an address for bare locations.
	printf '%s\n' 'main;caller;[libc.so.6] 100' 'main;sys_only 200' 'main;work 300' \
		'main;work;inl:ined;leaf x 600' 'main;0xdead 50' | LC_ALL=C sort > "$P/want"
	"$SPP" "$P/basic.pb" > "$P/got" 2> /dev/null
	psame "basic by hand" "$P/want" "$P/got"
	expect_exit 0 "pprof: a negative value is skipped, not fatal" "$SPP" "$P/basic.pb"
	expect_err "pprof: the negative value is named with its byte offset" "skipped 1 sample (the first: the sample at byte"
	expect_exit 1 "pprof: an unknown --sample-type fails" "$SPP" --sample-type nope "$P/basic.pb"
	expect_err "pprof: and names the types there are" "no sample type 'nope' in the profile (it has: samples, cpu)"
	expect_exit 0 "pprof: flame detects a gzipped profile" "$FL" "$P/basic.pb.gz" -o "$P/b.svg"
	grep -q 'inl:ined' "$P/b.svg" && pass "pprof: flame draws it" || fail "pprof: flame draws it"
	grep -q 'ns, 100%' "$P/b.svg" && pass "pprof: cpu/nanoseconds counts ns" \
		|| fail "pprof: cpu/nanoseconds counts ns" "$(grep -o '<title>[^<]*' "$P/b.svg" | head -2)"

	# Malformed profiles: refused with the byte offset, what came before kept.
	mkdir -p "$P/bad"
	$PG bad "$P/bad"
	while read -r name off; do
		expect_exit 1 "pprof: $name exits 1" "$SPP" "$P/bad/$name.pb"
		expect_err "pprof: $name names byte $off" "at byte $off"
	done < "$P/bad/WANT"
	"$SPP" "$P/bad/long-string.pb" > "$P/got" 2> /dev/null
	$PG expect basic > "$P/want"
	psame "samples before a broken string table entry are kept" "$P/want" "$P/got"
	# Every cut of a profile: never a crash, exit 0 or 1.
	_bad=
	_n=$(wc -c < "$P/basic.pb")
	_i=1
	while [ $_i -lt "$_n" ]; do
		head -c $_i "$P/basic.pb" > "$P/cut.pb"
		"$SPP" --labels "$P/cut.pb" > /dev/null 2>&1
		_rc=$?
		[ $_rc -le 1 ] || _bad="$_bad $_i:$_rc"
		_i=$((_i + 7))
	done
	[ -z "$_bad" ] && pass "pprof: every cut of a profile exits 0 or 1" || fail "pprof: cuts" "$_bad"
	head -c 200 "$P/basic.pb.gz" > "$P/cut.pb.gz"
	expect_exit 1 "pprof: a truncated gzipped profile exits 1" "$SPP" "$P/cut.pb.gz"
fi

# stackcollapse-pprof keeps a profile's stacks as frame ids when it can
# (pprof_fast: samples of the usual shape, no labels), flame spells them
# into its table (pprof_stack): the two must write the same bytes, for
# every sample type, for several inputs at once (summed across them, one
# of them drawn the other way) and where pprof_fast hands over.
if have_python; then
	$PG big "$P/big1.pb" 1 --stacks 3000
	_ins="$P/big1.pb"
	for _f in "$SHP"/*.pb.gz; do [ -f "$_f" ] && _ins="$_ins $_f"; done
	for k in basic shuffled unpacked default heap notypes huge usual usualwrap inlined inlinedlazy; do _ins="$_ins $P/$k.pb"; done
	for _f in $_ins; do
		for _t in "" samples cpu alloc_space; do
			# The same messages, but for the program's name.
			"$FL" --collapsed ${_t:+--sample-type $_t} "$_f" 2>&1 > "$P/want" |
				sed 's/^flame: //' > "$P/want.err"
			"$SPP" ${_t:+--sample-type $_t} "$_f" 2>&1 > "$P/got" |
				sed 's/^stackcollapse-pprof: //' > "$P/got.err"
			cmp -s "$P/want.err" "$P/got.err" && cmp -s "$P/want" "$P/got" && continue
			fail "pprof: $(basename "$_f") ${_t:-default} as flame draws it" \
				"$(diff "$P/want" "$P/got" | head -5; diff "$P/want.err" "$P/got.err" | head -4)"
			_ins=
			break
		done
	done
	[ -n "$_ins" ] && pass "pprof: every profile and sample type as flame draws it"
	"$FL" --collapsed "$P/big1.pb" "$P/basic.pb" "$P/big1.pb" > "$P/want" 2> /dev/null
	"$SPP" "$P/big1.pb" "$P/basic.pb" "$P/big1.pb" > "$P/got" 2> /dev/null
	psame "three inputs, one drawn the other way, as flame draws them" "$P/want" "$P/got"
	"$FL" --collapsed "$P/big1.pb" "$P/big1.pb" > "$P/want" 2> /dev/null
	"$SPP" "$P/big1.pb" "$P/big1.pb" > "$P/got" 2> /dev/null
	psame "the same stacks of two inputs summed" "$P/want" "$P/got"
	[ "$(wc -l < "$P/got")" -gt 2000 ] && pass "pprof: a profile of thousands of stacks" \
		|| fail "pprof: big1.pb has few stacks" "$(wc -l < "$P/got")"
	"$FL" --collapsed "$P/wrap.pb" "$P/wrap.pb" "$P/wrap.pb" > "$P/want" 2> /dev/null
	"$SPP" "$P/wrap.pb" "$P/wrap.pb" "$P/wrap.pb" > "$P/got" 2> /dev/null
	psame "stacks of three inputs summed past 2^64, as flame draws them" "$P/want" "$P/got"
	# pprof_fast reads the samples on --threads N threads (the main one
	# and workers), runs of them FLAME_PPROF_JOB bytes at a time (small
	# here: a profile of a few samples takes several threads and a
	# merge); from thousands of keys on it makes, sorts and writes the
	# stacks on two.  The bytes, messages and exit status are those of
	# one thread, for every input, sample type and count.
	$PG big "$P/big2.pb" 2 --stacks 20000
	_bad=
	for _f in $_ins "$P/big2.pb"; do
		for _t in "" samples cpu; do
			"$SPP" --threads 1 ${_t:+--sample-type $_t} "$_f" > "$P/want" 2> "$P/want.err"
			_r1=$?
			for _n in 2 3; do
				FLAME_PPROF_JOB=100 "$SPP" --threads $_n ${_t:+--sample-type $_t} "$_f" \
					> "$P/got" 2> "$P/got.err"
				_r2=$?
				{ [ $_r1 = $_r2 ] && cmp -s "$P/want" "$P/got" && cmp -s "$P/want.err" "$P/got.err"; } ||
					_bad="$_bad [$(basename "$_f") ${_t:-default} --threads $_n: exit $_r1/$_r2]"
			done
		done
	done
	[ -z "$_bad" ] && pass "pprof: the same bytes read on 1, 2 or 3 threads" \
		|| fail "pprof: the same bytes read on 1, 2 or 3 threads" "$_bad"
	[ "$(wc -l < "$P/want")" -gt 10000 ] && pass "pprof: big2.pb has stacks enough for two threads" \
		|| fail "pprof: big2.pb has stacks enough for two threads" "$(wc -l < "$P/want")"
	# The samples' keys hashed by the folds (FLAME_HASH_FOLDS), not by
	# AES rounds (the default where the processor has them): the same
	# bytes, on one thread and on two.
	"$SPP" --threads 1 "$P/big2.pb" > "$P/want" 2> /dev/null
	_bad=
	for _n in 1 2; do
		FLAME_PPROF_JOB=4096 "$SPP" --threads $_n "$P/big2.pb" > "$P/got" 2> /dev/null
		FLAME_HASH_FOLDS=1 FLAME_PPROF_JOB=4096 "$SPP" --threads $_n "$P/big2.pb" \
			> "$P/got2" 2> /dev/null
		cmp -s "$P/want" "$P/got" && cmp -s "$P/want" "$P/got2" || _bad="$_bad --threads $_n"
	done
	[ -z "$_bad" ] && pass "pprof: the same bytes with the keys hashed either way" \
		|| fail "pprof: the same bytes with the keys hashed either way" "$_bad"
	# By default as many threads as cores, jobs of 2 MB (several here).
	"$SPP" --threads 1 "$P/big2.pb" "$P/big1.pb" > "$P/want" 2> /dev/null
	FLAME_PPROF_JOB=262144 "$SPP" "$P/big2.pb" "$P/big1.pb" > "$P/got" 2> /dev/null
	psame "two inputs on the default threads as on one" "$P/want" "$P/got"
	"$SPP" -n 2 "$P/big1.pb" > "$P/got" 2> /dev/null
	"$SPP" --threads 1 "$P/big1.pb" | cmp -s - "$P/got" && pass "pprof: -n N is --threads N" \
		|| fail "pprof: -n N is --threads N"
	expect_exit 2 "pprof: --threads past 64 is a usage error" "$SPP" --threads 65 "$P/big1.pb"
	expect_err "pprof: and says what it takes" "invalid --threads '65': expected 0 to 64"
	# inferno's scripts pass -n with the cores, any number: taken (as 64).
	"$SPP" --nthreads 128 "$P/big1.pb" > "$P/got" 2> /dev/null
	"$SPP" --threads 1 "$P/big1.pb" | cmp -s - "$P/got" && pass "pprof: --nthreads 128 is taken" \
		|| fail "pprof: --nthreads 128 is taken"
	# flame's --threads (perf's option) is pprof's too: two start workers
	# that one does not (counted by strace; a sanitizer's own thread is
	# in both counts).
	if command -v strace > /dev/null 2>&1; then
		for _n in 1 2; do
			FLAME_PPROF_JOB=1000 strace -f -e trace=clone,clone3 -o "$P/st$_n" \
				"$FL" --threads $_n "$P/big2.pb" -o "$P/st.svg" 2> /dev/null
		done
		[ "$(grep -c clone "$P/st2")" -gt "$(grep -c clone "$P/st1")" ] \
			&& pass "pprof: flame --threads N reads pprof samples on N threads" \
			|| fail "pprof: flame --threads N reads pprof samples on N threads" \
				"$(grep -c clone "$P/st1") clones with 1, $(grep -c clone "$P/st2") with 2"
	else
		skip "pprof: flame --threads and pprof" "no strace"
	fi
	# Sums that pass 2^64 only once two threads' are added: the merge
	# refuses them and the profile is read sample by sample, as on one.
	"$SPP" --threads 1 "$P/huge.pb" "$P/wrap.pb" > "$P/want" 2> "$P/want.err"
	FLAME_PPROF_JOB=60 "$SPP" --threads 2 "$P/huge.pb" "$P/wrap.pb" > "$P/got" 2> "$P/got.err"
	cmp -s "$P/want" "$P/got" && cmp -s "$P/want.err" "$P/got.err" \
		&& pass "pprof: sums past 2^64 across threads as on one" \
		|| fail "pprof: sums past 2^64 across threads as on one" "$(diff "$P/want" "$P/got" | head -4)"
	# flame's graph takes a profile's stacks as frame ids (pprof_fast's
	# set, handed to the renderer); FLAME_TABLE=1 takes the table's
	# way: the same SVG and messages, alone, several at once, mixed with
	# other formats, past 2^64 (the table's way then), with labels.
	# ids_like_table NAME JOB SET...: flame draws each SET (its words the
	# arguments) from frame ids, the samples read in jobs of JOB bytes (0:
	# the default), as from the table: the same SVG, messages and exit.
	ids_like_table() {
		_name=$1 _job=$2
		shift 2
		_bad=
		for _set in "$@"; do
			[ -n "$_set" ] || continue
			FLAME_PPROF_JOB=$_job "$FL" --countname n $_set -o "$P/ids.svg" 2> "$P/ids.err"
			_r1=$?
			FLAME_TABLE=1 "$FL" --countname n $_set -o "$P/tab.svg" 2> "$P/tab.err"
			_r2=$?
			{ [ $_r1 = $_r2 ] && cmp -s "$P/ids.svg" "$P/tab.svg" &&
				cmp -s "$P/ids.err" "$P/tab.err"; } || _bad="$_bad [$_set: exit $_r1/$_r2]"
		done
		[ -z "$_bad" ] && pass "pprof: $_name" || fail "pprof: $_name" "$_bad"
	}
	ids_like_table "flame draws profiles from frame ids as from the table" 0 \
		"$P/big1.pb" "$P/basic.pb.gz" "$P/heap.pb" "$P/notypes.pb" "$P/huge.pb" \
		"$P/deep.pb" "$P/wrap.pb $P/wrap.pb $P/wrap.pb" "$P/big1.pb $P/basic.pb $P/big1.pb" \
		"$P/basic.pb examples/threads.perf.gz examples/threads.folded" "--labels $P/basic.pb" \
		"--sample-type cpu $P/big1.pb" "$(ls "$SHP"/*.pb.gz 2> /dev/null | tr '\n' ' ')"
	# The same with the samples read on several threads (their keys then
	# merged in an order that varies from run to run: every location is
	# built, in the profile's order, so the frames' ids do not vary).
	ids_like_table "flame draws samples read on several threads as from the table" 100 \
		"$P/big1.pb" "$P/big2.pb" "$P/deep.pb" "$P/big1.pb $P/basic.pb $P/big1.pb"
	"$FL" "$P/basic.pb" -o "$P/ids.svg" 2> /dev/null
	grep -q 'inl:ined' "$P/ids.svg" && pass "pprof: the frame-id graph has frames" || fail "pprof: the frame-id graph has frames"
	# A stack summed past 2^64 over inputs is a fractional count either
	# way (the compact form writes that flag).
	"$FL" --compact always "$P/wrap.pb" "$P/wrap.pb" "$P/wrap.pb" -o "$P/ids.svg" 2> /dev/null
	FLAME_TABLE=1 "$FL" --compact always "$P/wrap.pb" "$P/wrap.pb" "$P/wrap.pb" -o "$P/tab.svg" 2> /dev/null
	cmp -s "$P/ids.svg" "$P/tab.svg" && grep -q 'data-fractional="1"' "$P/ids.svg" \
		&& pass "pprof: sums past 2^64 over inputs drawn alike from frame ids (compact form)" \
		|| fail "pprof: sums past 2^64 over inputs drawn alike from frame ids (compact form)"
fi

# The real profiles against go tool pprof, every sample type.
if [ ! -d "$SHP" ]; then
	skip "pprof: shared samples" "no $SHP"
elif [ $have_go = 0 ] || ! have_python; then
	skip "pprof: shared samples against go tool pprof" "no go or python3"
else
	for f in "$SHP"/*.pb.gz; do
		goraw "$f" 0 > /dev/null
		_types=$(sed -n '/^Samples:/{n;p;q}' "$P/raw")
		_i=0
		for _t in $_types; do
			goraw "$f" $_i > "$P/want"
			"$SPP" --sample-type "${_t%%/*}" "$f" > "$P/got" 2> /dev/null
			psame "$(basename "$f") ${_t%%/*} as go tool pprof -raw" "$P/want" "$P/got"
			_i=$((_i + 1))
		done
	done
	"$SPP" "$SHP/sample.cpu.pb.gz" > "$P/got" 2> /dev/null
	goraw "$SHP/sample.cpu.pb.gz" 1 > "$P/want"
	psame "the default is the last type" "$P/want" "$P/got"
fi

# Round trips: any input, written as pprof, reads back to the same stacks.
rt() {	# rt NAME INPUT [FLAME OPTIONS]
	_n=$1 _in=$2
	shift 2
	# Stacks of weight 0 (ghcprof has them) are not written.
	"$FL" --collapsed "$@" "$_in" 2> /dev/null | grep -v ' 0$' > "$P/a"
	if ! "$FL" --to pprof "$@" "$_in" -o "$P/rt.pb.gz" 2> "$P/err"; then
		fail "pprof: round trip $_n: write" "$(cat "$P/err")"
		return
	fi
	"$FL" --collapsed "$P/rt.pb.gz" > "$P/b" 2> /dev/null
	psame "round trip $_n" "$P/a" "$P/b"
	if [ $have_go = 1 ] && have_python && [ -z "${RT_NOGO:-}" ]; then
		_rawof=
		goraw "$P/rt.pb.gz" 0 > "$P/b"
		psame "round trip $_n read by go tool pprof" "$P/a" "$P/b"
	fi
}
rt perf tests/data/perf/threads.txt.gz
rt perf-cpp tests/data/perf/cpp.txt.gz
rt dtrace tests/data/dtrace/own.txt
rt sample tests/data/sample/own.txt
rt ghcprof tests/data/ghcprof/own.prof
rt jstack tests/data/jstack/own.txt
rt folded examples/threads.folded
[ -f "$SHP/large.cpu.pb.gz" ] && rt pprof-large "$SHP/large.cpu.pb.gz"
[ -f "$P/basic.pb" ] && rt pprof-labels "$P/basic.pb" --labels
# A count past int64 is written as several samples of its stack; flame
# adds them up (go tool pprof sums in int64, so it is not asked).
RT_NOGO=1
[ -f "$P/huge.pb" ] && rt pprof-huge-counts "$P/huge.pb"
RT_NOGO=
if [ $have_go = 1 ]; then
	"$FL" --to pprof tests/data/perf/threads.txt.gz -o "$P/ns.pb.gz" 2> /dev/null
	go tool pprof -raw -symbolize=none "$P/ns.pb.gz" 2> /dev/null | grep -qx 'cycles/count' \
		&& pass "pprof: written sample type follows the unit (cycles/count for perf's cycles)" \
		|| fail "pprof: sample type" "$(go tool pprof -raw "$P/ns.pb.gz" 2>&1 | head -8)"
	"$FL" --to pprof --countname ns examples/threads.folded -o "$P/ns.pb.gz" 2> /dev/null
	go tool pprof -raw -symbolize=none "$P/ns.pb.gz" 2> /dev/null | grep -qx 'cpu/nanoseconds' \
		&& pass "pprof: ns is written as cpu/nanoseconds" \
		|| fail "pprof: ns as cpu/nanoseconds" "$(go tool pprof -raw "$P/ns.pb.gz" 2>&1 | head -8)"
else
	skip "pprof: written profiles read by go tool pprof" "no go"
fi
printf 'a;b 1.5\n' > "$P/frac.folded"
expect_exit 1 "pprof: a fractional count cannot be written" "$FL" --to pprof "$P/frac.folded" -o "$P/f.pb.gz"
expect_err "pprof: and says why" "not a whole number"
[ ! -e "$P/f.pb.gz" ] && pass "pprof: and writes nothing" || fail "pprof: a failed write left a file"

# A full disk: the stacks' lines (3 MB, written 1 MB at a time) stop at
# the first failed write, which is named with its reason, exit 1.
if have_python && [ -w /dev/full ]; then
	python3 tests/tools/pprofgen.py big "$P/full.pb" 2 --stacks 5000
	if command -v strace > /dev/null 2>&1; then
		strace -f -e trace=write -o "$P/trace" "$B/stackcollapse-pprof" "$P/full.pb" > /dev/full 2> "$P/err"
		_rc=$? _w=$(grep -c '^[0-9]* *write(1,' "$P/trace")
	else
		"$B/stackcollapse-pprof" "$P/full.pb" > /dev/full 2> "$P/err"
		_rc=$? _w=1
	fi
	[ "$_rc" = 1 ] && [ "$_w" -le 2 ] && grep -q "write error on '<stdout>': No space left on device" "$P/err" \
		&& pass "pprof: a full disk ends the writing at the first failed write, named" \
		|| fail "pprof: a full disk ends the writing at the first failed write" "exit $_rc, $_w writes: $(cat "$P/err")"
	[ "$("$B/stackcollapse-pprof" "$P/full.pb" | wc -c)" -gt 2100000 ] && pass "pprof: the full-disk input is many buffers" \
		|| fail "pprof: the full-disk input is many buffers"
else
	skip "pprof: a full disk" "no python3 or /dev/full"
fi

# Stacks at the 4 MB limit (PPROF_MAX_STACK, its text and a byte): two
# frames of 2,097,151 and 2,097,151 bytes make a stack of 4 MB less a
# byte, kept; one byte more and it is skipped and named.  The fast
# reading (frame ids) and the general one (FLAME_TABLE=1, pprof_stack)
# draw the line at the same byte.
if have_python; then
	for _n in 2097151 2097152; do
		python3 -c "
import sys; sys.path.insert(0, 'tests/tools'); import pprofgen
n = int(sys.argv[1])
p = {'types': [('samples', 'count')], 'samples': [([1, 2], [1], []), ([1, 2], [2], [])],
     'locations': {1: (0, 0x1000, [1]), 2: (0, 0x1010, [2])},
     'functions': {1: ('f' * 2097151, 'f'), 2: ('g' * n, 'g')}, 'mappings': []}
sys.stdout.buffer.write(pprofgen.encode(p))" $_n > "$P/edge$_n.pb"
		"$SPP" --threads 1 "$P/edge$_n.pb" > "$P/got" 2> "$P/err"
		FLAME_TABLE=1 "$FL" --collapsed "$P/edge$_n.pb" > "$P/want" 2> /dev/null
		_size=$(wc -c < "$P/got")
		if [ $_n = 2097151 ]; then
			[ "$_size" = $((4194303 + 3)) ] && cmp -s "$P/want" "$P/got" &&
				pass "pprof: a stack of 4 MB less a byte is kept" ||
				fail "pprof: a stack of 4 MB less a byte is kept" "$_size bytes: $(head -c 200 "$P/err")"
		else
			[ "$_size" = 0 ] && [ ! -s "$P/want" ] && grep -q 'longer than 4 MB' "$P/err" &&
				pass "pprof: a stack of 4 MB is skipped and named, as the general reading does" ||
				fail "pprof: a stack of 4 MB is skipped and named" "$_size bytes: $(head -c 200 "$P/err")"
		fi
	done
else
	skip "pprof: stacks at the 4 MB limit" "no python3"
fi

# Keys made to share one value of the table's hash, its secret known
# (FLAME_HASH_SEED: without it they cannot be made): 120,000 of them took
# every add through all the others once, 20 s and more; the table gives
# up past PPROF_KSET_PROBES slots and the profile is read sample by
# sample, in well under a second.  The timeout is a guard against that
# walk, not a measure of speed.  They are made for the folds
# (FLAME_HASH_FOLDS), not for the AES rounds the table hashes with where
# the processor has them.
if have_python && command -v timeout > /dev/null 2>&1; then
	$PG collide "$P/collide.pb" 120000 4243
	_frames=$(printf 'f;%.0s' $(seq 26))
	printf '%sf 120000\n' "$_frames" > "$P/want"
	FLAME_HASH_FOLDS=1 FLAME_HASH_SEED=4243 timeout 10 "$SPP" "$P/collide.pb" > "$P/got" 2> "$P/err"
	_rc=$?
	[ "$_rc" = 0 ] && cmp -s "$P/want" "$P/got" && pass "pprof: keys of one hash are counted, not walked through" \
		|| fail "pprof: keys of one hash are counted, not walked through" "exit $_rc: $(head -c 300 "$P/got" "$P/err")"
	FLAME_HASH_FOLDS=1 FLAME_HASH_SEED=4243 timeout 10 "$FL" --collapsed "$P/collide.pb" > "$P/got" \
		2> "$P/err"
	_rc=$?
	[ "$_rc" = 0 ] && cmp -s "$P/want" "$P/got" && pass "pprof: flame too" \
		|| fail "pprof: keys of one hash, flame" "exit $_rc: $(head -c 300 "$P/got" "$P/err")"
else
	skip "pprof: keys of one hash" "no python3 or timeout"
fi
