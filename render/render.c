/* render: merges stacks, orders them as flamegraph.pl does, lays them out
 * and writes the SVG. */
#include "render.h"
#include "hkey.h"
#include "outfile.h"
#include "layout.h"
#include "nameattr.h"
#include "order.h"
#include "palette.h"
#include "stree.h"
#include "strtab.h"
#include "svg.h"
#include "xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PALETTE_MAP "palette.map"
/* --cp's map: --palette-file names another. */
#define MAP(r) ((r)->o->palette_file ? (r)->o->palette_file : PALETTE_MAP)

struct stackval {
	struct fcount w;	/* samples: the count, or the second of two */
	double delta;		/* count2 - count1, summed */
	double before;		/* count1, summed, when two */
	int two;		/* seen as a differential line */
};

struct seq {
	uint32_t id;		/* stack: its node */
	double weight;		/* samples of this run */
	double delta;		/* its delta */
	double before;		/* its count1 */
	int two;		/* differential */
};

struct render {
	const struct fg_opts *o;	/* options */
	render_warn_fn *warn;		/* warning sink */
	void *ctx;			/* its context */
	struct stree *stacks;		/* stack ends carry struct stackval */
	uint64_t *lhash;		/* whole-stack cache: hashes of added stacks... */
	uint32_t *lnode;		/* ...and their nodes + 1 (0: empty slot) */
	size_t lcap;			/* slots, a power of two */
	size_t lcount;			/* slots used */
	struct seq *seq;		/* --flamechart: stacks in input order */
	size_t nseq;			/* entries in seq */
	size_t seqcap;			/* capacity of seq */
	unsigned long ignored;		/* invalid lines */
	int fractional;			/* some count had a fraction */
	char *buf[2];			/* scratch for rewritten stacks */
	size_t bufcap[2];		/* their capacities */
	struct palette *pal;		/* colours */
	struct nameattr *na;		/* --nameattr, or NULL */
	uint32_t *fmap;			/* render_frame's id -> the tree's frame */
	size_t fmapcap;			/* capacity of fmap */
	uint32_t *path;			/* render_add_ids' stack in tree frames */
	size_t pathcap;			/* capacity of path */
	char *text;			/* ...or spelled, for the options on text */
	size_t textcap;			/* capacity of text */
};

struct render *render_new(const struct fg_opts *o, render_warn_fn *warn, void *ctx)
{
	struct render *r = xcalloc(1, sizeof(*r));

	r->o = o;
	r->warn = warn;
	r->ctx = ctx;
	r->stacks = stree_new(sizeof(struct stackval));
	r->pal = palette_new(o->colors, o->hash, o->random);
	return r;
}

void render_free(struct render *r)
{
	if (!r)
		return;
	stree_free(r->stacks);
	free(r->lhash);
	free(r->lnode);
	free(r->seq);
	free(r->buf[0]);
	free(r->buf[1]);
	palette_free(r->pal);
	nameattr_free(r->na);
	free(r->fmap);
	free(r->path);
	free(r->text);
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
	if (r->o->cp && palette_map_load(r->pal, MAP(r), r->warn, r->ctx) < 0) {
		snprintf(err, errlen, "cannot read '%s': %s", MAP(r), strerror(errno));
		return -1;
	}
	return 0;
}

int render_finish(struct render *r, char *err, size_t errlen)
{
	if (r->o->cp && palette_map_save(r->pal, MAP(r)) < 0) {
		snprintf(err, errlen, "cannot write '%s': %s", MAP(r), strerror(errno));
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

/* Rewrites every entry for --colors=chain: the rewritten stacks are
 * nodes of chain, a tree of their own. */
static void chain_entries(struct render *r, struct stree *chain, struct lentry *e, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		size_t len = stree_str(r->stacks, e[i].node, &r->buf[0], &r->bufcap[0]);
		char *out = scratch(r, 1, len * 5 + 8);

		e[i].node = stree_add(chain, out, chain_stack(out, r->buf[0], len));
	}
}

static void cache_grow(struct render *r)
{
	size_t cap = r->lcap ? r->lcap * 2 : 1024, i, k;
	uint64_t *h = xcalloc(cap, sizeof(*h));
	uint32_t *nd = xcalloc(cap, sizeof(*nd));

	for (i = 0; i < r->lcap; i++) {
		if (!r->lnode[i])
			continue;
		for (k = r->lhash[i] & (cap - 1); nd[k]; k = (k + 1) & (cap - 1))
			;
		h[k] = r->lhash[i];
		nd[k] = r->lnode[i];
	}
	free(r->lhash);
	free(r->lnode);
	r->lhash = h;
	r->lnode = nd;
	r->lcap = cap;
}

/* The node of stack s: out of line order a repeated stack is found by one
 * hash of the whole line (checked against the tree) instead of a lookup
 * per frame. */
static uint32_t stack_node(struct render *r, const char *s, size_t len)
{
	uint64_t h;
	size_t k;
	uint32_t id;

	/* In line order a stack repeats only right after itself, which the
	 * tree finds from the stack before at no cost. */
	if (stree_in_order(r->stacks)) {
		id = stree_add(r->stacks, s, len);
		if (stree_in_order(r->stacks))
			return id;
	}
	h = hkey(s, len);

	if (2 * (r->lcount + 1) > r->lcap)
		cache_grow(r);
	for (k = h & (r->lcap - 1); r->lnode[k]; k = (k + 1) & (r->lcap - 1))
		if (r->lhash[k] == h && stree_spells(r->stacks, r->lnode[k] - 1, s, len))
			return r->lnode[k] - 1;
	id = stree_add(r->stacks, s, len);
	r->lhash[k] = h;
	r->lnode[k] = id + 1;
	r->lcount++;
	return id;
}

/* --base: the stack from the first frame named by a --base on; -1 when
 * no frame is. */
static int base_cut(const struct fg_opts *o, const char **s, size_t *len)
{
	const char *p = *s, *end = *s + *len;
	int i;

	while (p < end) {
		const char *semi = memchr(p, ';', (size_t)(end - p));
		size_t n = (size_t)((semi ? semi : end) - p);

		for (i = 0; i < o->nbase; i++) {
			if (strlen(o->base[i]) == n && memcmp(o->base[i], p, n) == 0) {
				*len = (size_t)(end - p);
				*s = p;
				return 0;
			}
		}
		p = semi ? semi + 1 : end;
	}
	return -1;
}

/* --max-depth: a deeper stack keeps its first frames and ends in one
 * marked frame, so the graph shows where stacks were cut. */
static size_t depth_cut(struct render *r, const char **s, size_t len)
{
	static const char mark[] = ";" RENDER_CUT;
	const char *p = *s;
	long frames = 0;
	char *out;
	size_t keep;

	while (p && frames < r->o->max_depth) {
		p = memchr(p, ';', len - (size_t)(p - *s));
		p = p ? p + 1 : NULL;
		frames++;
	}
	if (!p)
		return len;
	keep = (size_t)(p - *s) - 1;
	out = scratch(r, 1, keep + sizeof(mark));
	memmove(out, *s, keep);
	memcpy(out + keep, mark, sizeof(mark) - 1);
	*s = out;
	return keep + sizeof(mark) - 1;
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
	if (r->o->nbase && base_cut(r->o, &stack, &len) < 0)
		return;
	if (r->o->max_depth > 0)
		len = depth_cut(r, &stack, len);
	r->fractional |= c1->frac != 0 || (c2 && c2->frac != 0);
	id = stack_node(r, stack, len);
	v = stree_val(r->stacks, id);
	fcount_add(&v->w, w);
	/* A sum past 2^64 goes on in the fraction too. */
	r->fractional |= v->w.frac != 0;
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
	/* Bytewise order: a chart's, the input order being lost; for a graph
	 * it is nearly always line order too, which the tree builds fastest
	 * (the stacks share prefixes) and need not sort again. */
	uint32_t *ids = strtab_sorted(t);

	for (i = 0; i < n; i++) {
		uint32_t id = ids[i];
		size_t len;
		const char *s = strtab_str(t, id, &len);
		const struct fcount *v = strtab_val(t, id);

		render_add(r, s, len, &v[0], two ? &v[1] : NULL);
	}
	free(ids);
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

/* Entry i of the graph (ids: the stacks in line order) or of the chart. */
static void entry(const struct render *r, const uint32_t *ids, size_t i, struct lentry *e)
{
	uint32_t id = ids ? ids[i] : r->seq[i].id;
	const struct stackval *v = stree_val(r->stacks, id);

	e->node = id;
	e->weight = ids ? fcount_value(&v->w) : r->seq[i].weight;
	e->delta = ids ? v->delta : r->seq[i].delta;
	e->two = ids ? v->two : r->seq[i].two;
	e->before = ids ? v->before : r->seq[i].before;
}

/* Frees what only adding stacks uses, before the layout needs room; a
 * later render_add builds it again. */
static void adding_done(struct render *r)
{
	stree_trim(r->stacks);
	free(r->lhash);
	free(r->lnode);
	r->lhash = NULL;
	r->lnode = NULL;
	r->lcap = r->lcount = 0;
}

/* The stacks to draw, in order; with --colors=chain their nodes are
 * chain's. */
static struct lentry *entries(struct render *r, struct stree *chain, size_t *count)
{
	uint32_t *ids = NULL;
	size_t i, n = r->nseq;
	struct lentry *e;

	adding_done(r);
	if (!r->o->flamechart)
		ids = order_lines(r->stacks, &n);
	e = xcalloc(n ? n : 1, sizeof(*e));
	for (i = 0; i < n; i++) {
		entry(r, ids, i, &e[i]);
		e[i].after = e[i].two ? e[i].weight : 0;
		/* A stack gone from AFTER keeps its BEFORE width. */
		if (r->o->diff_detail && e[i].two && e[i].after == 0)
			e[i].weight = e[i].before;
	}
	free(ids);
	if (r->o->sort_weight && !r->o->flamechart)
		order_by_weight(r->stacks, e, n);
	if (chain)
		chain_entries(r, chain, e, n);
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
	struct stree *chain = o->colors == PAL_CHAIN ? stree_new(0) : NULL;
	struct lentry *e = entries(r, chain, &n);
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
		stree_free(chain);
		svg_write_empty(f, o);
		return 1;
	}
	in.timemax = timemax_for(r, total);
	minwidth = o->minwidth_pct ? in.timemax * o->minwidth / 100
		   : o->minwidth / (((double)o->width - 2 * SVG_XPAD) / in.timemax);
	layout_build(&lo, chain ? chain : r->stacks, e, n, minwidth);
	in.o = o;
	in.lo = &lo;
	in.pal = r->pal;
	in.na = r->na;
	in.maxdelta = maxdelta;
	in.fractional = r->fractional;
	svg_write(f, &in);
	layout_release(&lo);
	free(e);
	stree_free(chain);
	return 0;
}

void render_frame(struct render *r, uint32_t id, const char *name, size_t len)
{
	if (id >= r->fmapcap)
		xgrow(&r->fmap, &r->fmapcap, (size_t)id + 1, sizeof(*r->fmap));
	r->fmap[id] = stree_frame(r->stacks, name, len);
}

/* The stack of tree frames f (n) as text into r->text; returns its length. */
static size_t ids_text(struct render *r, const uint32_t *f, size_t n)
{
	size_t len = 0, k, fl;

	xgrow(&r->text, &r->textcap, 1, 1);
	for (k = 0; k < n; k++) {
		const char *name = stree_frame_name(r->stacks, f[k], &fl);

		xgrow(&r->text, &r->textcap, len + fl + 2, 1);
		if (k)
			r->text[len++] = ';';
		memcpy(r->text + len, name, fl);
		len += fl;
	}
	return len;
}

void render_add_ids(struct render *r, const uint32_t *ids, size_t n, const struct fcount *c)
{
	struct stackval *v;
	size_t k;

	if (n > r->pathcap)
		xgrow(&r->path, &r->pathcap, n, sizeof(*r->path));
	for (k = 0; k < n; k++)
		r->path[k] = r->fmap[ids[k]];
	/* The options that rewrite stacks work on their text. */
	if (r->o->reverse || r->o->nbase || r->o->max_depth > 0 || r->o->flamechart) {
		/* Spelled before r->text is read: it may move. */
		size_t len = ids_text(r, r->path, n);

		render_add(r, r->text, len, c, NULL);
		return;
	}
	v = stree_val(r->stacks, stree_add_ids(r->stacks, r->path, n));
	fcount_add(&v->w, c);
	r->fractional |= c->frac != 0 || v->w.frac != 0;
}
