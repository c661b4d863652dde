# flame record (sourced by run.sh): options checked before anything runs,
# messages when perf is missing or cannot run the command, no temporary
# file left behind, and with perf here a real program recorded and drawn.
FL=$(pwd)/$B/flame
R=$TMP/record
mkdir -p "$R/tmp" "$R/empty" "$R/run"
rrun() { _r=$1 _n=$2; shift 2; expect_exit "$_r" "flame record: $_n" env TMPDIR="$R/tmp" "$FL" record "$@"; }
no_leftovers() {
	[ -z "$(ls -A "$R/tmp")" ] && pass "flame record: no temporary file left ($1)" \
		|| fail "flame record: temporary files left ($1)" "$(ls -A "$R/tmp")"
	rm -f "$R/tmp"/*
}

rrun 2 "a command is needed" --title T
expect_err "flame record: says where the command goes" "after '--'"
rrun 2 "--freq 0 is refused" --freq 0 -- true
expect_err "flame record: names the bad --freq" "not '0'"
rrun 2 "--call-graph lbr is refused" --call-graph lbr -- true
expect_err "flame record: names the bad --call-graph" "fp or dwarf"
rrun 2 "an input file is refused" in.folded -- true
expect_err "flame record: says the command makes the input" "no input files"
rrun 2 "flame's own options are checked first" --minwidth x -- true
no_leftovers "usage errors"

expect_exit 1 "flame record: perf missing" env PATH="$R/empty" TMPDIR="$R/tmp" "$FL" record -- true
expect_err "flame record: says how to install perf" "linux-perf"
no_leftovers "perf missing"

if ! command -v perf > /dev/null 2>&1 || ! perf record -q -o "$R/probe.data" -- true > /dev/null 2>&1; then
	skip "flame record: recording a program" "perf cannot record here"
elif ! command -v gcc > /dev/null 2>&1; then
	skip "flame record: recording a program" "no gcc"
else
	cat > "$R/prog.c" <<'EOF'
volatile unsigned long sink;
__attribute__((noinline)) void record_leaf(void) { for (unsigned long i = 0; i < 40000000; i++) sink += i; }
__attribute__((noinline)) void record_mid(void) { record_leaf(); sink++; }
int main(void) { record_mid(); return 0; }
EOF
	gcc -O0 -g -fno-omit-frame-pointer -o "$R/prog" "$R/prog.c"
	cd "$R/run" && expect_exit 0 "flame record: a program is recorded and drawn" \
		env TMPDIR="$R/tmp" "$FL" record -- "$R/prog"
	cd "$OLDPWD" || exit 1
	if [ -f "$R/run/flame.svg" ] && xml_ok "$R/run/flame.svg"; then
		pass "flame record: flame.svg is the default output"
	else
		fail "flame record: flame.svg is the default output"
	fi
	grep -q 'record_leaf' "$R/run/flame.svg" && pass "flame record: the hot function is in the graph" \
		|| fail "flame record: the hot function is in the graph" "$(head -c 300 "$TMP/err")"
	grep -q "Flame Graph: $R/prog" "$R/run/flame.svg" && pass "flame record: the command is the title" \
		|| fail "flame record: the command is the title"
	no_leftovers "a recording"
	rrun 0 "--collapsed to -o" --collapsed -o "$R/c.folded" -- "$R/prog"
	grep -q 'main;record_mid;record_leaf ' "$R/c.folded" && pass "flame record: frame-pointer stacks whole" \
		|| fail "flame record: frame-pointer stacks whole" "$(head -c 400 "$R/c.folded")"
	rrun 0 "a failing command is still drawn" -o "$R/f.svg" -- sh -c "$R/prog; exit 3"
	expect_err "flame record: the command's status is told" "exited with status 3"
	rrun 1 "a command that cannot run" -o "$R/n.svg" -- "$R/no-such-program"
	expect_err "flame record: says perf could not run it" "could not run"
	no_leftovers "failures"
fi
