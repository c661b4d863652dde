/* jfr_meta: JFR's strings, and a chunk's metadata event: its string
 * table and the tree of elements under it, of which the reader keeps the
 * classes and their fields (name, type, pool key or value, array). */
#include "jfr_int.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define META_DEPTH 32		/* elements nested deeper are a fault */

/* Appends code point c as UTF-8 (U+FFFD for what is none). */
static void put_utf8(struct jstr *s, uint32_t c)
{
	char u[4];
	size_t n;

	if (c > 0x10ffff || (c >= 0xd800 && c < 0xe000))
		c = 0xfffd;
	if (c < 0x80) {
		u[0] = (char)c, n = 1;
	} else if (c < 0x800) {
		u[0] = (char)(0xc0 | c >> 6), u[1] = (char)(0x80 | (c & 0x3f)), n = 2;
	} else if (c < 0x10000) {
		u[0] = (char)(0xe0 | c >> 12), u[1] = (char)(0x80 | (c >> 6 & 0x3f));
		u[2] = (char)(0x80 | (c & 0x3f)), n = 3;
	} else {
		u[0] = (char)(0xf0 | c >> 18), u[1] = (char)(0x80 | (c >> 12 & 0x3f));
		u[2] = (char)(0x80 | (c >> 6 & 0x3f)), u[3] = (char)(0x80 | (c & 0x3f)), n = 4;
	}
	xappend(&s->b, &s->len, &s->cap, u, n);
}

/* n UTF-16 chars, each a JFR char (compressed or two bytes), pairs of
 * surrogates joined. */
static void utf16(struct jrd *r, struct jstr *s, uint32_t n)
{
	uint32_t hi = 0, c;

	while (n-- && !r->bad) {
		c = (uint32_t)(r->packed ? jrd_varint(r) : jrd_fixed(r, 2)) & 0xffff;
		if (hi && c >= 0xdc00 && c < 0xe000) {
			put_utf8(s, 0x10000 + ((hi - 0xd800) << 10) + (c - 0xdc00));
			hi = 0;
			continue;
		}
		if (hi)
			put_utf8(s, 0xfffd);
		hi = c >= 0xd800 && c < 0xdc00 ? c : 0;
		if (!hi)
			put_utf8(s, c);
	}
	if (hi)
		put_utf8(s, 0xfffd);
}

int jfr_string(struct jrd *r, struct jstr *s, struct jsval *v)
{
	unsigned enc = jrd_byte(r);
	uint32_t n, i;

	memset(v, 0, sizeof(*v));
	if (enc == 0)
		return r->bad ? -1 : 0;
	if (enc == 2) {
		v->ref = jrd_long(r);
		v->kind = JS_REF;
		return r->bad ? -1 : 0;
	}
	if (enc > 5)
		return -1;
	n = enc == 1 ? 0 : jrd_int(r);
	if (r->bad || n > (size_t)(r->end - r->p))
		return -1;	/* every encoding takes a byte a unit at least */
	v->off = (uint32_t)s->len;
	if (enc == 3) {
		xappend(&s->b, &s->len, &s->cap, r->p, n);
		r->p += n;
	} else if (enc == 4) {
		utf16(r, s, n);
	} else {
		for (i = 0; i < n; i++)
			put_utf8(s, r->p[i]);	/* Latin-1 */
		r->p += n;
	}
	if (s->len > UINT32_MAX)
		return -1;
	v->len = (uint32_t)(s->len - v->off);
	v->kind = JS_TEXT;
	return r->bad ? -1 : 0;
}

/* Whether metadata string i is lit. */
static int is(const struct jmeta *m, uint32_t i, const char *lit)
{
	size_t n = strlen(lit);

	return i < m->nstr && m->str[i].kind == JS_TEXT && m->str[i].len == n &&
	       memcmp(m->s.b + m->str[i].off, lit, n) == 0;
}

/* Metadata string i as a decimal number (class ids are written so). */
static uint64_t number(const struct jmeta *m, uint32_t i)
{
	uint64_t v = 0;
	uint32_t k;

	if (i >= m->nstr || m->str[i].kind != JS_TEXT)
		return UINT64_MAX;
	for (k = 0; k < m->str[i].len; k++) {
		char c = m->s.b[m->str[i].off + k];

		if (c < '0' || c > '9')
			return UINT64_MAX;
		v = v * 10 + (uint64_t)(c - '0');
	}
	return v;
}

/* The attributes an element may have that the reader keeps. */
struct attrs {
	uint32_t id, name, cls, cp, dim;
};

static int read_attrs(struct jrd *r, const struct jmeta *m, struct attrs *a)
{
	uint32_t n = jrd_int(r), k, v;

	a->id = a->name = a->cls = a->cp = a->dim = UINT32_MAX;
	if (n > (size_t)(r->end - r->p) / 2)
		return -1;
	while (n-- && !r->bad) {
		k = jrd_int(r), v = jrd_int(r);
		if (k >= m->nstr || v >= m->nstr)
			return -1;
		if (is(m, k, "id"))
			a->id = v;
		else if (is(m, k, "name"))
			a->name = v;
		else if (is(m, k, "class"))
			a->cls = v;
		else if (is(m, k, "constantPool"))
			a->cp = v;
		else if (is(m, k, "dimension"))
			a->dim = v;
	}
	return r->bad ? -1 : 0;
}

/* Keeps a "class" or "field" element; cls is the class a field is of.
 * The class's index, or -1. */
static int keep(struct jmeta *m, uint32_t name, const struct attrs *a, int cls)
{
	if (is(m, name, "class") && a->name != UINT32_MAX) {
		struct jclass *c;

		xgrow(&m->c, &m->cap, m->n + 1, sizeof(*m->c));
		c = memset(&m->c[m->n], 0, sizeof(*c));
		c->id = number(m, a->id);
		c->name = a->name;
		return (int)m->n++;
	}
	if (is(m, name, "field") && cls >= 0 && a->name != UINT32_MAX) {
		struct jclass *c = &m->c[cls];
		struct jfield *f;

		xgrow(&c->f, &c->cap, c->nf + 1, sizeof(*c->f));
		f = memset(&c->f[c->nf++], 0, sizeof(*f));
		f->name = a->name;
		f->type = number(m, a->cls);
		f->cp = is(m, a->cp, "true");
		f->array = a->dim != UINT32_MAX && number(m, a->dim) > 0;
		f->cls = -1;
	}
	return -1;
}

/* One element and those under it. */
static int element(struct jrd *r, struct jmeta *m, int cls, int depth)
{
	uint32_t name = jrd_int(r), n;
	struct attrs a;
	int mine;

	if (depth > META_DEPTH || r->bad || name >= m->nstr || read_attrs(r, m, &a) < 0)
		return -1;
	mine = keep(m, name, &a, cls);
	n = jrd_int(r);
	if (n > (size_t)(r->end - r->p) / 3)
		return -1;	/* an element is three numbers at least */
	while (n--)
		if (element(r, m, mine, depth + 1) < 0)
			return -1;
	return r->bad ? -1 : 0;
}

static int by_id(const void *a, const void *b)
{
	const struct jclass *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

int jfr_meta_class(const struct jmeta *m, uint64_t id)
{
	size_t lo = 0, hi = m->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->c[mid].id < id)
			lo = mid + 1;
		else if (m->c[mid].id > id)
			hi = mid;
		else
			return (int)mid;
	}
	return -1;
}

static const char *const prims[] = { "", "boolean", "byte", "char", "short", "int", "long",
				     "float", "double", "java.lang.String" };
static const char *const knowns[JK_N] = {
	"jdk.types.StackTrace", "jdk.types.StackFrame", "jdk.types.Method", "java.lang.Class",
	"jdk.types.Symbol", "jdk.types.FrameType", "java.lang.String", "jdk.ExecutionSample",
	"jdk.NativeMethodSample"
};

/* The fields the reader keeps, by class (JK_*) and field name. */
static const struct { int k; const char *field; int role; } roles[] = {
	{ JK_STACK, "truncated", JR_TRUNC }, { JK_STACK, "frames", JR_FRAMES },
	{ JK_FRAME, "method", JR_METHOD }, { JK_FRAME, "type", JR_FTYPE },
	{ JK_METHOD, "type", JR_CLASS }, { JK_METHOD, "name", JR_NAME },
	{ JK_CLASS, "name", JR_NAME }, { JK_SYMBOL, "string", JR_NAME },
	{ JK_FTYPE, "description", JR_NAME }, { JK_SAMPLE, "stackTrace", JR_STACK },
};

/* Whether a value of class i takes no bytes (no fields, or only inline
 * values of such classes); a class nested in itself is not empty.  Each
 * class is judged once: empty is -1 before, -2 while being judged. */
static int empty(struct jmeta *m, int i)
{
	struct jclass *c = &m->c[i];
	size_t k;

	if (c->empty >= 0)
		return c->empty;
	if (c->empty == -2)
		return 0;
	c->empty = -2;
	for (k = 0; k < c->nf; k++)
		if (c->f[k].cp || c->f[k].array || c->f[k].cls < 0 || !empty(m, c->f[k].cls))
			break;
	c->empty = !c->prim && k == c->nf;
	return c->empty;
}

/* Sorts the classes, links each field to its class, and marks the
 * primitive, known and empty ones and the fields the reader keeps. */
static void resolve(struct jmeta *m)
{
	size_t i, k, p, q;

	if (m->n)
		qsort(m->c, m->n, sizeof(*m->c), by_id);
	for (k = 0; k < JK_N; k++)
		m->known[k] = -1;
	for (i = 0; i < m->n; i++) {
		struct jclass *c = &m->c[i];

		for (p = 1; p < sizeof(prims) / sizeof(*prims); p++)
			if (is(m, c->name, prims[p]))
				c->prim = (int)p;
		for (k = 0; k < JK_N; k++)
			if (is(m, c->name, knowns[k]) && m->known[k] < 0)
				m->known[k] = (int)i;
		for (p = 0; p < c->nf; p++)
			c->f[p].cls = jfr_meta_class(m, c->f[p].type);
		c->empty = -1;
	}
	for (q = 0; q < sizeof(roles) / sizeof(*roles); q++) {
		int ci = m->known[roles[q].k];

		for (p = 0; ci >= 0 && p < m->c[ci].nf; p++)
			if (is(m, m->c[ci].f[p].name, roles[q].field))
				m->c[ci].f[p].role = (uint8_t)roles[q].role;
	}
	for (i = 0; i < m->n; i++)
		empty(m, (int)i);
}

int jfr_meta_read(struct jrd *r, struct jmeta *m, char *err, size_t errlen)
{
	uint32_t n, i;

	jrd_long(r), jrd_long(r), jrd_long(r);	/* start, duration, id */
	n = jrd_int(r);
	if (r->bad || n > (size_t)(r->end - r->p)) {
		snprintf(err, errlen, "the metadata's string table is cut off; the chunk is skipped");
		return -1;
	}
	m->str = xcalloc(n ? n : 1, sizeof(*m->str));
	for (i = 0; i < n; i++)
		if (jfr_string(r, &m->s, &m->str[i]) < 0) {
			snprintf(err, errlen, "the metadata's string %u cannot be read; the chunk is skipped", i);
			return -1;
		}
	m->nstr = n;
	if (element(r, m, -1, 0) < 0) {
		snprintf(err, errlen, "the metadata's type descriptions cannot be read; the chunk is skipped");
		return -1;
	}
	resolve(m);
	return 0;
}

void jfr_meta_free(struct jmeta *m)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		free(m->c[i].f);
	free(m->c);
	free(m->s.b);
	free(m->str);
	memset(m, 0, sizeof(*m));
}
