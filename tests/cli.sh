# CLI tests for flamegraph: exit codes, messages, input handling, the
# deliberate differences from flamegraph.pl.  Sourced by run.sh.

FG=$(pwd)/$B/flamegraph
IN=tests/data/flamegraph-inputs
T=$TMP/cli
mkdir -p "$T"

# expect_rc NAME RC CMD... and stderr_has NAME TEXT: see tests/lib.sh.
expect_rc() { _n=$1 _r=$2; shift 2; expect_exit "$_r" "$_n" "$@"; }
stderr_has() { expect_err "$@"; }

same_output() {
	if cmp -s "$2" "$3"; then pass "$1"; else fail "$1" "$(diff "$2" "$3" | head -10)"; fi
}

wellformed() {
	if ! have_python; then skip "$1" "no python3 for XML parsing"; return; fi
	if _e=$(xml_ok "$2" 2>&1); then pass "$1"; else fail "$1" "$_e"; fi
}

# Exit codes and messages.
expect_rc "empty input exits 2" 2 "$FG" /dev/null
stderr_has "empty input says no stack counts" "no stack counts found"
grep -q "No valid input" "$TMP/out" && pass "empty input still writes an SVG saying so" || fail "empty input SVG"
wellformed "empty-input SVG is well-formed" "$TMP/out"
printf 'bad line\nmain;f 3\n# comment\n\nmain;g 4\nx 1.2.3\n' > "$T/bad.folded"
expect_rc "bad lines are skipped" 0 "$FG" "$T/bad.folded"
stderr_has "bad lines are counted" "ignored 4 lines with invalid format"
expect_rc "missing file exits 1" 1 "$FG" "$T/nope.folded"
stderr_has "missing file is named with strerror" "cannot open '$T/nope.folded': No such file or directory"
expect_rc "unknown option exits 2" 2 "$FG" --bogus "$IN/basic.folded"
stderr_has "unknown option is named" "'--bogus'"
expect_rc "ambiguous prefix exits 2" 2 "$FG" --f "$IN/basic.folded"
expect_rc "missing value exits 2" 2 "$FG" "$IN/basic.folded" --width
expect_rc "bad --width exits 2" 2 "$FG" --width 12x "$IN/basic.folded"
stderr_has "bad --width is explained" "invalid --width '12x'"
expect_rc "bad --minwidth exits 2" 2 "$FG" --minwidth abc "$IN/basic.folded"
expect_rc "bad --colors exits 2" 2 "$FG" --colors rainbow "$IN/basic.folded"
expect_rc "bad --bgcolors exits 2" 2 "$FG" --bgcolors '#12345z' "$IN/basic.folded"
expect_rc "bad --encoding exits 2" 2 "$FG" --encoding 'x"><a' "$IN/basic.folded"
expect_rc "--help exits 0" 0 "$FG" --help
grep -q '^Usage: flamegraph' "$TMP/out" && pass "--help goes to stdout" || fail "--help goes to stdout"
expect_rc "--version exits 0" 0 "$FG" --version
grep -q '^flamegraph (flame) [0-9]' "$TMP/out" && pass "--version prints the version" || fail "--version text"
expect_rc "write error exits 1" 1 "$FG" -o /dev/full "$IN/basic.folded"
if [ -w /dev/full ]; then
	"$FG" "$IN/basic.folded" > /dev/full 2> "$TMP/err"
	[ $? = 1 ] && pass "full stdout exits 1" || fail "full stdout exits 1"
	stderr_has "full stdout is reported" "write error"
fi

# Getopt::Long habits.
"$FG" --inverted --colors java --title T "$IN/java.folded" > "$T/a.svg"
"$FG" --inv --color=java -title=T "$IN/java.folded" > "$T/b.svg"
same_output "prefixes, --opt=value and -opt work like the full options" "$T/a.svg" "$T/b.svg"
"$FG" "$IN/java.folded" --inverted --colors java --title T > "$T/c.svg"
same_output "options after file names" "$T/a.svg" "$T/c.svg"

# Output file: atomic, and left alone on failure.
expect_rc "-o writes the file" 0 "$FG" -o "$T/o.svg" "$IN/basic.folded"
"$FG" "$IN/basic.folded" > "$T/stdout.svg"
same_output "-o writes what stdout gets" "$T/o.svg" "$T/stdout.svg"
ls "$T"/o.svg.* > /dev/null 2>&1 && fail "-o leaves no temporary file" || pass "-o leaves no temporary file"
cp "$T/o.svg" "$T/keep.svg"
expect_rc "-o with an unreadable input exits 1" 1 "$FG" -o "$T/o.svg" "$IN/basic.folded" "$T/nope.folded"
same_output "-o keeps the old file when input fails" "$T/o.svg" "$T/keep.svg"
expect_rc "-o into a missing directory exits 1" 1 "$FG" -o "$T/no/such/dir.svg" "$IN/basic.folded"
stderr_has "-o failure names the file" "$T/no/such/dir.svg"
expect_rc "-o /dev/null works" 0 "$FG" -o /dev/null "$IN/basic.folded"
[ -c /dev/null ] && pass "-o /dev/null leaves the device alone" || fail "-o /dev/null replaced the device"
ln -sf keep.svg "$T/link.svg"
expect_rc "-o through a symlink" 0 "$FG" -o "$T/link.svg" "$IN/grey.folded"
[ -L "$T/link.svg" ] && ! cmp -s "$T/keep.svg" "$T/o.svg" && pass "-o replaces a symlink's target, not the link" \
	|| fail "-o replaces a symlink's target, not the link"
expect_rc "no valid input with -o exits 2" 2 "$FG" -o "$T/empty.svg" /dev/null
grep -q "No valid input" "$T/empty.svg" && pass "no valid input with -o still writes the SVG" || fail "-o empty SVG"

# Inputs: stdin, merging, compression, line endings, encodings.
"$FG" < "$IN/basic.folded" > "$T/stdin.svg"
same_output "stdin works" "$T/stdin.svg" "$T/stdout.svg"
"$FG" - < "$IN/basic.folded" > "$T/dash.svg"
same_output "- means stdin" "$T/dash.svg" "$T/stdout.svg"
cat "$IN/basic.folded" "$IN/grey.folded" > "$T/cat.folded"
"$FG" "$T/cat.folded" > "$T/cat.svg"
"$FG" "$IN/basic.folded" "$IN/grey.folded" > "$T/two.svg"
same_output "several inputs are merged" "$T/cat.svg" "$T/two.svg"
gzip -c "$IN/basic.folded" > "$T/basic.folded.gz"
"$FG" "$T/basic.folded.gz" > "$T/gz.svg"
same_output "gzip input is inflated" "$T/gz.svg" "$T/stdout.svg"
sed 's/$/\r/' "$IN/basic.folded" > "$T/crlf.folded"
"$FG" "$T/crlf.folded" > "$T/crlf.svg" 2> "$TMP/err"
same_output "CRLF input draws the same graph (flamegraph.pl ignores it)" "$T/crlf.svg" "$T/stdout.svg"
printf '\357\273\277' | cat - "$IN/basic.folded" > "$T/bom.folded"
"$FG" "$T/bom.folded" > "$T/bom.svg"
same_output "a UTF-8 BOM is skipped" "$T/bom.svg" "$T/stdout.svg"
head -c -1 "$IN/basic.folded" > "$T/nonl.folded"
"$FG" "$T/nonl.folded" > "$T/nonl.svg"
same_output "a missing final newline is fine" "$T/nonl.svg" "$T/stdout.svg"
if command -v iconv > /dev/null 2>&1; then
	{ printf '\377\376'; iconv -f UTF-8 -t UTF-16LE "$IN/unicode.folded"; } > "$T/u16le.folded"
	{ printf '\376\377'; iconv -f UTF-8 -t UTF-16BE "$IN/unicode.folded"; } > "$T/u16be.folded"
	"$FG" "$IN/unicode.folded" > "$T/u8.svg"
	"$FG" "$T/u16le.folded" > "$T/u16le.svg"
	"$FG" "$T/u16be.folded" > "$T/u16be.svg"
	same_output "UTF-16LE input (with BOM)" "$T/u16le.svg" "$T/u8.svg"
	same_output "UTF-16BE input (with BOM)" "$T/u16be.svg" "$T/u8.svg"
else
	skip "UTF-16 input" "no iconv"
fi

# Deterministic output.
"$FG" "$IN/gen.folded" > "$T/d1.svg"
"$FG" "$IN/gen.folded" > "$T/d2.svg"
same_output "output is byte-identical run to run" "$T/d1.svg" "$T/d2.svg"
awk 'NR % 2' "$IN/gen.folded" > "$T/odd"
awk '!(NR % 2)' "$IN/gen.folded" > "$T/even"
cat "$T/even" "$T/odd" > "$T/shuffled.folded"
"$FG" "$T/shuffled.folded" > "$T/d3.svg"
same_output "input line order does not change the graph" "$T/d1.svg" "$T/d3.svg"
# Stacks in line order build the tree without an index (lib/stree.c): an
# earlier stack that begins a later one, across others ("a;b", "a;b!;x",
# "a;b;y"), must be found again, not made twice, or the stacks added once
# the order breaks may land on the copy and be drawn twice.  Random stacks
# over names that sort around ';' and ' ', sorted then every other one
# again, against the same lines backwards then every other one.
awk 'BEGIN { srand(7); split("a b b! a: x;y a b ! b", nm, " "); nm[11] = "b c"
	for (i = 0; i < 3000; i++) { n = 1 + int(rand() * 5); s = nm[1 + int(rand() * 11)]
		for (j = 1; j < n; j++) s = s ";" nm[1 + int(rand() * 11)]
		print s, 1 + int(rand() * 9) } }' | LC_ALL=C sort > "$T/lo.folded"
awk '{ l[NR] = $0 } END { for (i = NR; i > 0; i--) print l[i] }' "$T/lo.folded" > "$T/back.folded"
awk 'NR % 2' "$T/lo.folded" > "$T/odd.folded"
cat "$T/lo.folded" "$T/odd.folded" > "$T/lo2.folded"
cat "$T/back.folded" "$T/odd.folded" > "$T/back2.folded"
"$FG" --minwidth 0 "$T/lo2.folded" > "$T/lo.svg"
"$FG" --minwidth 0 "$T/back2.folded" > "$T/back.svg"
same_output "stacks in line order, then out of it, draw the graph they draw backwards" "$T/lo.svg" "$T/back.svg"

# Colours come from names: the same function, the same colour, anywhere.
printf 'main;parse_headers 5\n' > "$T/one.folded"
c1=$("$FG" "$T/one.folded" | grep -o '<title>parse_headers[^<]*</title><rect[^>]*fill="[^"]*"' | sed 's/.*fill=//')
c2=$("$FG" "$IN/basic.folded" | grep -o '<title>parse_headers[^<]*</title><rect[^>]*fill="[^"]*"' | sed 's/.*fill=//')
[ -n "$c1" ] && [ "$c1" = "$c2" ] && pass "a function keeps its colour across graphs" || fail "colour across graphs" "$c1 vs $c2"
"$FG" --random "$IN/gen.folded" | grep -o 'fill="rgb([^"]*"' > "$T/r1"
"$FG" --random "$IN/gen.folded" | grep -o 'fill="rgb([^"]*"' > "$T/r2"
cmp -s "$T/r1" "$T/r2" && fail "--random gives random colours" || pass "--random gives random colours"

# Untrusted names and option values never break the XML.
printf 'main;bad\001ctl\033[31m;nul\000here 3\nmain;<script>alert(1)</script>&amp;"q" 2\nmain;\377\376invalid\300\200utf8;\355\240\200surrogate 4\nmain;]]>--> 1\n' > "$T/hostile.folded"
"$FG" "$T/hostile.folded" > "$T/hostile.svg" 2> "$TMP/err"
wellformed "control, NUL and invalid UTF-8 bytes give well-formed XML" "$T/hostile.svg"
[ "$(grep -c '<script' "$T/hostile.svg")" = 1 ] && pass "names cannot inject elements" || fail "names cannot inject elements"
grep -q "$(printf '\357\277\275')" "$T/hostile.svg" && pass "bad bytes become U+FFFD" || fail "bad bytes become U+FFFD"
"$FG" --title '<script>alert(1)</script>' --subtitle 'a & b "c"' --notes 'x --> <y> -- z-' \
	--nametype '"><script>x</script>' --countname '<b>' "$IN/basic.folded" > "$T/opts.svg"
wellformed "--title/--subtitle/--notes/--nametype/--countname are escaped" "$T/opts.svg"
[ "$(grep -c '<script' "$T/opts.svg")" = 1 ] && pass "option values cannot inject elements" || fail "option values cannot inject elements"
"$FG" --fonttype 'x;}</style><script>alert(1)</script>' "$IN/basic.folded" > "$T/font.svg"
wellformed "--fonttype cannot break the style" "$T/font.svg"
printf 'main\thref=javascript:alert(1)\tg_extra=onload="alert(2)" class="x" stroke="red"\tid=a"b\n' > "$T/evil.attr"
"$FG" --nameattr "$T/evil.attr" "$IN/basic.folded" > "$T/attr.svg" 2> "$TMP/err"
wellformed "--nameattr values are escaped" "$T/attr.svg"
grep -q 'javascript:' "$T/attr.svg" && fail "script URLs are dropped" || pass "script URLs are dropped"
grep -q 'onload' "$T/attr.svg" && fail "event handler attributes are dropped" || pass "event handler attributes are dropped"
grep -q 'stroke="red"' "$T/attr.svg" && pass "harmless g_extra attributes are kept" || fail "harmless g_extra attributes are kept"
stderr_has "dropped attributes are reported with file:line" "evil.attr:1:"
for f in "$IN"/*.folded; do
	"$FG" "$f" > "$T/wf.svg" 2>/dev/null
	wellformed "well-formed: $(basename "$f")" "$T/wf.svg"
done

# Fractions never pass 100%.
printf 'a;b 0.3\na;c 0.3\n' > "$T/frac.folded"
"$FG" "$T/frac.folded" > "$T/frac.svg"
over=$(grep -o '[0-9.]*%)' "$T/frac.svg" | tr -d '%)' | awk '$1 > 100' | head -1)
[ -z "$over" ] && grep -q '(1 samples, 100.00%)' "$T/frac.svg" && pass "fractional counts never show more than 100%" \
	|| fail "fractional counts never show more than 100%" "$over"

# --total, --cp.
"$FG" --total 10 "$IN/basic.folded" > /dev/null 2> "$TMP/err"
stderr_has "--total below the input's total is reported" "is less than the input's total"
mkdir -p "$T/cp" && printf 'main->rgb(1,2,3)\nbroken line\nGC::mark->rgb(300,0,0)\n' > "$T/cp/palette.map"
(cd "$T/cp" && "$FG" --cp "$(cd "$OLDPWD" && pwd)/$IN/basic.folded" > cp.svg 2> err)
grep -q '<title>main [^<]*</title><rect[^>]*fill="rgb(1,2,3)"' "$T/cp/cp.svg" && pass "--cp uses palette.map colours" || fail "--cp uses palette.map colours"
grep -q 'palette.map:2:' "$T/cp/err" && pass "--cp reports malformed palette lines" || fail "--cp reports malformed palette lines" "$(cat "$T/cp/err")"
grep -q '^GC::collect->rgb(' "$T/cp/palette.map" && grep -q '^main->rgb(1,2,3)$' "$T/cp/palette.map" \
	&& pass "--cp writes new colours back, sorted" || fail "--cp writes palette.map"

# Hostile input sizes: a 1 MB line, binary garbage, a deep stack.
awk 'BEGIN { s = "main"; for (i = 0; i < 100000; i++) s = s ";fn" i % 97; print s " 1"; print "other 1" }' > "$T/long.folded"
expect_rc "a 1 MB line is drawn" 0 "$FG" "$T/long.folded"
# Compressed bytes make fixed, deterministic garbage.
cat tests/data/perf/*.txt.gz | tail -c +3 > "$T/garbage.bin"
"$FG" "$T/garbage.bin" > "$T/garbage.svg" 2>/dev/null
rc=$?
[ "$rc" = 0 ] || [ "$rc" = 2 ] && pass "binary garbage does not crash" || fail "binary garbage does not crash" "exit $rc"
wellformed "binary garbage still gives well-formed XML" "$T/garbage.svg"

# A machine without the zlib/xxhash headers gets told which packages to install.
if command -v make > /dev/null 2>&1; then
	make -s deps-check CC="cc -nostdinc" > "$TMP/out" 2> "$TMP/err"
	[ $? != 0 ] && grep -q "zlib1g-dev libxxhash-dev" "$TMP/err" && pass "missing headers name the Debian packages" \
		|| fail "missing headers name the Debian packages" "$(cat "$TMP/err")"
fi
