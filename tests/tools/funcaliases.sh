#!/bin/sh
# funcaliases.sh ELF...: for every address where an ELF file (or its
# separate debug file, found by build id under /usr/lib/debug) has more
# than one function symbol, lines "ALIAS CANON": each name there and the
# one (the smallest bytewise) all of them stand for.  For comparing
# stacks where two tools name one function differently.
for _elf in "$@"; do
	[ -r "$_elf" ] || continue
	_id=$(readelf -n "$_elf" 2> /dev/null | awk '/Build ID/ { print $3; exit }')
	_dbg=/usr/lib/debug/.build-id/$(echo "$_id" | cut -c1-2)/$(echo "$_id" | cut -c3-).debug
	[ -n "$_id" ] && [ -r "$_dbg" ] || _dbg=$_elf
	{ readelf -sW "$_dbg"; readelf -sW --dyn-syms "$_elf"; } 2> /dev/null |
		awk -v f="$_elf" '$4 == "FUNC" && $2 != "0000000000000000" { sub(/@.*/, "", $8); print f ":" $2, $8 }'
done | LC_ALL=C sort -u | awk '
	$1 != at { at = $1; canon = $2 }
	{ if ($2 != canon) print $2, canon }'
