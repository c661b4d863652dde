# .etl traces (collapse/etl), sourced by run.sh.  Traces written by
# tests/tools/etlwrite.py, with the stacks it wrote as the expectation;
# the shared PerfView trace against tests/tools/etlcheck.py (a second
# reading, in Python) and TraceEvent's public baseline counts.
SETW=$(pwd)/$B/stackcollapse-etw
FL=$(pwd)/$B/flame
WRITE=tests/tools/etlwrite.py
CHECK=tests/tools/etlcheck.py
XE=$TMP/etl
SHARED=../shared/samples/etl
mkdir -p "$XE"

# same NAME WANT GOT: the two files hold the same lines.
same() {
	if cmp -s "$2" "$3"; then pass "etl: $1"; else fail "etl: $1" "$(diff "$2" "$3" | head -12)"; fi
}

# folded_sum FILE: the total weight of a collapsed file.
folded_sum() { awk '{ s += $NF } END { print s + 0 }' "$1"; }

etl_written() {
	# Every way of writing a trace, read back exactly.
	for _o in "" "--compress" "--ptr 4" "--ptr 4 --compress" "--seed 3 --samples 1500 --compress" \
		  "--seed 9 --samples 800 --ptr 4" "--huffman" "--huffman --ptr 4" \
		  "--huffman --bufsize 200000 --samples 3000 --seed 4"; do
		python3 "$WRITE" "$XE/t.etl" "$XE/want" $_o
		"$SETW" "$XE/t.etl" > "$XE/got" 2> "$XE/err"
		same "written trace ($_o) read exactly" "$XE/want" "$XE/got"
		[ -s "$XE/err" ] && fail "etl: written trace ($_o): no messages" "$(cat "$XE/err")"
		python3 "$CHECK" "$XE/t.etl" | sed -n 's/^stack //p' | LC_ALL=C sort > "$XE/chk"
		same "etlcheck agrees with the writer ($_o)" "$XE/want" "$XE/chk"
	done
	python3 "$WRITE" "$XE/a.etl" "$XE/want" --addrs --compress
	"$SETW" --addrs "$XE/a.etl" > "$XE/got"
	same "--addrs: module!0xRVA frames, not merged" "$XE/want" "$XE/got"
}

# A trace of many samples (genetl: a written trace 150 times over, each
# copy later in time), read in windows and aggregated: exactly the
# written stacks 150 times, with LZ77+Huffman buffers too.
etl_many() {
	if [ ! -x "$B/tests/genetl" ]; then
		skip "etl: many samples" "$B/tests/genetl is not built"
		return
	fi
	python3 "$WRITE" "$XE/tpl.etl" "$XE/tpl.want" --samples 2000 --seed 11
	awk '{ n = $NF; $NF = ""; sub(/ $/, ""); print $0, n * 150 }' "$XE/tpl.want" | LC_ALL=C sort > "$XE/want"
	"$B/tests/genetl" -n 150 "$XE/tpl.etl" > "$XE/big.etl"
	"$SETW" "$XE/big.etl" | LC_ALL=C sort > "$XE/got"
	same "300k samples in windows: the written stacks x150" "$XE/want" "$XE/got"
	"$B/tests/genetl" -h -n 150 "$XE/tpl.etl" > "$XE/big.etl"
	"$SETW" "$XE/big.etl" | LC_ALL=C sort > "$XE/got"
	same "300k samples in genetl's LZ77+Huffman buffers: x150" "$XE/want" "$XE/got"
	"$B/tests/genetl" -h -n 2 "$XE/tpl.etl" > "$XE/big.etl"
	awk '{ n = $NF; $NF = ""; sub(/ $/, ""); print $0, n * 2 }' "$XE/tpl.want" | LC_ALL=C sort > "$XE/want"
	python3 "$CHECK" "$XE/big.etl" | sed -n 's/^stack //p' | LC_ALL=C sort > "$XE/chk"
	same "etlcheck (Python's decoder) reads genetl's LZ77+Huffman (C's encoder)" "$XE/want" "$XE/chk"
	rm -f "$XE/big.etl"
}

etl_containers() {
	python3 "$WRITE" "$XE/t.etl" "$XE/want" --compress
	"$FL" --collapsed "$XE/t.etl" > "$XE/got" 2>&1
	same "flame reads a trace (detected by content)" "$XE/want" "$XE/got"
	"$FL" --collapsed --format etl "$XE/t.etl" > "$XE/got" 2>&1
	same "flame --format etl" "$XE/want" "$XE/got"
	gzip -c "$XE/t.etl" > "$XE/t.etl.gz"
	"$SETW" "$XE/t.etl.gz" > "$XE/got"
	same "a gzipped trace" "$XE/want" "$XE/got"
	python3 -c 'import sys, zipfile
z = zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED)
z.writestr("LogFile.txt", "a log first, as PerfView zips them\n")
z.write(sys.argv[2], "trace.etl")' "$XE/t.etl.zip" "$XE/t.etl"
	"$FL" --collapsed "$XE/t.etl.zip" > "$XE/got" 2>&1
	same "the .etl member of a zip with a log beside it" "$XE/want" "$XE/got"
	"$SETW" < "$XE/t.etl" > "$XE/got"
	same "stackcollapse-etw reads a trace on stdin" "$XE/want" "$XE/got"
	cat "$XE/t.etl" | "$FL" --collapsed - > "$XE/got" 2>&1
	same "flame reads a trace from a pipe" "$XE/want" "$XE/got"
	head -c 3000 /dev/urandom > "$XE/noise.bin"
	expect_exit 1 "etl: random bytes are not taken for a trace" "$SETW" "$XE/noise.bin"
}

# etl_fault NAME [OPTS]: a spoiled trace keeps every readable sample and
# names the fault's byte.
etl_fault() {
	python3 "$WRITE" "$XE/f.etl" "$XE/want" --fault "$@"
	"$SETW" "$XE/f.etl" > "$XE/got" 2> "$XE/err"
	_rc=$?
	[ $_rc -le 1 ] && pass "etl: fault $*: no crash" || fail "etl: fault $*: no crash" "exit $_rc"
	same "fault $*: every readable sample kept" "$XE/want" "$XE/got"
	case $1 in
	orphan-stack) [ -s "$XE/err" ] && fail "etl: a stack of no sample is no fault" "$(cat "$XE/err")" \
		|| pass "etl: a stack of no sample is no fault" ;;
	*) grep -q "f.etl: byte [0-9]*: " "$XE/err" && grep -q "could not be read" "$XE/err" \
		&& pass "etl: fault $*: named with its byte, counted" \
		|| fail "etl: fault $*: named with its byte, counted" "$(cat "$XE/err")" ;;
	esac
}

etl_faults() {
	for _f in truncate lying-size corrupt-lz event-past-end orphan-stack ptr-mismatch garbage-buffer; do
		etl_fault $_f
		etl_fault $_f --compress
	done
	etl_fault corrupt-lz --huffman
	etl_fault orphan-stack --huffman
	# Bytes spoiled at random: never a crash, never a hang.
	python3 "$WRITE" "$XE/t.etl" "$XE/want" --compress --samples 300
	_bad=0
	for _s in 1 2 3 4 5 6 7 8 9 10 11 12; do
		python3 -c 'import random, sys
d = bytearray(open(sys.argv[1], "rb").read()); r = random.Random(int(sys.argv[3]))
for _ in range(r.choice([1, 4, 40])): d[r.randrange(len(d))] = r.randrange(256)
open(sys.argv[2], "wb").write(d[:len(d) - r.choice([0, 0, 1, 999])])' "$XE/t.etl" "$XE/m.etl" $_s
		"$SETW" "$XE/m.etl" > /dev/null 2>&1
		[ $? -le 1 ] || _bad=$((_bad + 1))
	done
	[ $_bad = 0 ] && pass "etl: 12 randomly spoiled traces: no crash" || fail "etl: spoiled traces crashed" "$_bad"
	etl_huffman_spoiled
}

# LZ77+Huffman buffers spoiled after their code table (the table kept, so
# the Huffman decoder reads them): never a crash, the samples of the
# other buffers kept.
etl_huffman_spoiled() {
	python3 "$WRITE" "$XE/h.etl" "$XE/want" --huffman --samples 400 --bufsize 30000
	_bad=0
	for _s in 1 2 3 4 5 6 7 8; do
		python3 -c 'import random, struct, sys
d = bytearray(open(sys.argv[1], "rb").read()); r = random.Random(int(sys.argv[3]))
at, bufs = 0, []
while at + 72 <= len(d):
    size = struct.unpack_from("<I", d, at)[0]
    if struct.unpack_from("<H", d, at + 0x34)[0] & 0x40:
        bufs.append((at, size))
    at += size
at, size = r.choice(bufs)
for _ in range(r.choice([1, 3, 30])):
    d[at + 72 + 256 + r.randrange(size - 72 - 256)] = r.randrange(256)
open(sys.argv[2], "wb").write(d)' "$XE/h.etl" "$XE/m.etl" $_s
		"$SETW" "$XE/m.etl" > "$XE/got" 2> /dev/null
		[ $? -le 1 ] || _bad=$((_bad + 1))
	done
	[ $_bad = 0 ] && pass "etl: 8 spoiled LZ77+Huffman traces: no crash" \
		|| fail "etl: spoiled LZ77+Huffman traces crashed" "$_bad"
	head -c 150000 "$SETW" > "$XE/bin"
	python3 tests/tools/xcahuff.py "$XE/bin" > "$XE/rt" 2>&1 \
		&& pass "etl: xcahuff.py round trip (its compressor, its decoder)" \
		|| fail "etl: xcahuff.py round trip" "$(cat "$XE/rt")"
}

etl_options() {
	python3 "$WRITE" "$XE/t.etl" "$XE/want" --compress --samples 600 --seed 5
	grep '^app.exe (100);' "$XE/want" > "$XE/w1"
	"$SETW" --pid 100 "$XE/t.etl" > "$XE/got"
	same "--pid" "$XE/w1" "$XE/got"
	"$SETW" --process APP "$XE/t.etl" > "$XE/got"
	same "--process: any case, .exe optional" "$XE/w1" "$XE/got"
	grep ';TID 201[; ]' "$XE/want" > "$XE/w1"
	"$SETW" --tid 201 "$XE/t.etl" > "$XE/got"
	same "--tid" "$XE/w1" "$XE/got"
	grep 'lib.dll' "$XE/want" > "$XE/w1"
	"$SETW" --grep lib.dll "$XE/t.etl" > "$XE/got"
	same "--grep" "$XE/w1" "$XE/got"
	sed 's/^[^;]*;//' "$XE/want" | awk '{ n = $NF; $NF = ""; sub(/ $/, ""); s[$0] += n }
		END { for (k in s) print k, s[k] }' | LC_ALL=C sort > "$XE/w1"
	"$SETW" --no-process "$XE/t.etl" | LC_ALL=C sort > "$XE/got"
	same "--no-process" "$XE/w1" "$XE/got"
	sed 's/;TID \([0-9]*\)/;TID:\1/' "$XE/want" | LC_ALL=C sort > "$XE/w1"
	"$SETW" --collapse-threads "$XE/t.etl" | LC_ALL=C sort > "$XE/got"
	same "--collapse-threads" "$XE/w1" "$XE/got"
	"$SETW" --include-idle "$XE/t.etl" > "$XE/got"
	python3 "$CHECK" --include-idle "$XE/t.etl" | sed -n 's/^stack //p' | LC_ALL=C sort > "$XE/chk"
	same "--include-idle keeps the idle thread's samples" "$XE/chk" "$XE/got"
	grep -q '^Idle (0);TID 0;' "$XE/got" && [ "$(folded_sum "$XE/got")" -gt "$(folded_sum "$XE/want")" ] \
		&& pass "etl: idle samples dropped by default, DPCs kept" || fail "etl: idle samples"
	# The samples start 0.1 s after the header and come ~50 us apart.
	"$SETW" --end 0.115 "$XE/t.etl" > "$XE/a"
	"$SETW" --begin 0.115 "$XE/t.etl" > "$XE/b"
	_a=$(folded_sum "$XE/a") _b=$(folded_sum "$XE/b") _t=$(folded_sum "$XE/want")
	[ "$_a" -gt 0 ] && [ "$_b" -gt 0 ] && [ $((_a + _b)) = "$_t" ] \
		&& pass "etl: --begin/--end split the samples by time ($_a + $_b)" \
		|| fail "etl: --begin/--end" "$_a + $_b != $_t"
	rm -rf "$XE/split"
	mkdir -p "$XE/split"
	"$SETW" --split "$XE/split" --top 2 "$XE/t.etl" > "$XE/list"
	[ "$(wc -l < "$XE/list")" = 2 ] && [ "$(ls "$XE/split" | wc -l)" = 2 ] \
		&& pass "etl: --split --top 2 writes the two busiest threads" \
		|| fail "etl: --split" "$(cat "$XE/list")"
}

# etl_symmap WANT_ADDRS MAPS... : the --addrs stacks named through the
# maps (MODULE.sym files) as --symbols should name them, by a reading
# of the maps of its own: a covered RVA gives module!NAME, the rest
# module!? with a run of one module's unnamed frames merged.
etl_symmap() {
	python3 -c 'import os, re, sys
from collections import Counter
maps = {}
for f in sys.argv[2:]:
    rows = []
    for ln in open(f):
        p = ln.split(None, 2)
        if ln.lstrip().startswith("#") or len(p) < 3:
            continue
        try:
            rows.append((int(p[0], 16), int(p[1], 16), p[2].strip().replace(";", ":")))
        except ValueError:
            pass
    maps[os.path.basename(f)[:-4].lower()] = rows
out = Counter()
for line in open(sys.argv[1]):
    stack, n = line.rsplit(" ", 1)
    fr, last = [], None
    for f in stack.split(";"):
        m = re.fullmatch(r"(.*)!0x([0-9a-f]+)", f)
        if not m:
            fr.append(f)
            last = None
            continue
        mod, rva = m.group(1), int(m.group(2), 16)
        hit = [nm for a, sz, nm in maps.get(mod.lower(), []) if a <= rva < a + sz]
        if hit:
            fr.append(mod + "!" + hit[-1])
            last = None
        elif last != mod:
            fr.append(mod + "!?")
            last = mod
    out[";".join(fr)] += int(n)
for k in sorted(out):
    print(k, out[k])' "$@" | LC_ALL=C sort
}

etl_symbols() {
	mkdir -p "$XE/sym"
	python3 "$WRITE" "$XE/s.etl" "$XE/addrs" --addrs --seed 2 --huffman
	awk 'BEGIN { print "# ntdll: the low half named, in 4 KiB functions"
		for (a = 0; a < 524288; a += 4096) printf "%x %x Nt_%x\n", a, 4096, a
		print "0x90000 0x100 semi;colon" }' > "$XE/sym/ntdll.dll.sym"
	awk 'BEGIN { for (a = 0; a < 1048576; a += 16384) printf "0x%x 0x3000 Ke%d\n", a, a / 16384
		print "zz 10 bad"; print "10" }' > "$XE/sym/NTOSKRNL.EXE.sym"
	etl_symmap "$XE/addrs" "$XE/sym/ntdll.dll.sym" "$XE/sym/NTOSKRNL.EXE.sym" > "$XE/want"
	"$SETW" --symbols "$XE/sym" "$XE/s.etl" 2> "$XE/err" | LC_ALL=C sort > "$XE/got"
	same "--symbols DIR: frames named from MODULE.sym maps (any case)" "$XE/want" "$XE/got"
	grep -q 'NTOSKRNL.EXE.sym:[0-9]*: not RVA SIZE NAME' "$XE/err" \
		&& pass "etl: --symbols: a bad map line named with its file and line" \
		|| fail "etl: --symbols: a bad map line" "$(cat "$XE/err")"
	etl_symmap "$XE/addrs" "$XE/sym/ntdll.dll.sym" > "$XE/want"
	"$FL" --collapsed --symbols "$XE/sym/ntdll.dll.sym" "$XE/s.etl" 2> /dev/null | LC_ALL=C sort > "$XE/got"
	same "flame --symbols FILE: one module's map" "$XE/want" "$XE/got"
	etl_symbols_pe
}

# A PE image with its PDB, made with clang and lld-link, named through
# llvm-symbolizer; skipped when any of them is absent.
etl_symbols_pe() {
	for _t in clang lld-link llvm-symbolizer; do
		if ! command -v $_t > /dev/null 2>&1; then
			skip "etl: --symbols with a PE image" "$_t is not on PATH"
			return
		fi
	done
	mkdir -p "$XE/pe"
	_fns=""
	# Fifteen functions of about 4 KiB fill most of the 64 KiB the trace
	# gives lib.dll.
	for _i in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14; do
		_fns="$_fns int fn$_i(int x) { __asm__ volatile(\".skip 4000, 0x90\"); return x * $_i + 1; }"
	done
	echo "$_fns" > "$XE/pe/lib.c"
	if ! (cd "$XE/pe" && clang --target=x86_64-pc-windows-msvc -g -gcodeview -O0 -c lib.c -o lib.obj \
		&& lld-link /dll /noentry /debug /export:fn0 lib.obj /out:lib.dll /pdb:lib.pdb) > /dev/null 2>&1; then
		skip "etl: --symbols with a PE image" "clang cannot make a Windows DLL here"
		return
	fi
	python3 "$WRITE" "$XE/p.etl" "$XE/addrs" --addrs --seed 2
	# The names llvm-symbolizer gives each RVA of lib.dll the trace holds:
	# a map file of one-byte symbols, read by etl_symmap.
	tr ';' '\n' < "$XE/addrs" | sed -n 's/^lib\.dll!0x\([0-9a-f]*\).*/\1/p' | sort -u > "$XE/rvas"
	python3 -c 'import sys
for ln in sys.stdin:
    print(hex(0x180000000 + int(ln, 16)))' < "$XE/rvas" > "$XE/vas"
	llvm-symbolizer --obj="$XE/pe/lib.dll" --output-style=GNU --no-inlines < "$XE/vas" \
		| awk 'NR % 2' | paste "$XE/rvas" - | awk '$2 != "??" { print $1, 1, $2 }' > "$XE/lib.dll.sym"
	[ -s "$XE/lib.dll.sym" ] || { fail "etl: --symbols PE: llvm-symbolizer named nothing"; return; }
	etl_symmap "$XE/addrs" "$XE/lib.dll.sym" > "$XE/want"
	"$SETW" --symbols "$XE/pe" "$XE/p.etl" | LC_ALL=C sort > "$XE/got"
	same "--symbols: a PE image's PDB through llvm-symbolizer" "$XE/want" "$XE/got"
	grep -q 'lib.dll!fn[0-9]' "$XE/got" && pass "etl: --symbols PE: fnN frames" \
		|| fail "etl: --symbols PE: no fnN frames" "$(head -3 "$XE/got")"
	PATH=/nonexistent "$SETW" --symbols "$XE/pe" "$XE/p.etl" 2> "$XE/err" > "$XE/got"
	grep -q 'lib.dll: llvm-symbolizer cannot be run' "$XE/err" && grep -q 'lib.dll!?' "$XE/got" \
		&& pass "etl: --symbols PE without llvm-symbolizer: said, frames left unnamed" \
		|| fail "etl: --symbols PE without llvm-symbolizer" "$(cat "$XE/err")"
}

# The shared PerfView trace: Windows 8 x64, 8 CPUs, compressed buffers.
etl_shared() {
	_z=$SHARED/net.4.5.2.x64.etl.zip
	if [ ! -f "$_z" ]; then
		skip "etl: net.4.5.2 trace" "$SHARED is not present"
		return
	fi
	python3 "$CHECK" "$_z" > "$XE/chk.txt"
	# TraceEvent's public baseline for this trace (microsoft/perfview,
	# net.4.5.2.x64.baseline.txt) counts 6320 PerfInfo/Sample events (the
	# idle thread's dropped unless in a DPC or ISR), 1763 Image/DCStart,
	# 35 Image/Load, 32 Image/Unload and 32 Process/DCStart.
	for _l in "kept 6320" "count 1403 1763" "count 030a 35" "count 1402 32" "count 0303 32" \
		  "samples 79528" "buffers 360" "compressed 359"; do
		grep -qx "$_l" "$XE/chk.txt" && pass "etl: net.4.5.2: etlcheck: $_l" \
			|| fail "etl: net.4.5.2: etlcheck: $_l" "$(head -6 "$XE/chk.txt")"
	done
	"$SETW" "$_z" > "$XE/got" 2> "$XE/err"
	[ "$(folded_sum "$XE/got")" = 6320 ] && pass "etl: net.4.5.2: 6320 samples, as TraceEvent" \
		|| fail "etl: net.4.5.2: samples" "$(folded_sum "$XE/got")"
	[ -s "$XE/err" ] && fail "etl: net.4.5.2: no messages" "$(cat "$XE/err")"
	sed -n 's/^stack //p' "$XE/chk.txt" | LC_ALL=C sort > "$XE/chk"
	LC_ALL=C sort "$XE/got" > "$XE/gots"
	same "net.4.5.2: module-level stacks as etlcheck reads them" "$XE/chk" "$XE/gots"
	awk '{ n = $NF; split($0, f, ";"); s[f[1]] += n } END { for (k in s) print "process", k, s[k] }' \
		"$XE/got" | LC_ALL=C sort > "$XE/p1"
	grep '^process ' "$XE/chk.txt" | LC_ALL=C sort > "$XE/p2"
	same "net.4.5.2: samples per process" "$XE/p2" "$XE/p1"
	_main='Test.x64.exe!Test.Program.Main(class System.String[]);mscorlib.dll!System.DateTime.get_Now()'
	[ "$(grep -F "$_main" "$XE/got" | awk '{ s += $NF } END { print s + 0 }')" -gt 4000 ] \
		&& pass "etl: net.4.5.2: JIT frames named from the CLR's method events" \
		|| fail "etl: net.4.5.2: JIT frames" "$(head -3 "$XE/got")"
	grep -q '^process Test.x64.exe (3676) 5129$' "$XE/p2" && pass "etl: net.4.5.2: the test process has 5129" \
		|| fail "etl: net.4.5.2: the test process" "$(cat "$XE/p2")"
	awk '{ n = $NF; sub(/ [0-9]+$/, ""); split($0, f, ";"); t = f[2]; sub(/TID /, "", t); p = f[1]; sub(/.*\(/, "", p);
		sub(/\)/, "", p); s[p " " t] += n } END { for (k in s) print "thread", k, s[k] }' \
		"$XE/got" | LC_ALL=C sort > "$XE/t1"
	grep '^thread ' "$XE/chk.txt" | LC_ALL=C sort > "$XE/t2"
	same "net.4.5.2: samples per thread" "$XE/t2" "$XE/t1"
	python3 "$CHECK" --addrs --include-idle "$_z" | sed -n 's/^stack //p' | LC_ALL=C sort > "$XE/chk"
	"$SETW" --addrs --include-idle "$_z" | LC_ALL=C sort > "$XE/gots"
	same "net.4.5.2: --addrs --include-idle stacks as etlcheck reads them" "$XE/chk" "$XE/gots"
	[ "$(folded_sum "$XE/gots")" = 79528 ] && pass "etl: net.4.5.2: --include-idle keeps all 79528" \
		|| fail "etl: net.4.5.2: --include-idle" "$(folded_sum "$XE/gots")"
	"$SETW" "$SHARED/SelfDescribingSingleEvent.etl" > "$XE/got" 2> "$XE/err"
	[ $? = 0 ] && [ ! -s "$XE/got" ] && [ ! -s "$XE/err" ] \
		&& pass "etl: a TraceLogging trace: read, no samples, no faults" \
		|| fail "etl: a TraceLogging trace" "$(cat "$XE/err")"
}

if have_python; then
	etl_written
	etl_many
	etl_containers
	etl_faults
	etl_options
	etl_symbols
	etl_shared
else
	skip "etl: all" "python3 is needed to write and check traces"
fi
