/* rustsym: finishing Rust symbols that a profiler demangled only partly,
 * "std..fs..File$LT$T$GT$::open::h0123456789abcdef" -> "std::fs::File<T>::open":
 * the trailing hash is dropped, ".." becomes "::" and the legacy "$LT$"
 * escapes are decoded, as inferno does for DTrace and sample stacks. */
#ifndef FLAME_RUSTSYM_H
#define FLAME_RUSTSYM_H

#include <stddef.h>

/* When the n bytes at s end in a Rust hash ("h" and 16 hex digits), writes
 * the fixed symbol to out (room for n bytes; it is never longer) and
 * returns its length; else returns (size_t)-1 and writes nothing. */
size_t rustsym_fix(const char *s, size_t n, char *out);

#endif
