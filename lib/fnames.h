/* fnames: frame names interned to dense ids (0, 1, 2, ... in the order
 * first met), each kept once with its length at hand.  A name is found by
 * an index of its own (nameix, inline: a known name costs one hash and
 * one compare, no call).  Used by the call tree (stree) and the perf
 * collapser's stack table, which both name frames by id. */
#ifndef FLAME_FNAMES_H
#define FLAME_FNAMES_H

#include "nameix.h"

#include <stddef.h>
#include <stdint.h>

struct strtab;

struct fnames {
	struct strtab *tab;	/* the names; the id is the index */
	const char **name;	/* id -> name (the strtab's copy) */
	size_t *len;		/* id -> name length */
	size_t cap;		/* capacity of name and len */
	struct nameix ix;	/* the index of name and len */
};

/* An empty set, its index of slots (a power of two) to begin with. */
void fnames_init(struct fnames *f, size_t slots);
void fnames_release(struct fnames *f);

/* Adds name (len bytes, found absent at index slot j for hash h). */
uint32_t fnames_add(struct fnames *f, const char *name, size_t len, uint64_t h, size_t j);

/* The id of name, added when new. */
static inline uint32_t fnames_id(struct fnames *f, const char *name, size_t len)
{
	uint64_t h;
	size_t j;
	uint32_t id = nameix_find(&f->ix, f->name, f->len, name, len, &h, &j);

	return id != UINT32_MAX ? id : fnames_add(f, name, len, h, j);
}

/* How many names there are. */
size_t fnames_count(const struct fnames *f);

/* Bytes of memory held, for benchmarks. */
size_t fnames_bytes(const struct fnames *f);

#endif
