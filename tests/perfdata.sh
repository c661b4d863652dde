# stackcollapse-perf and flame reading perf.data natively (sourced by
# run.sh).  The measure is always perf script's own text of the same
# recording through the text path: same stacks, same weights.  Checks of
# the reading alone turn symbols off on both sides (perf script's
# --symfs=/nonexistent --kallsyms=/dev/null, and flame's options of the
# same names); recordings made here are also compared with symbols on.
#
#  - tests/data/perfdata: small recordings of calls.c made here (frame
#    pointers, -z, pipe mode, both, two events, no callchain), each with
#    its perf script text (-F +pid, so --pid has pids to show);
#  - ../shared/samples/perf-data: other machines' recordings (perf 3.4 to
#    6.12, i686, armv7, aarch64, pipe mode, hybrid) and the perf script
#    text of each (no pids there: no --pid);
#  - a big-endian copy made by tests/tools/perfdata_swap.py;
#  - damaged copies (tests/tools/perfdata_patch.py): a clear message with
#    the byte offset, the valid samples kept, no crash;
#  - live recordings with this machine's perf, when it can record.
SC=$B/stackcollapse-perf
PD=tests/data/perfdata
REF=../shared/samples/perf-data

# sum_weights: the total of the counts of collapsed lines.
sum_weights() {
	awk '{ s += $NF } END { printf "%.0f\n", s }'
}

# same_stacks NAME DATA TEXT OPTS...: DATA read natively and TEXT (perf
# script's, maybe gzipped) through the text path give the same stacks.
# NOSYM: the native side's options for symbols off (set empty for on).
NOSYM="--symfs /nonexistent --kallsyms /dev/null"
same_stacks() {
	_n=$1 _data=$2 _text=$3
	shift 3
	# shellcheck disable=SC2086
	"$SC" $NOSYM "$@" "$_data" 2> "$TMP/pd.err" | LC_ALL=C sort > "$TMP/pd.a"
	zcat -f "$_text" | "$SC" "$@" 2> /dev/null | LC_ALL=C sort > "$TMP/pd.b"
	if [ ! -s "$TMP/pd.b" ]; then
		fail "$_n: perf script's text gives no stacks"
	elif cmp -s "$TMP/pd.a" "$TMP/pd.b"; then
		pass "$_n"
	else
		fail "$_n" "$(cat "$TMP/pd.err"; diff "$TMP/pd.a" "$TMP/pd.b" | head -10)"
	fi
}

# ---- the recordings kept here ----
for _f in fp z pipe zpipe ev2 nocg; do
	for _o in "" "--addrs" "--pid --tid" "--kernel --addrs"; do
		# shellcheck disable=SC2086
		same_stacks "perfdata $_f ${_o:-(plain)}" "$PD/$_f.data" "$PD/$_f.script.gz" $_o
	done
done
same_stacks "perfdata ev2 --event-filter task-clock" "$PD/ev2.data" "$PD/ev2.script.gz" \
	--event-filter task-clock
# A second thread collapses what the reader resolves (one event, from a
# file): the same stacks and messages as on one thread, also when every
# sample makes a batch of its own.
for _f in fp z ev2 nocg; do
	for _o in "" "--pid --tid --addrs"; do
		# shellcheck disable=SC2086
		"$SC" --threads 1 $_o "$PD/$_f.data" > "$TMP/pd.a" 2> "$TMP/pd.ea"
		# shellcheck disable=SC2086
		"$SC" --threads 2 $_o "$PD/$_f.data" > "$TMP/pd.b" 2> "$TMP/pd.eb"
		# shellcheck disable=SC2086
		FLAME_PD_BATCH=1 "$SC" --threads 2 $_o "$PD/$_f.data" > "$TMP/pd.c" 2> "$TMP/pd.ec"
		if [ -s "$TMP/pd.a" ] && cmp -s "$TMP/pd.a" "$TMP/pd.b" && cmp -s "$TMP/pd.a" "$TMP/pd.c" &&
		   cmp -s "$TMP/pd.ea" "$TMP/pd.eb" && cmp -s "$TMP/pd.ea" "$TMP/pd.ec"; then
			pass "perfdata $_f ${_o:-(plain)}: one thread and two agree"
		else
			fail "perfdata $_f ${_o:-(plain)}: one thread and two agree" \
				"$(diff "$TMP/pd.a" "$TMP/pd.c" | head -5; diff "$TMP/pd.ea" "$TMP/pd.ec" | head -5)"
		fi
	done
done
# A frame cache of 4 slots, where frames of one chain take each other's
# slots all the time: the collapser's notes kept in a slot (hints) must
# go with the frame that leaves it, else frames get others' names.
for _f in fp z pipe zpipe ev2 nocg; do
	for _o in "" "--all" "--pid --addrs"; do
		# shellcheck disable=SC2086
		"$SC" --threads 1 $_o "$PD/$_f.data" > "$TMP/pd.a" 2>&1
		# shellcheck disable=SC2086
		FLAME_PD_FCACHE=4 "$SC" --threads 1 $_o "$PD/$_f.data" > "$TMP/pd.b" 2>&1
		if [ -s "$TMP/pd.a" ] && cmp -s "$TMP/pd.a" "$TMP/pd.b"; then
			pass "perfdata $_f ${_o:-(plain)}: a frame cache of 4 slots changes nothing"
		else
			fail "perfdata $_f ${_o:-(plain)}: a frame cache of 4 slots changes nothing" \
				"$(diff "$TMP/pd.a" "$TMP/pd.b" | head -5)"
		fi
	done
done
# With several events the reader foretells which one the collapser keeps
# (the one it is told, or was given by an earlier input, or meets first)
# and names frames for those samples only: the same on one thread and
# two.  tc.txt: perf script text of ev2's task-clock samples alone, read
# first so that the collapser has chosen before the perf.data begins.
# fp.txt after fp.data: the text's first chunk starts the workers, and
# the perf.data's stacks, already collapsed, must stay.
gzip -dc "$PD/ev2.script.gz" | awk -v RS= -v ORS='\n\n' '/task-clock:/' > "$TMP/tc.txt"
gzip -dc "$PD/fp.script.gz" > "$TMP/fp.txt"
for _o in "--event-filter task-clock $PD/ev2.data" "--event-filter cpu-clock $PD/ev2.data" \
	  "--event-filter nosuch $PD/ev2.data" "$TMP/tc.txt $PD/ev2.data" "$PD/fp.data $PD/ev2.data" \
	  "$PD/fp.data $TMP/fp.txt" "$PD/fp.data $PD/fp.data $TMP/fp.txt"; do
	# shellcheck disable=SC2086
	"$SC" --threads 1 $_o > "$TMP/pd.a" 2> "$TMP/pd.ea"
	# shellcheck disable=SC2086
	FLAME_PD_BATCH=1 "$SC" --threads 2 $_o > "$TMP/pd.b" 2> "$TMP/pd.eb"
	_n="perfdata ${_o#"$PD"/}: one thread and two agree"
	if cmp -s "$TMP/pd.a" "$TMP/pd.b" && cmp -s "$TMP/pd.ea" "$TMP/pd.eb"; then
		pass "$_n"
	else
		fail "$_n" "$(diff "$TMP/pd.a" "$TMP/pd.b" | head -5; diff "$TMP/pd.ea" "$TMP/pd.eb" | head -5)"
	fi
done
if [ "$(grep -c . "$TMP/tc.txt")" -gt 100 ] &&
   "$SC" "$TMP/tc.txt" "$PD/ev2.data" 2>&1 >/dev/null | grep -q "kept only 'task-clock'"; then
	pass "perfdata after a text input: its event is kept"
else
	fail "perfdata after a text input: its event is kept" "no task-clock message"
fi
# stdin: pipe mode streams, file mode is read whole; gzip is inflated.
for _f in fp pipe zpipe; do
	"$SC" --addrs < "$PD/$_f.data" | LC_ALL=C sort > "$TMP/pd.a"
	"$SC" --addrs "$PD/$_f.data" | LC_ALL=C sort > "$TMP/pd.b"
	if [ -s "$TMP/pd.a" ] && cmp -s "$TMP/pd.a" "$TMP/pd.b"; then
		pass "perfdata $_f from stdin"
	else
		fail "perfdata $_f from stdin" "$(diff "$TMP/pd.a" "$TMP/pd.b" | head)"
	fi
	gzip -c < "$PD/$_f.data" > "$TMP/pd.gz"
	"$SC" --addrs "$TMP/pd.gz" | LC_ALL=C sort > "$TMP/pd.a"
	if [ -s "$TMP/pd.a" ] && cmp -s "$TMP/pd.a" "$TMP/pd.b"; then
		pass "perfdata $_f gzipped"
	else
		fail "perfdata $_f gzipped" "$(diff "$TMP/pd.a" "$TMP/pd.b" | head)"
	fi
done
# flame: told by its magic, from a file and from a pipe.
# shellcheck disable=SC2086
if "$B/flame" $NOSYM "$PD/fp.data" -o "$TMP/pd.svg" 2> "$TMP/pd.err" && grep -q '\[calls\]' "$TMP/pd.svg"; then
	pass "perfdata flame FILE"
else
	fail "perfdata flame FILE" "$(cat "$TMP/pd.err")"
fi
# shellcheck disable=SC2086
if "$B/flame" $NOSYM - -o "$TMP/pd.svg" < "$PD/zpipe.data" 2> "$TMP/pd.err" && grep -q '\[calls\]' "$TMP/pd.svg"; then
	pass "perfdata flame - (pipe mode, compressed)"
else
	fail "perfdata flame - (pipe mode, compressed)" "$(cat "$TMP/pd.err")"
fi
# flame's filters read the same fields as in perf script's text.
_pid=$(zcat "$PD/ev2.script.gz" | awk 'NR == 1 { split($2, a, "/"); print a[1] }')
_t=$(zcat "$PD/ev2.script.gz" | awk '/cpu-clock/ { sub(":", "", $3); print $3 }' | sed -n 20p)
for _o in "--pid $_pid" "--tid $_pid" "--begin $_t" "--end $_t" "--process calls"; do
	# shellcheck disable=SC2086
	"$B/flame" --collapsed $NOSYM $_o "$PD/ev2.data" 2> /dev/null | LC_ALL=C sort > "$TMP/pd.a"
	# shellcheck disable=SC2086
	zcat "$PD/ev2.script.gz" | "$B/flame" --collapsed $_o - 2> /dev/null | LC_ALL=C sort > "$TMP/pd.b"
	if [ -s "$TMP/pd.b" ] && cmp -s "$TMP/pd.a" "$TMP/pd.b"; then
		pass "perfdata flame $_o"
	else
		fail "perfdata flame $_o" "$(diff "$TMP/pd.a" "$TMP/pd.b" | head)"
	fi
done
# The event filter's report names the other event, as the text path does.
"$SC" "$PD/ev2.data" > /dev/null 2> "$TMP/pd.err"
if grep -q "kept only 'cpu-clock' events; skipped [0-9]* samples of other events such as 'task-clock'" "$TMP/pd.err"; then
	pass "perfdata names the event it skipped"
else
	fail "perfdata names the event it skipped" "$(cat "$TMP/pd.err")"
fi

# ---- the other byte order ----
if have_python; then
	for _f in fp ev2 nocg; do
		python3 tests/tools/perfdata_swap.py "$PD/$_f.data" "$TMP/pd.be"
		if [ "$(od -An -c -N8 "$TMP/pd.be" | tr -d ' ')" != 2ELIFREP ]; then
			fail "perfdata $_f big-endian" "the converter wrote no big-endian magic"
			continue
		fi
		for _o in "--addrs" "--pid --tid --kernel"; do
			# shellcheck disable=SC2086
			same_stacks "perfdata $_f big-endian $_o" "$TMP/pd.be" "$PD/$_f.script.gz" $_o
		done
	done
else
	skip "perfdata big-endian" "no python3"
fi

# ---- other machines' recordings ----
if [ -d "$REF/reference-perf-script" ]; then
	for _t in "$REF"/reference-perf-script/*.perf-script.txt; do
		_b=$(basename "$_t" .perf-script.txt)
		_d=
		for _c in quipper lnt hotspot; do
			[ -f "$REF/$_c/$_b" ] && _d=$REF/$_c/$_b
		done
		if [ "$_b" = perfview-symbol-tests.perf.data ] && command -v unzip > /dev/null 2>&1 &&
		   unzip -q -o "$REF/perfview/symbol-tests.trace.zip" perf.data -d "$TMP/pv" 2> /dev/null; then
			_d=$TMP/pv/perf.data
		fi
		if [ -z "$_d" ]; then
			skip "perfdata reference $_b" "its recording is not in $REF"
			continue
		fi
		for _o in "" "--addrs" "--kernel --addrs"; do
			# shellcheck disable=SC2086
			same_stacks "perfdata reference $_b ${_o:-(plain)}" "$_d" "$_t" $_o
		done
	done
else
	skip "perfdata references" "$REF is absent"
fi
# The first format is refused, by name, not read as garbage.
if [ -f "$REF/hotspot/perf.data.true.v1" ]; then
	if "$SC" "$REF/hotspot/perf.data.true.v1" > /dev/null 2> "$TMP/pd.err"; then
		fail "perfdata v1 refused" "exit 0"
	else
		grep -q PERFFILE "$TMP/pd.err" && pass "perfdata v1 refused" ||
			fail "perfdata v1 refused" "$(cat "$TMP/pd.err")"
	fi
fi

# ---- damaged recordings ----
# bad_input NAME FILE EXIT MSG: FILE fails (EXIT) or not, says MSG.
bad_input() {
	"$SC" "$2" > "$TMP/pd.out" 2> "$TMP/pd.err"
	_rc=$?
	if [ "$_rc" != "$3" ]; then
		fail "perfdata $1" "exit $_rc, not $3: $(cat "$TMP/pd.err")"
	elif ! grep -q -- "$4" "$TMP/pd.err"; then
		fail "perfdata $1" "no '$4' in: $(cat "$TMP/pd.err")"
	else
		pass "perfdata $1"
	fi
}
if have_python; then
	PATCH=tests/tools/perfdata_patch.py
	_full=$("$SC" "$PD/fp.data" | sum_weights)
	python3 $PATCH datasize "$PD/fp.data" "$TMP/pd.bad"
	bad_input "lying data size" "$TMP/pd.bad" 1 "byte 40: data section .* runs past the end"
	[ "$(sum_weights < "$TMP/pd.out")" = "$_full" ] && pass "perfdata lying data size keeps every sample" ||
		fail "perfdata lying data size keeps every sample" "$(sum_weights < "$TMP/pd.out") of $_full"
	python3 $PATCH unknown "$PD/fp.data" "$TMP/pd.bad"
	bad_input "unknown record type" "$TMP/pd.bad" 0 "skipped 1 records of types not known"
	[ "$(sum_weights < "$TMP/pd.out")" = "$_full" ] && pass "perfdata unknown record skipped alone" ||
		fail "perfdata unknown record skipped alone" "$(sum_weights < "$TMP/pd.out") of $_full"
	_at=$(python3 $PATCH zerosize "$PD/fp.data" "$TMP/pd.bad")
	bad_input "record of size 0" "$TMP/pd.bad" 1 "byte $_at: record of 0 bytes"
	_got=$(sum_weights < "$TMP/pd.out")
	[ "$_got" -gt 0 ] && [ "$_got" -lt "$_full" ] && pass "perfdata record of size 0 keeps what came before" ||
		fail "perfdata record of size 0 keeps what came before" "$_got of $_full"
	# A callchain longer than its record loses that sample alone.
	set -- $(python3 $PATCH chain "$PD/fp.data" "$TMP/pd.bad")
	bad_input "callchain past its record" "$TMP/pd.bad" 0 "byte $1: sample of [0-9]* bytes does not hold"
	[ "$(sum_weights < "$TMP/pd.out")" = "$((_full - $2))" ] &&
		pass "perfdata callchain past its record loses one sample" ||
		fail "perfdata callchain past its record loses one sample" "$(sum_weights < "$TMP/pd.out") of $_full - $2"
	_at=$(python3 $PATCH cut "$PD/fp.data" "$TMP/pd.bad")
	bad_input "file cut short" "$TMP/pd.bad" 1 "runs past the end of the data"
	_got=$(sum_weights < "$TMP/pd.out")
	[ "$_got" -gt 0 ] && [ "$_got" -lt "$_full" ] && pass "perfdata file cut short keeps what came before" ||
		fail "perfdata file cut short keeps what came before" "$_got of $_full"
	_at=$(python3 $PATCH zgarbage "$PD/z.data" "$TMP/pd.bad")
	bad_input "garbage in a compressed record" "$TMP/pd.bad" 0 "byte $_at: compressed record"
	python3 $PATCH v1 "$PD/fp.data" "$TMP/pd.bad"
	bad_input "v1 magic" "$TMP/pd.bad" 1 "first format (\"PERFFILE\""
else
	skip "perfdata damaged inputs" "no python3"
fi
head -c 60 "$PD/pipe.data" > "$TMP/pd.bad"
bad_input "pipe cut in a record" "$TMP/pd.bad" 1 "cut short"
head -c 50 "$PD/fp.data" > "$TMP/pd.bad"
bad_input "header cut short" "$TMP/pd.bad" 1 "header cut short"

# ---- this machine's perf ----
perf_record() {	# perf_record OUT ARGS...: records calls.c's run
	_o=$1
	shift
	perf record -q -F 999 "$@" -o "$_o" -- "$TMP/calls" 60000 > /dev/null 2>&1
}
if ! command -v perf > /dev/null 2>&1 || ! command -v cc > /dev/null 2>&1; then
	skip "perfdata live recordings" "no perf or no cc"
elif ! cc -O0 -fno-omit-frame-pointer -o "$TMP/calls" "$PD/calls.c" ||
     ! perf_record "$TMP/live.data" -g || [ ! -s "$TMP/live.data" ]; then
	skip "perfdata live recordings" "perf cannot record here"
else
	perf_record "$TMP/live-z.data" -g -z
	perf record -q -F 999 -g -o - -- "$TMP/calls" 60000 2> /dev/null > "$TMP/live-pipe.data"
	perf_record "$TMP/live-ev.data" -e cpu-clock -e task-clock -g
	for _f in live live-z live-pipe live-ev; do
		perf script -i "$TMP/$_f.data" -F +pid --symfs=/nonexistent --kallsyms=/dev/null \
			> "$TMP/$_f.txt" 2> /dev/null
		for _o in "--addrs" "--tid"; do
			# shellcheck disable=SC2086
			same_stacks "perfdata $_f (recorded now) $_o" "$TMP/$_f.data" "$TMP/$_f.txt" $_o
		done
	done
	same_stacks "perfdata live-ev (recorded now) --event-filter task-clock" "$TMP/live-ev.data" \
		"$TMP/live-ev.txt" --event-filter task-clock --addrs
	# Symbols on: names from the ELF files, the kernel's from kallsyms.
	_nosym=$NOSYM
	NOSYM=
	for _f in live live-z live-pipe live-ev; do
		perf script -i "$TMP/$_f.data" -F +pid > "$TMP/$_f.sym.txt" 2> /dev/null
		for _o in "" "--tid --all"; do
			# shellcheck disable=SC2086
			same_stacks "perfdata $_f (recorded now) with symbols ${_o:-(plain)}" "$TMP/$_f.data" \
				"$TMP/$_f.sym.txt" $_o
		done
	done
	NOSYM=$_nosym
	# --call-graph dwarf on programs without frame pointers: the user
	# stacks are unwound from the copied stack, and each frame shows the
	# functions inlined there (from the debug info: the programs', libc's
	# when installed) as perf script shows them.  Whole stacks are
	# compared, of the samples taken while main ran: perf's unwinding
	# of ld.so's start-up and of exit handlers sometimes stops early where
	# flame's goes on, and ld.so's assembler functions (mprotect) have
	# aliases at one address of which binutils' addr2line picks one by
	# rules flame does not follow.
	# Aliases of libc and ld.so (one function under several names at one
	# address, as __munmap and __GI_munmap, or __memmove_* and
	# __memcpy_*_unaligned_erms) count as one name here: flame names them
	# as perf's symbol table keeps them, and so does perf script nearly
	# always, but under load it now and then printed the other name for a
	# DWARF-unwound frame (the same recording read by old builds and new
	# alike), likely the addr2line choice above.
	{ echo "- -"	# never empty: awk tells the two files apart by it
	  sh tests/tools/funcaliases.sh $(ldd "$SC" 2> /dev/null |
		awk '/libc.so|ld-linux/ { print ($3 ~ /^\// ? $3 : $1) }'); } > "$TMP/aliases"
	sum_same() {	# folded lines, aliases made one, summed, sorted
		awk 'NR == FNR { canon[$1] = $2; next }
		     { n = $NF; sub(/ [^ ]*$/, ""); k = split($0, f, ";"); s = ""
		       for (i = 1; i <= k; i++) s = s (i > 1 ? ";" : "") (f[i] in canon ? canon[f[i]] : f[i])
		       c[s] += n }
		     END { for (s in c) print s, c[s] }' "$TMP/aliases" - | LC_ALL=C sort
	}
	dwarf_same() {	# dwarf_same NAME DATA GREP [SED]: same stacks as perf script's
		_drop=${4-'/;main;/!d'}
		"$SC" "$2" 2> "$TMP/pd.err" | sed -e "$_drop" | sum_same > "$TMP/pd.a"
		perf script -i "$2" 2> /dev/null | "$SC" | sed -e "$_drop" | sum_same > "$TMP/pd.b"
		if grep -q -- "$3" "$TMP/pd.a" && cmp -s "$TMP/pd.a" "$TMP/pd.b"; then
			pass "perfdata $1"
		else
			# Stacks differ at the leaf end: their last 300 bytes.
			fail "perfdata $1" \
				"$(cat "$TMP/pd.err"; diff "$TMP/pd.a" "$TMP/pd.b" | head | sed 's/^\([<>]\) .*\(.\{300\}\)$/\1 ...\2/')"
		fi
	}
	perf_dwarf() {	# perf_dwarf OUT CMD...: records CMD with DWARF stacks
		_o=$1
		shift
		perf record -q -F 999 --call-graph dwarf -o "$_o" -- "$@" > /dev/null 2>&1 && [ -s "$_o" ]
	}
	if cc -O2 -g -fomit-frame-pointer -o "$TMP/calls-nofp" "$PD/calls.c" &&
	   perf_dwarf "$TMP/dwarf.data" "$TMP/calls-nofp" 60000; then
		dwarf_same "--call-graph dwarf: user stacks unwound as perf script does" "$TMP/dwarf.data" ';main;fb;leaf '
		if cc -O2 -g -fomit-frame-pointer -o "$TMP/inline" "$PD/inline.c" &&
		   perf_dwarf "$TMP/inline.data" "$TMP/inline" 30000; then
			dwarf_same "--call-graph dwarf: inlined frames (C)" "$TMP/inline.data" ';main;outer;twice;mix '
			# --no-inline is perf's; flame's frames are the same without
			# the inlined ones.
			perf script --no-inline -i "$TMP/inline.data" 2> /dev/null | "$SC" |
				grep -c ';twice' > "$TMP/pd.n"
			[ "$(cat "$TMP/pd.n")" = 0 ] && pass "perfdata perf script --no-inline has no inlined frames" ||
				fail "perfdata perf script --no-inline has no inlined frames" "$(cat "$TMP/pd.n")"
		else
			fail "perfdata --call-graph dwarf: inlined frames (C)" "cannot build or record $PD/inline.c"
		fi
		if ! command -v c++ > /dev/null 2>&1; then
			skip "perfdata --call-graph dwarf: inlined frames (C++)" "no c++"
		elif c++ -O2 -g -o "$TMP/inline-cc" "$PD/inline.cc" &&
		     perf_dwarf "$TMP/inline-cc.data" "$TMP/inline-cc" 150; then
			dwarf_same "--call-graph dwarf: inlined frames (C++ templates)" "$TMP/inline-cc.data" ';work;sort<'
		else
			fail "perfdata --call-graph dwarf: inlined frames (C++)" "cannot build or record $PD/inline.cc"
		fi
		# Frame pointers: perf 6.1 adds no inlined frames to those chains.
		if cc -O2 -g -fno-omit-frame-pointer -o "$TMP/inline-fp" "$PD/inline.c" &&
		   perf record -q -F 999 -g -o "$TMP/inline-fp.data" -- "$TMP/inline-fp" 30000 > /dev/null 2>&1; then
			dwarf_same "-g (frame pointers): no inlined frames, as perf 6.1" "$TMP/inline-fp.data" ';outer ' ''
		fi
	else
		skip "perfdata --call-graph dwarf" "cannot record with DWARF here"
	fi
	# JIT code described in a jitdump (jitgen.c writes one, as JIT
	# runtimes do): named from the dump as perf script names it after
	# perf inject --jit, with --jit's _[j].  x86-64 code: elsewhere skipped.
	if [ "$(uname -m)" != x86_64 ]; then
		skip "perfdata jitdump" "jitgen.c writes x86-64 code"
	elif ! cc -O2 -o "$TMP/jitgen" "$PD/jitgen.c" || ! mkdir -p "$TMP/jit" ||
	     ! perf record -q -k mono -F 999 -g -o "$TMP/jit.data" -- "$TMP/jitgen" "$TMP/jit" 1000 \
		> /dev/null 2>&1 ||
	     ! perf inject --jit -i "$TMP/jit.data" -o "$TMP/jit-inj.data" > /dev/null 2>&1; then
		skip "perfdata jitdump" "cannot build jitgen.c, record it or inject its dump"
	else
		perf script -i "$TMP/jit-inj.data" -F +pid > "$TMP/jit.txt" 2> /dev/null
		_nosym=$NOSYM
		NOSYM=
		for _o in "--jit" "--jit --addrs" "--jit --pid --tid" ""; do
			# shellcheck disable=SC2086
			same_stacks "perfdata jitdump ${_o:-(plain)}" "$TMP/jit.data" "$TMP/jit.txt" $_o
		done
		NOSYM=$_nosym
		"$SC" --jit "$TMP/jit.data" > "$TMP/pd.out" 2> /dev/null
		grep -q ';jit_hot_\[j\] ' "$TMP/pd.out" && grep -q ';java\.lang\.Cold\.run_\[j\] ' "$TMP/pd.out" &&
			pass "perfdata jitdump names both functions" ||
			fail "perfdata jitdump names both functions" "$(cat "$TMP/pd.out")"
		# --symfs: the dump is read under DIR, as the other files are
		# (a recording brought from elsewhere with its dump); moved
		# away from its recorded path it is found there only.
		_dump=$(ls "$TMP"/jit/jit-*.dump)
		mkdir -p "$TMP/sfs$(dirname "$_dump")" && mv "$_dump" "$TMP/sfs$_dump"
		"$SC" --jit "$TMP/jit.data" > "$TMP/pd.none" 2> /dev/null
		"$SC" --jit --symfs "$TMP/sfs" "$TMP/jit.data" > "$TMP/pd.out" 2> /dev/null
		mv "$TMP/sfs$_dump" "$_dump"
		if grep -q ';jit_hot_\[j\] ' "$TMP/pd.out" && grep -q ';java\.lang\.Cold\.run_\[j\] ' "$TMP/pd.out" &&
		   ! grep -q 'jit_hot_' "$TMP/pd.none"; then
			pass "perfdata jitdump under --symfs"
		else
			fail "perfdata jitdump under --symfs" "$(head -5 "$TMP/pd.out" "$TMP/pd.none")"
		fi
		# A dump cut inside its last record: the code before it keeps
		# its name, and the message names the dump and the byte.
		_dump=$(ls "$TMP"/jit/jit-*.dump)
		_size=$(wc -c < "$_dump")
		head -c $((_size - 4)) "$_dump" > "$TMP/pd.cut" && cp "$TMP/pd.cut" "$_dump"
		"$SC" --jit "$TMP/jit.data" > "$TMP/pd.out" 2> "$TMP/pd.err"
		if grep -q "jit-[0-9]*\.dump: byte [0-9]*: record runs past the end" "$TMP/pd.err" &&
		   grep -q ';jit_hot_\[j\] ' "$TMP/pd.out" && ! grep -q 'Cold' "$TMP/pd.out"; then
			pass "perfdata jitdump cut short"
		else
			fail "perfdata jitdump cut short" "$(cat "$TMP/pd.err" "$TMP/pd.out")"
		fi
	fi
	# A vmlinux for the recorded kernel: perf takes the kernel's symbols
	# from it (./vmlinux first) instead of kallsyms, and so must flame.
	# This machine has none: tests/tools/fakevmlinux.py writes a stand-in
	# with the running kernel's text symbols renamed "vmlinux_*" and its
	# build id.  One with another build id is ignored by both.
	_kid=$(perf buildid-list -k 2> /dev/null)
	if ! have_python || [ -z "$_kid" ] || [ "$(awk 'NR == 1 { print $1; exit }' /proc/kallsyms)" = 0000000000000000 ]; then
		skip "perfdata vmlinux" "no python3, no kernel build id or kallsyms addresses hidden"
	elif ! mkdir -p "$TMP/vm" "$TMP/vmw" ||
	     ! python3 tests/tools/fakevmlinux.py /proc/kallsyms "$TMP/vm.s" 2> "$TMP/vm.text" ||
	     ! cc -nostdlib -no-pie -Wl,-Ttext=0x"$(cat "$TMP/vm.text")" -Wl,--build-id=0x"$_kid" \
		-Wl,-e,_text -o "$TMP/vm/vmlinux" "$TMP/vm.s" 2> /dev/null ||
	     ! cc -nostdlib -no-pie -Wl,-Ttext=0x"$(cat "$TMP/vm.text")" \
		-Wl,--build-id=0x1111111111111111111111111111111111111111 -Wl,-e,_text \
		-o "$TMP/vmw/vmlinux" "$TMP/vm.s" 2> /dev/null ||
	     ! perf record -q -F 999 -g -o "$TMP/k.data" -- dd if=/dev/zero of=/dev/null bs=1 count=300000 \
		> /dev/null 2>&1; then
		skip "perfdata vmlinux" "cannot build a stand-in vmlinux or record dd"
	else
		_sc=$(cd "$(dirname "$SC")" && pwd)/$(basename "$SC")
		for _d in vm vmw; do
			for _o in "--kernel" ""; do
				# shellcheck disable=SC2086
				(cd "$TMP/$_d" && "$_sc" $_o ../k.data) 2> "$TMP/pd.err" |
					LC_ALL=C sort > "$TMP/pd.a"
				# shellcheck disable=SC2086
				(cd "$TMP/$_d" && perf script -i ../k.data 2> /dev/null | "$_sc" $_o) |
					LC_ALL=C sort > "$TMP/pd.b"
				_want=1
				[ "$_d" = vmw ] && _want=0
				_has=0
				grep -q 'vmlinux_' "$TMP/pd.a" && _has=1
				if [ -s "$TMP/pd.b" ] && cmp -s "$TMP/pd.a" "$TMP/pd.b" && [ "$_has" = "$_want" ]; then
					pass "perfdata vmlinux ($_d) ${_o:-(plain)}"
				else
					fail "perfdata vmlinux ($_d) ${_o:-(plain)}" \
						"$(cat "$TMP/pd.err"; diff "$TMP/pd.a" "$TMP/pd.b" | head -5)"
				fi
			done
		done
	fi
	rm -rf "$TMP/vm" "$TMP/vmw" "$TMP/vm.s"
	[ -e /proc/modules ] || skip "perfdata kernel modules (.ko)" "this kernel has no modules"
	# The call tree is there, named: leaf under fb and under fa, in main.
	"$SC" "$TMP/live.data" > "$TMP/pd.out"
	grep -q '^calls;.*main;fb;leaf ' "$TMP/pd.out" && grep -q '^calls;.*main;fa;leaf ' "$TMP/pd.out" &&
		pass "perfdata live call tree" || fail "perfdata live call tree" "$(head -5 "$TMP/pd.out")"
fi
