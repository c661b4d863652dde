# The shape of the tree (sourced by run.sh): functions of at most 60
# lines, lib/ modules of at most 500, and the calls going one way --
# collapse/ and render/ never include each other, lib/ includes neither,
# and nothing includes a tool's main.
_src=$(git ls-files '*.c' 2>/dev/null | grep -v '^tests/')
[ -n "$_src" ] || _src=$(find lib collapse render -name '*.c'; ls ./*.c)
_long=$(awk -v max=60 -f tests/tools/funclen.awk $_src)
[ -z "$_long" ] && pass "shape: no function over 60 lines" \
	|| fail "shape: no function over 60 lines" "$_long"
_big=$(wc -l lib/*.c lib/*.h | awk '$2 != "total" && $1 > 500')
[ -z "$_big" ] && pass "shape: no file in lib/ over 500 lines" \
	|| fail "shape: no file in lib/ over 500 lines" "$_big"

# Headers by folder, to tell which side an include reaches.
_hdr_of() { for _h in $(find "$1" -name '*.h'); do basename "$_h"; done | sort -u; }
_collapse_h=$(_hdr_of collapse)
_render_h=$(_hdr_of render)
includes_of() {	# includes_of DIR: "file: header" for the project headers DIR's files include
	grep -H '^#include "' $(find "$1" -name '*.[ch]') | sed 's/:#include "\(.*\)"/: \1/'
}
crossing() {	# crossing DIR HEADERS: DIR's includes of any of HEADERS
	includes_of "$1" | while read -r _f _h; do
		echo "$2" | grep -qx "$_h" && echo "$_f $_h"
	done
}
_x=$(crossing collapse "$_render_h")
[ -z "$_x" ] && pass "shape: collapse/ includes nothing of render/" || fail "shape: collapse/ includes render/" "$_x"
_x=$(crossing render "$_collapse_h")
[ -z "$_x" ] && pass "shape: render/ includes nothing of collapse/" || fail "shape: render/ includes collapse/" "$_x"
_x=$(crossing lib "$(printf '%s\n%s\n' "$_collapse_h" "$_render_h")")
[ -z "$_x" ] && pass "shape: lib/ includes nothing of collapse/ or render/" \
	|| fail "shape: lib/ includes collapse/ or render/" "$_x"
_x=$(grep -l 'int main(' $_src | while read -r _m; do grep -ln "#include \"$(basename "$_m" .c).h\"" $_src; done)
[ -z "$_x" ] && pass "shape: no tool main is included" || fail "shape: a tool main is included" "$_x"
