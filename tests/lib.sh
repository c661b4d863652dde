# Shared helpers for the test scripts, sourced by tests/run.sh.
# Each check calls pass, fail or skip once; run.sh prints the totals.

PASSED=0
FAILED=0
SKIPPED=0

pass() { PASSED=$((PASSED + 1)); [ -n "$VERBOSE" ] && echo "ok   $1"; return 0; }
fail() { FAILED=$((FAILED + 1)); echo "FAIL $1"; [ -n "$2" ] && printf '%s\n' "$2" | sed 's/^/     /' | head -40; return 0; }
skip() { SKIPPED=$((SKIPPED + 1)); echo "skip $1${2:+ ($2)}"; return 0; }

# check NAME CMD...: passes when CMD succeeds.
check() {
	_n=$1; shift
	if _out=$("$@" 2>&1); then pass "$_n"; else fail "$_n" "$_out"; fi
}

# XML well-formedness with expat (python3), the strictest parser at hand.
have_python() { command -v python3 >/dev/null 2>&1; }
xml_ok() {
	python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$1"
}

# run_cases TOOL DIR TAG: runs each "NAME EXPECTED ARGS" line of DIR/cases
# (inputs relative to DIR) and compares the output with DIR/results/EXPECTED.
run_cases() {
	_tool=$1 _dir=$2 _tag=$3
	grep -v '^#' "$_dir/cases" | while read -r _name _want _args; do
		(cd "$_dir" && eval "set -- $_args" && "$_tool" "$@") > "$TMP/case.out" 2> "$TMP/case.err"
		if cmp -s "$TMP/case.out" "$_dir/results/$_want"; then
			echo "pass"
		else
			echo "FAIL $_tag/$_name"
			diff "$_dir/results/$_want" "$TMP/case.out" | head -8 | sed 's/^/     /'
		fi
	done > "$TMP/cases.out"
	PASSED=$((PASSED + $(grep -c '^pass' "$TMP/cases.out")))
	FAILED=$((FAILED + $(grep -c '^FAIL' "$TMP/cases.out")))
	grep -v '^pass' "$TMP/cases.out"
	return 0
}

# expect_exit RC NAME CMD...: passes when CMD exits with RC; its stdout and
# stderr stay in $TMP/out and $TMP/err for the checks that follow.
expect_exit() {
	_rc=$1 _n=$2
	shift 2
	"$@" > "$TMP/out" 2> "$TMP/err"
	_got=$?
	if [ "$_got" = "$_rc" ]; then pass "$_n"; else fail "$_n" "exit $_got, wanted $_rc: $(head -c 300 "$TMP/err")"; fi
}

# expect_err NAME TEXT: the last expect_exit's stderr contains TEXT.
expect_err() {
	if grep -qF -- "$2" "$TMP/err"; then pass "$1"; else fail "$1" "stderr: $(head -c 400 "$TMP/err")"; fi
}
