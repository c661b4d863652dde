#!/bin/sh
# Records the example profiles with Linux perf on this machine.
#   sh examples/record.sh [folded] [perf]     (needs perf, gcc, g++, gzip)
# folded: builds examples/src/*, runs each under "perf record -g" and
#   writes examples/NAME.folded.  Those were folded before stackcollapse-perf
#   existed, by the small awk program below: one stack per sample, process
#   name as the root.
# perf: records the threaded example with DWARF call graphs (glibc has no
#   frame pointers, so -g alone stops at qsort) and keeps perf script's own
#   text, gzipped, as examples/threads.perf.gz: what make demo feeds flame.
#   At 499 Hz for about 1.5 s it stays near 30 KB.
set -e
cd "$(dirname "$0")"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
[ $# -gt 0 ] || set -- folded perf

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

record_folded() {
	gcc -O0 -g -fno-omit-frame-pointer -pthread -o "$out/threads" src/threads.c
	g++ -O1 -g -fno-omit-frame-pointer -o "$out/templates" src/templates.cpp
	perf record -q -F 997 -g -o "$out/threads.data" -- "$out/threads" 4 > /dev/null
	fold "$out/threads.data" > threads.folded
	perf record -q -F 997 -g -o "$out/templates.data" -- "$out/templates" > /dev/null
	fold "$out/templates.data" > templates.folded
	wc -l threads.folded templates.folded
}

record_perf() {
	gcc -O1 -g -fno-omit-frame-pointer -pthread -o "$out/threads" src/threads.c
	perf record -q -F 499 --call-graph dwarf,16384 -o "$out/perf.data" -- "$out/threads" 4 > /dev/null
	perf script -i "$out/perf.data" 2>/dev/null | gzip -9n > threads.perf.gz
	ls -l threads.perf.gz
}

for step in "$@"; do
	case $step in
	folded) record_folded ;;
	perf) record_perf ;;
	*) echo "record.sh: unknown step '$step' (folded, perf)" >&2; exit 2 ;;
	esac
done
