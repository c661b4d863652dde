/* blockout: text made a block at a time and written in order, the odd
 * blocks made on a second thread while the caller makes the even ones
 * (a collapser's sorted stacks: formatting them costs more than writing
 * them).  The bytes are the same on one thread or two. */
#ifndef FLAME_BLOCKOUT_H
#define FLAME_BLOCKOUT_H

#include <stddef.h>
#include <stdio.h>

/* A block's text. */
struct blockbuf {
	char *buf;	/* its bytes */
	size_t len;	/* how many */
	size_t cap;	/* room */
};

/* Makes block k's text in b (handed over empty, its room kept from the
 * block before); ctx is blockout_write's.  Called on two threads at once
 * when par is set, for different blocks. */
typedef void blockout_fn(void *ctx, size_t k, struct blockbuf *b);

/* Writes blocks 0 to n - 1, made by fn, to f in order: the odd ones on
 * a second thread when par is set and one starts.  Returns 0, or -1
 * with errno set by the first write that failed (the blocks after it
 * are not written). */
int blockout_write(FILE *f, size_t n, blockout_fn *fn, void *ctx, int par);

#endif
