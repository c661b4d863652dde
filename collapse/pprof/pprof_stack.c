/* pprof_stack: samples to stacks.  Each location's frames are built once,
 * on first use, into an arena; a stack is then its locations' frames
 * copied end to end. */
#include "pprof_stack.h"
#include "folded.h"
#include "pbuf.h"
#include "strtab.h"
#include "xalloc.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOT_BUILT SIZE_MAX

struct label {
	const char *key;	/* its key... */
	size_t klen;		/* ...of this many bytes */
	const char *str;	/* its string value, or NULL: a number */
	size_t slen;		/* bytes of str */
	int64_t num;		/* its number */
	const char *unit;	/* the number's unit... */
	size_t ulen;		/* ...of this many bytes, 0: none */
};

/* What a key (a sample's location and label fields) stands for. */
struct seen {
	uint32_t id1;		/* its stack's id in the output table + 1, 0: none yet */
	uint64_t n;		/* its samples' values, summed: added to the table at
				   the end, so a sample touches only this small table */
};

struct builder {
	const struct pprof_prof *p;	/* the profile */
	char *arena;			/* each location's frames */
	size_t alen, acap;		/* bytes used, room */
	size_t *off, *len;		/* a location's frames in arena (len
					   NOT_BUILT: not yet) */
	uint64_t *ids;			/* the sample's locations */
	size_t nids, idcap;		/* how many, room */
	struct label *lab;		/* the sample's labels */
	size_t nlab, labcap;		/* how many, room */
	char *stack;			/* the stack being built */
	size_t slen, scap;		/* its length, room */
	char *key;			/* the sample's location (and label)
					   fields as they are in the input */
	size_t klen, kcap;		/* its length, room */
	struct strtab *seen;		/* keys met (values: struct seen) */
	uint64_t used, budget;		/* bytes built so far, and at most */
};

/* Counts a skipped sample, naming the first: the sample at byte at, and
 * why (msg). */
static void why(struct pprof_tally *st, size_t at, const char *msg)
{
	if (st->skipped++ == 0)
		snprintf(st->first, sizeof(st->first), "the sample at byte %zu %s", at, msg);
}

/* The index of the sample type called name (len bytes), or -1. */
static int type_index(const struct pprof_prof *p, const char *name, size_t len)
{
	const char *s;
	size_t i, n;

	for (i = 0; i < p->ntypes && i < INT32_MAX; i++) {
		s = pprof_str(p, p->types[i].type, &n);
		if (n == len && memcmp(s, name, n) == 0)
			return (int)i;
	}
	return -1;
}

int pprof_stack_type(const struct pprof_prof *p, const char *name)
{
	const char *d;
	size_t n;
	int i;

	if (name)
		return type_index(p, name, strlen(name));
	/* A default_sample_type that names no type is ignored, as pprof
	 * does. */
	d = p->default_type ? pprof_str(p, p->default_type, &n) : NULL;
	if (d && n && (i = type_index(p, d, n)) >= 0)
		return i;
	return p->ntypes ? (int)p->ntypes - 1 : 0;
}

/* Appends n bytes of s to *b (*len, *cap), tidied for a frame name. */
static void put_name(char **b, size_t *len, size_t *cap, const char *s, size_t n)
{
	size_t i;
	char *d;

	xgrow(b, cap, *len + n + 1, 1);
	d = *b + *len;
	for (i = 0; i < n; i++) {
		char c = s[i];

		d[i] = c == ';' ? ':' : c == '\n' || c == '\r' || c == '\t' ? ' ' : c;
	}
	*len += n;
}

/* A location's name when no function names it: its mapping's file's base
 * name, else its address. */
static void put_where(struct builder *b, const struct pprof_loc *l)
{
	const struct pprof_map *m = l->map ? pprof_map(b->p, l->map) : NULL;
	const char *s = "", *base;
	char a[24];
	size_t n = 0;

	if (m)
		s = pprof_str(b->p, m->file, &n);
	if (n) {
		base = memrchr(s, '/', n);
		base = base ? base + 1 : s;
		n -= (size_t)(base - s);
		put_name(&b->arena, &b->alen, &b->acap, "[", 1);
		put_name(&b->arena, &b->alen, &b->acap, base, n);
		put_name(&b->arena, &b->alen, &b->acap, "]", 1);
		return;
	}
	n = (size_t)snprintf(a, sizeof(a), "0x%" PRIx64, l->addr);
	put_name(&b->arena, &b->alen, &b->acap, a, n);
}

/* Builds location l's frames (root first: its last line first). */
static void build_loc(struct builder *b, const struct pprof_loc *l, size_t k)
{
	const struct pprof_func *f;
	const char *s;
	size_t i, n;

	b->off[k] = b->alen;
	for (i = l->nlines; i-- > 0;) {
		if (i + 1 < l->nlines) {
			xgrow(&b->arena, &b->acap, b->alen + 1, 1);
			b->arena[b->alen++] = ';';
		}
		if (!(f = pprof_func(b->p, b->p->line_fn[l->line0 + i]))) {
			put_where(b, l);
			continue;
		}
		s = pprof_str(b->p, f->name, &n);
		if (!n)
			s = pprof_str(b->p, f->sysname, &n);
		put_name(&b->arena, &b->alen, &b->acap, s, n);
	}
	if (!l->nlines)
		put_where(b, l);
	b->len[k] = b->alen - b->off[k];
	b->used += b->len[k];
}

/* Appends f's varints (one, or a packed run) to ids, or with ids NULL
 * counts them in *n and keeps the one at index want (SIZE_MAX: the last)
 * in *v. */
static int varints(struct builder *b, const struct pb *r, const struct pb_field *f, uint64_t **ids,
		   size_t *n, size_t want, uint64_t *v)
{
	struct pb run;
	uint64_t x;
	char err[8];
	int rc;

	if (f->wire == PB_VARINT) {
		if (ids) {
			xgrow(ids, &b->idcap, *n + 1, sizeof(**ids));
			(*ids)[*n] = f->v;
		} else if (*n == want || want == SIZE_MAX)
			*v = f->v;
		++*n;
		return 0;
	}
	if (f->wire != PB_LEN)
		return -1;
	pb_sub(&run, r, f);
	if (ids)
		xgrow(ids, &b->idcap, *n + pb_count_varints(f->data, f->len), sizeof(**ids));
	while ((rc = pb_varint(&run, &x, err, sizeof(err))) > 0) {
		if (ids)
			(*ids)[*n] = x;
		else if (*n == want || want == SIZE_MAX)
			*v = x;
		++*n;
	}
	return rc;
}

/* Reads a Label message into the next slot of b->lab. */
static int read_label(struct builder *b, const struct pb *r, const struct pb_field *f)
{
	struct label *l;
	struct pb m;
	struct pb_field g;
	uint64_t v[5] = { 0 };
	char err[8];
	int rc;

	if (f->wire != PB_LEN)
		return -1;
	pb_sub(&m, r, f);
	while ((rc = pb_next(&m, &g, err, sizeof(err))) > 0)
		if (g.num < 5 && g.wire == PB_VARINT)
			v[g.num] = g.v;
	if (rc < 0)
		return -1;
	xgrow(&b->lab, &b->labcap, b->nlab + 1, sizeof(*b->lab));
	l = &b->lab[b->nlab];
	l->key = pprof_str(b->p, v[1], &l->klen);
	l->str = v[2] ? pprof_str(b->p, v[2], &l->slen) : NULL;
	l->num = (int64_t)v[3];
	l->unit = pprof_str(b->p, v[4], &l->ulen);
	b->nlab += l->klen > 0;
	return 0;
}

/* Reads sample s: its location (and, when wanted, label) fields into
 * b->key as they are, its value of type vi (-1: the last) into *val.
 * Returns 0, or -1 having named the fault through st.  The locations
 * and labels are decoded only for a key not met before (decode_key). */
static int read_sample(struct builder *b, const struct pprof_span *s, int vi, int labels,
		       int64_t *val, struct pprof_tally *st)
{
	struct pb r;
	struct pb_field f;
	size_t nval = 0, at = (size_t)(s->p - b->p->buf);
	uint64_t v = 0;
	char err[120], m[150];
	int rc = 0, bad = 0;

	r.base = b->p->buf;
	r.p = s->p;
	r.end = s->p + s->n;
	b->klen = 0;
	while (!bad && (rc = pb_next(&r, &f, err, sizeof(err))) > 0) {
		if (f.num == 2)
			bad = varints(b, &r, &f, NULL, &nval, vi < 0 ? SIZE_MAX : (size_t)vi, &v) < 0;
		else if (f.num == 1 || (f.num == 3 && labels))
			xappend(&b->key, &b->klen, &b->kcap, r.base + f.off,
				(size_t)(r.p - (r.base + f.off)));
	}
	if (bad || rc < 0) {
		snprintf(m, sizeof(m), "cannot be read (%s)", rc < 0 ? err : "a malformed value");
		why(st, at, m);
		return -1;
	}
	if (nval == 0 || (b->p->ntypes && nval != b->p->ntypes)) {
		snprintf(m, sizeof(m), "has %zu values, not one per sample type (%zu)", nval,
			 b->p->ntypes);
		why(st, at, m);
		return -1;
	}
	*val = (int64_t)v;
	return 0;
}

/* The locations of the key in b->key into b->ids, its labels into
 * b->lab.  Returns 0, or -1 having named the fault through st. */
static int decode_key(struct builder *b, size_t at, struct pprof_tally *st)
{
	struct pb r;
	struct pb_field f;
	char err[8];
	int rc, bad = 0;

	pb_init(&r, b->key, b->klen);
	b->nids = b->nlab = 0;
	while (!bad && (rc = pb_next(&r, &f, err, sizeof(err))) > 0)
		bad = f.num == 1 ? varints(b, &r, &f, &b->ids, &b->nids, 0, NULL) < 0
				 : read_label(b, &r, &f) < 0;
	if (bad) {
		why(st, at, "cannot be read (a malformed location or label)");
		return -1;
	}
	return 0;
}

static int by_key(const struct label *a, const struct label *b)
{
	size_t n = a->klen < b->klen ? a->klen : b->klen;
	int c = memcmp(a->key, b->key, n);

	return c ? c : (a->klen > b->klen) - (a->klen < b->klen);
}

/* The sample's labels as root frames, by key (stable: an insertion sort,
 * samples have few). */
static void put_labels(struct builder *b)
{
	struct label t;
	char num[48];
	size_t i, j;

	for (i = 1; i < b->nlab; i++) {
		t = b->lab[i];
		for (j = i; j > 0 && by_key(&b->lab[j - 1], &t) > 0; j--)
			b->lab[j] = b->lab[j - 1];
		b->lab[j] = t;
	}
	for (i = 0; i < b->nlab; i++) {
		const struct label *l = &b->lab[i];

		put_name(&b->stack, &b->slen, &b->scap, l->key, l->klen);
		put_name(&b->stack, &b->slen, &b->scap, ":", 1);
		if (l->str)
			put_name(&b->stack, &b->slen, &b->scap, l->str, l->slen);
		else {
			put_name(&b->stack, &b->slen, &b->scap, num,
				 (size_t)snprintf(num, sizeof(num), "%" PRId64 "%s", l->num,
						  l->ulen ? " " : ""));
			put_name(&b->stack, &b->slen, &b->scap, l->unit, l->ulen);
		}
		xgrow(&b->stack, &b->scap, b->slen + 1, 1);
		b->stack[b->slen++] = ';';
	}
}

/* The stack of the sample read into b, in b->stack.  Returns 0, or -1
 * having named the fault through st. */
static int build_stack(struct builder *b, size_t at, struct pprof_tally *st)
{
	const struct pprof_loc *l;
	char m[80];
	size_t i, k;

	b->slen = 0;
	put_labels(b);
	for (i = b->nids; i-- > 0;) {
		if (!(l = pprof_loc(b->p, b->ids[i]))) {
			snprintf(m, sizeof(m), "names location %" PRIu64 ", which is not in the profile",
				 b->ids[i]);
			why(st, at, m);
			return -1;
		}
		k = (size_t)(l - b->p->loc);
		if (b->len[k] == NOT_BUILT)
			build_loc(b, l, k);
		if (b->slen + b->len[k] + 1 > PPROF_MAX_STACK) {
			why(st, at, "has a stack longer than 4 MB");
			return -1;
		}
		xgrow(&b->stack, &b->scap, b->slen + b->len[k] + 1, 1);
		memcpy(b->stack + b->slen, b->arena + b->off[k], b->len[k]);
		b->slen += b->len[k];
		b->stack[b->slen++] = ';';
	}
	if (b->slen == 0) {
		why(st, at, "has no locations");
		return -1;
	}
	b->slen--;
	return 0;
}

static void builder_release(struct builder *b)
{
	free(b->arena);
	free(b->off);
	free(b->len);
	free(b->ids);
	free(b->lab);
	free(b->stack);
	free(b->key);
	strtab_free(b->seen);
}

/* The entry of the stack of the sample read into b: samples with the
 * same location (and label) fields have the same stack, so it is built
 * once and then found by those few bytes.  Returns NULL, having named
 * the fault through st, when it cannot be built (st->cut set when the
 * stacks outgrew the budget). */
static struct seen *stack_of(struct builder *b, struct strtab *t, size_t at,
			     struct pprof_tally *st)
{
	/* A sample without locations has an empty key and no buffer yet. */
	const char *key = b->klen ? b->key : "";
	struct seen *e = strtab_val(b->seen, strtab_intern(b->seen, key, b->klen, NULL));

	if (e->id1)
		return e;
	if (decode_key(b, at, st) < 0 || build_stack(b, at, st) < 0)
		return NULL;
	if ((b->used += b->slen) > b->budget) {
		st->cut = 1;
		snprintf(st->fault, sizeof(st->fault), "at the sample at byte %zu the stacks "
			 "outgrew %" PRIu64 " bytes: the rest is not read", at, b->budget);
		return NULL;
	}
	e->id1 = strtab_intern(t, b->stack, b->slen, NULL) + 1;
	return e;
}

/* The sums of b's keys into t. */
static void flush(struct builder *b, struct strtab *t)
{
	size_t i, n = strtab_count(b->seen);

	for (i = 0; i < n; i++) {
		const struct seen *e = strtab_val(b->seen, (uint32_t)i);
		struct fcount c = { e->n, 0 };

		if (e->id1 && e->n)
			fcount_add(strtab_val(t, e->id1 - 1), &c);
	}
}

void pprof_stack_add(const struct pprof_prof *p, int vi, int labels, struct strtab *t,
		     struct fseq *seq, struct pprof_tally *st)
{
	struct builder b = { 0 };
	struct fcount c = { 0, 0 };
	struct seen *e;
	size_t i, at;
	int64_t v;

	memset(st, 0, sizeof(*st));
	b.p = p;
	b.seen = strtab_new(sizeof(struct seen));
	b.off = xcalloc(p->nloc + 1, sizeof(*b.off));
	b.len = xmalloc((p->nloc + 1) * sizeof(*b.len));
	for (i = 0; i <= p->nloc; i++)
		b.len[i] = NOT_BUILT;
	/* Room for stacks many times the input, and more for small inputs:
	 * enough for any real profile, yet a hostile one cannot make the
	 * run take memory or time out of all proportion to its size. */
	b.budget = (uint64_t)p->len * 256 + ((uint64_t)64 << 20);
	for (i = 0; i < p->nsample && !st->cut; i++) {
		at = (size_t)(p->sample[i].p - p->buf);
		if (read_sample(&b, &p->sample[i], p->ntypes ? vi : -1, labels, &v, st) < 0)
			continue;
		if (v <= 0) {
			if (v < 0)
				why(st, at, "has a negative value");
			continue;
		}
		if (!(e = stack_of(&b, t, at, st)))
			continue;
		e->n += (uint64_t)v;
		if (seq) {
			c.n = (uint64_t)v;
			fseq_add(seq, e->id1 - 1, &c, NULL);
		}
		st->added++;
	}
	flush(&b, t);
	builder_release(&b);
}
