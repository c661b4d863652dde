#!/bin/sh
# Records the example profiles with Linux perf: builds examples/src/*,
# runs each under "perf record -g" and writes examples/NAME.folded.
#   sh examples/record.sh           (needs perf, gcc, g++)
# Until stackcollapse-perf lands, perf script text is folded by the small
# awk program below: one stack per sample, process name as the root.
set -e
cd "$(dirname "$0")"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
gcc -O0 -g -fno-omit-frame-pointer -pthread -o "$out/threads" src/threads.c
g++ -O1 -g -fno-omit-frame-pointer -o "$out/templates" src/templates.cpp

fold() {
	perf script -i "$1" -F comm,tid,ip,sym 2>/dev/null | awk '
		/^[^ \t]/ { comm = $1; n = 0; next }
		/^[ \t]+[0-9a-f]+ / {
			sym = $0
			sub(/^[ \t]+[0-9a-f]+ /, "", sym)
			if (sym == "") sym = "[unknown]"
			gsub(/;/, ":", sym)
			f[n++] = sym
			next
		}
		/^$/ {
			if (n) {
				s = comm
				for (i = n - 1; i >= 0; i--) s = s ";" f[i]
				count[s]++
			}
			n = 0
		}
		END { for (s in count) print s, count[s] }' | LC_ALL=C sort
}

perf record -q -F 997 -g -o "$out/threads.data" -- "$out/threads" 4 > /dev/null
fold "$out/threads.data" > threads.folded
perf record -q -F 997 -g -o "$out/templates.data" -- "$out/templates" > /dev/null
fold "$out/templates.data" > templates.folded
wc -l threads.folded templates.folded
