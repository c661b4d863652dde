# Golden tests: each tests/data/flamegraph/CASE/ has "args" (flamegraph's
# arguments; files are relative to the case) and results/:
#   out.svg       flame's own output, byte for byte (make update-golden)
#   perl.size     the size of flamegraph.pl's SVG: flame's must not be larger
#   perl.frames   frames flamegraph.pl drew for the same arguments, recorded
#                 by tests/record-perl.sh; compared within 0.1 px.  A case
#                 with a "loose-pct" file has fractional counts, where the
#                 percentages differ on purpose (flamegraph.pl can pass 100%).
# Sourced by run.sh; "sh tests/golden.sh update" rewrites out.svg files.

golden_case() {
	_dir=$1
	_name=golden/$(basename "$_dir")
	_fg=$(pwd)/$B/flamegraph
	(cd "$_dir" && eval "set -- $(cat args)" && "$_fg" "$@") > "$TMP/out.svg" 2> "$TMP/err"
	if [ "$GOLDEN_MODE" = update ]; then
		mkdir -p "$_dir/results"
		cp "$TMP/out.svg" "$_dir/results/out.svg"
		return
	fi
	if _d=$(diff -u "$_dir/results/out.svg" "$TMP/out.svg" 2>&1); then
		pass "$_name"
	else
		fail "$_name" "$(printf '%s\n' "$_d" | head -30)"
	fi
	if [ -f "$_dir/results/perl.size" ]; then
		_ours=$(wc -c < "$TMP/out.svg")
		_theirs=$(cat "$_dir/results/perl.size")
		[ "$_ours" -le "$_theirs" ] && pass "$_name is no larger than flamegraph.pl's SVG" \
			|| fail "$_name is no larger than flamegraph.pl's SVG" "$_ours > $_theirs bytes"
	fi
	if [ -f "$_dir/results/perl.frames" ]; then
		_loose=
		[ -f "$_dir/loose-pct" ] && _loose=--loose-pct
		if _d=$("$B/tests/svgframes" -c "$_dir/results/perl.frames" "$TMP/out.svg" $_loose); then
			pass "$_name matches flamegraph.pl's frames"
		else
			fail "$_name matches flamegraph.pl's frames" "$_d"
		fi
	fi
}

if [ "$1" = update ]; then
	B=${B:-build}
	GOLDEN_MODE=update
	. tests/lib.sh
	TMP=$(mktemp -d)
fi
for _c in tests/data/flamegraph/*/; do
	golden_case "${_c%/}"
done
[ "$1" = update ] && rm -rf "$TMP"
