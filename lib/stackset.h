/* stackset: distinct stacks as arrays of interned frame ids, the model the
 * stack operators (stackops) reshape.  Frames are split at every ';' (empty
 * and trailing fields included, as stree does), so turning a set back into
 * text gives the same bytes.  Each stack owns a slice of one frame pool and
 * can only shrink in place, which is all the operators need. */
#ifndef FLAME_STACKSET_H
#define FLAME_STACKSET_H

#include <stddef.h>
#include <stdint.h>

#include "folded.h"

struct strtab;

/* One distinct input stack.  Fields are read and written by stackops. */
struct sstack {
	size_t off;		/* its first frame in the pool */
	uint32_t len;		/* frames, root first */
	uint32_t dropped;	/* 1: removed by a filter */
	struct fcount c;	/* its count */
};

struct stackset {
	struct strtab *frames;	/* frame names; the id is the index */
	const char **name;	/* frame id -> name (the table's copy) */
	size_t *nlen;		/* frame id -> name length */
	size_t ncap;		/* room in name and nlen */
	uint32_t *fr;		/* the frame pool */
	size_t nfr;		/* frames in use */
	size_t frcap;		/* room in fr */
	struct sstack *st;	/* the stacks, sorted bytewise as they came in */
	size_t n;		/* how many */
};

/* Fills s (released with stackset_release) with the stacks of t, a table
 * of whole stacks whose values are struct fcount. */
void stackset_init(struct stackset *s, const struct strtab *t);

/* Frees what s holds. */
void stackset_release(struct stackset *s);

/* The id of the frame name (len bytes), added when new. */
uint32_t stackset_intern(struct stackset *s, const char *name, size_t len);

/* The frames of stack i. */
static inline uint32_t *stackset_frames(const struct stackset *s, size_t i)
{
	return s->fr + s->st[i].off;
}

/* Rebuilds stack i, frames joined with ';', into *buf (grown as needed,
 * *cap its size, NUL-terminated; the caller frees it); returns its length. */
size_t stackset_str(const struct stackset *s, size_t i, char **buf, size_t *cap);

/* Returns a new table (values: struct fcount; the caller frees it) of the
 * stacks not dropped, joined again with ';'; stacks made equal are merged
 * and their counts summed. */
struct strtab *stackset_table(const struct stackset *s);

#endif
