/* pprof_order: pprof_set's stacks of frame ids put in the bytewise
 * order of their text (names joined by ';', root first), the text never
 * made: each stack spelled as the ranks of its names' keys (pprof_rank),
 * the spellings sorted 8 bytes at a time. */
#ifndef FLAME_PPROF_ORDER_H
#define FLAME_PPROF_ORDER_H

#include "xalloc.h"

#include <stddef.h>
#include <stdint.h>

/* A stack of pprof_set's: its n frames' ids at pool + off, leaf first,
 * and its weight. */
struct pprof_stk {
	size_t off;		/* its first frame in the pool */
	size_t n;		/* how many frames */
	uint64_t c;		/* its weight */
};

/* The n stacks stk (their frames in pool; the ids those of nnames names,
 * whose keys rank ranks: pprof_key_ranks's) in the bytewise order of
 * their text: returns at, at[i] the index in stk of the i-th, in *mem
 * (xbig's, empty; the caller frees it), and sets same[i] (room for n + 1)
 * to how many frames it shares with the one before (same[0] 0; all of
 * both: the same stack).  On two threads when par is set and the stacks
 * are many. */
size_t *pprof_order(const struct pprof_stk *stk, size_t n, const uint32_t *pool,
		    const uint32_t *rank, size_t nnames, int par, struct xbig *mem, size_t *same);

#endif
