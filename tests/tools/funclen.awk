# funclen.awk: prints "file:line name length" for each C function of
# more than max lines (awk -v max=60 -f funclen.awk FILE...).  A function
# starts at a line beginning with a name and "(" and not ending in ";",
# with its "{" alone at the start of a line; it ends at "}" there.
/^[A-Za-z_].*\(/ && !/;[ \t]*$/ { cand = $0; cline = FNR; next_is_body = 1; next }
next_is_body && /^\{/ { start = FNR; name = cand; sub(/\(.*/, "", name); n = split(name, w, /[ \t*]+/); name = w[n]; infn = 1; next_is_body = 0; next }
/^[A-Za-z_].*[,(]$/ { next }
{ if (!/^[ \t]/ && !/^\{/) next_is_body = next_is_body && /^[ \t]/ }
infn && /^\}/ { len = FNR - start - 1; if (len > max) printf "%s:%d %s %d\n", FILENAME, cline, name, len; infn = 0 }
