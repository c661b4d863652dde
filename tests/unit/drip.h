/* drip.h: a byte source for the tests that hands out a buffer through
 * windows of a chosen size, for unit tests and fuzz targets alike. */
#ifndef FLAME_TEST_DRIP_H
#define FLAME_TEST_DRIP_H

#include <stdlib.h>
#include <string.h>

#include "bsrc.h"

/* A filter handing out the bytes of a buffer k at a time (0: sizes from
 * 1 to 300 in turn), through a window it scribbles over at each refill,
 * so a reader keeping a stale window sees garbage. */
struct drip {
	const unsigned char *d;	/* the bytes */
	size_t len;		/* how many */
	size_t pos;		/* handed out so far */
	size_t k;		/* per refill */
	unsigned turn;		/* for k == 0 */
	unsigned char win[300];	/* the window */
};

static inline ssize_t drip_fill(void *ctx, const unsigned char **p, char *err, size_t errlen)
{
	struct drip *r = ctx;
	size_t n = r->k ? r->k : 1 + (r->turn++ * 37) % 300;

	(void)err;
	(void)errlen;
	if (n > r->len - r->pos)
		n = r->len - r->pos;
	memset(r->win, 0xa5, sizeof(r->win));
	memcpy(r->win, r->d + r->pos, n);
	r->pos += n;
	*p = r->win;
	return (ssize_t)n;
}

static inline void drip_free(void *ctx)
{
	free(ctx);
}

static const struct bsrc_ops drip_ops = { drip_fill, NULL, drip_free };

static inline struct bsrc *drip(const void *d, size_t len, size_t k)
{
	struct drip *r = calloc(1, sizeof(*r));

	r->d = d;
	r->len = len;
	r->k = k;
	return bsrc_filter(&drip_ops, r, "drip");
}

#endif
