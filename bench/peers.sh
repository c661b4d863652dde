#!/bin/sh
# peers.sh: find the programs bench/real.sh measures ours against and link
# them into bench/out/peers/bin/ under fixed names:
#   inferno-flamegraph, inferno-collapse-perf   (inferno, the Rust port)
#   flamegraph.pl, stackcollapse-perf.pl        (Brendan Gregg's FlameGraph)
# Looked for, in order: INFERNO_DIR / FLAMEGRAPH_DIR (a directory holding
# them), the variables run.sh already knows (INFERNO, INFERNO_COLLAPSE_PERF,
# FLAMEGRAPH_PL, STACKCOLLAPSE_PERF_PL), bench/out/peers/inferno/ and
# bench/out/peers/FlameGraph/, then PATH.  A peer not found is reported and
# left out; real.sh then measures without it.  Nothing here downloads or
# builds anything: inferno is not packaged in Debian and FlameGraph is a
# git repository, so get them by hand and point the variables at them.
# Exits 0 whatever was found (the list goes to stdout), 1 on an I/O error.
set -eu
PEERS=bench/out/peers
BIN=$PEERS/bin
mkdir -p "$BIN"

# find_peer NAME DIRVAR EXPLICIT: print the path of NAME, or nothing.
find_peer() {
	name=$1
	dir=$2
	explicit=$3
	for p in "$explicit" "${dir:+$dir/$name}" "$PEERS/inferno/$name" "$PEERS/FlameGraph/$name"; do
		if [ -n "$p" ] && [ -f "$p" ]; then
			echo "$p"
			return
		fi
	done
	command -v "$name" 2> /dev/null || true
}

# link_peer NAME PATH: point bin/NAME at PATH (absolute), or drop a stale link.
link_peer() {
	rm -f "$BIN/$1"
	if [ -z "$2" ]; then
		return
	fi
	case $2 in
	/*) ln -s "$2" "$BIN/$1" ;;
	*) ln -s "$(pwd)/$2" "$BIN/$1" ;;
	esac
}

found=0
missing=
for name in inferno-flamegraph inferno-collapse-perf flamegraph.pl stackcollapse-perf.pl; do
	case $name in
	inferno-flamegraph) p=$(find_peer "$name" "${INFERNO_DIR:-}" "${INFERNO:-}") ;;
	inferno-collapse-perf) p=$(find_peer "$name" "${INFERNO_DIR:-}" "${INFERNO_COLLAPSE_PERF:-}") ;;
	flamegraph.pl) p=$(find_peer "$name" "${FLAMEGRAPH_DIR:-}" "${FLAMEGRAPH_PL:-}") ;;
	stackcollapse-perf.pl) p=$(find_peer "$name" "${FLAMEGRAPH_DIR:-}" "${STACKCOLLAPSE_PERF_PL:-}") ;;
	esac
	link_peer "$name" "$p"
	if [ -n "$p" ]; then
		case $name in
		*.pl) v="perl $(perl -e 'printf "%vd", $^V')" ;;
		*) v=$("$p" --version 2> /dev/null | head -n 1 || true) ;;
		esac
		printf '%-24s %s (%s)\n' "$name" "$p" "${v:-version unknown}"
		found=$((found + 1))
	else
		printf '%-24s not found\n' "$name"
		missing="$missing $name"
	fi
done
if [ -n "$missing" ]; then
	echo "peers.sh: not found:$missing; real.sh leaves them out" >&2
	case $missing in *inferno*)
		echo "peers.sh: put inferno's binaries in $PEERS/inferno/ or set INFERNO_DIR" >&2 ;;
	esac
	case $missing in *.pl*)
		echo "peers.sh: put FlameGraph's scripts in $PEERS/FlameGraph/ or set FLAMEGRAPH_DIR" >&2 ;;
	esac
fi
exit 0
