/* pprof_stack: samples to stacks.  A sample is found by its key (its
 * location fields' bytes) in pprof_keys; only a key not met before is
 * decoded and its stack built.  Each location's frames are built once,
 * on first use, into an arena; a stack is then its locations' frames
 * copied end to end. */
#include "pprof_stack.h"
#include "pprof_keys.h"
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
					   fields copied, when they are not
					   one run in the input */
	size_t klen, kcap;		/* its length, room */
	struct pprof_keys *seen;	/* keys met */
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
	xgrow(b, cap, *len + n + 1, 1);
	pprof_tidy_name(*b + *len, s, n);
	*len += n;
}

void pprof_where(const struct pprof_prof *p, const struct pprof_loc *l, struct pprof_where *w)
{
	const struct pprof_map *m = l->map ? pprof_map(p, l->map) : NULL;
	const char *s = "", *base;
	size_t n = 0;

	if (m)
		s = pprof_str(p, m->file, &n);
	w->bracket = n != 0;
	if (n) {
		base = memrchr(s, '/', n);
		base = base ? base + 1 : s;
		w->s = base;
		w->n = n - (size_t)(base - s);
		return;
	}
	w->n = (size_t)snprintf(w->addr, sizeof(w->addr), "0x%" PRIx64, l->addr);
	w->s = w->addr;
}

/* A location's name when no function names it (pprof_where). */
static void put_where(struct builder *b, const struct pprof_loc *l)
{
	struct pprof_where w;

	pprof_where(b->p, l, &w);
	if (w.bracket)
		put_name(&b->arena, &b->alen, &b->acap, "[", 1);
	put_name(&b->arena, &b->alen, &b->acap, w.s, w.n);
	if (w.bracket)
		put_name(&b->arena, &b->alen, &b->acap, "]", 1);
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
static int read_sample(struct builder *b, const unsigned char *s, size_t n, int vi, int labels,
		       int64_t *val, struct pprof_tally *st)
{
	struct pb r;
	struct pb_field f;
	size_t nval = 0, at = (size_t)(s - b->p->buf);
	uint64_t v = 0;
	char err[120], m[150];
	int rc = 0, bad = 0;

	r.base = b->p->buf;
	r.p = s;
	r.end = s + n;
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

/* The locations of key (klen bytes) into b->ids, its labels into
 * b->lab.  Returns 0, or -1 having named the fault through st. */
static int decode_key(struct builder *b, const void *key, size_t klen, size_t at,
		      struct pprof_tally *st)
{
	struct pb r;
	struct pb_field f;
	char err[8];
	int rc, bad = 0;

	pb_init(&r, key, klen);
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
	pprof_keys_free(b->seen);
}

/* The stack of key (klen bytes) into e->id1: built, or PPROF_KEY_BAD
 * having named the fault through st (st->cut set when the stacks outgrew
 * the budget). */
static void stack_of(struct builder *b, struct strtab *t, struct pprof_key *e, const void *key,
		     size_t klen, size_t at, struct pprof_tally *st)
{
	e->id1 = PPROF_KEY_BAD;
	if (decode_key(b, key, klen, at, st) < 0 || build_stack(b, at, st) < 0)
		return;
	if ((b->used += b->slen) > b->budget) {
		st->cut = 1;
		snprintf(st->fault, sizeof(st->fault), "at the sample at byte %zu the stacks "
			 "outgrew %" PRIu64 " bytes: the rest is not read", at, b->budget);
		return;
	}
	e->id1 = strtab_intern(t, b->stack, b->slen, NULL) + 1;
}

/* A key's sum into the table of stacks (ctx). */
static void flush_one(void *ctx, const struct pprof_key *e)
{
	struct fcount c = { e->n, 0 };

	if (e->id1 && e->id1 != PPROF_KEY_BAD && e->n)
		fcount_add(strtab_val(ctx, e->id1 - 1), &c);
}

/* A varint at s[*i] of a run known to end in a byte below 0x80 (so no
 * read past it): into *x, or -1 when it is longer than 9 bytes (left to
 * pbuf, which names what is wrong with it). */
static int quick_varint(const unsigned char *s, size_t *i, uint64_t *x)
{
	unsigned shift = 0;

	*x = 0;
	do {
		if (shift > 56)
			return -1;
		*x |= (uint64_t)(s[*i] & 0x7f) << shift;
		shift += 7;
	} while (s[(*i)++] >= 0x80);
	return 0;
}

/* Sample s (n bytes) as nearly every profile writes one: a packed run of
 * locations (field 1, its tag and length keyed as they are), then a
 * packed run of values (field 2) ending the sample.  Its key's length in
 * *klen (the key starts at s) and its value want (SIZE_MAX: the last) in
 * *v; 0 when s is not of that shape or its values are not one per type
 * (ntypes, 0: any number), for read_sample. */
static int quick_sample(const unsigned char *s, size_t n, size_t want, size_t ntypes,
			size_t *klen, uint64_t *v)
{
	size_t i = pprof_packed_locs(s, n), cnt = 0;
	uint64_t x;

	if (!i || s[n - 1] >= 0x80)
		return 0;
	*klen = i;
	for (i += 2; i < n; cnt++) {
		if (quick_varint(s, &i, &x) < 0)
			return 0;
		if (cnt == want || want == SIZE_MAX)
			*v = x;
	}
	return ntypes ? cnt == ntypes : cnt > 0;
}

/* The sample field at q (before end): its message in *s, *n; where the
 * field ends, or NULL when it cannot be read (pprof_read has checked the
 * run, so never). */
static const unsigned char *next_sample(const struct pprof_prof *p, const unsigned char *q,
					const unsigned char *end, const unsigned char **s,
					size_t *n)
{
	struct pb r;
	struct pb_field f;
	char err[8];

	if (q[0] == 0x12 && end - q >= 2 && q[1] < 0x80 && q[1] <= end - q - 2) {
		*s = q + 2;
		*n = q[1];
		return *s + *n;
	}
	r.base = p->buf;
	r.p = q;
	r.end = end;
	if (pb_next(&r, &f, err, sizeof(err)) <= 0)
		return NULL;
	*s = f.data;
	*n = f.len;
	return r.p;
}

/* A sample read ahead: the lookups of a run are started some samples
 * before they are made, so their cache misses overlap. */
struct ahead {
	const unsigned char *s;	/* the sample's message... */
	size_t n;		/* ...of this many bytes */
	size_t klen;		/* quick: its key's length (the key starts at s) */
	uint64_t v;		/* quick: its value */
	uint64_t h;		/* quick: its key's hash */
	int quick;		/* of quick_sample's shape */
};

/* How far ahead the slots, and the keys in them, are fetched. */
#define AHEAD 16
#define AHEAD_KEY 8

/* Reads sample s (n bytes) ahead into *a, and starts fetching its slot. */
static void read_ahead(struct builder *b, struct ahead *a, const unsigned char *s, size_t n,
		       int vi)
{
	a->s = s;
	a->n = n;
	a->quick = quick_sample(s, n, vi < 0 ? SIZE_MAX : (size_t)vi, b->p->ntypes, &a->klen,
				&a->v);
	if (a->quick) {
		a->h = pprof_keys_hash(s, a->klen);
		pprof_keys_prefetch(b->seen, a->h);
	}
}

/* Adds the sample read ahead into a, of value type vi (-1: the last). */
static void add_sample(struct builder *b, struct strtab *t, struct fseq *seq,
		       const struct ahead *a, int vi, int labels, struct pprof_tally *st)
{
	size_t at = (size_t)(a->s - b->p->buf), klen = a->klen;
	const void *key = a->s;
	struct pprof_key *e;
	struct fcount c = { 0, 0 };
	uint64_t h = a->h;
	int64_t v = (int64_t)a->v;

	if (!a->quick) {
		if (read_sample(b, a->s, a->n, vi, labels, &v, st) < 0)
			return;
		/* A sample without locations has an empty key, no buffer yet. */
		key = b->klen ? b->key : "";
		klen = b->klen;
	}
	if (v <= 0) {
		if (v < 0)
			why(st, at, "has a negative value");
		return;
	}
	if (klen > PPROF_KEY_MAX) {
		why(st, at, "has a key too long");
		return;
	}
	if (!a->quick)
		h = pprof_keys_hash(key, klen);
	e = pprof_keys_get(b->seen, key, klen, h);
	if (!e->id1)
		stack_of(b, t, e, key, klen, at, st);
	if (e->id1 == PPROF_KEY_BAD) {
		if (!st->cut)
			why(st, at, "cannot be drawn");
		return;
	}
	e->n += (uint64_t)v;
	if (seq) {
		c.n = (uint64_t)v;
		fseq_add(seq, e->id1 - 1, &c, NULL);
	}
	st->added++;
}

/* The samples of run r, in order, read AHEAD samples ahead of their
 * adding; the pages of samples added are given back as it goes (only
 * bytes of this run, all read: an owned input's may then be lost). */
static void add_run(struct builder *b, struct strtab *t, struct fseq *seq,
		    const struct pprof_span *r, int vi, int labels, struct pprof_tally *st)
{
	const size_t chunk = (size_t)8 << 20;
	const unsigned char *q = r->p, *end = r->p + r->n, *s, *done = q, *added;
	struct ahead ring[AHEAD];
	size_t n, head = 0, tail = 0;

	while (!st->cut) {
		while (head - tail < AHEAD && q && q < end && (q = next_sample(b->p, q, end, &s, &n)))
			read_ahead(b, &ring[head++ % AHEAD], s, n, vi);
		if (head == tail)
			break;
		if (head - tail > AHEAD_KEY && ring[(tail + AHEAD_KEY) % AHEAD].quick)
			pprof_keys_prefetch_key(b->seen, ring[(tail + AHEAD_KEY) % AHEAD].h);
		added = ring[tail % AHEAD].s + ring[tail % AHEAD].n;
		add_sample(b, t, seq, &ring[tail++ % AHEAD], vi, labels, st);
		if ((size_t)(added - done) >= chunk) {
			pprof_release(b->p, (size_t)(done - b->p->buf), chunk);
			done += chunk;
		}
	}
}

void pprof_stack_add(const struct pprof_prof *p, int vi, int labels, struct strtab *t,
		     struct fseq *seq, struct pprof_tally *st)
{
	struct builder b = { 0 };
	size_t i;

	memset(st, 0, sizeof(*st));
	b.p = p;
	b.seen = pprof_keys_new();
	b.off = xcalloc(p->nloc + 1, sizeof(*b.off));
	b.len = xmalloc((p->nloc + 1) * sizeof(*b.len));
	for (i = 0; i <= p->nloc; i++)
		b.len[i] = NOT_BUILT;
	/* Room for stacks many times the input, and more for small inputs:
	 * enough for any real profile, yet a hostile one cannot make the
	 * run take memory or time out of all proportion to its size. */
	b.budget = (uint64_t)p->len * 256 + ((uint64_t)64 << 20);
	for (i = 0; i < p->nrun && !st->cut; i++)
		add_run(&b, t, seq, &p->run[i], p->ntypes ? vi : -1, labels, st);
	pprof_keys_each(b.seen, flush_one, t);
	builder_release(&b);
}
