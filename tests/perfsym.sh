# The symbol resolver against perf script itself (sourced by run.sh):
# records two small programs (C, with PLT calls; C++, with templates and
# overloads) with frame pointers, and checks that perfsym names every
# frame perf script names (kernel, libc, ld.so, the programs) the same.
# The build-id cache goes to $TMP, so ~/.debug is neither read nor
# changed, and perf and perfsym see the same one.
_ps=$TMP/perfsym
_bin=$B/tests/test_perfsym
_out=
if ! command -v perf > /dev/null 2>&1 || ! command -v cc > /dev/null 2>&1 ||
   ! command -v c++ > /dev/null 2>&1; then
	skip "perfsym vs perf script" "perf, cc or c++ missing"
elif ! mkdir -p "$_ps" || ! cc -O1 -g -fno-omit-frame-pointer -o "$_ps/c" tests/data/perfsym/prog.c ||
     ! c++ -O1 -g -fno-omit-frame-pointer -o "$_ps/cxx" tests/data/perfsym/prog.cc; then
	fail "perfsym vs perf script" "cannot build tests/data/perfsym/prog.c or prog.cc"
elif ! PERF_BUILDID_DIR=$_ps/debug perf record -q -g -o "$_ps/perf.data" -- \
	sh -c "'$_ps/cxx' 100000 150 >/dev/null; '$_ps/c' 200000 150 >/dev/null; true" > "$_ps/rec.out" 2>&1 ||
     [ ! -s "$_ps/perf.data" ]; then
	skip "perfsym vs perf script" "perf record failed (perf_event_paranoid?): $(tail -n 1 "$_ps/rec.out")"
else
	PERF_BUILDID_DIR=$_ps/debug perf script -i "$_ps/perf.data" --show-mmap-events \
		-F pid,ip,sym,dso > "$_ps/script" 2> /dev/null
	PERF_BUILDID_DIR=$_ps/debug perf buildid-list -i "$_ps/perf.data" > "$_ps/ids" 2> /dev/null
	if _out=$(PERF_BUILDID_DIR=$_ps/debug "$_bin" --perf "$_ps/script" "$_ps/ids" 2>&1); then
		pass "perfsym vs perf script ($(printf '%s\n' "$_out" | tail -n 1))"
	else
		fail "perfsym vs perf script" "$_out"
	fi
	# The programs' own frames were among those compared, C++ names too,
	# one of them longer than 1024 bytes.
	if grep -q 'ns::Box<long>::spin (' "$_ps/script" && grep -q 'helper_static (' "$_ps/script" &&
	   awk '/ wide_name<std::tuple</ && length($0) > 1100 { n++ } END { exit !n }' "$_ps/script"; then
		pass "perf script named the test programs' functions"
	else
		fail "perf script named the test programs' functions" \
			"$(grep -c . "$_ps/script") lines, not all of spin, helper_static and a 1 KB wide_name"
	fi
fi

# JIT code: node writes /tmp/perf-PID.map with --perf-basic-prof; perf
# script names its frames from that file, perfsym must too.
if [ -z "$_out" ] || ! command -v node > /dev/null 2>&1; then
	skip "perfsym vs perf script, JIT map" "${_out:+node missing}${_out:-no perf recording}"
else
	ls /tmp/perf-*.map > "$_ps/maps.before" 2> /dev/null
	# In $_ps: node may leave a v8 log in its working directory.
	(cd "$_ps" && PERF_BUILDID_DIR=$_ps/debug perf record -q -g -o "$_ps/jit.data" -- node --perf-basic-prof \
		-e 'function f(i) { return Math.sqrt(i) * 2 } let s = 0; for (let i = 0; i < 1e7; i++) s += f(i)' \
		> /dev/null 2>&1)
	PERF_BUILDID_DIR=$_ps/debug perf script -i "$_ps/jit.data" --show-mmap-events \
		-F pid,ip,sym,dso > "$_ps/jit.script" 2> /dev/null
	PERF_BUILDID_DIR=$_ps/debug perf buildid-list -i "$_ps/jit.data" > "$_ps/jit.ids" 2> /dev/null
	if ! grep -q '^	.*JS:.*(/tmp/perf-[0-9]*\.map)$' "$_ps/jit.script"; then
		fail "perfsym vs perf script, JIT map" "perf script named no JIT frame from a /tmp/perf-PID.map"
	elif _jout=$(PERF_BUILDID_DIR=$_ps/debug "$_bin" --perf "$_ps/jit.script" "$_ps/jit.ids" 2>&1); then
		pass "perfsym vs perf script, JIT map ($(printf '%s\n' "$_jout" | tail -n 1))"
	else
		fail "perfsym vs perf script, JIT map" "$_jout"
	fi
	ls /tmp/perf-*.map 2> /dev/null | grep -vxFf "$_ps/maps.before" | xargs rm -f
fi

# Where symbols overlap or alias, the name perf script prints: overlap.c
# run through its PLT (perf adds PLT entries after stretching the unsized
# _init over .plt: its symbol tree decides which it meets), libc's
# memcpy/memmove, and three names of one function of ours ("operator
# delete[]" must win, demangled); built PIE, non-PIE, stripped (a
# stripped PIE whose .dynsym defines nothing gets no PLT names from
# perf) and with an IBT PLT (.plt.sec, where perf 6.1 names no entry).
# Whole stacks, through stackcollapse-perf on both sides.
_ov=$TMP/overlap
if ! command -v perf > /dev/null 2>&1 || ! command -v cc > /dev/null 2>&1; then
	skip "perfsym overlapping symbols" "perf or cc missing"
elif ! mkdir -p "$_ov"; then
	fail "perfsym overlapping symbols" "cannot make $_ov"
else
	for _n in pie nopie strip ibt; do
		case $_n in
		pie) _fl= ;;
		nopie) _fl=-no-pie ;;
		strip) _fl=-s ;;
		ibt) _fl="-fcf-protection=full -Wl,-z,ibtplt" ;;	# .plt.sec: perf 6.1 names none
		esac
		# shellcheck disable=SC2086
		if ! cc -O1 -g -fno-omit-frame-pointer -fno-builtin $_fl -o "$_ov/$_n" \
			tests/data/perfsym/overlap.c 2> /dev/null; then
			if [ "$_n" = ibt ]; then
				skip "perfsym overlapping symbols ($_n)" "the compiler or linker makes no IBT PLT"
			else
				fail "perfsym overlapping symbols ($_n)" "cannot build tests/data/perfsym/overlap.c"
			fi
			continue
		fi
		if ! PERF_BUILDID_DIR=$_ov/debug perf record -q -F 2000 -g -o "$_ov/$_n.data" -- \
			"$_ov/$_n" 400000 > /dev/null 2>&1 || [ ! -s "$_ov/$_n.data" ]; then
			skip "perfsym overlapping symbols ($_n)" "perf record failed"
			continue
		fi
		PERF_BUILDID_DIR=$_ov/debug "$B/stackcollapse-perf" "$_ov/$_n.data" 2> "$_ov/err" |
			LC_ALL=C sort > "$_ov/a"
		PERF_BUILDID_DIR=$_ov/debug perf script -i "$_ov/$_n.data" 2> /dev/null |
			"$B/stackcollapse-perf" | LC_ALL=C sort > "$_ov/b"
		_want='main;operator delete\[\] '
		[ "$_n" = strip ] && _want="^$_n;"
		if ! grep -q "$_want" "$_ov/b"; then
			fail "perfsym overlapping symbols ($_n)" "perf script shows no '$_want' stack"
		elif cmp -s "$_ov/a" "$_ov/b"; then
			pass "perfsym overlapping symbols ($_n) as perf script"
		else
			fail "perfsym overlapping symbols ($_n) as perf script" \
				"$(cat "$_ov/err"; diff "$_ov/a" "$_ov/b" | head -10)"
		fi
	done
	# The kernel's init text (start_kernel under the boot CPU's idle
	# task) lies past _etext, outside the kernel's recorded map: perf
	# names it from kallsyms all the same.  Only an idle CPU shows it.
	if PERF_BUILDID_DIR=$_ov/debug perf record -q -e cpu-clock -F 999 -a -g -o "$_ov/sys.data" -- \
		sleep 1 > /dev/null 2>&1 && [ -s "$_ov/sys.data" ]; then
		PERF_BUILDID_DIR=$_ov/debug "$B/stackcollapse-perf" "$_ov/sys.data" 2> "$_ov/err" |
			grep '^swapper;' | LC_ALL=C sort > "$_ov/a"
		PERF_BUILDID_DIR=$_ov/debug perf script -i "$_ov/sys.data" 2> /dev/null |
			"$B/stackcollapse-perf" | grep '^swapper;' | LC_ALL=C sort > "$_ov/b"
		if ! grep -q ';start_kernel;' "$_ov/b"; then
			skip "perfsym kernel init text" "no sample of the boot CPU's idle task (a busy machine)"
		elif cmp -s "$_ov/a" "$_ov/b"; then
			pass "perfsym kernel init text as perf script"
		else
			fail "perfsym kernel init text as perf script" "$(diff "$_ov/a" "$_ov/b" | head -6)"
		fi
	else
		skip "perfsym kernel init text" "cannot record system-wide"
	fi
fi
