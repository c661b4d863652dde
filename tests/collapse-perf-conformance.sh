# stackcollapse-perf against ../shared/conformance/perf-script (sourced).
# Results named -collapsed.txt, sourcepawn-jitdump and versioned-vmlinux
# come from a reimplementation with stackcollapse-perf.pl's bugs fixed and
# must match byte for byte.  The others are stackcollapse-perf.pl's own;
# they differ only where the input's last stack has no blank line after it
# (stackcollapse-perf.pl drops it): those are compared on the input up to
# its last blank line, and the full input must add exactly that stack.
#
# Eight of stackcollapse-perf.pl's files are stale: the --pid and --tid
# results of perf-java-faults-01, perf-java-stacks-01 (here) and
# perf-java-stacks-02, perf-vertx-stacks-01 (FlameGraph's test/ folder,
# read when FLAMEGRAPH_DIR names a FlameGraph checkout) were recorded
# before FlameGraph's e54f142 (2017), which tidies Java names under any
# root starting with "java".  They are compared after that tidying is
# applied to them (java_tidied), and FLAMEGRAPH_DIR's two are checked the
# same way as the shared ones.  STACKCOLLAPSE_PERF_PL (or FLAMEGRAPH_DIR's
# script, or stackcollapse-perf.pl on PATH) adds a live comparison.
CONF=../shared/conformance/perf-script
FGD=${FLAMEGRAPH_DIR:-}
[ -n "$FGD" ] && [ ! -d "$FGD/test" ] && FGD=

# cut_input IN OUT: IN up to its last blank line (what the script counts).
cut_input() {
	zcat -f "$1" | awk '{ buf = buf $0 "\n" } /^[ \t]*$/ { printf "%s", buf; buf = "" }' > "$2"
}

# fold_sorted: collapsed lines with equal stacks summed, sorted bytewise.
fold_sorted() {
	awk '{ n = $NF; s = substr($0, 1, length($0) - length(n) - 1); sum[s] += n }
		END { for (s in sum) printf "%s %.0f\n", s, sum[s] }' | LC_ALL=C sort
}

# java_tidied FILE: FILE as stackcollapse-perf.pl writes it since e54f142:
# under a root starting with "java" a frame with a '/' loses a leading 'L'.
java_tidied() {
	awk '{
		n = $NF; k = split(substr($0, 1, length($0) - length(n) - 1), f, ";")
		if (f[1] ~ /^java/)
			for (i = 2; i <= k; i++)
				if (f[i] ~ /^L/ && index(f[i], "/")) f[i] = substr(f[i], 2)
		s = f[1]; for (i = 2; i <= k; i++) s = s ";" f[i]
		print s, n
	}' "$1" | fold_sorted
}

is_stale() {
	case "$1" in
	perf-java-faults-01-collapsed-[pt]id|perf-java-stacks-0[12]-collapsed-[pt]id|\
	perf-vertx-stacks-01-collapsed-[pt]id) return 0 ;;
	esac
	return 1
}

# conform RESULT INPUT: stackcollapse-perf with RESULT's option on INPUT.
conform() {
	_b=$(basename "$1" .txt)
	_opt=${_b#*-collapsed}
	_opt=${_opt#-}
	_want=$1 _in=$2
	if is_stale "$_b"; then
		java_tidied "$1" > "$P/want.txt"
		_want=$P/want.txt
		_b="$_b (stale: Java names tidied as since FlameGraph e54f142)"
	fi
	case "$_opt" in ""|default) set -- ;; *) set -- "--$_opt" ;; esac
	FLAME_CHUNK=4096 "$SCP" --threads 3 "$@" "$_in" > "$P/full.folded" 2>/dev/null
	if cmp -s "$P/full.folded" "$_want"; then
		pass "conformance/perf-script: $_b"
		return
	fi
	cut_input "$_in" "$P/cut.txt"
	"$SCP" "$@" "$P/cut.txt" > "$P/cut.folded" 2>/dev/null
	if cmp -s "$P/cut.folded" "$_want"; then
		extra=$(($(total "$P/full.folded") - $(total "$P/cut.folded")))
		last=$(zcat -f "$_in" | awk '/[0-9]+\.[0-9]+:[ \t]/ { h = $0 } END { print h }' | sed -n 's/.*: *\([0-9][0-9]*\) [^ ]*: *$/\1/p')
		[ "$extra" = "${last:-1}" ] && pass "conformance/perf-script: $_b (and counts the unterminated last stack)" \
			|| fail "conformance/perf-script: $_b last stack" "extra $extra, want ${last:-1}"
	else
		fail "conformance/perf-script: $_b" "$(diff "$_want" "$P/full.folded" | head -6 | cut -c1-200)"
	fi
}

# The captures of Java processes, wherever they are.
JAVA_CAPTURES=
for c in perf-java-stacks-01 perf-java-stacks-02 perf-java-faults-01 perf-vertx-stacks-01; do
	if [ -f "$CONF/$c.txt" ]; then
		JAVA_CAPTURES="$JAVA_CAPTURES $CONF/$c.txt"
	elif [ -n "$FGD" ] && [ -f "$FGD/test/$c.txt" ]; then
		JAVA_CAPTURES="$JAVA_CAPTURES $FGD/test/$c.txt"
	fi
done

if [ ! -d "$CONF" ]; then
	skip "conformance/perf-script" "../shared/conformance is not present"
else
	for r in "$CONF"/results/*.txt; do
		name=$(basename "$r" .txt)
		name=${name%-collapsed*}
		in=$CONF/$name.txt
		[ -f "$in" ] || in=$CONF/$name.txt.gz
		conform "$r" "$in"
	done
fi
if [ -z "$FGD" ]; then
	skip "conformance/perf-script: perf-java-stacks-02, perf-vertx-stacks-01" "set FLAMEGRAPH_DIR to a FlameGraph checkout"
else
	for c in perf-java-stacks-02 perf-vertx-stacks-01; do
		for r in "$FGD/test/results/$c"-collapsed-*.txt; do
			[ -f "$r" ] && conform "$r" "$FGD/test/$c.txt"
		done
	done
fi

# Without Perl: --pid and --tid change the root frame and nothing else, so
# with the root's "-PID" or "-PID/TID" taken off they give the default
# output (Java names tidied alike).
for cap in $JAVA_CAPTURES; do
	c=$(basename "$cap" .txt)
	"$SCP" "$cap" > "$P/default.folded" 2>/dev/null
	for opt in pid tid; do
		"$SCP" --$opt "$cap" 2>/dev/null |
			sed 's/^\([^;]*\)-[0-9?]*\(\/[0-9]*\)\{0,1\}\([; ]\)/\1\3/' | fold_sorted > "$P/renamed.folded"
		if ! grep -q . "$P/default.folded"; then
			fail "perf --$opt on $c: only the root changes" "no output"
		elif cmp -s "$P/default.folded" "$P/renamed.folded"; then
			pass "perf --$opt on $c: only the root changes"
		else
			fail "perf --$opt on $c: only the root changes" "$(diff "$P/default.folded" "$P/renamed.folded" | head -6 | cut -c1-200)"
		fi
	done
done

# Live: stackcollapse-perf.pl itself on the Java captures and the shared
# perf-*.txt captures (all recorded with it), every option, on the input
# up to its last blank line (the script drops an unterminated last stack).
SPL=${STACKCOLLAPSE_PERF_PL:-}
[ -z "$SPL" ] && [ -n "$FGD" ] && [ -f "$FGD/stackcollapse-perf.pl" ] && SPL=$FGD/stackcollapse-perf.pl
[ -z "$SPL" ] && SPL=$(command -v stackcollapse-perf.pl 2>/dev/null)
if [ -z "$SPL" ] || ! command -v perl > /dev/null 2>&1; then
	skip "live comparison with stackcollapse-perf.pl" "set STACKCOLLAPSE_PERF_PL or FLAMEGRAPH_DIR"
else
	live=$JAVA_CAPTURES
	for cap in "$CONF"/perf-*.txt; do
		case " $live " in *" $cap "*) ;; *) [ -f "$cap" ] && live="$live $cap" ;; esac
	done
	for cap in $live; do
		c=$(basename "$cap" .txt)
		cut_input "$cap" "$P/cut.txt"
		for opt in none pid tid kernel jit all addrs; do
			if [ $opt = none ]; then set --; else set -- "--$opt"; fi
			perl "$SPL" "$@" "$P/cut.txt" > "$P/pl.folded" 2>/dev/null
			"$SCP" "$@" "$P/cut.txt" > "$P/c.folded" 2>/dev/null
			if [ -s "$P/pl.folded" ] && cmp -s "$P/pl.folded" "$P/c.folded"; then
				pass "live stackcollapse-perf.pl: $c --$opt"
			else
				fail "live stackcollapse-perf.pl: $c --$opt" "$(diff "$P/pl.folded" "$P/c.folded" | head -6 | cut -c1-200)"
			fi
		done
	done
fi
