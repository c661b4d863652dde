/* nameix: the index of a set of names that its owner keeps as name[id]
 * and len[id], ids dense from 0 (fnames, pprof's frame names): open
 * addressing over 8-byte slots, each the top half of the name's hash
 * (hkey's) above id + 1, at most half full.  The lookup is inline: a
 * known name costs one hash and one compare, no call. */
#ifndef FLAME_NAMEIX_H
#define FLAME_NAMEIX_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "hkey.h"

struct nameix {
	uint64_t *slot;		/* hash tag << 32 | (id + 1), 0 empty */
	size_t mask;		/* slots - 1 (a power of two) */
	const unsigned char *secret;	/* hkey's */
};

/* An empty index of slots (a power of two); release with
 * nameix_release. */
void nameix_init(struct nameix *x, size_t slots);
void nameix_release(struct nameix *x);

/* The id of name (len bytes) among the owner's name and len, or
 * UINT32_MAX with its hash in *h and the free slot it would take in *j
 * (for nameix_put). */
static inline uint32_t nameix_find(const struct nameix *x, const char *const *name,
				   const size_t *lens, const char *s, size_t len, uint64_t *h,
				   size_t *j)
{
	uint64_t v;
	uint32_t id;

	*h = hkey_with(x->secret, s, len);
	for (*j = (size_t)*h & x->mask; (v = x->slot[*j]) != 0; *j = (*j + 1) & x->mask) {
		id = (uint32_t)v - 1;
		if (v >> 32 == *h >> 32 && lens[id] == len && memcmp(name[id], s, len) == 0)
			return id;
	}
	return UINT32_MAX;
}

/* Records id, the owner's newest of n names (name and len already
 * hold it), at slot j for hash h as nameix_find gave them; the index is
 * built again twice as large when it gets over half full. */
void nameix_put(struct nameix *x, uint32_t id, uint64_t h, size_t j, const char *const *name,
		const size_t *lens, size_t n);

/* The index of n names built again with slots (a power of two, over
 * twice n). */
void nameix_resize(struct nameix *x, size_t slots, const char *const *name, const size_t *lens,
		   size_t n);

#endif
