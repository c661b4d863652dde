/* pprof: profile.proto into tables, in one pass over the top-level
 * message.  Each table grows with the entries read, so its size follows
 * the input's, never a number in it; samples, most of the bytes, are only
 * stepped over here (their runs noted), and read by whoever draws them. */
#include "pprof.h"
#include "lread.h"
#include "pbuf.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Profile's fields. */
enum {
	F_SAMPLE_TYPE = 1, F_SAMPLE = 2, F_MAPPING = 3, F_LOCATION = 4, F_FUNCTION = 5,
	F_STRING = 6, F_DEFAULT_TYPE = 14, F_TOP = 7
};

static void skip(struct pprof_prof *p, const char *what, const char *why)
{
	if (p->skipped++ == 0)
		snprintf(p->first_skip, sizeof(p->first_skip), "%s: %s", what, why);
}

/* Bytes of a mapped input given back at a time. */
#define GIVE_BACK ((size_t)8 << 20)

/* Bytes of a mapped input mapped in at a time, ahead of the reading (one
 * call, not a page fault every few pages), when less than half that is
 * left ahead. */
#define BRING_IN ((size_t)1 << 20)

/* Room in each table. */
struct caps {
	size_t types, map, loc, fn, str;	/* entries */
	size_t line, run;			/* line function ids, sample runs */
};

/* Reads a message's varint fields 1..nf-1 into v (others are skipped).
 * Returns 0, or -1 with a message in err. */
static int read_ints(const struct pb *in, const struct pb_field *f, uint64_t *v, unsigned nf,
		     char *err, size_t errlen)
{
	struct pb r;
	struct pb_field g;
	int rc;

	pb_sub(&r, in, f);
	while ((rc = pb_next(&r, &g, err, errlen)) > 0)
		if (g.num < nf && g.wire == PB_VARINT)
			v[g.num] = g.v;
		else if (g.num < nf) {
			snprintf(err, errlen, "field %u at byte %zu: wire type %d, not a varint",
				 g.num, g.off, g.wire);
			return -1;
		}
	return rc;
}

/* The message s (n bytes) read as read_ints reads it into v (fields
 * 1..nf-1), when every field is a varint of a one-byte tag (nearly every
 * Location's and Function's): one pass, no pb_next.  Returns 0, or -1
 * for read_ints to read it.  A Line (field 4, when lines is not NULL)
 * gives its function id to lines[*nl], *nl counting (room for n / 2
 * more). */
static int quick_ints(const unsigned char *s, size_t n, uint64_t *v, unsigned nf,
		      uint64_t *lines, size_t *nl)
{
	size_t i = 0, len;
	uint64_t x, fn[2];

	while (i < n) {
		unsigned char t = s[i++];

		if (lines && t == 0x22) {
			if (pb_short_varint(s, &i, n, &x) < 0 || x > n - i)
				return -1;
			len = (size_t)x;
			fn[1] = 0;
			if (quick_ints(s + i, len, fn, 2, NULL, NULL) < 0)
				return -1;
			lines[(*nl)++] = fn[1];
			i += len;
			continue;
		}
		/* A Line that is not a message is named by read_loc. */
		if (t < 0x08 || t >= 0x80 || (t & 7) != 0 || (lines && t >> 3 == 4) ||
		    pb_short_varint(s, &i, n, &x) < 0)
			return -1;
		if (t >> 3 < nf)
			v[t >> 3] = x;
	}
	return 0;
}

/* A Location: id, mapping, address, then its Line messages (only their
 * function ids matter here). */
static int read_loc(struct pprof_prof *p, struct caps *c, const struct pb *in,
		    const struct pb_field *f, char *err, size_t errlen)
{
	struct pprof_loc *l;
	uint64_t v[5] = { 0 }, lv[2];
	struct pb r;
	struct pb_field g;
	int rc;

	if (p->nloc + 1 > c->loc)
		p->loc = xbig_hold(&p->locmem, p->nloc + 1, sizeof(*p->loc), &c->loc);
	l = &p->loc[p->nloc];
	/* A Line is 2 bytes at least: f->len / 2 of them at most. */
	xgrow(&p->line_fn, &c->line, p->nline + f->len / 2 + 1, sizeof(*p->line_fn));
	l->line0 = p->nline;
	if (quick_ints(f->data, f->len, v, 4, p->line_fn, &p->nline) == 0) {
		l->id = v[1], l->map = v[2], l->addr = v[3];
		l->nlines = p->nline - l->line0;
		p->nloc++;
		return 0;
	}
	p->nline = l->line0;
	v[1] = v[2] = v[3] = 0;
	if (read_ints(in, f, v, 4, err, errlen) < 0)
		return -1;
	l->id = v[1], l->map = v[2], l->addr = v[3];
	l->line0 = p->nline;
	pb_sub(&r, in, f);
	while ((rc = pb_next(&r, &g, err, errlen)) > 0) {
		if (g.num != 4)
			continue;
		lv[1] = 0;
		if (g.wire != PB_LEN || read_ints(&r, &g, lv, 2, err, errlen) < 0) {
			if (g.wire != PB_LEN)
				snprintf(err, errlen, "line at byte %zu is not a message", g.off);
			p->nline = l->line0;
			return -1;
		}
		xgrow(&p->line_fn, &c->line, p->nline + 1, sizeof(*p->line_fn));
		p->line_fn[p->nline++] = lv[1];
	}
	if (rc < 0) {
		p->nline = l->line0;
		return -1;
	}
	l->nlines = p->nline - l->line0;
	p->nloc++;
	return 0;
}

/* One entry of the top-level message but a sample, into its table. */
static void read_entry(struct pprof_prof *p, struct caps *c, const struct pb *r,
		       const struct pb_field *f)
{
	static const char *const what[F_TOP] = {
		"", "sample type", "sample", "mapping", "location", "function", "string"
	};
	uint64_t v[6] = { 0 };
	char err[160];
	int bad = 0;

	if (f->num == F_DEFAULT_TYPE) {
		p->default_type = f->wire == PB_VARINT ? f->v : 0;
		return;
	}
	if (f->num >= F_TOP)
		return;
	if (f->wire != PB_LEN) {
		snprintf(err, sizeof(err), "at byte %zu is not a message or string", f->off);
		skip(p, what[f->num], err);
		return;
	}
	switch (f->num) {
	case F_SAMPLE_TYPE:
		if (!(bad = read_ints(r, f, v, 3, err, sizeof(err)) < 0)) {
			xgrow(&p->types, &c->types, p->ntypes + 1, sizeof(*p->types));
			p->types[p->ntypes].type = v[1];
			p->types[p->ntypes++].unit = v[2];
		}
		break;
	case F_MAPPING:
		if (!(bad = read_ints(r, f, v, 6, err, sizeof(err)) < 0)) {
			xgrow(&p->map, &c->map, p->nmap + 1, sizeof(*p->map));
			p->map[p->nmap].id = v[1];
			p->map[p->nmap++].file = v[5];
		}
		break;
	case F_LOCATION:
		bad = read_loc(p, c, r, f, err, sizeof(err)) < 0;
		break;
	case F_FUNCTION:
		if (quick_ints(f->data, f->len, v, 4, NULL, NULL) == 0 ||
		    (memset(v, 0, sizeof(v)), !(bad = read_ints(r, f, v, 4, err, sizeof(err)) < 0))) {
			xgrow(&p->fn, &c->fn, p->nfn + 1, sizeof(*p->fn));
			p->fn[p->nfn].id = v[1];
			p->fn[p->nfn].name = v[2];
			p->fn[p->nfn++].sysname = v[3];
		}
		break;
	case F_STRING:
		xgrow(&p->str, &c->str, p->nstr + 1, sizeof(*p->str));
		p->str[p->nstr].p = f->data;
		p->str[p->nstr++].n = f->len;
		break;
	}
	if (bad)
		skip(p, what[f->num], err);
}

/* Notes the samples in [at, end): the last run grows when it ends where
 * they start. */
static void note_run(struct pprof_prof *p, size_t *cap, const unsigned char *at,
		    const unsigned char *end)
{
	struct pprof_span *last = p->nrun ? &p->run[p->nrun - 1] : NULL;

	if (last && last->p + last->n == at) {
		last->n = (size_t)(end - last->p);
		return;
	}
	xgrow(&p->run, cap, p->nrun + 1, sizeof(*p->run));
	p->run[p->nrun].p = at;
	p->run[p->nrun++].n = (size_t)(end - at);
}

/* Notes the sample field in [at, end), its bytes from body.  The hook,
 * if any, is told. */
static void add_sample(struct pprof_prof *p, size_t *cap, const unsigned char *at,
		       const unsigned char *body, const unsigned char *end,
		       const struct pprof_hook *hook)
{
	if (hook)
		hook->sample(hook->ctx, body, end, p->buf + p->len);
	p->nsample++;
	note_run(p, cap, at, end);
}

/* Bytes of samples stepped over in one streak (samples_from): the
 * mapping in ahead and the giving back are looked at between.  A streak
 * stops at the first sample that ends past them, so it may run one
 * sample (under 16 KB in its quick form) longer. */
#define STREAK (BRING_IN / 4)

/* The sample fields that follow one another from q (before end), as
 * quick_sample reads them, for about STREAK bytes: the hook, if any, told
 * of each, the run and count noted once.  Returns where they end (q
 * when there is none). */
static const unsigned char *samples_from(struct pprof_prof *p, size_t *cap,
					 const unsigned char *q, const unsigned char *end,
					 const struct pprof_hook *hook)
{
	const unsigned char *at = q, *body, *next, *stop;
	const unsigned char *lim = p->buf + p->len;
	size_t n = 0;

	stop = (size_t)(end - q) > STREAK ? q + STREAK : end;
	if (hook && hook->streak)
		q = hook->streak(hook->ctx, q, stop, end, lim, &n);
	else
		while (q < stop && *q == PPROF_SAMPLE_TAG &&
		       (next = pprof_quick_sample(q, end, &body))) {
			/* A hook of runs reads them after: each field's place is
			 * known only once the one before it is read, so the bytes
			 * are asked for ahead. */
			if (hook && hook->run)
				pprof_read_ahead(q);
			else if (hook)
				hook->sample(hook->ctx, body, next, lim);
			q = next;
			n++;
		}
	if (n && hook && hook->run)
		hook->run(hook->ctx, p, at, q);
	if (n) {
		p->nsample += n;
		note_run(p, cap, at, q);
	}
	return q;
}

static int by_id(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Sorts n entries of size sz (each starting with its id) unless they are
 * already in order, as they nearly always are. */
static void sort_ids(void *base, size_t n, size_t sz)
{
	const unsigned char *b = base;
	size_t i;

	for (i = 1; i < n; i++)
		if (by_id(b + (i - 1) * sz, b + i * sz) > 0) {
			qsort(base, n, sz, by_id);
			return;
		}
}

/* A mapped input's next BRING_IN bytes (or to its end) from in (where
 * those mapped in so far end), not before at (where the reading is),
 * mapped in; returns where they end. */
static size_t bring_in(const struct pprof_prof *p, size_t in, size_t at)
{
	size_t n;

	in = in > at ? in : at;
	n = p->len - in < BRING_IN ? p->len - in : BRING_IN;
	lread_bring_in((const char *)p->buf + in, n);
	return in + n;
}

struct pprof_prof *pprof_read(const unsigned char *buf, size_t len, enum pprof_hold hold)
{
	return pprof_read_hooked(buf, len, hold, NULL);
}

struct pprof_prof *pprof_read_hooked(const unsigned char *buf, size_t len, enum pprof_hold hold,
				     const struct pprof_hook *hook)
{
	struct pprof_prof *p = xcalloc(1, sizeof(*p));
	struct caps c = { 0 };
	const unsigned char *q, *done = buf;
	size_t in = 0;
	struct pb r;
	struct pb_field f;
	int rc;

	p->buf = buf;
	p->len = len;
	p->owned = hold == PPROF_OWN;
	p->mapped = hold == PPROF_MAPPED;
	pb_init(&r, buf, len);
	while (r.p < r.end) {
		if (p->mapped && in < len && in < (size_t)(r.p - buf) + BRING_IN / 2)
			in = bring_in(p, in, (size_t)(r.p - buf));
		if ((q = samples_from(p, &c.run, r.p, r.end, hook)) != r.p) {
			r.p = q;
			/* The pages stepped over, mostly samples, read again
			 * from the file when drawn: held meanwhile they would
			 * double the peak memory. */
			if ((size_t)(r.p - done) >= GIVE_BACK && !(hook && hook->run)) {
				pprof_give_back(p, (size_t)(done - buf), GIVE_BACK);
				done += GIVE_BACK;
			}
			continue;
		}
		if ((rc = pb_next(&r, &f, p->fault, sizeof(p->fault))) <= 0) {
			p->partial = rc < 0;
			break;
		}
		if (f.num == F_SAMPLE && f.wire == PB_LEN)
			add_sample(p, &c.run, r.base + f.off, f.data, r.p, hook);
		else
			read_entry(p, &c, &r, &f);
	}
	sort_ids(p->fn, p->nfn, sizeof(*p->fn));
	sort_ids(p->map, p->nmap, sizeof(*p->map));
	sort_ids(p->loc, p->nloc, sizeof(*p->loc));
	return p;
}

void pprof_give_back(const struct pprof_prof *p, size_t at, size_t n)
{
	if (p->mapped && at <= p->len && n <= p->len - at)
		lread_give_back((const char *)p->buf + at, n);
}

void pprof_release(const struct pprof_prof *p, size_t at, size_t n)
{
	if ((p->mapped || (p->owned && p->once)) && at <= p->len && n <= p->len - at)
		lread_give_back((const char *)p->buf + at, n);
}

void pprof_free(struct pprof_prof *p)
{
	if (!p)
		return;
	if (p->owned)
		free((void *)(uintptr_t)p->buf);
	free(p->str);
	free(p->types);
	free(p->fn);
	free(p->map);
	xbig_free(&p->locmem);
	free(p->line_fn);
	free(p->run);
	free(p);
}

/* The entry of id among n of size sz sorted by id: where ids run 1..n
 * it is at id-1. */
static const void *find(const void *base, size_t n, size_t sz, uint64_t id)
{
	const unsigned char *b = base;
	size_t lo = 0, hi = n;

	if (id >= 1 && id <= n && *(const uint64_t *)(b + (id - 1) * sz) == id)
		return b + (id - 1) * sz;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t m = *(const uint64_t *)(b + mid * sz);

		if (m == id)
			return b + mid * sz;
		if (m < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const struct pprof_func *pprof_func(const struct pprof_prof *p, uint64_t id)
{
	return find(p->fn, p->nfn, sizeof(*p->fn), id);
}

const struct pprof_map *pprof_map(const struct pprof_prof *p, uint64_t id)
{
	return find(p->map, p->nmap, sizeof(*p->map), id);
}

const struct pprof_loc *pprof_loc(const struct pprof_prof *p, uint64_t id)
{
	return find(p->loc, p->nloc, sizeof(*p->loc), id);
}

const char *pprof_str(const struct pprof_prof *p, uint64_t i, size_t *n)
{
	if (i >= p->nstr) {
		*n = 0;
		return "";
	}
	*n = p->str[i].n;
	return (const char *)p->str[i].p;
}
