/* lblock: blocks of whole lines over lread_whole or lread_read. */
#include "lblock.h"
#include "lread.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK ((size_t)4 << 20)		/* bytes handed over at a time */
#define MAX_LINE ((size_t)256 << 20)	/* longer lines are skipped */

/* The mapped text, CHUNK bytes at a time cut after a '\n'; pages done
 * with are given back, so memory does not grow with the file. */
static int mapped(const char *p, size_t len, lblock_fn *fn, void *ctx)
{
	unsigned long lineno = 0;
	const char *end = p + len, *cut;

	while (p < end) {
		cut = (size_t)(end - p) > CHUNK ? p + CHUNK : end;
		if (cut < end) {
			const char *nl = memrchr(p, '\n', (size_t)(cut - p));

			if (!nl && !(nl = memchr(cut, '\n', (size_t)(end - cut))))
				nl = end - 1;
			if ((size_t)(nl - p) >= MAX_LINE) {
				/* Skipped, as lread_next skips it. */
				lineno++;
				p = nl + 1;
				continue;
			}
			cut = nl + 1;
		}
		if (fn(ctx, p, (size_t)(cut - p), &lineno) < 0)
			return 0;
		lread_give_back(p, (size_t)(cut - p));
		p = cut;
	}
	return 0;
}

/* The read state: buf holds have bytes, the carried partial line first. */
struct rd {
	char *buf;		/* the bytes read */
	size_t have, cap;	/* bytes in buf, and its size */
	int skipping;		/* 1 while a line over MAX_LINE is dropped */
};

/* Hands over the whole lines in r->buf and keeps the partial last one,
 * or drops it once it is over the limit, up to its end.  Returns fn's
 * answer. */
static int whole_lines(struct rd *r, lblock_fn *fn, void *ctx, unsigned long *lineno)
{
	const char *nl = r->have ? memrchr(r->buf, '\n', r->have) : NULL;
	size_t done = nl ? (size_t)(nl - r->buf) + 1 : 0, k;
	int rc = 0;

	if (r->skipping) {
		if (!nl) {
			r->have = 0;
			return 0;
		}
		/* The over-long line ends here: it counts, its end is dropped. */
		k = (size_t)((const char *)memchr(r->buf, '\n', r->have) - r->buf) + 1;
		(*lineno)++;
		r->skipping = 0;
		if (done > k)
			rc = fn(ctx, r->buf + k, done - k, lineno);
	} else if (done) {
		rc = fn(ctx, r->buf, done, lineno);
	}
	memmove(r->buf, r->buf + done, r->have - done);
	r->have -= done;
	if (r->have > MAX_LINE) {
		r->skipping = 1;
		r->have = 0;
	}
	return rc;
}

/* Reads and hands over; returns 0, or -1 on a read error. */
static int streamed(struct lread *lr, lblock_fn *fn, void *ctx)
{
	struct rd r = { NULL, 0, 0, 0 };
	unsigned long lineno = 0;
	ssize_t n;
	int rc = 0;

	for (;;) {
		if (r.cap - r.have < CHUNK)
			xgrow(&r.buf, &r.cap, r.have + CHUNK, 1);
		if ((n = lread_read(lr, r.buf + r.have, r.cap - r.have)) <= 0)
			break;
		r.have += (size_t)n;
		if (whole_lines(&r, fn, ctx, &lineno) < 0)
			break;
	}
	if (n < 0)
		rc = -1;	/* the cut line is dropped */
	else if (n == 0 && r.have && !r.skipping)
		(void)fn(ctx, r.buf, r.have, &lineno);
	free(r.buf);
	return rc;
}

int lblock_feed(struct lread *lr, lblock_fn *fn, void *ctx, char *err, size_t errlen)
{
	size_t len;
	const char *whole = lread_whole(lr, &len);

	if (whole)
		return mapped(whole, len, fn, ctx);
	if (streamed(lr, fn, ctx) == 0)
		return 0;
	snprintf(err, errlen, "%s: %s", lread_name(lr), lread_error(lr));
	return -1;
}
