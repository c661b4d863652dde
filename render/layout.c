/* layout: flamegraph.pl's frame merging, with pruning on the fly. */
#include "layout.h"
#include "xalloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct open {
	const char *name;	/* frame name */
	size_t len;		/* its length */
	size_t end;		/* offset of its end in the stack: the same in
				   every stack that shares the frame */
	size_t out;		/* index in lo->f */
};

struct flow {
	struct layout *lo;	/* output */
	struct open *open;	/* open frames by depth, [0] the root */
	size_t nopen;		/* open frames */
	size_t cap;		/* capacity of open */
	const char **fp;	/* fields of the current stack */
	size_t *fl;		/* their lengths */
	size_t fcap;		/* capacity of fp and fl */
	double minwidth;	/* narrower frames are dropped */
	double time;		/* samples so far */
	const char *prev;	/* the previous stack */
	size_t prevlen;		/* its length */
};

size_t layout_split(const char *s, size_t len, const char **ptr, size_t *plen, size_t max)
{
	size_t n = 0, keep = 0;
	const char *end = s + len, *p = s;

	if (len == 0)
		return 0;
	for (;;) {
		const char *semi = memchr(p, ';', (size_t)(end - p));
		const char *fe = semi ? semi : end;

		if (n < max) {
			ptr[n] = p;
			plen[n] = (size_t)(fe - p);
		}
		n++;
		if (fe > p)
			keep = n;	/* trailing empty fields are dropped */
		if (!semi)
			break;
		p = semi + 1;
	}
	return keep;
}

static void push(struct flow *fw, unsigned depth, const char *name, size_t len,
		 size_t end, int two)
{
	struct layout *lo = fw->lo;
	struct frame *f;

	if (lo->n == lo->cap)
		xgrow(&lo->f, &lo->cap, lo->n + 1, sizeof(*lo->f));
	if (depth >= fw->cap)
		xgrow(&fw->open, &fw->cap, (size_t)depth + 1, sizeof(*fw->open));
	f = &lo->f[lo->n];
	f->name = name;
	f->len = len;
	f->depth = depth;
	f->start = fw->time;
	f->end = fw->time;
	f->delta = 0;
	f->before = 0;
	f->after = 0;
	f->has_delta = two;
	fw->open[depth].name = name;
	fw->open[depth].len = len;
	fw->open[depth].end = end;
	fw->open[depth].out = lo->n++;
}

/* Closes open frames deeper than keep. */
static void close_to(struct flow *fw, size_t keep)
{
	struct layout *lo = fw->lo;

	while (fw->nopen > keep) {
		size_t i = fw->open[--fw->nopen].out;
		struct frame *f = &lo->f[i];

		f->end = fw->time;
		/* Frames after i are its descendants, narrower still. */
		if (f->end - f->start < fw->minwidth)
			lo->n = i;
	}
}

/* Index of the first byte where a and b differ (or the shorter length). */
static size_t mismatch(const char *a, size_t na, const char *b, size_t nb)
{
	size_t n = na < nb ? na : nb, i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t x, y;

		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		if (x != y)
			return i + (size_t)__builtin_ctzll(x ^ y) / 8;
	}
	while (i < n && a[i] == b[i])
		i++;
	return i;
}

/* How many open frames (the root included) the stack s shares with the
 * previous one: a frame is shared when its bytes and the delimiter after
 * it are the same in both. */
static size_t shared(const struct flow *fw, const char *s, size_t len)
{
	size_t p = mismatch(fw->prev, fw->prevlen, s, len), same = 1;

	while (same < fw->nopen) {
		size_t end = fw->open[same].end;

		if (end > p)
			break;
		if (end == p && !((p == len || s[p] == ';') &&
				  (p == fw->prevlen || fw->prev[p] == ';')))
			break;
		same++;
	}
	return same;
}

static void flow_stack(struct flow *fw, const struct lentry *e)
{
	size_t same = shared(fw, e->stack, e->len), off, n, i;

	off = same > 1 ? fw->open[same - 1].end + 1 : 0;
	if (off > e->len)
		off = e->len;
	n = layout_split(e->stack + off, e->len - off, fw->fp, fw->fl, fw->fcap);
	if (n > fw->fcap) {
		xgrow(&fw->fp, &fw->fcap, n, sizeof(*fw->fp));
		fw->fl = xrealloc(fw->fl, fw->fcap * sizeof(*fw->fl));
		n = layout_split(e->stack + off, e->len - off, fw->fp, fw->fl, fw->fcap);
	}
	/* Perl's split drops trailing empty fields, shared ones included. */
	while (n == 0 && same > 1 && fw->open[same - 1].len == 0)
		same--;
	close_to(fw, same);
	for (i = 0; i < n; i++) {
		size_t at = (size_t)(fw->fp[i] - e->stack);

		push(fw, (unsigned)(same + i), fw->fp[i], fw->fl[i], at + fw->fl[i], e->two);
	}
	fw->nopen = same + n;
	fw->prev = e->stack;
	fw->prevlen = e->len;
	if (e->two) {
		struct frame *leaf = &fw->lo->f[fw->open[fw->nopen - 1].out];

		leaf->delta += e->delta;
		leaf->has_delta = 1;
		/* Every frame on the stack holds these samples: inclusive sums. */
		for (i = 0; i < fw->nopen; i++) {
			fw->lo->f[fw->open[i].out].before += e->before;
			fw->lo->f[fw->open[i].out].after += e->after;
		}
	}
	fw->time += e->weight;
}

void layout_build(struct layout *lo, const struct lentry *e, size_t n, double minwidth)
{
	struct flow fw;
	size_t i;

	memset(lo, 0, sizeof(*lo));
	memset(&fw, 0, sizeof(fw));
	fw.lo = lo;
	fw.minwidth = minwidth;
	push(&fw, 0, "", 0, 0, n > 0 && e[0].two);
	fw.nopen = 1;
	fw.prev = "";
	for (i = 0; i < n; i++)
		flow_stack(&fw, &e[i]);
	close_to(&fw, 0);
	lo->total = fw.time;
	for (i = 0; i < lo->n; i++)
		if (lo->f[i].depth > lo->depthmax)
			lo->depthmax = lo->f[i].depth;
	free(fw.open);
	free(fw.fp);
	free(fw.fl);
}

void layout_release(struct layout *lo)
{
	free(lo->f);
	memset(lo, 0, sizeof(*lo));
}
