/* render: merges stacks, orders them as flamegraph.pl does, lays them out
 * and writes the SVG. */
#include "render.h"
#include "outfile.h"
#include "layout.h"
#include "nameattr.h"
#include "palette.h"
#include "strtab.h"
#include "svg.h"
#include "xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PALETTE_MAP "palette.map"

struct stackval {
	struct fcount w;	/* samples: the count, or the second of two */
	double delta;		/* count2 - count1, summed */
	double before;		/* count1, summed, when two */
	int two;		/* seen as a differential line */
};

struct seq {
	uint32_t id;		/* stack */
	double weight;		/* samples of this run */
	double delta;		/* its delta */
	double before;		/* its count1 */
	int two;		/* differential */
};

struct render {
	const struct fg_opts *o;	/* options */
	render_warn_fn *warn;		/* warning sink */
	void *ctx;			/* its context */
	struct strtab *stacks;		/* stack -> struct stackval */
	struct seq *seq;		/* --flamechart: stacks in input order */
	size_t nseq;			/* entries in seq */
	size_t seqcap;			/* capacity of seq */
	unsigned long ignored;		/* invalid lines */
	int fractional;			/* some count had a fraction */
	char *buf[2];			/* scratch for rewritten stacks */
	size_t bufcap[2];		/* their capacities */
	struct palette *pal;		/* colours */
	struct nameattr *na;		/* --nameattr, or NULL */
	const struct strtab *ext;	/* render_use: drawn in place of stacks */
	int ext_two;			/* its values are two counts */
};

struct render *render_new(const struct fg_opts *o, render_warn_fn *warn, void *ctx)
{
	struct render *r = xcalloc(1, sizeof(*r));

	r->o = o;
	r->warn = warn;
	r->ctx = ctx;
	r->stacks = strtab_new(sizeof(struct stackval));
	r->pal = palette_new(o->colors, o->hash, o->random);
	return r;
}

void render_free(struct render *r)
{
	if (!r)
		return;
	strtab_free(r->stacks);
	free(r->seq);
	free(r->buf[0]);
	free(r->buf[1]);
	palette_free(r->pal);
	nameattr_free(r->na);
	free(r);
}

int render_load(struct render *r, char *err, size_t errlen)
{
	if (r->o->nameattr) {
		r->na = nameattr_load(r->o->nameattr, r->warn, r->ctx);
		if (!r->na) {
			snprintf(err, errlen, "cannot read '%s': %s", r->o->nameattr, strerror(errno));
			return -1;
		}
	}
	if (r->o->cp && palette_map_load(r->pal, PALETTE_MAP, r->warn, r->ctx) < 0) {
		snprintf(err, errlen, "cannot read '%s': %s", PALETTE_MAP, strerror(errno));
		return -1;
	}
	return 0;
}

int render_finish(struct render *r, char *err, size_t errlen)
{
	if (r->o->cp && palette_map_save(r->pal, PALETTE_MAP) < 0) {
		snprintf(err, errlen, "cannot write '%s': %s", PALETTE_MAP, strerror(errno));
		return -1;
	}
	return 0;
}

struct render *render_open(const struct fg_opts *o, render_warn_fn *warn, void *ctx, char *err,
			   size_t errlen)
{
	struct render *r = render_new(o, warn, ctx);

	if (render_load(r, err, errlen) == 0)
		return r;
	render_free(r);
	return NULL;
}

int render_save(struct render *r, const char *path, char *err, size_t errlen)
{
	struct outfile *out = outfile_open(path);
	int drawn;

	if (!out) {
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	drawn = render_write(r, outfile_stream(out));
	if (outfile_commit(out) < 0) {
		snprintf(err, errlen, "write error on '%s': %s", path ? path : "<stdout>",
			 strerror(errno));
		return -1;
	}
	if (drawn != 0)
		return 1;
	return render_finish(r, err, errlen);
}

static char *scratch(struct render *r, int i, size_t need)
{
	xgrow(&r->buf[i], &r->bufcap[i], need + 1, 1);
	return r->buf[i];
}

/* --reverse: the fields of Perl's split(";"), in reverse order. */
static size_t reverse_stack(struct render *r, const char **s, size_t len)
{
	char *out = scratch(r, 0, len);
	const char *end = *s + len, *p = *s;
	size_t o = len, keep = 0, n;

	/* Drop trailing empty fields, as split does. */
	while (len > 0 && (*s)[len - 1] == ';')
		len--;
	end = *s + len;
	while (p < end) {
		const char *semi = memchr(p, ';', (size_t)(end - p));
		const char *fe = semi ? semi : end;

		n = (size_t)(fe - p);
		o -= n;
		memcpy(out + o, p, n);
		if (semi)
			out[--o] = ';';
		p = semi ? semi + 1 : end;
	}
	keep = len;
	*s = out + o;
	return keep;
}

/* --colors=chain: flamegraph.pl marks the frames after each "--" separator
 * as wakers ("_[w]") and always appends a "--" after the first part.  It
 * does so after sorting, so this runs on the sorted entries.  Writes the
 * result at out (room for len * 5 + 8 bytes); returns its length. */
static size_t chain_stack(char *out, const char *s, size_t len)
{
	const char *p = s, *end = s + len, *sep;
	size_t o;

	while (end - p >= 4 && memcmp(end - 4, ";--;", 4) == 0)
		end -= 4;	/* split drops trailing empty parts */
	sep = memmem(p, (size_t)(end - p), ";--;", 4);
	o = (size_t)((sep ? sep : end) - p);
	memcpy(out, p, o);
	memcpy(out + o, ";--;", 4);
	o += 4;
	p = sep ? sep + 4 : end;
	while (p < end) {
		const char *next = memmem(p, (size_t)(end - p), ";--;", 4);
		const char *pe = next ? next : end;

		for (; p < pe; p++) {
			if (*p == ';') {
				memcpy(out + o, "_[w]", 4);
				o += 4;
			}
			out[o++] = *p;
		}
		memcpy(out + o, "_[w]", 4);
		o += 4;
		if (next) {
			memcpy(out + o, ";--;", 4);
			o += 4;
		}
		p = next ? next + 4 : end;
	}
	return o;
}

/* Rewrites every entry for --colors=chain; the texts live in r->buf[1]. */
static void chain_entries(struct render *r, struct lentry *e, size_t n)
{
	size_t i, need = 0, o = 0;

	for (i = 0; i < n; i++)
		need += e[i].len * 5 + 8;
	scratch(r, 1, need);
	for (i = 0; i < n; i++) {
		size_t len = chain_stack(r->buf[1] + o, e[i].stack, e[i].len);

		e[i].stack = r->buf[1] + o;
		e[i].len = len;
		o += len;
	}
}

void render_add(struct render *r, const char *stack, size_t len,
		const struct fcount *c1, const struct fcount *c2)
{
	struct stackval *v;
	const struct fcount *w = c2 ? c2 : c1;
	double delta = c2 ? fcount_value(c2) - fcount_value(c1) : 0;
	double before = c2 ? fcount_value(c1) : 0;
	uint32_t id;

	if (r->o->reverse)
		len = reverse_stack(r, &stack, len);
	r->fractional |= c1->frac != 0 || (c2 && c2->frac != 0);
	id = strtab_intern(r->stacks, stack, len, NULL);
	v = strtab_val(r->stacks, id);
	fcount_add(&v->w, w);
	v->delta += delta;
	v->before += before;
	v->two |= c2 != NULL;
	if (!r->o->flamechart)
		return;
	if (r->nseq && r->seq[r->nseq - 1].id == id) {
		r->seq[r->nseq - 1].weight += fcount_value(w);
		r->seq[r->nseq - 1].delta += delta;
		r->seq[r->nseq - 1].before += before;
		return;
	}
	xgrow(&r->seq, &r->seqcap, r->nseq + 1, sizeof(*r->seq));
	r->seq[r->nseq].id = id;
	r->seq[r->nseq].weight = fcount_value(w);
	r->seq[r->nseq].delta = delta;
	r->seq[r->nseq].before = before;
	r->seq[r->nseq++].two = c2 != NULL;
}

void render_use(struct render *r, const struct strtab *t, int two)
{
	size_t i, n = strtab_count(t);

	/* Reversed stacks must be rewritten and a chart keeps input order:
	 * both need the renderer's own table. */
	if (r->o->reverse || r->o->flamechart || strtab_count(r->stacks) || r->ext) {
		uint32_t *ids = r->o->flamechart ? strtab_sorted(t) : NULL;

		for (i = 0; i < n; i++) {
			uint32_t id = ids ? ids[i] : (uint32_t)i;
			size_t len;
			const char *s = strtab_str(t, id, &len);
			const struct fcount *v = strtab_val(t, id);

			render_add(r, s, len, &v[0], two ? &v[1] : NULL);
		}
		free(ids);
		return;
	}
	r->ext = t;
	r->ext_two = two;
	for (i = 0; i < n; i++) {
		const struct fcount *v = strtab_val(t, (uint32_t)i);

		r->fractional |= v[0].frac != 0 || (two && v[1].frac != 0);
	}
}

int render_add_line(struct render *r, const char *line, size_t len)
{
	struct folded fl;

	if (folded_parse(line, len, &fl) < 0) {
		r->ignored++;
		return -1;
	}
	render_add(r, fl.stack, fl.len, &fl.c1, fl.two ? &fl.c2 : NULL);
	return 0;
}

int render_line_cb(void *r, const char *line, size_t len, unsigned long lineno)
{
	(void)lineno;
	render_add_line(r, line, len);
	return 0;
}

unsigned long render_ignored(const struct render *r)
{
	return r->ignored;
}

/* flamegraph.pl sorts whole lines, "stack count": a stack that is a prefix
 * of another sorts as if followed by a space. */
static int cmp_line(const void *a, const void *b)
{
	const struct lentry *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int r = memcmp(x->stack, y->stack, n);

	if (r || x->len == y->len)
		return r;
	if (x->len < y->len)
		return (unsigned char)y->stack[n] < ' ' ? 1 : -1;
	return (unsigned char)x->stack[n] < ' ' ? -1 : 1;
}

/* Entry i from a table given to render_use: its stack and counts. */
static void ext_entry(const struct render *r, size_t i, struct lentry *e)
{
	const struct fcount *v = strtab_val(r->ext, (uint32_t)i);

	e->stack = strtab_str(r->ext, (uint32_t)i, &e->len);
	e->weight = fcount_value(&v[r->ext_two]);
	e->two = r->ext_two;
	e->before = r->ext_two ? fcount_value(&v[0]) : 0;
	e->delta = r->ext_two ? e->weight - e->before : 0;
}

/* Entry i from the renderer's own table, or its chart's runs. */
static void own_entry(const struct render *r, size_t i, struct lentry *e)
{
	uint32_t id = r->o->flamechart ? r->seq[i].id : (uint32_t)i;
	const struct stackval *v = strtab_val(r->stacks, id);

	e->stack = strtab_str(r->stacks, id, &e->len);
	e->weight = r->o->flamechart ? r->seq[i].weight : fcount_value(&v->w);
	e->delta = r->o->flamechart ? r->seq[i].delta : v->delta;
	e->two = r->o->flamechart ? r->seq[i].two : v->two;
	e->before = r->o->flamechart ? r->seq[i].before : v->before;
}

static struct lentry *entries(struct render *r, size_t *count)
{
	size_t i, n = r->ext ? strtab_count(r->ext) : r->o->flamechart ? r->nseq : strtab_count(r->stacks);
	struct lentry *e = xcalloc(n ? n : 1, sizeof(*e));

	for (i = 0; i < n; i++) {
		if (r->ext)
			ext_entry(r, i, &e[i]);
		else
			own_entry(r, i, &e[i]);
		e[i].after = e[i].two ? e[i].weight : 0;
		/* A stack gone from AFTER keeps its BEFORE width. */
		if (r->o->diff_detail && e[i].two && e[i].after == 0)
			e[i].weight = e[i].before;
	}
	if (!r->o->flamechart)
		qsort(e, n, sizeof(*e), cmp_line);
	if (r->o->colors == PAL_CHAIN)
		chain_entries(r, e, n);
	*count = n;
	return e;
}

static double timemax_for(const struct render *r, double total)
{
	char msg[160];

	if (r->o->total <= 0 || r->o->total >= total)
		return r->o->total > 0 ? r->o->total : total;
	if (r->o->total / total > 0.02) {
		snprintf(msg, sizeof(msg), "--total %.15g is less than the input's total %.15g; ignored",
			 r->o->total, total);
		r->warn(r->ctx, msg);
	}
	return total;
}

int render_write(struct render *r, FILE *f)
{
	const struct fg_opts *o = r->o;
	struct svg_in in;
	struct layout lo;
	size_t n, i;
	struct lentry *e = entries(r, &n);
	double total = 0, minwidth, maxdelta = 1;

	memset(&in, 0, sizeof(in));
	for (i = 0; i < n; i++) {
		total += e[i].weight;
		in.before_total += e[i].before;
		in.after_total += e[i].after;
		if (e[i].two && fabs(e[i].delta) > maxdelta)
			maxdelta = fabs(e[i].delta);
	}
	if (!(total > 0)) {
		free(e);
		svg_write_empty(f, o);
		return 1;
	}
	in.timemax = timemax_for(r, total);
	minwidth = o->minwidth_pct ? in.timemax * o->minwidth / 100
		   : o->minwidth / (((double)o->width - 2 * SVG_XPAD) / in.timemax);
	layout_build(&lo, e, n, minwidth);
	in.o = o;
	in.lo = &lo;
	in.pal = r->pal;
	in.na = r->na;
	in.maxdelta = maxdelta;
	in.fractional = r->fractional;
	svg_write(f, &in);
	layout_release(&lo);
	free(e);
	return 0;
}
