#!/bin/sh
# Records the real perf inputs of the stackcollapse-perf tests with this
# machine's perf (tests/data/perf/*.txt.gz), from the example programs and
# node.  Run by hand (needs perf, gcc, g++, node); the expected results are
# then regenerated with make update-golden and reviewed.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/tests/data/perf
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
gcc -O0 -g -fno-omit-frame-pointer -pthread -o threads "$top/examples/src/threads.c"
g++ -O1 -g -fno-omit-frame-pointer -o templates "$top/examples/src/templates.cpp"
cat > work.js <<'JS'
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
function sortMany() { const a = []; for (let i = 0; i < 200000; i++) a.push((i * 7919) % 10007); return a.sort((x, y) => x - y)[5]; }
let s = 0;
for (let r = 0; r < 12; r++) { s += fib(24); s += sortMany(); s += JSON.stringify({ r, s }).length; }
console.log(s);
JS

rec() {	# rec NAME PERF-RECORD-ARGS... -- CMD
	name=$1
	shift
	perf record -q -o "$name.data" "$@" > /dev/null 2>&1
}
script() {	# script NAME [PERF-SCRIPT-ARGS]
	name=$1
	shift
	perf script -i "$name.data" "$@" 2>/dev/null | gzip -9 > "$out/$name.txt.gz"
	echo "$name: $(zcat "$out/$name.txt.gz" | wc -c) bytes"
}

rec threads -F 499 -g -- ./threads 4 && script threads
rec cpp -F 499 -g -- ./templates && script cpp
rec node -F 499 -g -- node --perf-basic-prof work.js && script node
rec events -F 299 -g -e cycles -e instructions -- ./threads 2 && script events
rec dwarf -F 199 --call-graph dwarf,16384 -- ./templates && script dwarf
rec pidtid -F 299 -g -- ./threads 3 && script pidtid -F comm,pid,tid,time,period,event,ip,sym,dso
rec srcline -F 199 -g -- ./threads 2 && script srcline -F comm,tid,time,period,event,ip,sym,dso,srcline
rec nocallchain -F 299 -- ./threads 2 && script nocallchain
(./threads 4 > /dev/null &) ; rec system -F 99 -g -a -- sleep 1 && script system
rm -f /tmp/perf-*.map
