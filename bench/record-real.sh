#!/bin/sh
# record-real.sh [DIR]: record a real system-wide workload with many distinct
# stacks, for bench/real.sh (issue 15).  Writes into DIR (bench/out/real by
# default; keep it out of the repo):
#   perf.data     the recording (perf record -F 4999 -a -g)
#   perf.txt      its `perf script` text
#   real.folded   perf.txt collapsed by our stackcollapse-perf ($B, build/)
#   recorded.txt  when and how it was recorded
#   info.txt      that, the sizes and the distinct stacks (printed each run)
#   perf-dwarf.data  a --call-graph dwarf recording of g++ compiling one
#                 C++ file RECORD_DWARF_COMPILES (4) times at -F 999: no
#                 frame pointers, 8 KB of stack per sample; 4 gave 139 MB
#                 and 17k samples (bench/perfdata.sh)
#   recorded-dwarf.txt  when and how that was recorded
# Idempotent: a file that exists is not made again (delete it to redo), so
# a second run only prints what is there.
#
# The workload: these VMs build gcc, perl and python without frame pointers
# (1-3 user frames under -g), but Go keeps them, so the core of it is Go's
# compiler and linker rebuilt with symbols and used through -toolexec for
# `go build -a std cmd`, over and over: deep, named and varied stacks.  Next
# to it, at a lower priority, gcc/g++ compiles, xz, gzip, git log -p,
# grep, perl and python add other processes and deep kernel paths.
#
# Needs: perf (linux-perf), golang-go, gcc, g++, xz-utils, git, root (or
# perf_event_paranoid <= 0 for -a).  Knobs: RECORD_SECONDS (180),
# RECORD_FREQ (4999), B (build dir, build).  180 s on the 2-core VM gave
# 1.8 GB of text (1.79M samples) and 322k distinct stacks, 24 frames deep
# on average (10 s gave 67 MB and 27k); if info.txt shows fewer than
# 100 MB or 200k, remove DIR and run again with a larger RECORD_SECONDS.
set -eu
PROG=record-real
B=${B:-build}
DIR=${1:-bench/out/real}
SECS=${RECORD_SECONDS:-180}
FREQ=${RECORD_FREQ:-4999}
MIN_TEXT=100000000
MIN_DISTINCT=200000

die() { echo "$PROG: $*" >&2; exit 1; }
note() { echo "$PROG: $*" >&2; }

case $SECS in '' | *[!0-9]*) die "RECORD_SECONDS must be a whole number of seconds, not '$SECS'" ;; esac
case $FREQ in '' | *[!0-9]*) die "RECORD_FREQ must be a whole number, not '$FREQ'" ;; esac
SCP=$B/stackcollapse-perf
[ -x "$SCP" ] || die "'$SCP' not built (run make first)"
REPO=$(pwd)
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)
WORK=$DIR/work
DATA=$DIR/perf.data
TEXT=$DIR/perf.txt
FOLDED=$DIR/real.folded

need() {
	for t in "$@"; do
		command -v "$t" > /dev/null 2>&1 || die "'$t' not found (Debian: apt-get install linux-perf golang-go gcc g++ xz-utils git)"
	done
}

# Go's compiler and linker with their symbols (Debian ships them stripped),
# and the -toolexec wrapper that runs them in place of the stock ones.
setup_go() {
	mkdir -p "$WORK/go"
	if [ ! -x "$WORK/go/compile" ] || [ ! -x "$WORK/go/link" ]; then
		note "building Go's compile and link with symbols..."
		GOCACHE=$WORK/gocache-tools go build -o "$WORK/go/compile" cmd/compile
		GOCACHE=$WORK/gocache-tools go build -o "$WORK/go/link" cmd/link
	fi
	cat > "$WORK/go/toolexec" <<EOF
#!/bin/sh
# go -toolexec wrapper: the symbol-carrying compile and link, else the tool.
tool=\$1
shift
case \${tool##*/} in
compile) exec "$WORK/go/compile" "\$@" ;;
link) exec "$WORK/go/link" "\$@" ;;
esac
exec "\$tool" "\$@"
EOF
	chmod +x "$WORK/go/toolexec"
}

# Sources for the C and C++ compiles: this repository's committed tree, and
# one C++ file leaning on the heavy standard headers.
setup_c() {
	if [ ! -d "$WORK/src" ]; then
		mkdir -p "$WORK/src"
		git -C "$REPO" archive HEAD | tar -x -C "$WORK/src"
	fi
	git -C "$REPO" archive --format=tar HEAD > "$WORK/src.tar"
	cat > "$WORK/heavy.cpp" <<'EOF'
#include <algorithm>
#include <functional>
#include <future>
#include <iostream>
#include <map>
#include <numeric>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <tuple>
#include <unordered_map>
#include <variant>
#include <vector>

template <int N> struct depth { static int get() { return depth<N - 1>::get() + N; } };
template <> struct depth<0> { static int get() { return 0; } };

int main(int argc, char **argv)
{
	std::vector<std::string> words(argv, argv + argc);
	std::map<std::string, std::variant<int, double, std::string>> m;
	std::unordered_map<std::string, std::optional<std::tuple<int, std::string>>> u;
	std::regex re("([a-z]+)=([0-9]+)");
	for (const auto &w : words) {
		std::smatch sm;
		if (std::regex_match(w, sm, re))
			m[sm[1]] = std::stoi(sm[2]);
		u[w] = std::make_tuple(static_cast<int>(w.size()), w);
	}
	auto f = std::async(std::launch::async, [&] {
		return std::accumulate(words.begin(), words.end(), std::string());
	});
	std::ostringstream os;
	os << f.get() << depth<200>::get() << m.size() << u.size();
	std::sort(words.begin(), words.end(), std::greater<>());
	std::cout << os.str() << '\n';
	return 0;
}
EOF
}

# The workload itself, run under `timeout` (which ends the whole process
# group): the Go loop at normal priority, the rest niced beside it.
write_load() {
	cat > "$WORK/load.sh" <<EOF
#!/bin/sh
cd "$WORK"
mkdir -p gobin
(
	while :; do
		rm -rf gocache
		GOCACHE=$WORK/gocache go build -a -toolexec "$WORK/go/toolexec" -o "$WORK/gobin/" std cmd > /dev/null 2>&1 || sleep 1
	done
) &
nice -n 5 sh "$WORK/c_loop.sh" &
nice -n 5 sh "$WORK/misc_loop.sh" &
wait
EOF
	cat > "$WORK/c_loop.sh" <<'EOF'
while :; do
	make -C src -B -s -j1 > /dev/null 2>&1 || sleep 1
	g++ -std=c++17 -O2 -pthread -o heavy heavy.cpp > /dev/null 2>&1 || sleep 1
	./heavy a=1 b=2 ccc=33 > /dev/null 2>&1 || true
done
EOF
	cat > "$WORK/misc_loop.sh" <<EOF
while :; do
	xz -6 -T1 -c src.tar > /dev/null
	gzip -6 -c src.tar > /dev/null
	git -C "$REPO" log -p -n 400 > /dev/null 2>&1 || true
	grep -rc include /usr/include > /dev/null 2>&1 || true
	perl -e 'my %h; \$h{\$_ % 1000} .= "x" for 1 .. 300000; print scalar(keys %h), "\n"' > /dev/null
	python3 -c 'import json; print(len(json.dumps([{str(i): list(range(i % 50))} for i in range(40000)])))' > /dev/null
	find /usr/lib -name '*.so*' > /dev/null 2>&1 || true
done
EOF
}

record() {
	need perf go gcc g++ xz git timeout
	setup_go
	setup_c
	write_load
	note "recording $SECS s system-wide at $FREQ Hz with call graphs..."
	rm -f "$DATA.tmp"
	# timeout ends the workload's whole process group when the time is up;
	# perf record -a stops when its command does.
	perf record -F "$FREQ" -a -g -o "$DATA.tmp" -- timeout -s TERM "$SECS" sh "$WORK/load.sh" ||
		[ -s "$DATA.tmp" ] || die "perf record failed"
	mv "$DATA.tmp" "$DATA"
	rm -rf "$WORK/gocache" "$WORK/gobin"
	echo "recorded: $(date '+%Y-%m-%d %H:%M'), $SECS s, perf record -F $FREQ -a -g," \
		"$(nproc) CPUs, kernel $(uname -r), $(perf --version)" > "$DIR/recorded.txt"
	rm -f "$DIR/info.txt"
}

# The DWARF recording: one program, no -a (every process's stack copy
# would make it huge), compiled by the distribution's g++ (no frame
# pointers), so every user frame comes from unwinding the stack copy.
record_dwarf() {
	n=${RECORD_DWARF_COMPILES:-4}
	case $n in '' | *[!0-9]*) die "RECORD_DWARF_COMPILES must be a whole number, not '$n'" ;; esac
	need perf g++
	setup_c
	cat > "$WORK/dwarf_loop.sh" <<EOF
i=0
while [ \$i -lt $n ]; do
	g++ -std=c++17 -O2 -pthread -o "$WORK/heavy" "$WORK/heavy.cpp"
	i=\$((i + 1))
done
EOF
	note "recording $n C++ compiles with --call-graph dwarf..."
	rm -f "$DIR/perf-dwarf.data.tmp"
	perf record -F 999 --call-graph dwarf -o "$DIR/perf-dwarf.data.tmp" -- sh "$WORK/dwarf_loop.sh" ||
		die "perf record --call-graph dwarf failed"
	mv "$DIR/perf-dwarf.data.tmp" "$DIR/perf-dwarf.data"
	echo "recorded: $(date '+%Y-%m-%d %H:%M'), perf record -F 999 --call-graph dwarf of $n g++ -O2" \
		"compiles of heavy.cpp, $(nproc) CPUs, kernel $(uname -r), $(perf --version)" > "$DIR/recorded-dwarf.txt"
}

if [ -s "$DIR/perf-dwarf.data" ]; then
	note "$DIR/perf-dwarf.data exists: not recording it"
else
	record_dwarf
fi
if [ -s "$TEXT" ]; then
	note "$TEXT exists: not recording"
else
	[ -s "$DATA" ] || record
	note "perf script > $TEXT..."
	perf script -i "$DATA" > "$TEXT.tmp" 2> "$DIR/perf-script.err" ||
		die "perf script failed (see $DIR/perf-script.err)"
	mv "$TEXT.tmp" "$TEXT"
	rm -f "$DIR/info.txt"
fi
if [ -s "$FOLDED" ]; then
	note "$FOLDED exists: not collapsing"
else
	note "collapsing with $SCP..."
	"$SCP" "$TEXT" > "$FOLDED.tmp" || die "'$SCP' failed on '$TEXT'"
	mv "$FOLDED.tmp" "$FOLDED"
	rm -f "$DIR/info.txt"
fi
if [ -s "$DIR/info.txt" ]; then
	cat "$DIR/info.txt"
	exit 0
fi

size=$(wc -c < "$TEXT")
samples=$(grep -c '^[^[:space:]#]' "$TEXT" || true)
distinct=$(wc -l < "$FOLDED")
fsize=$(wc -c < "$FOLDED")
frames=$(awk '{ sub(/ [0-9]+$/, ""); n += split($0, f, ";") } END { if (NR) printf "%.1f", n / NR }' "$FOLDED")
{
	cat "$DIR/recorded.txt" 2> /dev/null || echo "recorded: unknown (no recorded.txt)"
	echo "perf script text: $size bytes, $samples samples"
	echo "folded: $fsize bytes, $distinct distinct stacks, $frames frames deep on average"
	echo "processes with the most distinct stacks:"
	sed 's/;.*//' "$FOLDED" | sort | uniq -c | sort -rn | head -n 8
} > "$DIR/info.txt"
cat "$DIR/info.txt"
[ "$size" -ge "$MIN_TEXT" ] ||
	note "warning: only $size bytes of perf script text (aim: >= $MIN_TEXT); remove $DIR and rerun with a larger RECORD_SECONDS"
[ "$distinct" -ge "$MIN_DISTINCT" ] ||
	note "warning: only $distinct distinct stacks (aim: >= $MIN_DISTINCT); remove $DIR and rerun with a larger RECORD_SECONDS"
exit 0
