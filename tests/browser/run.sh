# Browser tests (sourced by run.sh): the viewer in Debian's chromium via
# playwright-core.  Skipped, and said so, when either is missing.
_bdir=tests/browser
if ! command -v node > /dev/null 2>&1; then
	skip "browser tests" "node is not installed"
elif [ ! -x "${CHROMIUM:-/usr/bin/chromium}" ]; then
	skip "browser tests" "chromium is not installed (apt-get install chromium)"
elif [ ! -d "$_bdir/node_modules/playwright-core" ]; then
	skip "browser tests" "playwright-core is not installed (cd $_bdir && npm ci)"
else
	node "$_bdir/viewer.test.mjs" "$(pwd)/$B/flamegraph" "$(pwd)/tests/data/flamegraph-inputs" > "$TMP/browser.out" 2>&1
	_rc=$?
	# The compact form of huge graphs (render/compact.h).
	node "$_bdir/compact.test.mjs" "$(pwd)/$B/flamegraph" >> "$TMP/browser.out" 2>&1 || _rc=$?
	_p=$(grep -c '^ok ' "$TMP/browser.out")
	_f=$(grep -c '^FAIL ' "$TMP/browser.out")
	PASSED=$((PASSED + _p))
	FAILED=$((FAILED + _f))
	grep '^FAIL ' "$TMP/browser.out"
	if [ "$_rc" != 0 ] && [ "$_f" = 0 ]; then
		fail "browser tests ran to the end" "$(tail -20 "$TMP/browser.out")"
	fi
fi
