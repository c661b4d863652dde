/* dtrace: the collapser.  Frames come leaf first and are written right to
 * left into one buffer, so a finished stack is already in order: one copy
 * of each byte, then one lookup in the table. */
#include "dtrace.h"
#include "folded.h"
#include "rustsym.h"
#include "strtab.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct dtrace {
	struct dtrace_opts o;		/* options */
	struct strtab *t;		/* stacks out */
	struct fseq *seq;		/* input order, or NULL */
	collect_warn_fn *warn;		/* messages */
	void *ctx;			/* for warn */
	const char *name;		/* the input */
	int in_header;			/* before the first blank line */
	char *buf;			/* the stack so far, in buf[at, cap) */
	size_t at;			/* where it starts */
	size_t cap;			/* buf's size */
	size_t nframes;			/* frames in it */
	unsigned long first;		/* line of its leaf */
	char *tmp;			/* a frame being tidied */
	size_t tmpcap;			/* its room */
	struct dtrace_stats st;		/* counters */
};

/* What a frame line holds, for the tidying it needs. */
enum { HAS_INLINE = 1, HAS_CPP = 2, HAS_SEMI = 4 };

struct dtrace *dtrace_new(const struct dtrace_opts *o, struct strtab *t, struct fseq *seq,
			  collect_warn_fn *warn, void *ctx, const char *name)
{
	struct dtrace *d = xcalloc(1, sizeof(*d));

	if (o)
		d->o = *o;
	d->t = t;
	d->seq = seq;
	d->warn = warn;
	d->ctx = ctx;
	d->name = name;
	d->in_header = 1;
	d->cap = 4096;
	d->buf = xmalloc(d->cap);
	d->at = d->cap;
	return d;
}

void dtrace_free(struct dtrace *d)
{
	if (!d)
		return;
	free(d->buf);
	free(d->tmp);
	free(d);
}

const struct dtrace_stats *dtrace_stats(const struct dtrace *d)
{
	return &d->st;
}

static int is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

/* Room for n bytes before the stack, a ';' between them and it: fill it. */
static char *room(struct dtrace *d, size_t n)
{
	size_t need = n + (d->nframes > 0), used = d->cap - d->at;

	if (d->at < need) {
		size_t cap = d->cap;
		char *b;

		if (need > SIZE_MAX / 2 - cap)
			xalloc_fail(SIZE_MAX);
		cap = 2 * cap + need;
		b = xmalloc(cap);
		memcpy(b + cap - used, d->buf + d->at, used);
		free(d->buf);
		d->buf = b;
		d->at = cap - used;
		d->cap = cap;
	}
	if (d->nframes > 0)
		d->buf[--d->at] = ';';
	d->at -= n;
	d->nframes++;
	return d->buf + d->at;
}

/* Where a "+0x1f" offset starts (the last '+'), or n. */
static size_t offset_at(const char *s, size_t n)
{
	const char *p = s + n;

	while (p > s)
		if (*--p == '+')
			return (size_t)(p - s);
	return n;
}

/* The bytes scan looks at; all others pass in one test. */
static const unsigned char special[256] = {
	['+'] = 1, [':'] = 1, [';'] = 1, ['>'] = 1,
};

/* The flags of s, and its length without the offset (default mode). */
static unsigned scan(const char *s, size_t *n)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned f = 0;
	size_t i, plus = *n;

	for (i = 0; i < *n; i++) {
		if (!special[u[i]])
			continue;
		if (u[i] == '+')
			plus = i;
		else if (u[i] == ';')
			f |= HAS_SEMI;
		else if (i > 0 && u[i] == '>' && u[i - 1] == '-')
			f |= HAS_INLINE;
		else if (i > 0 && u[i] == ':' && u[i - 1] == ':')
			f |= HAS_CPP;
	}
	*n = plus;
	return f;
}

/* "ns::f(int)" -> "ns::f": from the first "::", cut at the last '(' or '<'. */
static size_t uncpp(const char *s, size_t n)
{
	size_t i, scope = n, cut = n;

	for (i = 1; i < n; i++)
		if (s[i] == ':' && s[i - 1] == ':') {
			scope = i + 1;
			break;
		}
	for (i = scope; i < n; i++)
		if (s[i] == '(' || s[i] == '<')
			cut = i;
	return cut;
}

/* The frame with its Rust symbol finished ("module`sym::h0123..."), in
 * d->tmp, or s itself. */
static const char *rust(struct dtrace *d, const char *s, size_t *n)
{
	const char *bt = memchr(s, '`', *n), *fn, *end = s + *n, *plus = end;
	size_t pre, len;

	if (!bt)
		return s;
	fn = bt + 1;
	if (d->o.includeoffset) {
		/* "module`sym+0x1f": the symbol is what comes before the offset. */
		for (plus = end; plus > fn && plus[-1] != '+'; plus--)
			;
		plus = plus > fn ? plus - 1 : end;
	}
	for (len = (size_t)(plus - fn); len > 0 && is_ws(fn[len - 1]); len--)
		;
	if (len < 17 || fn[len - 17] != 'h')
		return s;	/* the common case, quickly */
	pre = (size_t)(fn - s);
	xgrow(&d->tmp, &d->tmpcap, *n + 1, 1);
	if ((len = rustsym_fix(fn, len, d->tmp + pre)) == (size_t)-1)
		return s;
	memcpy(d->tmp, s, pre);
	memcpy(d->tmp + pre + len, plus, (size_t)(end - plus));
	*n = pre + len + (size_t)(end - plus);
	return d->tmp;
}

/* Puts one frame (of a line's "a->b->c") before the stack: a leading 'L'
 * (a Java class descriptor's) dropped when strip, "_[i]" after an inlined
 * one, ';' (Java's descriptor end) made ':' when semi.  With offsets kept,
 * the leaf loses its own. */
static void piece(struct dtrace *d, const char *s, size_t n, int strip, int inl, int semi)
{
	size_t cut, i;
	char *p;

	while (strip && n > 0 && *s == 'L')
		s++, n--;
	if (d->o.includeoffset && d->nframes == 0 && (cut = offset_at(s, n)) < n) {
		n = cut;	/* the mark goes with the offset, as in inferno */
		inl = 0;
	}
	p = room(d, n + (inl ? 4 : 0));
	memcpy(p, s, n);
	if (inl)
		memcpy(p + n, "_[i]", 4);
	if (semi)
		for (i = 0; i < n; i++)
			if (p[i] == ';')
				p[i] = ':';
}

/* "a->b->c": pieces right to left, as the stack is built leaf first. */
static void inlined(struct dtrace *d, const char *s, size_t n, int semi)
{
	size_t end = n, i = n;

	while (i >= 2) {
		if (s[i - 1] == '>' && s[i - 2] == '-') {
			piece(d, s + i, end - i, 1, 1, semi);
			end = i - 2;
			i = end;
		} else {
			i--;
		}
	}
	piece(d, s, end, 1, 0, semi);
}

/* A frame line (trimmed, n bytes). */
static void frame(struct dtrace *d, const char *s, size_t n)
{
	unsigned f = HAS_INLINE | HAS_CPP | HAS_SEMI;

	if (!d->o.includeoffset)
		f = scan(s, &n);
	if (f & HAS_CPP)
		n = uncpp(s, n);
	if (n == 0) {
		s = "-";
		n = 1;
	} else {
		s = rust(d, s, &n);
	}
	if (f & HAS_INLINE)
		inlined(d, s, n, (f & HAS_SEMI) != 0);
	else
		piece(d, s, n, 0, 0, (f & HAS_SEMI) != 0);
}

/* A count line: digits (an optional '+' first), fitting 64 bits. */
static int count_of(const char *s, size_t n, uint64_t *v)
{
	size_t i = n > 1 && s[0] == '+';

	if (i == n)
		return 0;
	for (*v = 0; i < n; i++) {
		unsigned dg = (unsigned char)s[i] - '0';

		if (dg > 9 || *v > (UINT64_MAX - dg) / 10)
			return 0;
		*v = *v * 10 + dg;
	}
	return 1;
}

static void end_stack(struct dtrace *d, uint64_t count, unsigned long lineno)
{
	struct fcount c = { count, 0 };
	const char *s = d->buf + d->at;
	size_t n = d->cap - d->at;

	if (d->nframes == 0) {
		/* inferno writes " N", a line flamegraph cannot read. */
		if (d->st.empty++ == 0)
			d->warn(d->ctx, d->name, lineno, "a count without a stack (skipped)");
		return;
	}
	fseq_put(d->t, d->seq, s, n, &c);
	d->st.stacks++;
	d->at = d->cap;
	d->nframes = 0;
}

int dtrace_line(struct dtrace *d, const char *s, size_t n, unsigned long lineno)
{
	uint64_t count;

	while (n > 0 && is_ws(s[n - 1]))
		n--;
	while (n > 0 && is_ws(*s))
		s++, n--;
	if (d->in_header) {
		d->in_header = n > 0;
		return 0;
	}
	if (n == 0)
		return 0;
	if (count_of(s, n, &count)) {
		end_stack(d, count, lineno);
		return 0;
	}
	if (d->nframes == 0)
		d->first = lineno;
	frame(d, s, n);
	return 0;
}

int dtrace_end(struct dtrace *d)
{
	char msg[160];

	if (d->st.empty > 1) {
		snprintf(msg, sizeof(msg), "skipped %llu counts without a stack",
			 (unsigned long long)d->st.empty);
		d->warn(d->ctx, d->name, 0, msg);
	}
	if (d->in_header) {
		d->warn(d->ctx, d->name, 0, "the input ended in its header (DTrace output has a "
			"blank line before its stacks)");
		return 0;
	}
	if (d->nframes == 0)
		return 0;
	snprintf(msg, sizeof(msg), "the input ends in the middle of a stack (%zu frames from line "
		 "%lu have no count; dropped)", d->nframes, d->first);
	d->warn(d->ctx, d->name, 0, msg);
	d->at = d->cap;
	d->nframes = 0;
	return 1;
}
