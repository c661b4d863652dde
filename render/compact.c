/* compact: huge graphs as a drawing plus data; see compact.h for the form
 * and viewer.js (fg_data_*) for its reader, which must agree with it. */
#include "compact.h"
#include "draw.h"
#include "hkey.h"
#include "xalloc.h"
#include "xmlesc.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* An interning table: each distinct string gets the next index. */
struct intern {
	uint64_t *hash;		/* slot hashes */
	uint32_t *idx;		/* slot index + 1, 0: empty */
	const char **str;	/* strings by index (not owned) */
	size_t *len;		/* their lengths */
	size_t n;		/* strings */
	size_t cap;		/* slots, a power of two */
	size_t scap;		/* capacity of str */
	size_t lcap;		/* capacity of len */
};

static void intern_grow(struct intern *t)
{
	size_t cap = t->cap ? t->cap * 2 : 1024, i, k;
	uint64_t *h = xcalloc(cap, sizeof(*h));
	uint32_t *ix = xcalloc(cap, sizeof(*ix));

	for (i = 0; i < t->cap; i++) {
		if (!t->idx[i])
			continue;
		for (k = t->hash[i] & (cap - 1); ix[k]; k = (k + 1) & (cap - 1))
			;
		h[k] = t->hash[i];
		ix[k] = t->idx[i];
	}
	free(t->hash);
	free(t->idx);
	t->hash = h;
	t->idx = ix;
	t->cap = cap;
}

/* The index of s; s must outlive t. */
static uint32_t intern_add(struct intern *t, const char *s, size_t len)
{
	uint64_t h = hkey(s, len);
	size_t k;

	if (2 * (t->n + 1) > t->cap)
		intern_grow(t);
	for (k = h & (t->cap - 1); t->idx[k]; k = (k + 1) & (t->cap - 1)) {
		uint32_t i = t->idx[k] - 1;

		if (t->hash[k] == h && t->len[i] == len && memcmp(t->str[i], s, len) == 0)
			return i;
	}
	xgrow(&t->str, &t->scap, t->n + 1, sizeof(*t->str));
	xgrow(&t->len, &t->lcap, t->n + 1, sizeof(*t->len));
	t->str[t->n] = s;
	t->len[t->n] = len;
	t->hash[k] = h;
	t->idx[k] = (uint32_t)++t->n;
	return (uint32_t)(t->n - 1);
}

static void intern_release(struct intern *t)
{
	free(t->hash);
	free(t->idx);
	free(t->str);
	free(t->len);
}

/* What the writer works from: per frame, its name and colour indexes. */
struct cframes {
	const struct svg_in *in;	/* the graph */
	struct intern names;		/* display names; [0] is the root's "all" */
	struct intern colors;		/* fill strings */
	char *colorbuf;			/* storage for the fill strings */
	uint32_t *name;			/* per frame: index in names */
	uint32_t *color;		/* per frame: index in colors */
	double height;			/* image height */
};

static void cframes_init(struct cframes *c, const struct svg_in *in, double height)
{
	const struct layout *lo = in->lo;
	size_t i;
	char fillbuf[48];

	memset(c, 0, sizeof(*c));
	c->in = in;
	c->height = height;
	c->name = xmalloc((lo->n ? lo->n : 1) * sizeof(*c->name));
	c->color = xmalloc((lo->n ? lo->n : 1) * sizeof(*c->color));
	/* Room for every distinct fill: at most one per frame. */
	c->colorbuf = xmalloc((lo->n ? lo->n : 1) * sizeof(fillbuf));
	intern_add(&c->names, "all", 3);
	for (i = 0; i < lo->n; i++) {
		const struct frame *fr = &lo->f[i];
		char *slot = c->colorbuf + c->colors.n * sizeof(fillbuf);

		c->name[i] = fr->depth == 0 ? 0
			     : intern_add(&c->names, fr->name, draw_strip(fr->name, fr->len));
		draw_fill(in, fr, slot);
		c->color[i] = intern_add(&c->colors, slot, strlen(slot));
	}
}

static void cframes_release(struct cframes *c)
{
	intern_release(&c->names);
	intern_release(&c->colors);
	free(c->colorbuf);
	free(c->name);
	free(c->color);
}

/* v tenths of a pixel, as few characters as SVG path syntax allows. */
static void tenths(FILE *f, long v)
{
	if (v % 10 == 0)
		fprintf(f, "%ld", v / 10);
	else
		fprintf(f, "%s%ld.%ld", v < 0 ? "-" : "", labs(v) / 10, labs(v) % 10);
}

/* A frame's box in tenths of a pixel: the x ends rounded as the classic
 * form prints them, and the middle of its height. */
struct box {
	long x1, x2, ymid;
};

static struct box box_of(const struct svg_in *in, const struct frame *fr, double height)
{
	double wpt = ((double)in->o->width - 2 * SVG_XPAD) / in->timemax;
	double end = fr->depth == 0 ? in->timemax : fr->end, y1, y2;
	struct box b;

	draw_frame_y(in->o, fr->depth, height, &y1, &y2);
	b.x1 = lround(10 * (SVG_XPAD + fr->start * wpt));
	b.x2 = lround(10 * (SVG_XPAD + end * wpt));
	b.ymid = lround(5 * (y1 + y2));
	return b;
}

/* One path per colour, relative moves from each frame's right end to the
 * next frame's left end.  Frames under a tenth of a pixel are left out,
 * as the classic form gives them a width of 0.0. */
static void drawing(FILE *f, const struct cframes *c)
{
	const struct layout *lo = c->in->lo;
	size_t ncol = c->colors.n, i, k;
	size_t *first = xcalloc(ncol + 1, sizeof(*first));
	uint32_t *order = xmalloc((lo->n ? lo->n : 1) * sizeof(*order));

	/* Counting sort of the frames by colour, stable. */
	for (i = 0; i < lo->n; i++)
		first[c->color[i] + 1]++;
	for (k = 0; k < ncol; k++)
		first[k + 1] += first[k];
	for (i = 0; i < lo->n; i++)
		order[first[c->color[i]]++] = (uint32_t)i;
	fprintf(f, "<g id=\"fg-static\" fill=\"none\" stroke-width=\"%ld\">\n",
		c->in->o->frameheight - 1);
	for (k = 0, i = 0; k < ncol; k++) {
		long px = 0, py = 0;
		int open = 0;

		for (; i < first[k]; i++) {
			struct box b = box_of(c->in, &lo->f[order[i]], c->height);

			if (b.x2 <= b.x1)
				continue;
			if (!open)
				fprintf(f, "<path stroke=\"%s\" d=\"M", c->colors.str[k]);
			else
				putc('m', f);
			tenths(f, b.x1 - px);
			if (b.ymid - py >= 0)
				putc(' ', f);
			tenths(f, b.ymid - py);
			putc('h', f);
			tenths(f, b.x2 - b.x1);
			px = b.x2;
			py = b.ymid;
			open = 1;
		}
		if (open)
			fputs("\"/>\n", f);
	}
	free(order);
	free(first);
}

/* Labels of the frames wide enough to carry one. */
static void labels(FILE *f, const struct cframes *c)
{
	const struct svg_in *in = c->in;
	const struct layout *lo = in->lo;
	double wpt = ((double)in->o->width - 2 * SVG_XPAD) / in->timemax;
	double minw = 3 * in->o->fontsize * in->o->fontwidth;
	size_t i;

	for (i = 1; i < lo->n; i++) {
		const struct frame *fr = &lo->f[i];
		double x1 = SVG_XPAD + fr->start * wpt, x2 = SVG_XPAD + fr->end * wpt, y1, y2;

		if (x2 - x1 < minw)
			continue;
		draw_frame_y(in->o, fr->depth, c->height, &y1, &y2);
		draw_label(f, in, fr, x1, x2, 3 + (y1 + y2) / 2);
	}
}

/* A comma-separated column of one number per frame. */
static void column(FILE *f, const struct cframes *c, int what)
{
	const struct layout *lo = c->in->lo;
	char nb[32];
	size_t i;

	for (i = 0; i < lo->n; i++) {
		const struct frame *fr = &lo->f[i];

		if (i)
			putc(',', f);
		if (what == 'd')
			fprintf(f, "%u", fr->depth);
		else if (what == 'n')
			fprintf(f, "%u", (unsigned)c->name[i]);
		else if (what == 'c')
			fprintf(f, "%u", (unsigned)c->color[i]);
		else
			fputs(draw_num(nb, (fr->depth == 0 ? c->in->timemax : fr->end) - fr->start), f);
	}
	putc('\n', f);
}

/* Frames that do not start where the reader expects (right after the
 * previous sibling, or at the parent's start): "index:gap" pairs.  Gaps
 * come from frames dropped by --minwidth.  The reader adds the printed
 * widths, so the expectation is built from the same printed numbers. */
static void gaps(FILE *f, const struct cframes *c)
{
	const struct layout *lo = c->in->lo;
	double *next = xcalloc((size_t)lo->depthmax + 2, sizeof(*next));
	double tol = c->in->timemax * 1e-12;
	char nb[32];
	int any = 0;
	size_t i;

	for (i = 0; i < lo->n; i++) {
		const struct frame *fr = &lo->f[i];
		double w = strtod(draw_num(nb, (fr->depth == 0 ? c->in->timemax : fr->end) - fr->start),
				  NULL);
		double start = next[fr->depth];

		if (fabs(fr->start - start) > tol) {
			fprintf(f, "%s%zu:%s", any ? "," : "", i, draw_num(nb, fr->start - start));
			any = 1;
			start = fr->start;
		}
		next[fr->depth + 1] = start;
		next[fr->depth] = start + w;
	}
	putc('\n', f);
	free(next);
}

/* The data: names (one a line, escaped: no '<' or '&' can end the
 * element, whatever a name holds), then the columns, then the colours. */
static void data(FILE *f, const struct cframes *c)
{
	size_t i;

	fprintf(f, "<script type=\"application/x-flame-frames\" id=\"fg-data\" data-names=\"%zu\""
		" data-frames=\"%zu\">\n", c->names.n, c->in->lo->n);
	for (i = 0; i < c->names.n; i++) {
		xmlesc_write(f, c->names.str[i], c->names.len[i], (size_t)-1);
		putc('\n', f);
	}
	column(f, c, 'd');
	column(f, c, 'n');
	column(f, c, 'w');
	column(f, c, 'c');
	gaps(f, c);
	for (i = 0; i < c->colors.n; i++)
		fprintf(f, "%s%s", i ? " " : "", c->colors.str[i]);
	fputs("\n</script>\n", f);
}

int compact_wanted(const struct svg_in *in)
{
	size_t i;

	if (in->o->compact < 0 || in->na || in->o->diff_detail)
		return 0;
	for (i = 0; i < in->lo->n; i++)
		if (in->lo->f[i].has_delta)
			return 0;
	return in->o->compact > 0 || in->lo->n > COMPACT_AUTO_FRAMES;
}

void compact_write(FILE *f, const struct svg_in *in, double height)
{
	struct cframes c;

	cframes_init(&c, in, height);
	fputs("<g id=\"frames\" class=\"fg-compact\">\n", f);
	drawing(f, &c);
	fputs("</g>\n<g id=\"fg-labels\">\n", f);
	labels(f, &c);
	fputs("</g>\n", f);
	if (!in->o->no_js)
		data(f, &c);
	fputs("</g>\n", f);
	cframes_release(&c);
}
