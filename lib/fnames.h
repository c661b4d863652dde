/* fnames: frame names interned to dense ids (0, 1, 2, ... in the order
 * first met), each kept once with its length at hand.  A name is found by
 * an index of its own, inline here: a known name costs one hash and one
 * compare, no call.  Used by the call tree (stree) and the perf
 * collapser's stack table, which both name frames by id. */
#ifndef FLAME_FNAMES_H
#define FLAME_FNAMES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "hkey.h"

struct strtab;

struct fnames {
	struct strtab *tab;	/* the names; the id is the index */
	const char **name;	/* id -> name (the strtab's copy) */
	size_t *len;		/* id -> name length */
	size_t cap;		/* capacity of name and len */
	uint64_t *slot;		/* index: hash tag << 32 | (id + 1), 0 empty */
	size_t mask;		/* its slots - 1 (a power of two) */
	const unsigned char *secret;	/* hkey's */
};

/* An empty set, its index of slots (a power of two) to begin with. */
void fnames_init(struct fnames *f, size_t slots);
void fnames_release(struct fnames *f);

/* Adds name (len bytes, found absent at index slot j for hash h). */
uint32_t fnames_add(struct fnames *f, const char *name, size_t len, uint64_t h, size_t j);

/* The id of name, added when new. */
static inline uint32_t fnames_id(struct fnames *f, const char *name, size_t len)
{
	uint64_t h = hkey_with(f->secret, name, len), v;
	size_t j = (size_t)h & f->mask;
	uint32_t id;

	for (; (v = f->slot[j]) != 0; j = (j + 1) & f->mask) {
		id = (uint32_t)v - 1;
		if (v >> 32 == h >> 32 && f->len[id] == len && memcmp(f->name[id], name, len) == 0)
			return id;
	}
	return fnames_add(f, name, len, h, j);
}

/* How many names there are. */
size_t fnames_count(const struct fnames *f);

/* Bytes of memory held, for benchmarks. */
size_t fnames_bytes(const struct fnames *f);

#endif
