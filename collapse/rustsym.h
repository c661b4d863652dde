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

/* A few hundred symbols fixed lately, each by its hash, for readers whose
 * symbols come back again and again (a stack's frames): a symbol seen
 * before costs a compare and a copy instead of a fix.  At most about
 * 600 KB. */
struct rustsym_cache;

/* Returns an empty cache; free with rustsym_cache_free. */
struct rustsym_cache *rustsym_cache_new(void);

/* Frees c.  rustsym_cache_free(NULL) does nothing. */
void rustsym_cache_free(struct rustsym_cache *c);

/* As rustsym_fix, but *out points at the fixed symbol, owned by c and
 * valid until the next call with c. */
size_t rustsym_cached(struct rustsym_cache *c, const char *s, size_t n, const char **out);

#endif
