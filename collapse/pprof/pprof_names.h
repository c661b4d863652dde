/* pprof_names: pprof_set's frame names interned to dense ids (0, 1, 2,
 * ... in the order first met).  Each name is kept once, followed by ';'
 * and with PPROF_NAMES_PAD readable bytes after that (later names or
 * zeros), so a collapsed line is made by copying names in fixed-size
 * pieces with no call per name; a name never moves once added.  The
 * index (nameix) is sized up front from a count of names when one is
 * known (pprof_names_reserve), not rebuilt at every doubling. */
#ifndef FLAME_PPROF_NAMES_H
#define FLAME_PPROF_NAMES_H

#include "nameix.h"

#include <stddef.h>
#include <stdint.h>

/* Bytes readable past a name's ';'. */
#define PPROF_NAMES_PAD 32

struct pprof_names {
	const char **name;	/* id -> its name (followed by ';') */
	size_t *len;		/* id -> its length */
	size_t n, cap;		/* names, room of name and len */
	char *blk;		/* the block being filled */
	size_t used, room;	/* its bytes used, its size */
	char **blks;		/* every block, to free */
	size_t nblks, blkcap;	/* how many, room */
	struct nameix ix;	/* the index of name and len */
};

/* An empty set; release with pprof_names_release. */
void pprof_names_init(struct pprof_names *m);
void pprof_names_release(struct pprof_names *m);

/* Readies m for n names in all (a hint: more may be added). */
void pprof_names_reserve(struct pprof_names *m, size_t n);

/* Adds name (len bytes, no ';'), found absent at slot j for hash h;
 * returns its id. */
uint32_t pprof_names_add(struct pprof_names *m, const char *name, size_t len, uint64_t h,
			 size_t j);

/* The id of name (len bytes, no ';'), added when new. */
static inline uint32_t pprof_names_id(struct pprof_names *m, const char *name, size_t len)
{
	uint64_t h;
	size_t j;
	uint32_t id = nameix_find(&m->ix, m->name, m->len, name, len, &h, &j);

	return id != UINT32_MAX ? id : pprof_names_add(m, name, len, h, j);
}

#endif
