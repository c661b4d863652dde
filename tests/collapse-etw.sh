# stackcollapse-etw tests (sourced by run.sh): hand-written wpaexporter
# exports with hand-written expected results (tests/data/etw/cases).
SETW=$(pwd)/$B/stackcollapse-etw
ED=tests/data/etw
EW=$TMP/etw
mkdir -p "$EW"

run_cases "$SETW" "$ED" etw

erun() { _r=$1 _n=$2; shift 2; expect_exit "$_r" "etw: $_n" "$SETW" "$@"; }
eerr() { expect_err "etw: $1" "$2"; }

erun 0 "malformed rows do not fail the run" "$ED/malformed.csv"
printf 'app.exe (1);TID 10;app.exe!ok 1\napp.exe (1);TID 11;app.exe!ok2 1\n' > "$EW/want"
cmp -s "$TMP/out" "$EW/want" && pass "etw: malformed rows are skipped, the rest kept" \
	|| fail "etw: malformed rows are skipped, the rest kept" "$(cat "$TMP/out")"
eerr "a bad process is named file:line" "malformed.csv:3: the process is not"
eerr "a bad thread ID is named file:line" "malformed.csv:4: the thread ID is not a number"
eerr "malformed rows are counted" "skipped 3 rows"
erun 0 "dumper text with a truncated last line" "$ED/dumper.txt"
eerr "the truncated dumper line is named file:line" "dumper.txt:35: a Stack line without"
printf 'Level,Function Name\n0,"x"\n' > "$EW/vs.csv"
erun 1 "another CSV (a VS report) is not read as an export" "$EW/vs.csv"
erun 1 "a missing file" "$EW/nope.csv"
erun 2 "a bad --pid" --pid x "$ED/cpu.csv"
erun 1 "--weight with no such column" --weight Nope "$ED/cpu.csv"
erun 1 "--begin without a TimeStamp column" --begin 1 "$ED/cpu.csv"
if command -v iconv > /dev/null 2>&1; then
	{ printf '\377\376'; tail -c +4 "$ED/cpu.csv" | iconv -f UTF-8 -t UTF-16LE; } > "$EW/u16.csv"
	"$SETW" "$EW/u16.csv" > "$EW/u16.folded"
	cmp -s "$EW/u16.folded" "$ED/results/cpu.folded" && pass "etw: UTF-16LE with BOM" || fail "etw: UTF-16LE with BOM"
fi
printf 'Process,Thread ID,Stack\nlegacy\351.exe (5),1,[Root]/m.dll!caf\351\n' > "$EW/ansi.csv"
"$SETW" "$EW/ansi.csv" > "$EW/ansi.folded"
grep -q "$(printf 'caf\351 1')" "$EW/ansi.folded" && pass "etw: ANSI bytes pass through" || fail "etw: ANSI bytes pass through"
"$FG" "$EW/ansi.folded" > "$EW/ansi.svg" 2>/dev/null
have_python && { xml_ok "$EW/ansi.svg" && pass "etw: ANSI names still render well-formed" || fail "etw: ANSI names render"; }

# --split: the busiest threads, one file each, listed on stdout; names
# that differ only in case get a suffix (Windows would see one file).
mkdir -p "$EW/split"
erun 0 "--split" --split "$EW/split" --top 2 "$ED/cpu.csv"
[ -f "$EW/split/chrome.exe_8872_6148.folded" ] && [ -f "$EW/split/CHROME.EXE_8872_6148-2.folded" ] \
	&& [ "$(ls "$EW/split" | wc -l)" = 2 ] && pass "etw: --split writes the top 2 threads" \
	|| fail "etw: --split writes the top 2 threads" "$(ls "$EW/split")"
grep '^chrome.exe (8872);TID 6148;' "$ED/results/cpu.folded" > "$EW/want"
cmp -s "$EW/split/chrome.exe_8872_6148.folded" "$EW/want" && pass "etw: a split file holds its thread's stacks" \
	|| fail "etw: a split file holds its thread's stacks"
head -1 "$TMP/out" | grep -q "chrome.exe_8872_6148.folded	2	40.0%	chrome.exe (8872);TID 6148" \
	&& pass "etw: --split lists files, samples and share on stdout" || fail "etw: --split summary" "$(cat "$TMP/out")"
# A split file that cannot be written (a link to a full disk): its path
# and the reason are named, exit 1.
if [ -w /dev/full ]; then
	mkdir -p "$EW/splitf"
	ln -s /dev/full "$EW/splitf/chrome.exe_8872_6148.folded"
	erun 1 "--split onto a full disk" --split "$EW/splitf" "$ED/cpu.csv"
	expect_err "etw: --split names the file and the reason" \
		"write error on '$EW/splitf/chrome.exe_8872_6148.folded': No space left on device"
fi
mkdir -p "$EW/splitp"
"$SETW" --split "$EW/splitp" --top 5 --collapse-threads "$ED/cpu.csv" > "$TMP/out"
[ -f "$EW/splitp/chrome.exe_8872.folded" ] && [ "$(grep -c . "$EW/splitp/chrome.exe_8872.folded")" = 2 ] \
	&& pass "etw: --split --collapse-threads writes one file per process" || fail "etw: --split per process" "$(ls "$EW/splitp")"
if command -v iconv > /dev/null 2>&1; then
	{ printf '\376\377'; iconv -f UTF-8 -t UTF-16BE "$ED/dumper.txt"; } > "$EW/dump16.txt"
	"$SETW" "$EW/dump16.txt" > "$EW/dump16.folded" 2>/dev/null
	cmp -s "$EW/dump16.folded" "$ED/results/dumper.folded" && pass "etw: dumper text in UTF-16BE" \
		|| fail "etw: dumper text in UTF-16BE" "$(head -3 "$EW/dump16.folded")"
fi
mkdir -p "$EW/dsplit"
"$SETW" --split "$EW/dsplit" --top 9 --collapse-threads "$ED/dumper.txt" > "$TMP/out" 2>/dev/null
[ "$(ls "$EW/dsplit" | tr '\n' ' ')" = "game.exe_56.folded my_app.exe_1234.folded " ] \
	&& [ "$(grep -c . "$EW/dsplit/game.exe_56.folded")" = 3 ] \
	&& pass "etw: dumper --split --collapse-threads: one file per process" \
	|| fail "etw: dumper --split per process" "$(ls "$EW/dsplit"; cat "$TMP/out")"
