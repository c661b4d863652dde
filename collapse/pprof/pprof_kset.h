/* pprof_kset: the sample keys of stackcollapse-pprof's one pass (a
 * sample's location field, its bytes as they are) with the sums of
 * their values, one per value type.  A key's sums and bytes are one
 * record in one arena, and a slot of the index is 8 bytes (a tag of the
 * hash and the record's place), so a sample seen before costs a probe of
 * a small index and one record's cache lines, both fetched ahead. */
#ifndef FLAME_PPROF_KSET_H
#define FLAME_PPROF_KSET_H

#include <stddef.h>
#include <stdint.h>

struct pprof_kset;

/* An empty set of keys of nv (>= 1) sums each; free with
 * pprof_kset_free (NULL: does nothing). */
struct pprof_kset *pprof_kset_new(size_t nv);
void pprof_kset_free(struct pprof_kset *k);

/* A key of at most this many bytes is read as this many (the bytes past
 * it masked off): no branch on its length.  Such a key's s must have
 * them there to read. */
#define PPROF_KSET_WIDE 128

/* The hash of the len bytes at s. */
uint64_t pprof_kset_hash(const void *s, size_t len);

/* Hints that key of hash h (len bytes) will be added soon: its slot
 * (some adds ahead), then its record (when the slot has had time to
 * come): the lines pprof_kset_add reads of it. */
void pprof_kset_prefetch(const struct pprof_kset *k, uint64_t h);
void pprof_kset_prefetch_rec(const struct pprof_kset *k, uint64_t h, size_t len);

/* Adds the nv values v to the sums of key s (len bytes, hash h), added
 * with sums of 0 when new.  Returns 0, or -1 when a sum would pass
 * UINT64_MAX (it is left as it was). */
int pprof_kset_add(struct pprof_kset *k, const void *s, size_t len, uint64_t h,
		   const uint64_t *v);

/* How many keys there are. */
size_t pprof_kset_count(const struct pprof_kset *k);

/* Bytes of the records and index: when few enough to stay in the cache,
 * prefetching them costs more than it saves. */
size_t pprof_kset_bytes(const struct pprof_kset *k);

/* The key after *pos (0: the first), in the order they came: its bytes
 * in *s and *len, its sums in *sums.  Returns 0 past the last. */
int pprof_kset_next(const struct pprof_kset *k, size_t *pos, const unsigned char **s,
		    size_t *len, const uint64_t **sums);

#endif
