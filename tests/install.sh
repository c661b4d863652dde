# Set-up and install tests (sourced by run.sh):
#  - the README's set-up commands name only what scripts/setup-deps
#    installs and make targets that exist, and make demo ends in an SVG;
#  - scripts/setup-deps on a fake Debian (stub apt-get, dpkg-query, sudo):
#    only what is missing, never a conflicting npm, sudo only when needed;
#  - make install into a DESTDIR: every tool runs from there, has a man
#    page that renders cleanly, names every option --help prints and
#    carries the version; completions; make uninstall removes it all;
#  - make dist: the tarball builds on its own.
IN=$TMP/install
mkdir -p "$IN"
IN_TOOLS="flame flamegraph difffolded stackfilter stackcollapse-perf stackcollapse-etw stackcollapse-vsp stackcollapse-perfview
stackcollapse-dtrace stackcollapse-sample stackcollapse-recursive stackcollapse-guess stackcollapse-vtune stackcollapse-ghcprof stackcollapse-xctrace stackcollapse-instruments stackcollapse-bpftrace stackcollapse-jstack stackcollapse-gdb stackcollapse-lnt
stackcollapse-stap stackcollapse-elfutils stackcollapse-aix stackcollapse-pmc stackcollapse-faulthandler stackcollapse-wcp
stackcollapse-ljp stackcollapse-java-exceptions stackcollapse-ibmjava stackcollapse-go stackcollapse-vtune-mc stackcollapse-xdebug
stackcollapse-perf-sched stackcollapse-pprof stackcollapse-chrome-tracing"
IN_VERSION=$(sed -n 's/^VERSION *:= *//p' Makefile)

# inst_make ARGS...: make as make check was run (its variables come in
# MAKEFLAGS, so nothing is rebuilt with other flags), without its -j and
# jobserver, which this shell does not hold.
inst_make() {
	MAKEFLAGS=$(printf '%s' "${MAKEFLAGS:-}" | sed 's/--jobserver-[a-z]*=[^ ]*//g; s/ -j[0-9]*//g') \
		make --no-print-directory "$@"
}

# inst_opts: the long options a --help text on stdin names, one a line.
inst_opts() {
	grep -oE -- '--[a-z][a-z0-9]*(-[a-z0-9]+)*([^a-z0-9-]|$)' | sed -E 's/[^a-z0-9]$//' | sort -u
}

# inst_version TOOL: TOOL --version succeeds and names VERSION.
inst_version() {
	_v=$("$1" --version 2> /dev/null) || return 1
	case $_v in *" $IN_VERSION"*) return 0 ;; esac
	return 1
}

# --- The README's set-up commands ---------------------------------------

# The indented lines of the "Set up" section, a backslash joining lines.
awk '/^## /{ on = /^## Set up/ } on && /^    [^ ]/ {
		sub(/^    /, ""); line = line $0
		if (line ~ /\\$/) { sub(/\\$/, "", line); next }
		print line; line = ""
	}' README.md > "$IN/setup.cmds"
[ "$(wc -l < "$IN/setup.cmds")" = 2 ] && pass "README: two set-up commands" \
	|| fail "README: two set-up commands" "$(cat "$IN/setup.cmds")"
sh scripts/setup-deps --list --test > "$IN/deps.list"
grep -q '^build-essential ' "$IN/deps.list" && grep -q '^npm ' "$IN/deps.list" \
	&& pass "setup-deps --list names its packages" || fail "setup-deps --list names its packages" "$(cat "$IN/deps.list")"

# inst_word WORD...: why the simple command WORD... is not one a fresh
# machine can run after setup-deps, or nothing when it is.
inst_word() {
	case $1 in
	sudo) echo "sudo: a root shell or a container has none" ;;
	sh)
		[ -f "$2" ] || { echo "sh $2: no such script"; return; }
		if [ "$2" = scripts/setup-deps ]; then
			shift 2
			sh scripts/setup-deps "$@" --dry-run > /dev/null 2>&1 || echo "setup-deps refuses: $*"
		fi ;;
	make)
		shift
		for _a in "$@"; do
			case $_a in -*|*=*) continue ;; esac
			grep -Eq "^([^:=#]* )?$_a( [^:=#]*)?:([^=]|\$)" Makefile || echo "make $_a: no such target"
		done ;;
	cd) [ -d "$2" ] || echo "cd $2: no such directory" ;;
	apt-get|apt)
		shift
		for _a in "$@"; do
			case $_a in -*|install) continue ;; esac
			grep -q "^$_a " "$IN/deps.list" || echo "apt-get install $_a: setup-deps does not install it"
		done ;;
	*)
		awk -v c="$1" '$1 == c || $2 == c { f = 1 } END { exit !f }' "$IN/deps.list" \
			|| echo "$1: neither setup-deps installs it nor is it a shell or make step" ;;
	esac
}
# Each command is cut into simple commands at &&, ||, ; and |.
sed 's/&&/\n/g; s/||/\n/g; s/;/\n/g; s/|/\n/g; s/[()]//g' "$IN/setup.cmds" | while read -r _line; do
	[ -n "$_line" ] || continue
	set -f
	# shellcheck disable=SC2086
	inst_word $_line
	set +f
done > "$IN/setup.bad"
_bad=$(cat "$IN/setup.bad")
[ -z "$_bad" ] && pass "README: set-up commands name only what setup-deps installs, and real targets" \
	|| fail "README: set-up commands name only what setup-deps installs, and real targets" "$_bad"
grep -q 'make demo$' "$IN/setup.cmds" && grep -q 'scripts/setup-deps --test && make check' "$IN/setup.cmds" \
	&& pass "README: one command ends in make demo, the other in make check" \
	|| fail "README: one command ends in make demo, the other in make check" "$(cat "$IN/setup.cmds")"
grep -q '^sh scripts/setup-deps --test$' .ci/run && pass ".ci/run starts from setup-deps" \
	|| fail ".ci/run starts from setup-deps"

# make demo: the first set-up command's end, drawn into a scratch directory.
inst_make -s demo DEMO_OUT="$IN/demo" > "$IN/demo.out" 2>&1
_rc=$?
_svg=$(tail -n 1 "$IN/demo.out" | sed -n 's/^wrote \([^ ]*\.svg\) from .*/\1/p')
if [ "$_rc" = 0 ] && [ -n "$_svg" ] && [ -s "$_svg" ] && grep -q 'process_item' "$_svg"; then
	pass "make demo: flame draws the perf recording and names the SVG"
else
	fail "make demo: flame draws the perf recording and names the SVG" "exit $_rc: $(tail -5 "$IN/demo.out")"
fi
if have_python && [ -n "$_svg" ]; then
	xml_ok "$_svg" > /dev/null 2>&1 && pass "make demo: the SVG is well-formed" || fail "make demo: the SVG is well-formed"
fi

# --- setup-deps on a fake Debian ------------------------------------------
# A PATH of stubs: dpkg-query knows the packages in $FAKE_PKGS, apt-get
# logs what it is asked and refuses (as apt does, "held broken packages")
# to install anything in $FAKE_CONFLICTS, sudo logs and runs, id -u says
# $FAKE_UID; node and npm exist when the scenario says so.  setup-deps
# runs from a copy of the tree, so npm ci has nothing real to touch.
F=$IN/fake
mkdir -p "$F/bin" "$F/tree/scripts" "$F/tree/tests/browser"
cp scripts/setup-deps "$F/tree/scripts/"
echo '{}' > "$F/tree/tests/browser/package-lock.json"
for _t in dirname grep sed env cat find rm mkdir; do ln -sf "$(command -v $_t)" "$F/bin/$_t"; done
cat > "$F/bin/dpkg-query" <<'STUB'
#!/bin/sh
for p; do :; done
case " $FAKE_PKGS " in *" $p "*) printf 'install ok installed' ;; *) exit 1 ;; esac
STUB
cat > "$F/bin/apt-get" <<'STUB'
#!/bin/sh
echo "apt-get $*" >> "$FAKE_LOG"
case " $* " in *" -s "*)
	for p; do
		case " $FAKE_CONFLICTS " in *" $p "*)
			echo "E: Unable to correct problems, you have held broken packages."; exit 100 ;;
		esac
	done ;;
esac
exit 0
STUB
cat > "$F/bin/id" <<'STUB'
#!/bin/sh
echo "$FAKE_UID"
STUB
cat > "$F/sudo" <<'STUB'
#!/bin/sh
echo "sudo $*" >> "$FAKE_LOG"
exec "$@"
STUB
printf '#!/bin/sh\necho "npm $*" >> "$FAKE_LOG"\nmkdir -p node_modules\n[ -z "$FAKE_NPM_FAIL" ]\n' > "$F/npm"
printf '#!/bin/sh\nexit 0\n' > "$F/node"
chmod +x "$F/bin/"* "$F/sudo" "$F/npm" "$F/node"

_deb_all="build-essential zlib1g-dev libxxhash-dev libelf-dev libdw-dev libzstd-dev liblzma-dev libiberty-dev chromium python3 perl time man-db zsh strace"
# fake_run NAME UID "PKGS" "CONFLICTS" "node npm sudo" ARGS...: runs
# setup-deps there; its exit status in $_frc, the log in $F/log.
fake_run() {
	_fn=$1 FAKE_UID=$2 FAKE_PKGS=$3 FAKE_CONFLICTS=$4 _cmds=$5
	shift 5
	rm -rf "$F/bin/node" "$F/bin/npm" "$F/bin/sudo" "$F/log" "$F/tree/tests/browser/node_modules"
	: > "$F/log"
	for _c in $_cmds; do ln -s "../$_c" "$F/bin/$_c"; done
	FAKE_LOG=$F/log FAKE_NPM_FAIL=${FAKE_NPM_FAIL:-} FAKE_UID=$FAKE_UID FAKE_PKGS=$FAKE_PKGS FAKE_CONFLICTS=$FAKE_CONFLICTS \
		CHROMIUM=$F/no-chromium PATH=$F/bin /bin/sh "$F/tree/scripts/setup-deps" "$@" > "$F/out" 2>&1
	_frc=$?
}
# fake_expect NAME WANT_RC WHAT...: each WHAT is +TEXT (a log line
# contains it) or -TEXT (none does).
fake_expect() {
	_fn=$1 _want=$2
	shift 2
	_why=""
	[ "$_frc" = "$_want" ] || _why="exit $_frc, wanted $_want"
	for _w in "$@"; do
		case $_w in
		+*) grep -qF -- "${_w#+}" "$F/log" || _why="$_why; no '${_w#+}'" ;;
		-*) grep -qF -- "${_w#-}" "$F/log" && _why="$_why; unwanted '${_w#-}'" ;;
		esac
	done
	[ -z "$_why" ] && pass "setup-deps: $_fn" \
		|| fail "setup-deps: $_fn" "$_why$(printf '\n'; cat "$F/log" "$F/out")"
}

# time is found by its path, /usr/bin/time, which the stubs cannot hide.
_time=" time"
[ -x /usr/bin/time ] && _time=""
fake_run "fresh, root, NodeSource node" 0 "nodejs" "npm" "node npm" --test
fake_expect "fresh root machine with NodeSource's node: installs the rest, no sudo, no npm package" 0 \
	"+apt-get update" "+install -y -qq build-essential zlib1g-dev libxxhash-dev libzstd-dev libelf-dev" \
	"+install -y -qq chromium python3 perl$_time man-db zsh strace" "-install -y -qq chromium python3 perl$_time man-db zsh strace npm" \
	"-nodejs" "-sudo" "+npm ci"
fake_run "node without npm" 0 "$_deb_all nodejs" "npm" "node"
fake_expect "nothing missing for the build: apt-get is not run" 0 "-apt-get"
fake_run "node without npm" 0 "$_deb_all nodejs" "npm" "node" --test
fake_expect "node but no npm, and Debian's npm conflicts: not installed, not a failure" 0 \
	"+apt-get install -s -y npm" "-install -y -qq npm" "-npm ci"
grep -q "not installing npm" "$F/out" && pass "setup-deps: says it leaves npm out" \
	|| fail "setup-deps: says it leaves npm out" "$(cat "$F/out")"
fake_run "no node" 0 "$_deb_all" "" "" --test
fake_expect "no node at all: nodejs and npm from Debian" 0 "+install -y -qq nodejs npm"
fake_run "user with sudo" 1000 "nodejs" "" "node npm sudo" --test
fake_expect "a user with sudo: apt-get through sudo" 0 "+sudo env DEBIAN_FRONTEND=noninteractive apt-get update" \
	"+sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq build-essential"
fake_run "user without sudo" 1000 "nodejs" "" "node npm" --test
fake_expect "a user without sudo: says to run as root, installs nothing" 1 "-install -y"
grep -q "needs root" "$F/out" && pass "setup-deps: says root is needed" || fail "setup-deps: says root is needed" "$(cat "$F/out")"
fake_run "user, all present" 1000 "$_deb_all" "" "node npm" --test
fake_expect "a user with everything present needs neither root nor apt" 0 "-apt-get" "-sudo" "+npm ci"
FAKE_NPM_FAIL=1
fake_run "npm ci fails" 1000 "$_deb_all" "" "node npm" --test
FAKE_NPM_FAIL=""
fake_expect "npm ci failing (no registry) skips the browser tests, not the rest" 0 "+npm ci"
grep -q "browser tests will be skipped" "$F/out" && [ ! -d "$F/tree/tests/browser/node_modules" ] \
	&& pass "setup-deps: says so, and leaves no half node_modules" \
	|| fail "setup-deps: says so, and leaves no half node_modules" "$(cat "$F/out")"
fake_run "build conflict" 0 "" "zlib1g-dev" "node npm"
fake_expect "a build package apt cannot install: exit 1, nothing installed" 1 "-install -y"
fake_run "dry run" 0 "" "" "" --test --dry-run
fake_expect "--dry-run runs nothing" 0 "-apt-get" "-npm"
grep -q "would install: build-essential zlib1g-dev libxxhash-dev" "$F/out" && pass "setup-deps: --dry-run lists the packages" \
	|| fail "setup-deps: --dry-run lists the packages" "$(cat "$F/out")"

# --- make install / uninstall ---------------------------------------------
D=$IN/dest
inst_make -s install DESTDIR="$D" PREFIX=/usr > "$IN/install.out" 2>&1 \
	&& pass "make install DESTDIR PREFIX=/usr" || fail "make install DESTDIR PREFIX=/usr" "$(tail -20 "$IN/install.out")"
printf 'main;parse;memchr 3\nmain;run 5\n' > "$IN/a.folded"
printf 'main;parse;memchr 1\nmain;run 9\n' > "$IN/b.folded"

# inst_run TOOL: runs the installed TOOL on a small real input; prints
# what is wrong, nothing when it worked.
inst_run() {
	_b=$D/usr/bin/$1
	case $1 in
	flamegraph) "$_b" "$IN/a.folded" > "$IN/run.out" ;;
	flame) "$_b" examples/threads.perf.gz -o "$IN/run.out" ;;
	difffolded) "$_b" "$IN/a.folded" "$IN/b.folded" > "$IN/run.out" ;;
	stackfilter) "$_b" --fold memchr "$IN/a.folded" > "$IN/run.out" ;;
	stackcollapse-perf) "$_b" examples/threads.perf.gz > "$IN/run.out" ;;
	stackcollapse-etw) "$_b" tests/data/etw/cpu.csv > "$IN/run.out" ;;
	stackcollapse-vsp) "$_b" tests/data/vsp/tree-en.csv > "$IN/run.out" ;;
	stackcollapse-perfview) "$_b" tests/data/perfview/bare.json > "$IN/run.out" ;;
	stackcollapse-dtrace | stackcollapse-guess) "$_b" tests/data/dtrace/own.txt > "$IN/run.out" ;;
	stackcollapse-sample) "$_b" tests/data/sample/own.txt > "$IN/run.out" ;;
	stackcollapse-recursive) "$_b" tests/data/recursive/own.folded > "$IN/run.out" ;;
	stackcollapse-vtune) "$_b" tests/data/vtune/own.csv > "$IN/run.out" ;;
	stackcollapse-ghcprof) "$_b" tests/data/ghcprof/own.prof > "$IN/run.out" ;;
	stackcollapse-xctrace) "$_b" tests/data/xctrace/own.xml > "$IN/run.out" ;;
	stackcollapse-instruments) "$_b" tests/data/instruments/own.txt > "$IN/run.out" ;;
	stackcollapse-bpftrace) "$_b" tests/data/bpftrace/own.bt > "$IN/run.out" ;;
	stackcollapse-jstack) "$_b" tests/data/jstack/own.txt > "$IN/run.out" ;;
	stackcollapse-gdb) "$_b" tests/data/gdb/own.txt > "$IN/run.out" ;;
	stackcollapse-lnt) "$_b" tests/data/lnt/basic.lntprof > "$IN/run.out" ;;
	stackcollapse-stap | stackcollapse-elfutils | stackcollapse-aix | stackcollapse-pmc | \
	stackcollapse-faulthandler | stackcollapse-wcp | stackcollapse-ljp | stackcollapse-ibmjava)
		"$_b" tests/data/${1#stackcollapse-}/own.txt > "$IN/run.out" ;;
	stackcollapse-java-exceptions) "$_b" tests/data/javaexc/own.txt > "$IN/run.out" ;;
	stackcollapse-go) "$_b" tests/data/goraw/own.txt > "$IN/run.out" ;;
	stackcollapse-vtune-mc) "$_b" tests/data/vtunemc/own.csv > "$IN/run.out" ;;
	stackcollapse-xdebug) "$_b" tests/data/xdebug/own.xt > "$IN/run.out" ;;
	stackcollapse-perf-sched) "$_b" tests/data/perfsched/own.txt > "$IN/run.out" ;;
	stackcollapse-pprof) "$_b" tests/data/pprof/basic.pb.gz > "$IN/run.out" ;;
	stackcollapse-chrome-tracing) "$_b" tests/data/chrome/be.json > "$IN/run.out" ;;
	*) echo "no input for $1"; return ;;
	esac 2> "$IN/run.err" || { echo "exit $?: $(head -c 300 "$IN/run.err")"; return; }
	case $1 in
	flame|flamegraph) grep -q '^<svg' "$IN/run.out" || echo "no SVG" ;;
	difffolded) grep -qx 'main;run 5 9' "$IN/run.out" || echo "wrong pairs: $(cat "$IN/run.out")" ;;
	*) grep -qE '^[^ ].* [0-9]+$' "$IN/run.out" || echo "no collapsed stacks: $(head -c 300 "$IN/run.out")" ;;
	esac
}

# Every installed tool is one this suite runs, and both completions
# register it (bash-completion loads the file by the tool's name, but
# the file's `complete` line decides which names it serves).
_got=$(ls "$D/usr/bin" | sort | tr '\n' ' ')
_want=$(printf '%s\n' $IN_TOOLS | sort | tr '\n' ' ')
[ "$_got" = "$_want" ] && pass "install: the installed tools are the ones tested" \
	|| fail "install: the installed tools are the ones tested" "installed: $_got; tested: $_want"
_miss=$(for _t in $IN_TOOLS; do
	sed -n 1p completions/_flame | tr ' ' '\n' | grep -qx "$_t" || printf 'zsh:%s ' "$_t"
	sed -n '/^complete /,/[^\\]$/p' completions/flame.bash | tr ' \t\\' '\n\n\n' | grep -qx "$_t" \
		|| printf 'bash:%s ' "$_t"
done)
[ -z "$_miss" ] && pass "install: the bash and zsh completions register every tool" \
	|| fail "install: the bash and zsh completions register every tool" "missing: $_miss"

have_man=0
command -v man > /dev/null 2>&1 && have_man=1
[ "$have_man" = 1 ] || skip "man pages render" "man is not installed (apt-get install man-db)"
for _t in $IN_TOOLS; do
	_b=$D/usr/bin/$_t _m=$D/usr/share/man/man1/$_t.1
	if [ ! -x "$_b" ]; then
		fail "install: $_t in bin/" "$(ls "$D/usr/bin" 2>&1)"
		continue
	fi
	_why=$(inst_run "$_t")
	[ -z "$_why" ] && pass "install: the installed $_t runs" || fail "install: the installed $_t runs" "$_why"
	if ! "$_b" --help > "$IN/help" 2> /dev/null; then
		skip "$_t --version and the options in its man page" "$_t has no --help yet"
	else
		inst_version "$_b" && pass "install: $_t --version says $IN_VERSION" \
			|| fail "install: $_t --version says $IN_VERSION" "$("$_b" --version 2>&1 | head -3)"
		# The page names each option as a word, or as the start of
		# longer ones (the help's "--fail-if threshold").
		_src=$(sed 's/\\-/-/g; s/\\f[BIRP]//g' "$_m" 2>/dev/null)
		_miss=$(inst_opts < "$IN/help" | while read -r _o; do
			printf '%s\n' "$_src" | grep -qE -- "(^|[^a-z0-9-])$_o([^a-z0-9]|\$)" || printf '%s ' "$_o"
		done)
		[ -z "$_miss" ] && pass "man $_t names every option of $_t --help" \
			|| fail "man $_t names every option of $_t --help" "missing from man/$_t.1: $_miss"
	fi
	if [ ! -f "$_m" ]; then
		fail "install: man page for $_t" "$(ls "$D/usr/share/man/man1" 2>&1)"
		continue
	fi
	pass "install: man page for $_t"
	sed -n 1p "$_m" | grep -q "\"flame $IN_VERSION\"" && pass "man $_t carries version $IN_VERSION" \
		|| fail "man $_t carries version $IN_VERSION" "$(sed -n 1p "$_m")"
	if [ "$have_man" = 1 ]; then
		_w=$(MANPATH=$D/usr/share/man man -w "$_t" 2>&1)
		[ "$_w" = "$_m" ] && pass "man -w $_t finds the installed page" || fail "man -w $_t finds the installed page" "$_w"
		MANWIDTH=80 LC_ALL=C.UTF-8 man --warnings -l "$_m" > "$IN/man.out" 2> "$IN/man.err"
		if [ $? = 0 ] && [ ! -s "$IN/man.err" ] && grep -q "$_t" "$IN/man.out"; then
			pass "man -l $_t.1 renders without warnings"
		else
			fail "man -l $_t.1 renders without warnings" "$(head -10 "$IN/man.err")"
		fi
	fi
	[ -e "$D/usr/share/bash-completion/completions/$_t" ] && pass "install: bash completion for $_t" \
		|| fail "install: bash completion for $_t"
done
[ -f "$D/usr/share/zsh/site-functions/_flame" ] && pass "install: zsh completion" || fail "install: zsh completion"

# Completion as a shell would do it: the installed file, the installed
# tools on PATH.
if command -v bash > /dev/null 2>&1; then
	_got=$(PATH=$D/usr/bin:$PATH bash -c '
		. "$1/flamegraph"
		t() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=(); _flame_complete; echo "${COMPREPLY[*]}"; }
		t flamegraph --ti; t flame --colors ja; t flame --split-by ""; t stackcollapse-perf --ke; t flame --fail
		t flame --format perf.; t flame --to c' \
		sh "$D/usr/share/bash-completion/completions" 2>&1)
	_want=$(printf '%s\n' --title java "thread process" --kernel "--fail-if-self-grows --fail-if-total-grows" \
		perf.data collapsed)
	[ "$_got" = "$_want" ] && pass "bash completion: options from --help, values of --colors and --split-by" \
		|| fail "bash completion: options from --help, values of --colors and --split-by" "$_got"
else
	skip "bash completion" "no bash"
fi
# zsh: the completion function with zle's builtins stood in for by
# functions that print what they were given.
if command -v zsh > /dev/null 2>&1; then
	_got=$(PATH=$D/usr/bin:$PATH zsh -fc '
		compadd() { [[ $1 == -a ]] && print -r -- ${(P)2}; }
		_files() { print -r -- "<files>"; }
		_message() { print -r -- "<message ${@[-1]}>"; }
		compset() { PREFIX=${PREFIX#*=}; }
		_call_program() { shift; eval "$@"; }
		fpath=($1 $fpath); autoload -Uz _flame
		t() { words=("$@"); CURRENT=$#; PREFIX=$words[-1]; _flame; }
		t flamegraph --ti | tr " " "\n" | grep -c -- "^--title\$"
		t flame --fail | tr " " "\n" | grep -c -- "^--fail-if\$"
		t flamegraph --colors=j; t flame --title ""; t flamegraph --nameattr x
		t flame --format "" | tr " " "\n" | grep -cx -e perf.data -e etl -e lnt
		t flame --to "" | tr " " "\n" | grep -cx -e svg -e collapsed' \
		zsh "$D/usr/share/zsh/site-functions" 2>&1)
	_want=$(printf '%s\n' 1 0 "hot mem io wakeup chain java js perl red green blue aqua yellow purple orange" "<message text>" "<files>" 3 2)
	[ "$_got" = "$_want" ] && pass "zsh completion: options from --help, --colors= values, argument kinds" \
		|| fail "zsh completion: options from --help, --colors= values, argument kinds" "$_got"
else
	skip "zsh completion" "no zsh"
fi

inst_make -s install DESTDIR="$IN/dest2" PREFIX=/opt/flame MANDIR=/opt/flame/man > "$IN/install2.out" 2>&1
[ -x "$IN/dest2/opt/flame/bin/flame" ] && [ -f "$IN/dest2/opt/flame/man/man1/flame.1" ] \
	&& pass "make install honours PREFIX and MANDIR" || fail "make install honours PREFIX and MANDIR" "$(cd "$IN/dest2" && find . | head -20)"

inst_make -s uninstall DESTDIR="$D" PREFIX=/usr > "$IN/uninstall.out" 2>&1
_left=$(find "$D" ! -type d)
[ -z "$_left" ] && pass "make uninstall removes every file make install put there" \
	|| fail "make uninstall removes every file make install put there" "$_left"

# --- make dist --------------------------------------------------------------
if ! command -v git > /dev/null 2>&1 || ! git rev-parse --git-dir > /dev/null 2>&1; then
	skip "make dist" "not a git checkout"
else
	mkdir -p "$IN/dist"
	inst_make -s dist DISTDIR="$IN/dist" > "$IN/dist.out" 2>&1
	_tar=$IN/dist/flame-$IN_VERSION.tar.gz
	if [ ! -s "$_tar" ]; then
		fail "make dist writes flame-$IN_VERSION.tar.gz" "$(cat "$IN/dist.out")"
	else
		pass "make dist writes flame-$IN_VERSION.tar.gz"
		_junk=$(tar tzf "$_tar" | grep -E '(^|/)build/|\.o$|node_modules/|/(flame|flamegraph|difffolded|stackfilter|stackcollapse-[a-z]*)$')
		[ -z "$_junk" ] && pass "make dist: no build output in the tarball" \
			|| fail "make dist: no build output in the tarball" "$_junk"
		# Built as a user would: its own make, nothing from this tree.
		(cd "$IN/dist" && tar xzf "$_tar" && cd "flame-$IN_VERSION" && inst_make -s -j"$(nproc 2>/dev/null || echo 2)" B=build) \
			> "$IN/distbuild.out" 2>&1
		_x=$IN/dist/flame-$IN_VERSION
		if [ -x "$_x/flamegraph" ] && "$_x/flamegraph" "$IN/a.folded" > "$IN/dist.svg" 2>&1 \
			&& grep -q '^<svg' "$IN/dist.svg"; then
			pass "make dist: the tarball builds on its own, and its flamegraph draws"
		else
			fail "make dist: the tarball builds on its own, and its flamegraph draws" "$(tail -20 "$IN/distbuild.out")"
		fi
		inst_version "$_x/flamegraph" && pass "make dist: the built tool says version $IN_VERSION" \
			|| fail "make dist: the built tool says version $IN_VERSION" "$("$_x/flamegraph" --version 2>&1 | head -3)"
	fi
fi
