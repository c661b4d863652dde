/* pickle: a stack machine over the opcodes LNT's profiles use.  Each
 * opcode is one byte; protocol 0 opcodes take a line argument ("I42\n",
 * "S'fn1'\n"), binary ones fixed-size little-endian fields.  MARK opens a
 * group on the stack that LIST, DICT, TUPLE, APPENDS and SETITEMS close.
 * The memo (PUT, GET, MEMOIZE) shares values, so the values form a graph
 * (even a cyclic one): they are kept in one list and freed from it. */
#include "pickle.h"
#include "xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pickle {
	const unsigned char *p;		/* the pickle */
	size_t n;			/* its bytes */
	size_t pos;			/* next byte */
	size_t op;			/* where the opcode being run starts */
	struct pk **all;		/* every value made */
	size_t nall, capall;		/* how many, room */
	struct pk **st;			/* the stack */
	size_t nst, capst;		/* its depth, room */
	size_t marks[PICKLE_MAX_DEPTH];	/* stack depth at each open MARK */
	int nmarks;			/* how many are open */
	struct pk **memo;		/* memo by id (NULL: unset) */
	size_t capmemo;			/* ids it has room for */
	size_t nmemo;			/* ids set, for MEMOIZE */
	char *err;			/* message... */
	size_t errlen;			/* ...of at most this size */
};

static int fail(struct pickle *k, const char *what)
{
	snprintf(k->err, k->errlen, "%s at byte %zu of the pickle", what, k->op);
	return -1;
}

static struct pk *node(struct pickle *k, enum pk_kind kind)
{
	struct pk *v = xcalloc(1, sizeof(*v));

	v->kind = kind;
	xgrow(&k->all, &k->capall, k->nall + 1, sizeof(*k->all));
	k->all[k->nall++] = v;
	return v;
}

static void push(struct pickle *k, struct pk *v)
{
	xgrow(&k->st, &k->capst, k->nst + 1, sizeof(*k->st));
	k->st[k->nst++] = v;
}

/* The top value (not a MARK), or NULL after failing. */
static struct pk *top(struct pickle *k)
{
	if (k->nst == 0 || (k->nmarks && k->marks[k->nmarks - 1] == k->nst)) {
		fail(k, "pickle stack underflow");
		return NULL;
	}
	return k->st[k->nst - 1];
}

static struct pk *pop(struct pickle *k)
{
	struct pk *v = top(k);

	if (v)
		k->nst--;
	return v;
}

static void seq_add(struct pk *s, struct pk *v)
{
	xgrow(&s->v, &s->cap, s->n + 1, sizeof(*s->v));
	s->v[s->n++] = v;
}

/* The bytes up to the next newline (dropped), for text opcodes. */
static int line(struct pickle *k, const char **s, size_t *len)
{
	const unsigned char *nl = memchr(k->p + k->pos, '\n', k->n - k->pos);

	if (!nl)
		return fail(k, "truncated pickle: no end of line");
	*s = (const char *)k->p + k->pos;
	*len = (size_t)(nl - (k->p + k->pos));
	k->pos += *len + 1;
	return 0;
}

/* n bytes of argument at *s. */
static int take(struct pickle *k, size_t n, const unsigned char **s)
{
	if (n > k->n - k->pos)
		return fail(k, "truncated pickle");
	*s = k->p + k->pos;
	k->pos += n;
	return 0;
}

static uint64_t le(const unsigned char *s, int n)
{
	uint64_t v = 0;

	while (n-- > 0)
		v = (v << 8) | s[n];
	return v;
}

static struct pk *str_node(struct pickle *k, const char *s, size_t n)
{
	struct pk *v = node(k, PK_STR);

	v->s = xstrndup(s, n);
	v->n = n;
	return v;
}

/* INT ("I42", "I01" is True) and LONG ("L42L") lines. */
static int op_text_int(struct pickle *k, int c)
{
	const char *s;
	size_t len, i = 0;
	struct pk *v;

	if (line(k, &s, &len) < 0)
		return -1;
	if (c == 'I' && len == 2 && s[0] == '0' && (s[1] == '0' || s[1] == '1')) {
		v = node(k, PK_BOOL);
		v->u = s[1] == '1';
		push(k, v);
		return 0;
	}
	if (c == 'L' && len && s[len - 1] == 'L')
		len--;
	v = node(k, PK_INT);
	if (len && (s[0] == '-' || s[0] == '+'))
		v->neg = s[i++] == '-';
	if (i == len)
		return fail(k, "bad pickle integer");
	for (; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return fail(k, "bad pickle integer");
		if (v->u > (UINT64_MAX - 9) / 10)
			return fail(k, "pickle integer out of range");
		v->u = v->u * 10 + (uint64_t)(s[i] - '0');
	}
	push(k, v);
	return 0;
}

/* FLOAT: repr text ("45.0", "1e-05", "inf"). */
static int op_text_float(struct pickle *k)
{
	char buf[64], *end;
	const char *s;
	size_t len;
	struct pk *v;

	if (line(k, &s, &len) < 0)
		return -1;
	if (len == 0 || len >= sizeof(buf))
		return fail(k, "bad pickle float");
	memcpy(buf, s, len);
	buf[len] = '\0';
	v = node(k, PK_FLOAT);
	v->f = strtod(buf, &end);
	if (*end)
		return fail(k, "bad pickle float");
	push(k, v);
	return 0;
}

/* Appends code point c as UTF-8 (surrogates and beyond U+10FFFF become
 * U+FFFD) to b at *o (room for 4 more bytes). */
static void utf8(char *b, size_t *o, unsigned long c)
{
	if ((c >= 0xd800 && c < 0xe000) || c > 0x10ffff)
		c = 0xfffd;
	if (c < 0x80) {
		b[(*o)++] = (char)c;
	} else if (c < 0x800) {
		b[(*o)++] = (char)(0xc0 | (c >> 6));
		b[(*o)++] = (char)(0x80 | (c & 0x3f));
	} else if (c < 0x10000) {
		b[(*o)++] = (char)(0xe0 | (c >> 12));
		b[(*o)++] = (char)(0x80 | ((c >> 6) & 0x3f));
		b[(*o)++] = (char)(0x80 | (c & 0x3f));
	} else {
		b[(*o)++] = (char)(0xf0 | (c >> 18));
		b[(*o)++] = (char)(0x80 | ((c >> 12) & 0x3f));
		b[(*o)++] = (char)(0x80 | ((c >> 6) & 0x3f));
		b[(*o)++] = (char)(0x80 | (c & 0x3f));
	}
}

/* The value of n hex digits at s, or -1. */
static long hex(const char *s, size_t n)
{
	unsigned long v = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		int c = s[i], d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
			c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;

		if (d < 0)
			return -1;
		v = v * 16 + (unsigned long)d;
	}
	return (long)v;
}

/* One escape of a STRING's repr at s[*i] (after the backslash), onto b. */
static void unescape(const char *s, size_t len, size_t *i, char *b, size_t *o)
{
	static const char from[] = "abfnrtv\\'\"", to[] = "\a\b\f\n\r\t\v\\'\"";
	const char *e = *i < len ? strchr(from, s[*i]) : NULL;
	long x;
	int d;

	if (e && *e) {
		b[(*o)++] = to[e - from];
		(*i)++;
	} else if (*i + 2 < len && s[*i] == 'x' && (x = hex(s + *i + 1, 2)) >= 0) {
		b[(*o)++] = (char)x;
		*i += 3;
	} else if (*i < len && s[*i] >= '0' && s[*i] <= '7') {
		for (x = 0, d = 0; d < 3 && *i < len && s[*i] >= '0' && s[*i] <= '7'; d++)
			x = x * 8 + (s[(*i)++] - '0');
		b[(*o)++] = (char)x;
	} else {
		b[(*o)++] = '\\';	/* unknown escapes stay as they are */
	}
}

/* STRING: a quoted repr with escapes ('fn1', "it's"). */
static int op_string(struct pickle *k)
{
	const char *s;
	size_t len, i, o = 0;
	char *b;

	if (line(k, &s, &len) < 0)
		return -1;
	if (len < 2 || (s[0] != '\'' && s[0] != '"') || s[len - 1] != s[0])
		return fail(k, "bad pickle string quotes");
	b = xmalloc(len);
	for (i = 1; i < len - 1;)
		if (s[i] == '\\' && i + 1 < len - 1) {
			i++;
			unescape(s, len - 1, &i, b, &o);
		} else {
			b[o++] = s[i++];
		}
	push(k, str_node(k, b, o));
	free(b);
	return 0;
}

/* UNICODE: raw-unicode-escape: bytes are Latin-1 code points, but for
 * \uXXXX and \UXXXXXXXX. */
static int op_unicode(struct pickle *k)
{
	const char *s;
	size_t len, i, o = 0;
	long c;
	char *b;

	if (line(k, &s, &len) < 0)
		return -1;
	b = xmalloc(len * 4 + 1);
	for (i = 0; i < len; i++) {
		int w = i + 1 < len && s[i] == '\\' ? s[i + 1] == 'u' ? 4 : s[i + 1] == 'U' ? 8 : 0 : 0;

		if (w && i + 2 + (size_t)w <= len && (c = hex(s + i + 2, (size_t)w)) >= 0) {
			utf8(b, &o, (unsigned long)c);
			i += 1 + (size_t)w;
		} else {
			utf8(b, &o, (unsigned char)s[i]);
		}
	}
	push(k, str_node(k, b, o));
	free(b);
	return 0;
}

/* BININT (int32), BININT1 (uint8), BININT2 (uint16), LONG1 (n bytes,
 * two's complement), BINFLOAT (big-endian double). */
static int op_bin_number(struct pickle *k, int c)
{
	const unsigned char *s, *w;
	int size = c == 'J' ? 4 : c == 'K' ? 1 : c == 'M' ? 2 : 8;
	struct pk *v;
	uint64_t x;

	if (c == 0x8a) {
		if (take(k, 1, &s) < 0)
			return -1;
		if ((size = s[0]) > 8)
			return fail(k, "pickle integer out of range");
	}
	if (take(k, (size_t)size, &w) < 0)
		return -1;
	v = node(k, c == 'G' ? PK_FLOAT : PK_INT);
	if (c == 'G') {
		for (x = 0; size > 0; size--)
			x = (x << 8) | *w++;
		memcpy(&v->f, &x, sizeof(x));
	} else {
		x = le(w, size);
		/* BININT and LONG1 are signed: sign-extend their top bit. */
		if ((c == 'J' || c == 0x8a) && size && (w[size - 1] & 0x80)) {
			x = size < 8 ? x | (~(uint64_t)0 << (8 * size)) : x;
			v->neg = 1;
			x = ~x + 1;
		}
		v->u = c == 'J' && !v->neg ? (uint32_t)x : x;
	}
	push(k, v);
	return 0;
}

/* Length-prefixed strings and bytes: BINSTRING, SHORT_BINSTRING,
 * BINUNICODE, SHORT_BINUNICODE, BINUNICODE8, BINBYTES, SHORT_BINBYTES,
 * BINBYTES8. */
static int op_bin_string(struct pickle *k, int c)
{
	int w = c == 'U' || c == 'C' || c == 0x8c ? 1 : c == 0x8d || c == 0x8e ? 8 : 4;
	const unsigned char *s;
	uint64_t n;

	if (take(k, (size_t)w, &s) < 0)
		return -1;
	n = le(s, w);
	if (c == 'T' && (s[3] & 0x80))
		return fail(k, "negative pickle string length");
	if (n > k->n - k->pos)
		return fail(k, "truncated pickle: string runs past the end");
	if (take(k, (size_t)n, &s) < 0)
		return -1;
	push(k, str_node(k, (const char *)s, (size_t)n));
	return 0;
}

/* PUT, BINPUT, LONG_BINPUT, MEMOIZE; GET, BINGET, LONG_BINGET.  A valid
 * pickle has fewer memo ids than bytes, which bounds the memo. */
static int op_memo(struct pickle *k, int c)
{
	const char *s;
	const unsigned char *b;
	size_t len, i;
	uint64_t id = 0;

	if (c == 'p' || c == 'g') {
		if (line(k, &s, &len) < 0)
			return -1;
		for (i = 0; i < len && id <= k->n; i++)
			id = s[i] >= '0' && s[i] <= '9' ? id * 10 + (uint64_t)(s[i] - '0') : UINT64_MAX;
		if (len == 0)
			id = UINT64_MAX;
	} else if (c == (int)0x94) {
		id = k->nmemo;
	} else {
		len = c == 'h' || c == 'q' ? 1 : 4;
		if (take(k, len, &b) < 0)
			return -1;
		id = le(b, (int)len);
	}
	if (id >= k->n)
		return fail(k, "pickle memo id out of range");
	if (c == 'g' || c == 'h' || c == 'j') {
		if (id >= k->capmemo || !k->memo[id])
			return fail(k, "pickle memo id not set");
		push(k, k->memo[id]);
		return 0;
	}
	if (!top(k))
		return -1;
	if (id >= k->capmemo) {
		size_t old = k->capmemo;

		xgrow(&k->memo, &k->capmemo, (size_t)id + 1, sizeof(*k->memo));
		memset(k->memo + old, 0, (k->capmemo - old) * sizeof(*k->memo));
	}
	k->nmemo += !k->memo[id];
	k->memo[id] = top(k);
	return 0;
}

/* Closes the innermost MARK: its values are st[*from, nst). */
static int close_mark(struct pickle *k, size_t *from)
{
	if (k->nmarks == 0)
		return fail(k, "pickle has no MARK to close");
	*from = k->marks[--k->nmarks];
	return 0;
}

/* Adds the values st[from, nst) to list or dict s (pairs for a dict),
 * and takes them off the stack. */
static int fill(struct pickle *k, struct pk *s, enum pk_kind kind, size_t from)
{
	size_t i;

	if (!s || s->kind != kind)
		return fail(k, kind == PK_DICT ? "pickle SETITEM on a value that is not a dict"
				       : "pickle APPEND on a value that is not a list");
	if (kind == PK_DICT && (k->nst - from) % 2)
		return fail(k, "pickle dict with a key and no value");
	for (i = from; i < k->nst; i++)
		seq_add(s, k->st[i]);
	k->nst = from;
	return 0;
}

/* The opcodes that make and fill lists, tuples and dicts. */
static int op_build(struct pickle *k, int c)
{
	size_t from = k->nst;
	struct pk *v;

	switch (c) {
	case 'l': case 't': case 'd':
		if (close_mark(k, &from) < 0)
			return -1;
		v = node(k, c == 'd' ? PK_DICT : PK_LIST);
		if (fill(k, v, v->kind, from) < 0)
			return -1;
		push(k, v);
		return 0;
	case ']': case ')': case '}':
		push(k, node(k, c == '}' ? PK_DICT : PK_LIST));
		return 0;
	case 0x85: case 0x86: case 0x87:
		if (k->nst < (size_t)(c - 0x84) ||
		    (k->nmarks && k->marks[k->nmarks - 1] > k->nst - (size_t)(c - 0x84)))
			return fail(k, "pickle stack underflow");
		v = node(k, PK_LIST);
		fill(k, v, PK_LIST, k->nst - (size_t)(c - 0x84));
		push(k, v);
		return 0;
	case 'a': case 's':
		from = k->nst - (c == 'a' ? 1 : 2);
		if (k->nst < (c == 'a' ? 2u : 3u) ||
		    (k->nmarks && k->marks[k->nmarks - 1] > from - 1))
			return fail(k, "pickle stack underflow");
		return fill(k, k->st[from - 1], c == 'a' ? PK_LIST : PK_DICT, from);
	default:	/* 'e' APPENDS, 'u' SETITEMS */
		if (close_mark(k, &from) < 0)
			return -1;
		if (from == 0 || (k->nmarks && k->marks[k->nmarks - 1] == from))
			return fail(k, "pickle stack underflow");
		return fill(k, k->st[from - 1], c == 'e' ? PK_LIST : PK_DICT, from);
	}
}

/* MARK, POP, POP_MARK, DUP, None, True, False. */
static int op_stack(struct pickle *k, int c)
{
	struct pk *v;
	size_t from;

	switch (c) {
	case '(':
		if (k->nmarks == PICKLE_MAX_DEPTH)
			return fail(k, "pickle nested too deep (more than 64 levels)");
		k->marks[k->nmarks++] = k->nst;
		return 0;
	case '0':
		if (k->nmarks && k->marks[k->nmarks - 1] == k->nst) {
			k->nmarks--;
			return 0;
		}
		return pop(k) ? 0 : -1;
	case '1':
		if (close_mark(k, &from) < 0)
			return -1;
		k->nst = from;
		return 0;
	case '2':
		if (!(v = top(k)))
			return -1;
		push(k, v);
		return 0;
	default:
		v = node(k, c == 'N' ? PK_NONE : PK_BOOL);
		v->u = c == 0x88;
		push(k, v);
		return 0;
	}
}

/* Runs one opcode.  Returns 0, 1 at STOP, or -1. */
static int step(struct pickle *k)
{
	const unsigned char *skip;
	char what[64];
	int c;

	k->op = k->pos;
	if (k->pos >= k->n)
		return fail(k, "truncated pickle: no STOP");
	if (k->nall >= PICKLE_MAX_VALUES)	/* an opcode makes one at most */
		return fail(k, "pickle with more than 16777216 values: refused");
	c = k->p[k->pos++];
	switch (c) {
	case '.': return 1;
	case 'I': case 'L': return op_text_int(k, c);
	case 'F': return op_text_float(k);
	case 'S': return op_string(k);
	case 'V': return op_unicode(k);
	case 'J': case 'K': case 'M': case 'G': case 0x8a: return op_bin_number(k, c);
	case 'T': case 'U': case 'X': case 'B': case 'C': case 0x8c: case 0x8d: case 0x8e:
		return op_bin_string(k, c);
	case 'p': case 'g': case 'h': case 'j': case 'q': case 'r': case 0x94:
		return op_memo(k, c);
	case 'l': case 't': case 'd': case ']': case ')': case '}': case 'a': case 's':
	case 'e': case 'u': case 0x85: case 0x86: case 0x87:
		return op_build(k, c);
	case '(': case '0': case '1': case '2': case 'N': case 0x88: case 0x89:
		return op_stack(k, c);
	case 0x80: return take(k, 1, &skip);		/* PROTO n */
	case 0x95: return take(k, 8, &skip);		/* FRAME size: a hint */
	default:
		if (c >= 0x20 && c < 0x7f)
			snprintf(what, sizeof(what), "unsupported pickle opcode '%c'", c);
		else
			snprintf(what, sizeof(what), "unsupported pickle opcode 0x%02x", (unsigned)c);
		return fail(k, what);
	}
}

struct pickle *pickle_load(const unsigned char *p, size_t n, const struct pk **root, char *err,
			   size_t errlen)
{
	struct pickle *k = xcalloc(1, sizeof(*k));
	int rc;

	k->p = p;
	k->n = n;
	k->err = err;
	k->errlen = errlen;
	while ((rc = step(k)) == 0)
		;
	if (rc > 0 && (k->nst != 1 || k->nmarks)) {
		fail(k, "pickle does not end with one value");
		rc = -1;
	}
	*root = rc > 0 ? k->st[0] : NULL;
	free(k->st);
	free(k->memo);
	k->st = NULL;
	k->memo = NULL;
	if (rc < 0) {
		pickle_free(k);
		return NULL;
	}
	return k;
}

void pickle_free(struct pickle *k)
{
	size_t i;

	if (!k)
		return;
	for (i = 0; i < k->nall; i++) {
		if (k->all[i]->kind == PK_STR)
			free(k->all[i]->s);
		else if (k->all[i]->kind == PK_LIST || k->all[i]->kind == PK_DICT)
			free(k->all[i]->v);
		free(k->all[i]);
	}
	free(k->all);
	free(k->st);
	free(k->memo);
	free(k);
}

const struct pk *pk_get(const struct pk *d, const char *key)
{
	size_t i, len = strlen(key);

	if (!d || d->kind != PK_DICT)
		return NULL;
	for (i = d->n; i >= 2; i -= 2) {
		const struct pk *kv = d->v[i - 2];

		if (kv->kind == PK_STR && kv->n == len && memcmp(kv->s, key, len) == 0)
			return d->v[i - 1];
	}
	return NULL;
}

int pk_number(const struct pk *v, double *out)
{
	if (v && v->kind == PK_FLOAT)
		*out = v->f;
	else if (v && (v->kind == PK_INT || v->kind == PK_BOOL))
		*out = v->neg ? -(double)v->u : (double)v->u;
	else
		return -1;
	return 0;
}

size_t pickle_values(const struct pickle *k)
{
	return k->nall;
}
