/* pprof_keys: the table of sample keys (a sample's location and label
 * fields, as they are in the input) pprof_stack finds a sample's stack
 * by.  Open addressing on a 64-bit hash kept in the slot, with the key's
 * bytes copied into the table's arena, so the input may be let go of; a
 * slot also carries what the key stands for, so a sample seen before
 * costs one hash, one probe and one compare. */
#ifndef FLAME_PPROF_KEYS_H
#define FLAME_PPROF_KEYS_H

#include <stddef.h>
#include <stdint.h>

/* Longest key kept, in bytes: longer samples are not keyed. */
#define PPROF_KEY_MAX ((size_t)UINT32_MAX - 1)

/* The stack id of a key whose stack cannot be built. */
#define PPROF_KEY_BAD UINT32_MAX

/* What a key stands for. */
struct pprof_key {
	uint64_t h;		/* its hash */
	uint64_t n;		/* its samples' values, summed */
	uint64_t off;		/* its bytes in the arena */
	uint32_t len1;		/* its length + 1, 0: a free slot */
	uint32_t id1;		/* its stack's id + 1, 0: not built yet,
				   PPROF_KEY_BAD: cannot be */
};

struct pprof_keys;

/* An empty table; free with pprof_keys_free. */
struct pprof_keys *pprof_keys_new(void);
void pprof_keys_free(struct pprof_keys *k);

/* The hash of the len bytes at s. */
uint64_t pprof_keys_hash(const void *s, size_t len);

/* The entry of the len (<= PPROF_KEY_MAX) bytes at s whose hash is h,
 * added zeroed (and its bytes copied) when absent.  The pointer is valid
 * until the next call. */
struct pprof_key *pprof_keys_get(struct pprof_keys *k, const void *s, size_t len, uint64_t h);

/* Hints that the key of hash h will be looked up soon: its slot (call
 * first, some lookups ahead), then the bytes of the key in that slot
 * (when the slot has had time to arrive). */
void pprof_keys_prefetch(const struct pprof_keys *k, uint64_t h);
void pprof_keys_prefetch_key(const struct pprof_keys *k, uint64_t h);

/* Calls fn for each entry, in the order they were added (not the slots'
 * order, which follows the hash and its secret: sums past 2^64 go on in
 * floating point, where the order of the adds shows). */
void pprof_keys_each(const struct pprof_keys *k, void (*fn)(void *ctx, const struct pprof_key *e),
		     void *ctx);

#endif
