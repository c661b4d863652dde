/* strtab: interns byte strings (any bytes, NUL included) in an arena and
 * gives each a dense id, in insertion order, and a fixed-size value that
 * starts zeroed.  Keys are hashed with hkey (XXH3, a secret of the
 * process's own).  Strings and values
 * stay at the same address until strtab_free. */
#ifndef FLAME_STRTAB_H
#define FLAME_STRTAB_H

#include <stddef.h>
#include <stdint.h>

struct strtab;

/* Returns an empty table whose entries carry valsize bytes of value.
 * Free with strtab_free. */
struct strtab *strtab_new(size_t valsize);

/* Frees the table, its strings and values.  strtab_free(NULL) does nothing. */
void strtab_free(struct strtab *t);

/* Returns the id of the len bytes at s, adding a copy (NUL-terminated)
 * with a zeroed value when absent; sets *added (if not NULL) to 1 when it
 * was added, else 0. */
uint32_t strtab_intern(struct strtab *t, const char *s, size_t len, int *added);

/* The hash strtab_intern computes for the len bytes at s. */
uint64_t strtab_hash(const char *s, size_t len);

/* Starts loading the slot where a key of hash h is looked for, so that
 * a strtab_intern_hashed of it a little later finds it in the cache (a
 * reader that knows its next key before it adds it). */
void strtab_prefetch(const struct strtab *t, uint64_t h);

/* strtab_intern, h being strtab_hash(s, len). */
uint32_t strtab_intern_hashed(struct strtab *t, const char *s, size_t len, uint64_t h, int *added);

/* Returns the id of s, or UINT32_MAX when absent. */
uint32_t strtab_find(const struct strtab *t, const char *s, size_t len);

/* Number of distinct strings. */
size_t strtab_count(const struct strtab *t);

/* The string with id (NUL-terminated); its length in *len if not NULL. */
const char *strtab_str(const struct strtab *t, uint32_t id, size_t *len);

/* The value of id: valsize bytes owned by the table. */
void *strtab_val(const struct strtab *t, uint32_t id);

/* Returns the ids of t sorted by their strings, bytewise (LC_ALL=C sort
 * order).  The caller frees the array of strtab_count(t) ids. */
uint32_t *strtab_sorted(const struct strtab *t);

/* Bytes of memory held, for benchmarks. */
size_t strtab_bytes(const struct strtab *t);

/* Exchanges the contents of a and b (tables of the same value size): a
 * table handed over without copying a string. */
void strtab_swap(struct strtab *a, struct strtab *b);

#endif
