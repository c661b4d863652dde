/* dtrace: the collapser.  Frames come leaf first and are written right to
 * left into one buffer, so a finished stack is already in order: one copy
 * of each byte, then one lookup in the table. */
#include "dtrace.h"
#include "folded.h"
#include "rustsym.h"
#include "strtab.h"
#include "xalloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

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
	struct rustsym_cache *rc;	/* Rust symbols fixed lately */
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
	d->rc = rustsym_cache_new();
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
	rustsym_cache_free(d->rc);
	free(d);
}

const struct dtrace_stats *dtrace_stats(const struct dtrace *d)
{
	return &d->st;
}

/* ' ', '\t', '\n', '\v', '\f' or '\r': a bit each in one word. */
static int is_ws(char c)
{
	unsigned char u = (unsigned char)c;

	return u <= ' ' && ((0x100003e00ULL >> u) & 1);
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

/* The bytes scan stops at; all others pass in one test. */
static const unsigned char special[256] = {
	['+'] = 1, [':'] = 1, [';'] = 1, ['>'] = 1, ['`'] = 1, ['\n'] = 1, ['('] = 1, ['<'] = 1,
};

/* A frame line's bytes, read once: where it ends and what it holds. */
struct scanned {
	size_t n;		/* its length up to the line end ('\n' or end) */
	size_t plus;		/* where its last '+' is, or n: none */
	size_t bt;		/* where its first '`' is, or n: none */
	size_t scope;		/* where its first "::" ends, or SIZE_MAX: none */
	size_t cut;		/* where its last '(' or '<' is, or SIZE_MAX */
	unsigned f;		/* HAS_* */
};

/* Notes the special byte at s[i] in sc; 1 when it ends the line. */
static inline int note(const char *s, size_t i, struct scanned *sc)
{
	switch (s[i]) {
	case '\n': return 1;
	case '+': sc->plus = i; break;
	case '`': sc->bt = sc->bt == SIZE_MAX ? i : sc->bt; break;
	case ';': sc->f |= HAS_SEMI; break;
	case '(': sc->cut = i; break;
	case '<': sc->cut = i; break;
	case '>': sc->f |= i > 0 && s[i - 1] == '-' ? HAS_INLINE : 0; break;
	default:
		if (i > 0 && s[i - 1] == ':' && !(sc->f & HAS_CPP)) {
			sc->f |= HAS_CPP;
			sc->scope = i + 1;
		}
		break;
	}
	return 0;
}

#ifdef __SSE2__
/* Which of the 16 bytes at s are special, a bit each. */
static inline unsigned specials16(const char *s)
{
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)s), m;

	m = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('+')), _mm_cmpeq_epi8(v, _mm_set1_epi8(':')));
	m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8(';')));
	m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('>')));
	m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('`')));
	m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('\n')));
	m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('(')));
	m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('<')));
	return (unsigned)_mm_movemask_epi8(m);
}
#endif

/* Reads the frame line at s, up to its '\n' or n bytes: 16 bytes at a
 * time where SSE2 is there, only the special ones looked at one by one. */
static void scan(const char *s, size_t n, struct scanned *sc)
{
	size_t i = 0;

	sc->plus = sc->bt = sc->scope = sc->cut = SIZE_MAX;
	sc->f = 0;
#ifdef __SSE2__
	for (; i + 16 <= n; i += 16) {
		unsigned m = specials16(s + i);

		for (; m; m &= m - 1)
			if (note(s, i + (size_t)__builtin_ctz(m), sc)) {
				i += (size_t)__builtin_ctz(m);
				goto done;
			}
	}
#endif
	for (; i < n; i++)
		if (special[(unsigned char)s[i]] && note(s, i, sc))
			break;
#ifdef __SSE2__
done:
#endif
	sc->n = i;
	sc->plus = sc->plus == SIZE_MAX ? i : sc->plus;
	sc->bt = sc->bt == SIZE_MAX ? i : sc->bt;
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
 * d->tmp, or s itself; bt: where its first '`' is, or NULL: none. */
static const char *rust(struct dtrace *d, const char *s, size_t *n, const char *bt)
{
	const char *fn, *end = s + *n, *plus = end, *fixed;
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
	if ((len = rustsym_cached(d->rc, fn, len, &fixed)) == (size_t)-1)
		return s;
	xgrow(&d->tmp, &d->tmpcap, *n + 1, 1);
	memcpy(d->tmp + pre, fixed, len);
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

/* A frame line (trimmed, n bytes) as sc read it, or (sc NULL) to be
 * read here. */
static void frame(struct dtrace *d, const char *s, size_t n, const struct scanned *sc)
{
	unsigned f = HAS_INLINE | HAS_CPP | HAS_SEMI;
	const char *bt = NULL;
	struct scanned own;

	if (!d->o.includeoffset) {
		if (!sc) {
			scan(s, n, &own);
			sc = &own;
		}
		f = sc->f;
		bt = sc->bt < sc->plus ? s + sc->bt : NULL;
		n = sc->plus;
	} else {
		bt = memchr(s, '`', n);
	}
	if ((f & HAS_CPP) && sc && sc->cut < n)
		n = sc->cut >= sc->scope ? sc->cut : n;	/* the last '(' or '<' before n */
	else if ((f & HAS_CPP) && (!sc || sc->cut != SIZE_MAX))
		n = uncpp(s, n);
	if (n == 0) {
		s = "-";
		n = 1;
	} else {
		s = rust(d, s, &n, bt && bt < s + n ? bt : NULL);
	}
	if (f & HAS_INLINE)
		inlined(d, s, n, (f & HAS_SEMI) != 0);
	else
		piece(d, s, n, 0, 0, (f & HAS_SEMI) != 0);
}

#ifdef __SSE2__
/* Which of the 16 bytes in v are c, a bit each. */
static inline unsigned eq16(__m128i v, char c)
{
	return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(c)));
}

/* The plain frame line at s ("module`function+0x1f", nothing to tidy
 * but the offset), read 16 bytes at a time: 1 with sc filled (plus and
 * bt SIZE_MAX when there is none), or 0 when it holds a byte needing
 * more (':', ';', '>', '(' or '<') or its '\n' is not in the whole
 * blocks before end. */
static inline int quick_scan(const char *s, const char *end, struct scanned *sc)
{
	size_t i;

	sc->plus = sc->bt = sc->scope = sc->cut = SIZE_MAX;
	sc->f = 0;
	for (i = 0; (size_t)(end - s) - i >= 16; i += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + i)), o;
		unsigned nl = eq16(v, '\n'), plus = eq16(v, '+'), bt = eq16(v, '`'), more;

		o = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(':')), _mm_cmpeq_epi8(v, _mm_set1_epi8(';')));
		o = _mm_or_si128(o, _mm_cmpeq_epi8(v, _mm_set1_epi8('>')));
		o = _mm_or_si128(o, _mm_cmpeq_epi8(v, _mm_set1_epi8('(')));
		o = _mm_or_si128(o, _mm_cmpeq_epi8(v, _mm_set1_epi8('<')));
		more = (unsigned)_mm_movemask_epi8(o);
		if (nl) {
			unsigned before = (nl & -nl) - 1;

			plus &= before, bt &= before, more &= before;
		}
		if (more)
			return 0;
		if (bt && sc->bt == SIZE_MAX)
			sc->bt = i + (size_t)__builtin_ctz(bt);
		if (plus)
			sc->plus = i + 31 - (size_t)__builtin_clz(plus);
		if (nl) {
			sc->n = i + (size_t)__builtin_ctz(nl);
			return 1;
		}
	}
	return 0;
}

/* Puts s[0, n) before the stack as a memcpy into room would.  Up to 32
 * bytes go in two 16-byte moves, or one for 16 or less: that one reads
 * back from s (no further than lo) and writes into the free room before
 * the frame, so buf must have 16 bytes to spare. */
static inline void put_short(struct dtrace *d, const char *lo, const char *s, size_t n)
{
	size_t sep = d->nframes > 0;
	char *p;

	if (n > 32 || d->at < 16 + 1 + n || (size_t)(s - lo) + n < 16) {
		memcpy(room(d, n), s, n);
		return;
	}
	d->at -= sep + n;
	p = d->buf + d->at;
	if (sep)
		p[n] = ';';
	_mm_storeu_si128((__m128i *)(void *)(p + n - 16),
			 _mm_loadu_si128((const __m128i *)(const void *)(s + n - 16)));
	if (n > 16)
		_mm_storeu_si128((__m128i *)(void *)p, _mm_loadu_si128((const __m128i *)(const void *)s));
	d->nframes++;
}

/* The frame line at s, which starts with neither a blank nor a count
 * (so its name is never empty): where the next line starts when it was
 * plain (put here, most of them) or read by frame, or NULL when scan
 * must read it. */
static inline const char *plain(struct dtrace *d, const char *lo, const char *s, const char *end)
{
	struct scanned sc;
	const char *fn;
	size_t n, len, cut, rend;

	if (!quick_scan(s, end, &sc))
		return NULL;
	for (n = sc.n; n > 0 && is_ws(s[n - 1]); n--)
		;
	if (sc.plus > n)
		sc.plus = n;
	cut = rend = sc.plus;	/* the name ends at its offset, as a Rust symbol would */
	if (d->o.includeoffset) {
		if (*s == 'L') {
			frame(d, s, n, NULL);	/* a Java descriptor's 'L' to strip */
			return s + sc.n + 1;
		}
		cut = d->nframes == 0 ? sc.plus : n;	/* only the leaf loses its offset */
		rend = sc.bt < sc.plus ? sc.plus : n;
	}
	if (sc.bt < rend) {
		fn = s + sc.bt + 1;
		for (len = rend - sc.bt - 1; len > 0 && is_ws(fn[len - 1]); len--)
			;
		if (len >= 17 && fn[len - 17] == 'h') {
			/* perhaps Rust's, to finish */
			frame(d, s, n, d->o.includeoffset ? NULL : &sc);
			return s + sc.n + 1;
		}
	}
	put_short(d, lo, s, cut);
	return s + sc.n + 1;
}
#endif

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

/* Where a line's text starts: spaces 8 at a time (on a little-endian
 * machine the first other byte of a word found by its lowest bit
 * differing, elsewhere by the byte loop), then any blank but '\n'. */
static const char *skip_ws(const char *p, const char *end)
{
	uint64_t w;

	while (end - p >= 8) {
		memcpy(&w, p, 8);
		w ^= 0x2020202020202020ULL;
		if (w != 0) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
			p += __builtin_ctzll(w) / 8;	/* the first byte is the lowest */
#endif
			break;
		}
		p += 8;
	}
	while (p < end && *p != '\n' && is_ws(*p))
		p++;
	return p;
}

/* A line that is not a stack's frame read in one pass: [s, s + n) is
 * what follows its leading blanks. */
static void other_line(struct dtrace *d, const char *s, size_t n, unsigned long lineno)
{
	uint64_t count;

	while (n > 0 && is_ws(s[n - 1]))
		n--;
	if (d->in_header) {
		d->in_header = n > 0;
		return;
	}
	if (n == 0)
		return;
	if (count_of(s, n, &count)) {
		end_stack(d, count, lineno);
		return;
	}
	if (d->nframes == 0)
		d->first = lineno;
	frame(d, s, n, NULL);
}

/* The line at p, up to its '\n' or end; returns where the next starts.
 * A frame line (most lines) is read in one pass, its end found as its
 * bytes are looked at.  lo: where the text read starts, at or before p. */
static const char *one(struct dtrace *d, const char *lo, const char *p, const char *end,
		       unsigned long lineno)
{
	const char *s = skip_ws(p, end), *nl;
	struct scanned sc;
	size_t n;

	if (s < end && *s != '\n' && *s != '+' && (*s < '0' || *s > '9') && !d->in_header) {
		if (d->nframes == 0)
			d->first = lineno;
#ifdef __SSE2__
		if ((nl = plain(d, lo, s, end)) != NULL)
			return nl;
#else
		(void)lo;
#endif
		if (!d->o.includeoffset) {
			scan(s, (size_t)(end - s), &sc);
			nl = s + sc.n;
			for (n = sc.n; n > 0 && is_ws(s[n - 1]); n--)
				;
			if (sc.plus > n)
				sc.plus = n;
			frame(d, s, n, &sc);
			return nl < end ? nl + 1 : end;
		}
	}
	nl = memchr(s, '\n', (size_t)(end - s));
	other_line(d, s, (size_t)((nl ? nl : end) - s), lineno);
	return nl ? nl + 1 : end;
}

int dtrace_line(struct dtrace *d, const char *s, size_t n, unsigned long lineno)
{
	one(d, s, s, s + n, lineno);
	return 0;
}

int dtrace_text(struct dtrace *d, const char *text, size_t len, unsigned long *lineno)
{
	const char *p = text, *end = text + len;

	while (p < end)
		p = one(d, text, p, end, ++*lineno);
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
