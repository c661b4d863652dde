# stackcollapse-perf against ../shared/conformance/perf-script (sourced).
# Results named -collapsed.txt, sourcepawn-jitdump and versioned-vmlinux
# come from a reimplementation with stackcollapse-perf.pl's bugs fixed and
# must match byte for byte.  The others are stackcollapse-perf.pl's own;
# they differ only where the input's last stack has no blank line after it
# (stackcollapse-perf.pl drops it): those are compared on the input up to
# its last blank line, and the full input must add exactly that stack.
CONF=../shared/conformance/perf-script
if [ ! -d "$CONF" ]; then
	skip "conformance/perf-script" "../shared/conformance is not present"
else
	for r in "$CONF"/results/*.txt; do
		b=$(basename "$r" .txt)
		name=${b%-collapsed*}
		opt=${b#*-collapsed}
		opt=${opt#-}
		in=$CONF/$name.txt
		[ -f "$in" ] || in=$CONF/$name.txt.gz
		case "$opt" in ""|default) set -- ;; *) set -- "--$opt" ;; esac
		FLAME_CHUNK=4096 "$SCP" --threads 3 "$@" "$in" > "$P/full.folded" 2>/dev/null
		if cmp -s "$P/full.folded" "$r"; then
			pass "conformance/perf-script: $b"
			continue
		fi
		zcat -f "$in" | awk '{ buf = buf $0 "\n" } /^[ \t]*$/ { printf "%s", buf; buf = "" }' > "$P/cut.txt"
		"$SCP" "$@" "$P/cut.txt" > "$P/cut.folded" 2>/dev/null
		if cmp -s "$P/cut.folded" "$r"; then
			extra=$(($(total "$P/full.folded") - $(total "$P/cut.folded")))
			last=$(zcat -f "$in" | awk '/[0-9]+\.[0-9]+:[ \t]/ { h = $0 } END { print h }' | sed -n 's/.*: *\([0-9][0-9]*\) [^ ]*: *$/\1/p')
			[ "$extra" = "${last:-1}" ] && pass "conformance/perf-script: $b (and counts the unterminated last stack)" \
				|| fail "conformance/perf-script: $b last stack" "extra $extra, want ${last:-1}"
		else
			fail "conformance/perf-script: $b" "$(diff "$r" "$P/full.folded" | head -6 | cut -c1-200)"
		fi
	done
fi
