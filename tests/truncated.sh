# Input that breaks off part way (sourced by run.sh): gzip files cut
# short at several points or corrupt, zip archives cut short.  Every tool
# keeps what it read before the fault -- the same output as it gives for
# the text gzip -d recovers, up to its last complete line (a line the
# fault cut is dropped) -- names the file and the byte, and exits 1.
TR=$TMP/truncated
mkdir -p "$TR"
TFL=$B/flame

# recovered IN.gz OUT [lines]: the text gzip -d makes of IN.gz before its
# fault; with "lines", up to its last complete line.
recovered() {
	gzip -dc "$1" > "$2" 2> /dev/null
	if [ "$3" = lines ] && [ -s "$2" ] && [ "$(tail -c 1 "$2" | wc -l)" -eq 0 ]; then
		sed -i '$d' "$2"
	fi
}

# want OUT CMD...: CMD's stdout, the output expected, into OUT.
want() { _wo=$1; shift; "$@" > "$_wo" 2> /dev/null; }

# broke NAME WANT MSG CMD...: CMD exits 1, writes the file WANT to
# stdout, and MSG to stderr.
broke() {
	_bn=$1 _bw=$2 _bm=$3
	shift 3
	"$@" > "$TR/got" 2> "$TR/err"
	_brc=$?
	[ "$_brc" = 1 ] && pass "$_bn: exit 1" || fail "$_bn: exit 1" "exit $_brc: $(head -c 300 "$TR/err")"
	[ -s "$_bw" ] && cmp -s "$_bw" "$TR/got" && pass "$_bn: what came before the fault is kept" \
		|| fail "$_bn: what came before the fault is kept" "$(diff "$_bw" "$TR/got" | head -5)"
	grep -qF -- "$_bm" "$TR/err" && pass "$_bn: the fault is named" \
		|| fail "$_bn: the fault is named" "wanted '$_bm'; stderr: $(head -c 400 "$TR/err")"
}

# corrupt FILE AT: changes the byte at offset AT.
corrupt() {
	_b=$(od -An -tu1 -j "$2" -N 1 "$1" | tr -d ' ')
	# shellcheck disable=SC2059
	printf "\\$(printf %o $(((_b + 1) % 256)))" | dd of="$1" bs=1 seek="$2" conv=notrunc 2> /dev/null
}

# perf script text, several recordings end to end (1.9 MB, two inflated
# windows, many chunks with FLAME_CHUNK), cut inside the deflate data and
# inside the trailer; through stackcollapse-perf's workers and its one
# thread, and flame from a file and from a pipe.
for _f in threads cpp node dwarf pidtid system events; do
	gzip -dc "tests/data/perf/$_f.txt.gz"
done > "$TR/perf.txt"
gzip -9 -n -c "$TR/perf.txt" > "$TR/perf.txt.gz"
_size=$(wc -c < "$TR/perf.txt.gz")
for _cut in $((_size / 5)) $((_size / 2)) $((_size - _size / 10)) $((_size - 4)); do
	_in=$TR/cut$_cut.txt.gz
	head -c "$_cut" "$TR/perf.txt.gz" > "$_in"
	recovered "$_in" "$TR/prefix.txt" lines
	_m="truncated gzip input at byte $_cut"
	want "$TR/want" "$B/stackcollapse-perf" "$TR/prefix.txt"
	broke "stackcollapse-perf, gzip cut at $_cut, 4 threads" "$TR/want" "stackcollapse-perf: $_in: $_m" \
		env FLAME_CHUNK=65536 "$B/stackcollapse-perf" --threads 4 "$_in"
	broke "stackcollapse-perf, gzip cut at $_cut, 1 thread" "$TR/want" "stackcollapse-perf: $_in: $_m" \
		"$B/stackcollapse-perf" --threads 1 "$_in"
	want "$TR/want" "$TFL" --collapsed "$TR/prefix.txt"
	broke "flame --collapsed, perf gzip cut at $_cut" "$TR/want" "flame: $_in: $_m" \
		env FLAME_CHUNK=65536 "$TFL" --collapsed "$_in"
	broke "flame --collapsed, perf gzip cut at $_cut, from a pipe" "$TR/want" "flame: <stdin>: $_m" \
		sh -c 'cat "$1" | "$2" --collapsed -' sh "$_in" "$TFL"
	want "$TR/want" "$TFL" --flamechart --collapsed "$TR/prefix.txt"
	broke "flame --flamechart --collapsed, perf gzip cut at $_cut" "$TR/want" "flame: $_in: $_m" \
		"$TFL" --flamechart --collapsed "$_in"
done
_in=$TR/cut$((_size / 2)).txt.gz
recovered "$_in" "$TR/prefix.txt" lines
want "$TR/want" "$TFL" --title T "$TR/prefix.txt"
broke "flame, perf gzip cut: the graph" "$TR/want" "flame: $_in: truncated gzip input at byte" \
	"$TFL" --title T "$_in"

# Corrupt data: a byte changed in the deflate data (found at the CRC
# check, after the text) and in the CRC itself.
for _at in $((_size / 2)) $((_size - 8)); do
	cp "$TR/perf.txt.gz" "$TR/bad.txt.gz"
	corrupt "$TR/bad.txt.gz" "$_at"
	recovered "$TR/bad.txt.gz" "$TR/prefix.txt" lines
	want "$TR/want" "$B/stackcollapse-perf" "$TR/prefix.txt"
	broke "stackcollapse-perf, gzip corrupt at $_at" "$TR/want" \
		"stackcollapse-perf: $TR/bad.txt.gz: corrupt gzip input at byte" "$B/stackcollapse-perf" "$TR/bad.txt.gz"
	grep -q "at byte [0-9]*: incorrect data check" "$TR/err" && pass "gzip corrupt at $_at: zlib's reason given" \
		|| fail "gzip corrupt at $_at: zlib's reason given" "$(cat "$TR/err")"
done

# Collapsed stacks: flamegraph, difffolded and flame.
"$B/tests/genfolded" -n 5000 -d 1000 -D 20 -s 9 > "$TR/gen.folded"
gzip -9 -n -c "$TR/gen.folded" > "$TR/gen.folded.gz"
_size=$(wc -c < "$TR/gen.folded.gz")
for _cut in $((_size / 3)) $((_size - 6)); do
	_in=$TR/cut$_cut.folded.gz
	head -c "$_cut" "$TR/gen.folded.gz" > "$_in"
	recovered "$_in" "$TR/prefix.folded" lines
	_m="truncated gzip input at byte $_cut"
	want "$TR/want" "$B/flamegraph" "$TR/prefix.folded"
	broke "flamegraph, gzip cut at $_cut" "$TR/want" "flamegraph: $_in: $_m" "$B/flamegraph" "$_in"
	want "$TR/want" "$B/difffolded" "$TR/prefix.folded" "$TR/gen.folded"
	broke "difffolded, gzip cut at $_cut" "$TR/want" "difffolded: $_in: $_m" \
		"$B/difffolded" "$_in" "$TR/gen.folded"
	want "$TR/want" "$TFL" --collapsed "$TR/prefix.folded"
	broke "flame --collapsed, collapsed gzip cut at $_cut" "$TR/want" "flame: $_in: $_m" \
		"$TFL" --collapsed "$_in"
done
cp "$TR/gen.folded.gz" "$TR/out.svg"
expect_exit 1 "flamegraph -o, gzip cut: exit 1" "$B/flamegraph" -o "$TR/out.svg" "$_in"
want "$TR/want" "$B/flamegraph" "$TR/prefix.folded"
cmp -s "$TR/want" "$TR/out.svg" && pass "flamegraph -o, gzip cut: the graph of what came before is written" \
	|| fail "flamegraph -o, gzip cut: the graph is written"

# ETW and Visual Studio exports, PerfView JSON (read as a stream of
# bytes, not lines: all the text recovered is parsed).
"$B/tests/genwpa" -n 20000 -d 2000 -s 5 > "$TR/wpa.csv"
gzip -9 -n -c "$TR/wpa.csv" > "$TR/wpa.csv.gz"
_cut=$(($(wc -c < "$TR/wpa.csv.gz") / 2))
_in=$TR/cut.csv.gz
head -c "$_cut" "$TR/wpa.csv.gz" > "$_in"
recovered "$_in" "$TR/prefix.csv" lines
want "$TR/want" "$B/stackcollapse-etw" "$TR/prefix.csv"
broke "stackcollapse-etw, gzip cut at $_cut" "$TR/want" "stackcollapse-etw: $_in: truncated gzip input at byte $_cut" \
	"$B/stackcollapse-etw" "$_in"
want "$TR/want" "$TFL" --collapsed "$TR/prefix.csv"
broke "flame --collapsed, ETW gzip cut at $_cut" "$TR/want" "flame: $_in: truncated gzip input at byte $_cut" \
	"$TFL" --collapsed "$_in"
gzip -9 -n -c tests/data/vsp/tree-en.csv > "$TR/vsp.csv.gz"
_cut=$(($(wc -c < "$TR/vsp.csv.gz") * 3 / 4))
_in=$TR/cut-vsp.csv.gz
head -c "$_cut" "$TR/vsp.csv.gz" > "$_in"
recovered "$_in" "$TR/prefix.csv" lines
want "$TR/want" "$B/stackcollapse-vsp" "$TR/prefix.csv"
broke "stackcollapse-vsp, gzip cut at $_cut" "$TR/want" "stackcollapse-vsp: $_in: truncated gzip input at byte $_cut" \
	"$B/stackcollapse-vsp" "$_in"
"$B/tests/genpv" -j -n 1000 > "$TR/pv.PerfView.json"
gzip -9 -n -c "$TR/pv.PerfView.json" > "$TR/pv.json.gz"
_cut=$(($(wc -c < "$TR/pv.json.gz") * 2 / 3))
_in=$TR/cut-pv.json.gz
head -c "$_cut" "$TR/pv.json.gz" > "$_in"
recovered "$_in" "$TR/prefix.json"
want "$TR/want" "$B/stackcollapse-perfview" "$TR/prefix.json"
broke "stackcollapse-perfview, gzip cut at $_cut" "$TR/want" \
	"stackcollapse-perfview: $_in: truncated gzip input at byte $_cut" "$B/stackcollapse-perfview" "$_in"

# A zip archive cut short: its directory is gone, so the member is read
# from its local header, as from a pipe, up to the cut.
if have_python; then
	python3 - "$TR/perf.txt" "$TR/perf.zip" "$TR/cut.zip" "$TR/prefix.txt" <<'PY'
import struct, sys, zipfile, zlib
src, whole, cut, prefix = sys.argv[1:5]
with zipfile.ZipFile(whole, 'w', zipfile.ZIP_DEFLATED) as z:
    z.write(src, 'perf.txt')
data = open(whole, 'rb').read()
n = len(data) // 2
open(cut, 'wb').write(data[:n])
name, extra = struct.unpack('<HH', data[26:30])
text = zlib.decompressobj(-15).decompress(data[30 + name + extra:n])
open(prefix, 'wb').write(text[:text.rindex(b'\n') + 1])
PY
	_cut=$(wc -c < "$TR/cut.zip")
	want "$TR/want" "$B/stackcollapse-perf" "$TR/prefix.txt"
	broke "stackcollapse-perf, zip cut at $_cut" "$TR/want" \
		"stackcollapse-perf: $TR/cut.zip: truncated zip archive at byte $_cut" "$B/stackcollapse-perf" "$TR/cut.zip"
	broke "stackcollapse-perf, zip cut at $_cut, from a pipe" "$TR/want" \
		"stackcollapse-perf: <stdin>: truncated zip archive at byte $_cut" \
		sh -c 'cat "$1" | "$2" -' sh "$TR/cut.zip" "$B/stackcollapse-perf"
	want "$TR/want" "$TFL" --collapsed "$TR/prefix.txt"
	broke "flame --collapsed, zip cut at $_cut" "$TR/want" "flame: $TR/cut.zip: truncated zip archive at byte $_cut" \
		"$TFL" --collapsed "$TR/cut.zip"
else
	skip "zip archives cut short" "no python3"
fi
