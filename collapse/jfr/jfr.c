/* jfr: a recording's chunks, their events and constant pools, and the
 * stacks of its samples (see jfr.h). */
#include "jfr_int.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEADER 68		/* bytes of a chunk header */
#define VALUE_DEPTH 16		/* inline values nested deeper are a fault */
#define NO_TEXT UINT32_MAX	/* a stack not named yet */
#define NAME_MAX_BYTES 4096	/* of a class or method name; longer ones cut */
#define OUT_MAX ((size_t)1 << 30)	/* bytes of a chunk's named stacks */

/* An entry of a constant pool the reader keeps (JK_*): what it holds by
 * kind.  A stack trace: frames [fo, fo + fn) and trunc; a method: its
 * class a and name b (symbol keys); a class: its name b; a symbol, a
 * frame type or a string: s. */
struct jent {
	uint64_t key;
	uint64_t a, b;
	struct jsval s;
	uint32_t fo, fn;
	uint32_t text, tlen;	/* a stack's frames as named, in out */
	uint8_t trunc;
};

struct jframe {
	uint64_t method, ftype;
};

struct pool {
	struct jent *e;
	size_t n, cap;
};

/* One chunk's reading. */
struct chunk {
	const unsigned char *base;	/* the chunk, in the file */
	size_t at;			/* its offset in the file */
	int packed;
	struct jmeta m;
	struct pool pool[JK_N];
	struct jframe *fr;
	size_t nfr, capfr;
	uint64_t *samp;			/* the samples' stack keys, in order */
	size_t nsamp, capsamp;
	struct jstr s;			/* pool strings */
	struct jstr out;		/* stacks as named */
	struct jfr_stats *st;
};

/* Names the first fault, at byte off of the file. */
static void fault(struct chunk *c, size_t off, const char *what)
{
	if (!c->st->fault)
		snprintf(c->st->first, sizeof(c->st->first), "byte %zu: %s", off, what);
	c->st->fault = 1;
}

/* A primitive value: strings are kept as read, the rest skipped but
 * for a boolean's byte. */
static int prim(struct chunk *c, struct jrd *r, int p, struct jsval *sv, unsigned *b)
{
	static const unsigned char fixed[] = { 0, 1, 1, 2, 2, 4, 8, 4, 8, 0 };

	if (p == JP_STRING)
		return jfr_string(r, &c->s, sv);
	if (r->packed && p >= JP_CHAR && p <= JP_LONG)
		jrd_varint(r);
	else if (p == JP_BOOL)
		*b = jrd_byte(r);
	else
		jrd_fixed(r, fixed[p]);
	return r->bad ? -1 : 0;
}

/* Keeps pool key v of a field with role into e or fr. */
static void keep_key(int role, uint64_t v, struct jent *e, struct jframe *fr)
{
	if (e && (role == JR_CLASS || role == JR_STACK))
		e->a = v;
	else if (e && role == JR_NAME)
		e->b = v;
	else if (fr && role == JR_METHOD)
		fr->method = v;
	else if (fr && role == JR_FTYPE)
		fr->ftype = v;
}

static int value(struct chunk *c, struct jrd *r, int ci, struct jent *e, struct jframe *fr,
		 int depth);

/* One value of field f: a pool key, a primitive or an inline value. */
static int field(struct chunk *c, struct jrd *r, const struct jfield *f, struct jent *e,
		 struct jframe *fr, int depth)
{
	const struct jclass *t = f->cls >= 0 ? &c->m.c[f->cls] : NULL;
	struct jsval sv;
	unsigned b = 0;

	if (f->cp) {
		keep_key(f->role, jrd_long(r), e, fr);
		return r->bad ? -1 : 0;
	}
	if (!t)
		return -1;	/* a type the metadata does not describe */
	if (t->prim) {
		if (prim(c, r, t->prim, &sv, &b) < 0)
			return -1;
		if (e && f->role == JR_NAME)
			e->s = sv;
		if (e && f->role == JR_TRUNC)
			e->trunc = b != 0;
		return 0;
	}
	if (e && f->role == JR_FRAMES) {
		xgrow(&c->fr, &c->capfr, c->nfr + 1, sizeof(*c->fr));
		memset(&c->fr[c->nfr], 0, sizeof(*c->fr));
		if (value(c, r, f->cls, NULL, &c->fr[c->nfr], depth + 1) < 0)
			return -1;
		c->nfr++;
		e->fn++;
		return 0;
	}
	return value(c, r, f->cls, NULL, NULL, depth + 1);
}

/* One value of class ci, its fields in order; e and fr take what the
 * reader keeps of them. */
static int value(struct chunk *c, struct jrd *r, int ci, struct jent *e, struct jframe *fr,
		 int depth)
{
	const struct jclass *k = &c->m.c[ci];
	size_t i;

	if (depth > VALUE_DEPTH)
		return -1;
	for (i = 0; i < k->nf; i++) {
		const struct jfield *f = &k->f[i];
		uint32_t n = f->array ? jrd_int(r) : 1;

		if (r->bad)
			return -1;
		if (f->cls >= 0 && c->m.c[f->cls].empty && !f->cp)
			continue;	/* values of no bytes, however many */
		if (n > (size_t)(r->end - r->p) + !f->array)
			return -1;	/* each takes a byte at least */
		if (e && f->role == JR_FRAMES)
			e->fo = (uint32_t)c->nfr, e->fn = 0;
		while (n--)
			if (field(c, r, f, e, fr, depth) < 0)
				return -1;
	}
	return 0;
}

/* Which kept pool (JK_*) class ci is, or -1. */
static int kept(const struct chunk *c, int ci)
{
	int k;

	for (k = 0; k <= JK_STRING; k++)
		if (c->m.known[k] == ci)
			return k;
	return -1;
}

/* One constant pool of a checkpoint: a class, then its entries. */
static int pool(struct chunk *c, struct jrd *r)
{
	int ci = jfr_meta_class(&c->m, jrd_long(r)), k;
	uint32_t n = jrd_int(r);
	struct jent *e = NULL;
	struct jsval junk;
	unsigned b;

	if (ci < 0 || r->bad || n > (size_t)(r->end - r->p))
		return -1;
	k = kept(c, ci);
	while (n--) {
		uint64_t key = jrd_long(r);

		if (k >= 0) {
			struct pool *p = &c->pool[k];

			xgrow(&p->e, &p->cap, p->n + 1, sizeof(*p->e));
			e = memset(&p->e[p->n++], 0, sizeof(*e));
			e->key = key;
			e->text = NO_TEXT;
		}
		if (c->m.c[ci].prim ? prim(c, r, c->m.c[ci].prim, e ? &e->s : &junk, &b) < 0
				    : value(c, r, ci, e, NULL, 0) < 0)
			return -1;
	}
	return 0;
}

/* A checkpoint event's pools (r after its size and type). */
static int checkpoint(struct chunk *c, struct jrd *r)
{
	uint32_t n;

	jrd_long(r), jrd_long(r), jrd_long(r);	/* start, duration, delta */
	jrd_byte(r);				/* flush / kind */
	n = jrd_int(r);
	if (r->bad || n > (size_t)(r->end - r->p))
		return -1;
	while (n--)
		if (pool(c, r) < 0)
			return -1;
	return 0;
}

/* A jdk.ExecutionSample: its stack trace's key, kept in order. */
static int sample(struct chunk *c, struct jrd *r)
{
	struct jent e;

	memset(&e, 0, sizeof(e));
	e.a = UINT64_MAX;
	if (value(c, r, c->m.known[JK_SAMPLE], &e, NULL, 0) < 0)
		return -1;
	xgrow(&c->samp, &c->capsamp, c->nsamp + 1, sizeof(*c->samp));
	c->samp[c->nsamp++] = e.a;
	return 0;
}

/* Every event of the chunk (size bytes), its pools kept and its samples
 * listed.  A fault ends the chunk: an event whose size lies cannot be
 * stepped over. */
static void events(struct chunk *c, size_t size)
{
	size_t pos = HEADER;
	int samp = c->m.known[JK_SAMPLE], nat = c->m.known[JK_NATIVE];

	while (pos < size) {
		struct jrd r = { c->base + pos, c->base + size, c->packed, 0 };
		uint64_t len = jrd_int(&r), type = jrd_long(&r);
		int rc = 0;

		if (r.bad || len < 2 || len > size - pos) {
			fault(c, c->at + pos, "an event's size runs past its chunk; the rest of the chunk is skipped");
			return;
		}
		r.end = c->base + pos + len;
		if (type == 1)
			rc = checkpoint(c, &r);
		else if (samp >= 0 && type == c->m.c[samp].id)
			rc = sample(c, &r);
		else if (nat >= 0 && type == c->m.c[nat].id)
			c->st->native++;
		if (rc < 0)
			fault(c, c->at + pos, type == 1 ? "a constant pool cannot be read; skipped"
						       : "a sample cannot be read; skipped");
		pos += len;
	}
}

static int by_key(const void *a, const void *b)
{
	const struct jent *x = a, *y = b;

	return x->key < y->key ? -1 : x->key > y->key;
}

/* The entry of pool k with key, or NULL. */
static struct jent *find(struct chunk *c, int k, uint64_t key)
{
	struct pool *p = &c->pool[k];
	size_t lo = 0, hi = p->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->e[mid].key < key)
			lo = mid + 1;
		else if (p->e[mid].key > key)
			hi = mid;
		else
			return &p->e[mid];
	}
	return NULL;
}

/* Appends the text of string v (a pool reference followed once), ';'
 * made ':' and control bytes spaces, as a frame must be; or unknown. */
static void put_text(struct chunk *c, const struct jsval *v, const char *unknown)
{
	const struct jent *ref;
	size_t i, n;

	if (v && v->kind == JS_REF && (ref = find(c, JK_STRING, v->ref)) != NULL)
		v = &ref->s;
	if (!v || v->kind != JS_TEXT || v->len == 0) {
		xappend(&c->out.b, &c->out.len, &c->out.cap, unknown, strlen(unknown));
		return;
	}
	n = c->out.len;
	xappend(&c->out.b, &c->out.len, &c->out.cap, c->s.b + v->off,
		v->len < NAME_MAX_BYTES ? v->len : NAME_MAX_BYTES);
	for (i = n; i < c->out.len; i++)
		if (c->out.b[i] == ';')
			c->out.b[i] = ':';
		else if ((unsigned char)c->out.b[i] < 0x20 || c->out.b[i] == 0x7f)
			c->out.b[i] = ' ';
}

/* The symbol of key, as a string value, or NULL. */
static const struct jsval *symbol(struct chunk *c, uint64_t key)
{
	const struct jent *e = find(c, JK_SYMBOL, key);

	return e ? &e->s : NULL;
}

/* Names stack trace t's frames into out, root first: CLASS.METHOD. */
static void name_stack(struct chunk *c, struct jent *t)
{
	uint32_t i;

	t->text = (uint32_t)c->out.len;
	for (i = t->fn; i-- > 0;) {
		const struct jent *m = find(c, JK_METHOD, c->fr[t->fo + i].method);
		const struct jent *k = m ? find(c, JK_CLASS, m->a) : NULL;

		if (i + 1 < t->fn)
			xappend(&c->out.b, &c->out.len, &c->out.cap, ";", 1);
		if (!m) {
			put_text(c, NULL, "[unknown]");
			continue;
		}
		put_text(c, k ? symbol(c, k->b) : NULL, "[unknown]");
		xappend(&c->out.b, &c->out.len, &c->out.cap, ".", 1);
		put_text(c, symbol(c, m->b), "[unknown]");
	}
	t->tlen = (uint32_t)(c->out.len - t->text);
}

/* Emits the chunk's samples in order, each stack named once. */
static void emit_samples(struct chunk *c, jfr_emit_fn *emit, void *ctx)
{
	size_t i;

	for (i = 0; i < JK_N; i++)
		if (c->pool[i].n)
			qsort(c->pool[i].e, c->pool[i].n, sizeof(struct jent), by_key);
	for (i = 0; i < c->nsamp; i++) {
		struct jent *t = find(c, JK_STACK, c->samp[i]);

		if (!t || t->fn == 0) {
			c->st->unresolved++;
			continue;
		}
		if (t->text == NO_TEXT && c->out.len > OUT_MAX) {
			fault(c, c->at, "its stacks' names take over 1 GiB; the rest of its samples are skipped");
			return;
		}
		if (t->text == NO_TEXT)
			name_stack(c, t);
		c->st->truncated += t->trunc;
		c->st->samples++;
		emit(ctx, c->out.b + t->text, t->tlen);
	}
}

static void chunk_free(struct chunk *c)
{
	size_t i;

	jfr_meta_free(&c->m);
	for (i = 0; i < JK_N; i++)
		free(c->pool[i].e);
	free(c->fr);
	free(c->samp);
	free(c->s.b);
	free(c->out.b);
}

static uint64_t be(const unsigned char *p, int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | *p++;
	return v;
}

/* The chunk at c->at: its metadata, events and samples.  Its size, or 0
 * when it cannot be read at all (a fault named). */
static size_t chunk(struct chunk *c, size_t avail, jfr_emit_fn *emit, void *ctx)
{
	const unsigned char *h = c->base;
	uint64_t size = be(h + 8, 8), meta = be(h + 24, 8);
	char err[120] = "the chunk's metadata offset points at no metadata event; the chunk is skipped";
	struct jrd r;

	if (memcmp(h, "FLR", 4) != 0 || be(h + 4, 2) < 1 || be(h + 4, 2) > 2) {
		fault(c, c->at, "no chunk of a Java Flight Recorder recording starts here");
		return 0;
	}
	if (size < HEADER || size > avail) {
		/* A recording still being written, or cut short. */
		fault(c, c->at, "the chunk is cut short (a recording unfinished or truncated)");
		size = avail;
	}
	c->packed = be(h + 64, 4) & 1;
	if (meta < HEADER || meta >= size) {
		fault(c, c->at, "the chunk's metadata is not there; the chunk is skipped");
		return (size_t)size;
	}
	r = (struct jrd){ h + meta, h + size, c->packed, 0 };
	if (jrd_int(&r) < 2 || jrd_long(&r) != 0 || jfr_meta_read(&r, &c->m, err, sizeof(err)) < 0) {
		fault(c, c->at + meta, r.bad ? "the chunk's metadata is cut short; the chunk is skipped" : err);
		return (size_t)size;
	}
	events(c, (size_t)size);
	emit_samples(c, emit, ctx);
	return (size_t)size;
}

int jfr_read(const unsigned char *buf, size_t len, jfr_emit_fn *emit, void *ctx,
	     struct jfr_stats *st)
{
	size_t at = 0, n;

	memset(st, 0, sizeof(*st));
	while (at < len) {
		struct chunk c;

		memset(&c, 0, sizeof(c));
		c.base = buf + at, c.at = at, c.st = st;
		if (len - at < HEADER) {
			fault(&c, at, "a chunk header is cut short");
			break;
		}
		n = chunk(&c, len - at, emit, ctx);
		chunk_free(&c);
		if (n == 0)
			break;
		st->chunks++;
		at += n;
	}
	return st->fault;
}

int jfr_sniff(const char *head, size_t len)
{
	return len >= 8 && memcmp(head, "FLR", 4) == 0 && head[4] == 0 && (head[5] == 1 || head[5] == 2);
}
