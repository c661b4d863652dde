/* lnt_v2: LNT profile v2, as LNT's ProfileV2 writes it.  Numbers are
 * ULEB128, strings end with '\n', a float is the bit pattern of an IEEE
 * single written as a number.  The file:
 *
 *   version (2), then 8 section entries, each offset and size (the
 *   text pool's also a file name, empty: the pool is in this file);
 *   offsets count from the end of the entries.  In order:
 *   Header            the disassembly format
 *   CounterNamePool   n, n names
 *   TopLevelCounters  n, n x (name index, integer total)
 *   LineCounters      bzip2: per instruction, a float per counter of its
 *                     function, those counters sorted by name
 *   LineAddresses     bzip2: per instruction, the address less the last
 *                     one (the first less 0)
 *   LineText          bzip2: per instruction, an offset into the pool
 *   TextPool          bzip2: '\n'-ended strings (offset 0 is a lone '\n')
 *   Functions         n, per function: name, instructions, its offsets
 *                     into LineCounters, LineAddresses and LineText,
 *                     then m, m x (name index, float % of the total)
 *
 * Every offset and length is checked against what it points into. */
#include "bunzip.h"
#include "lnt_impl.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { S_HEADER, S_NAMES, S_TOTALS, S_COUNTERS, S_ADDRS, S_TEXT, S_POOL, S_FUNCTIONS, NSECT };

static const char *const sect_name[NSECT] = {
	"Header", "CounterNamePool", "TopLevelCounters", "LineCounters", "LineAddresses",
	"LineText", "TextPool", "Functions"
};

/* A cursor over bytes: the file, or an inflated section. */
struct cur {
	const unsigned char *p;		/* the bytes */
	size_t pos, end;		/* next byte, end */
	size_t base;			/* file offset of p[0], or 0 */
	const char *inflated;		/* the section it inflates, or NULL */
};

struct v2 {
	const unsigned char *file;	/* the file */
	size_t n;			/* its size */
	size_t off[NSECT], size[NSECT];	/* sections, from start */
	size_t start;			/* end of the section table */
	char *data[NSECT];		/* the inflated sections */
	size_t len[NSECT];		/* their sizes */
	int *pool_index;		/* counter pool index -> sorted index */
	size_t npool;			/* how many */
	struct lnt_prof *p;		/* the model */
	char *err;			/* message... */
	size_t errlen;			/* ...of at most this size */
};

static int cur_fail(struct v2 *r, const struct cur *c, const char *what)
{
	if (c->inflated)
		snprintf(r->err, r->errlen, "%s at byte %zu of the inflated %s section", what, c->pos,
			 c->inflated);
	else
		snprintf(r->err, r->errlen, "%s at byte %zu", what, c->base + c->pos);
	return -1;
}

static int num(struct v2 *r, struct cur *c, uint64_t *v)
{
	int shift = 0;

	for (*v = 0; c->pos < c->end; shift += 7) {
		unsigned char b = c->p[c->pos++];

		if (shift > 63 || (shift == 63 && (b & 0x7e)))
			return cur_fail(r, c, "number too big");
		*v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return 0;
	}
	return cur_fail(r, c, "truncated number");
}

/* A number that must be below lim (a count or an offset into what it
 * counts or points at). */
static int num_below(struct v2 *r, struct cur *c, uint64_t lim, const char *what, size_t *v)
{
	size_t at = c->pos;
	uint64_t x;

	*v = 0;
	if (num(r, c, &x) < 0)
		return -1;
	if (x >= lim) {
		c->pos = at;
		return cur_fail(r, c, what);
	}
	*v = (size_t)x;
	return 0;
}

static int str(struct v2 *r, struct cur *c, const char **s, size_t *len)
{
	const unsigned char *nl = memchr(c->p + c->pos, '\n', c->end - c->pos);

	if (!nl)
		return cur_fail(r, c, "string with no end of line");
	*s = (const char *)c->p + c->pos;
	*len = (size_t)(nl - (c->p + c->pos));
	c->pos += *len + 1;
	return 0;
}

static int flt(struct v2 *r, struct cur *c, double *v)
{
	uint64_t x;
	uint32_t bits;
	float f;

	*v = 0;
	if (num(r, c, &x) < 0)
		return -1;
	if (x > UINT32_MAX)
		return cur_fail(r, c, "float bits out of range");
	bits = (uint32_t)x;
	memcpy(&f, &bits, sizeof(f));
	*v = f;
	return 0;
}

/* The version and the section table; every section inside the file. */
static int table(struct v2 *r)
{
	struct cur c = { r->file, 0, r->n, 0, NULL };
	const char *pool;
	uint64_t v, o, s;
	size_t len;
	int i;

	if (num(r, &c, &v) < 0)
		return -1;
	if (v != 2)
		return cur_fail(r, &c, "not version 2");
	for (i = 0; i < NSECT; i++) {
		if (num(r, &c, &o) < 0 || num(r, &c, &s) < 0)
			return -1;
		if (i == S_POOL && str(r, &c, &pool, &len) < 0)
			return -1;
		if (i == S_POOL && len)
			return cur_fail(r, &c, "text pool in another file: not supported");
		r->off[i] = o > r->n ? r->n + 1 : (size_t)o;
		r->size[i] = s > r->n ? r->n + 1 : (size_t)s;
	}
	r->start = c.pos;
	for (i = 0; i < NSECT; i++)
		if (r->off[i] > r->n - r->start || r->size[i] > r->n - r->start - r->off[i]) {
			snprintf(r->err, r->errlen, "the %s section (%zu bytes at %zu) runs past the "
				 "end of the file (%zu bytes) at byte %zu", sect_name[i], r->size[i],
				 r->start + r->off[i], r->n, r->n);
			return -1;
		}
	return 0;
}

int lnt_v2_sniff(const unsigned char *p, size_t n)
{
	struct cur c = { p, 0, n, 0, NULL };
	uint64_t v, o, s, at = 0;
	const char *pool;
	struct v2 r;
	char err[8];
	size_t len;
	int i;

	if (n < 2 || p[0] != 2)
		return 0;
	memset(&r, 0, sizeof(r));
	r.err = err;
	r.errlen = sizeof(err);
	/* The sections follow one another, as LNT writes them (in a head of
	 * the file they may lie past its end). */
	if (num(&r, &c, &v) < 0)
		return 0;
	for (i = 0; i < NSECT; i++) {
		if (num(&r, &c, &o) < 0 || num(&r, &c, &s) < 0 || o != at)
			return 0;
		if (i == S_POOL && str(&r, &c, &pool, &len) < 0)
			return 0;
		if ((at = o + s) < o)
			return 0;
	}
	return 1;
}

/* A cursor over section i of the file. */
static struct cur in_file(const struct v2 *r, int i)
{
	struct cur c = { r->file + r->start + r->off[i], 0, r->size[i], r->start + r->off[i], NULL };

	return c;
}

/* A cursor over the inflated section i, at offset at (checked). */
static int in_data(struct v2 *r, int i, size_t at, struct cur *c)
{
	*c = (struct cur){ (const unsigned char *)r->data[i], at, r->len[i], 0, sect_name[i] };
	if (at > r->len[i]) {
		c->pos = 0;
		return cur_fail(r, c, "offset past the end of the section");
	}
	return 0;
}

static int inflate_sections(struct v2 *r)
{
	char msg[200];
	int i;

	for (i = S_COUNTERS; i <= S_POOL; i++)
		if (bunzip(r->file + r->start + r->off[i], r->size[i], LNT_MAX_INFLATE, &r->data[i],
			   &r->len[i], msg, sizeof(msg)) < 0) {
			snprintf(r->err, r->errlen, "the %s section (at byte %zu): %s", sect_name[i],
				 r->start + r->off[i], msg);
			return -1;
		}
	return 0;
}

/* The counter names, and the totals. */
static int names(struct v2 *r)
{
	struct cur c = in_file(r, S_NAMES);
	const char **v;
	size_t n, i, k, len;
	int rc = 0;

	if (num_below(r, &c, c.end + 1, "more names than bytes", &n) < 0)
		return -1;
	v = xcalloc(n ? n : 1, sizeof(*v));
	for (i = 0; i < n && rc == 0; i++) {
		const char *s;

		if ((rc = str(r, &c, &s, &len)) == 0)
			v[i] = xstrndup(s, len);
	}
	if (rc == 0) {
		lnt_set_names(r->p, (char *const *)(uintptr_t)v, n);
		r->npool = n;
		r->pool_index = xcalloc(n ? n : 1, sizeof(*r->pool_index));
		for (k = 0; k < n; k++)
			r->pool_index[k] = lnt_name_index(r->p, v[k], strlen(v[k]));
	}
	for (k = 0; k < i; k++)
		free((void *)(uintptr_t)v[k]);
	free(v);
	return rc;
}

static int totals(struct v2 *r)
{
	struct cur c = in_file(r, S_TOTALS);
	size_t n, i, k;
	uint64_t v;

	if (num_below(r, &c, c.end + 1, "more totals than bytes", &n) < 0)
		return -1;
	for (i = 0; i < n; i++) {
		if (num_below(r, &c, r->npool, "counter index out of range", &k) < 0 ||
		    num(r, &c, &v) < 0)
			return -1;
		r->p->total[r->pool_index[k]] = (double)v;
	}
	return 0;
}

static int by_index(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* Where a function's instructions are. */
struct fn_at {
	size_t n;			/* instructions */
	size_t lc, la, lt;		/* offsets into LineCounters, -Addresses, -Text */
	int *ord;			/* its counters, sorted by name */
	size_t nord;			/* how many */
};

/* One instruction: address delta, text offset, counters. */
static int insn(struct v2 *r, struct lnt_fn *f, struct cur *cc, struct cur *ca, struct cur *ct,
		const struct fn_at *at, uint64_t *addr)
{
	struct cur pool;
	const char *s;
	uint64_t d;
	size_t off, len, j;
	double v;
	struct lnt_insn *in;

	if (num(r, ca, &d) < 0 ||
	    num_below(r, ct, r->len[S_POOL], "text offset past the end of the pool", &off) < 0 ||
	    in_data(r, S_POOL, off, &pool) < 0 || str(r, &pool, &s, &len) < 0)
		return -1;
	*addr += d;
	if (!(in = lnt_add_insn(r->p, f)))
		return cur_fail(r, ct, "too many instructions");
	in->addr = *addr;
	in->text = xstrndup(s, len);
	for (j = 0; j < at->nord; j++) {
		if (flt(r, cc, &v) < 0)
			return -1;
		if (lnt_value_ok(v))
			in->c[at->ord[j]] = v;
		else
			lnt_skip(r->p, "an instruction counter that is not a number of at least 0");
	}
	return 0;
}

/* A function's instructions; a fault skips the rest of them. */
static void insns(struct v2 *r, struct lnt_fn *f, const struct fn_at *at)
{
	struct cur cc, ca, ct;
	uint64_t addr = 0;
	char msg[300], *keep = r->err;
	size_t k, keeplen = r->errlen;
	int rc;

	r->err = msg;	/* a fault here is a skip, not the file's */
	r->errlen = sizeof(msg);
	rc = in_data(r, S_COUNTERS, at->lc, &cc) < 0 || in_data(r, S_ADDRS, at->la, &ca) < 0 ||
	     in_data(r, S_TEXT, at->lt, &ct) < 0 ? -1 : 0;
	if (rc == 0 && at->n > ca.end - ca.pos)	/* each takes a byte at least */
		rc = cur_fail(r, &ca, "more instructions than addresses");
	for (k = 0; k < at->n && rc == 0; k++)
		rc = insn(r, f, &cc, &ca, &ct, at, &addr);
	r->err = keep;
	r->errlen = keeplen;
	if (rc < 0)
		lnt_skip(r->p, msg);
}

/* A function's entry in the Functions section. */
static int function(struct v2 *r, struct cur *c)
{
	struct fn_at at = { 0, 0, 0, 0, NULL, 0 };
	const char *name;
	struct lnt_fn *f;
	size_t len, m, i, k;
	uint64_t n;
	double v;
	int rc = 0;

	if (str(r, c, &name, &len) < 0 || num(r, c, &n) < 0 ||
	    num_below(r, c, r->len[S_COUNTERS] + 1, "LineCounters offset out of range", &at.lc) < 0 ||
	    num_below(r, c, r->len[S_ADDRS] + 1, "LineAddresses offset out of range", &at.la) < 0 ||
	    num_below(r, c, r->len[S_TEXT] + 1, "LineText offset out of range", &at.lt) < 0 ||
	    num_below(r, c, c->end - c->pos + 1, "more counters than bytes", &m) < 0)
		return -1;
	at.n = n > r->len[S_ADDRS] ? r->len[S_ADDRS] + 1 : (size_t)n;
	f = lnt_add_fn(r->p, name, len);
	at.ord = xcalloc(m ? m : 1, sizeof(*at.ord));
	for (i = 0; i < m && rc == 0; i++) {
		if ((rc = num_below(r, c, r->npool, "counter index out of range", &k)) < 0 ||
		    (rc = flt(r, c, &v)) < 0)
			break;
		at.ord[at.nord++] = r->pool_index[k];
		if (lnt_value_ok(v))
			f->c[r->pool_index[k]] = v;
		else
			lnt_skip(r->p, "a function counter that is not a number of at least 0");
	}
	/* The instructions' counters: the function's, by name, once each. */
	qsort(at.ord, at.nord, sizeof(*at.ord), by_index);
	for (i = 0, k = 0; i < at.nord; i++)
		if (k == 0 || at.ord[k - 1] != at.ord[i])
			at.ord[k++] = at.ord[i];
	at.nord = k;
	if (rc == 0)
		insns(r, f, &at);
	free(at.ord);
	return rc;
}

static int functions(struct v2 *r)
{
	struct cur c = in_file(r, S_FUNCTIONS);
	size_t n, i;

	if (num_below(r, &c, c.end + 1, "more functions than bytes", &n) < 0)
		return -1;
	for (i = 0; i < n; i++)
		if (function(r, &c) < 0)
			return -1;
	return 0;
}

struct lnt_prof *lnt_v2_read(const unsigned char *p, size_t n, char *err, size_t errlen)
{
	struct v2 r;
	struct cur h;
	const char *fmt;
	size_t len;
	int i, rc;

	memset(&r, 0, sizeof(r));
	r.file = p;
	r.n = n;
	r.err = err;
	r.errlen = errlen;
	r.p = lnt_new(2);
	rc = table(&r);
	h = in_file(&r, S_HEADER);
	if (rc == 0)
		rc = str(&r, &h, &fmt, &len);
	if (rc == 0)
		rc = names(&r) < 0 || totals(&r) < 0 || inflate_sections(&r) < 0 ? -1 : 0;
	if (rc == 0 && functions(&r) < 0)
		r.p->partial = 1;	/* the functions before the fault are kept */
	else if (rc < 0) {
		lnt_free(r.p);
		r.p = NULL;
	}
	for (i = 0; i < NSECT; i++)
		free(r.data[i]);
	free(r.pool_index);
	return r.p;
}
