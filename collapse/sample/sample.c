/* sample: the collapser.  The path from the root to the current node is
 * kept joined ("a;b;c") with where each frame ends, so a leaf's stack is
 * there to add as it is; or, with a tree to add to, as the tree's node of
 * each frame (no stack is ever joined then). */
#include "sample.h"
#include "folded.h"
#include "rustsym.h"
#include "sample_tree.h"
#include "strtab.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define START "Call graph:"
#define END "Total number in stack"
#define MAX_WARN 10	/* bad lines named one by one; the rest counted */
/* Frames standing for a node that could not be read and for a level the
 * indent skipped: the nodes below them keep their samples. */
#define UNREADABLE "[unreadable]"
#define MISSING "[missing]"

enum { BEFORE, GRAPH, AFTER };

struct sample {
	struct sample_opts o;		/* options */
	struct strtab *t;		/* stacks out */
	struct fseq *seq;		/* input order, or NULL */
	struct sample_tree *tree;	/* stacks out instead of t, or NULL */
	collect_warn_fn *warn;		/* messages */
	void *ctx;			/* for warn */
	const char *name;		/* the input */
	int state;			/* BEFORE, GRAPH or AFTER the call graph */
	char *path;			/* the current node's stack, joined (with
					   tree: the frame being added) */
	size_t len, cap;		/* its length and room */
	size_t *ends;			/* where each of its frames ends (with
					   tree: each one's node) */
	size_t depth, ecap;		/* how many frames, and room */
	uint64_t samples;		/* the current node's count */
	int marked;			/* 1: open1 and openz are known */
	const char *open1, *openz;	/* the line's first and last '(', or NULL */
	struct rustsym_cache *rc;	/* Rust symbols fixed lately */
	char *pend;			/* the stack found last, added with the next */
	size_t plen, pcap;		/* its length and room */
	uint64_t phash;			/* its strtab_hash */
	uint64_t pcount;		/* its count */
	int pending;			/* 1: pend is to be added */
	struct sample_stats st;		/* counters */
};

/* Waits: a leaf ending in one of these is a thread doing nothing. */
#define IDLE(name) { name, sizeof(name) - 1 }
static const struct {
	const char *s;		/* the function */
	size_t n;		/* its length */
} idle[] = {
	IDLE("__psynch_cvwait"), IDLE("__select"), IDLE("__semwait_signal"), IDLE("__ulock_wait"),
	IDLE("__wait4"), IDLE("__workq_kernreturn"), IDLE("kevent"), IDLE("mach_msg_trap"),
	IDLE("read"), IDLE("semaphore_wait_trap"),
};

struct sample *sample_new(const struct sample_opts *o, struct strtab *t, struct fseq *seq,
			  collect_warn_fn *warn, void *ctx, const char *name)
{
	struct sample *s = xcalloc(1, sizeof(*s));

	if (o)
		s->o = *o;
	s->t = t;
	s->seq = seq;
	s->tree = seq ? NULL : s->o.tree;
	s->warn = warn;
	s->ctx = ctx;
	s->name = name;
	s->rc = rustsym_cache_new();
	return s;
}

void sample_free(struct sample *s)
{
	if (!s)
		return;
	free(s->path);
	free(s->ends);
	free(s->pend);
	rustsym_cache_free(s->rc);
	free(s);
}

const struct sample_stats *sample_stats(const struct sample *s)
{
	return &s->st;
}

/* Whether the n bytes at s start with the string literal lit. */
#define STARTS(s, n, lit) ((n) >= sizeof(lit) - 1 && memcmp(s, lit, sizeof(lit) - 1) == 0)

static void bad(struct sample *s, unsigned long lineno, const char *why)
{
	if (s->st.bad++ < MAX_WARN)
		s->warn(s->ctx, s->name, lineno, why);
}

/* Adds the stack found last, if any. */
static void flush(struct sample *s)
{
	struct fcount c = { s->pcount, 0 };

	if (!s->pending)
		return;
	fseq_put_hashed(s->t, s->seq, s->pend, s->plen, s->phash, &c);
	s->pending = 0;
}

/* Whether the frame leaf (n bytes) is a wait.  With a ';' in it, the
 * tree has the part after the last one: no wait's name holds a ';', so
 * the answer is the same. */
static int is_idle(const char *leaf, size_t n)
{
	size_t i, k;

	for (i = 0; i < sizeof(idle) / sizeof(idle[0]); i++) {
		k = idle[i].n;
		if (n >= k && leaf[n - 1] == idle[i].s[k - 1] && memcmp(leaf + n - k, idle[i].s, k) == 0)
			return 1;
	}
	return 0;
}

/* The current node's stack, unless its leaf is a wait.  It is added with
 * the next one (or at the end), its table slot loaded in the meantime:
 * with every stack new, that slot is a cache miss otherwise. */
static void emit(struct sample *s)
{
	const char *leaf;
	size_t n;

	if (s->depth == 0)
		return;
	if (s->tree) {
		leaf = sample_tree_name(s->tree, (uint32_t)s->ends[s->depth - 1], &n);
		if (is_idle(leaf, n))
			return;
		sample_tree_add(s->tree, (uint32_t)s->ends[s->depth - 1], s->samples);
		s->st.stacks++;
		return;
	}
	leaf = s->path + (s->depth > 1 ? s->ends[s->depth - 2] + 1 : 0);
	n = (size_t)(s->path + s->len - leaf);
	if (is_idle(leaf, n))
		return;
	flush(s);
	if (s->len >= s->pcap)	/* at least a byte: memcpy wants a buffer */
		xgrow(&s->pend, &s->pcap, s->len + 1, 1);
	memcpy(s->pend, s->path, s->len);
	s->plen = s->len;
	s->phash = strtab_hash(s->pend, s->plen);
	strtab_prefetch(s->t, s->phash);
	s->pcount = s->samples;
	s->pending = 1;
	s->st.stacks++;
}

/* push for a tree: the node of the frame under the current one (a ';'
 * in it splits it there too). */
static void tree_push(struct sample *s, const char *mod, size_t mlen, const char *fn, size_t flen)
{
	uint32_t node = s->depth > 0 ? (uint32_t)s->ends[s->depth - 1] : SAMPLE_TREE_ROOT;

	if (mlen) {
		if (mlen + flen + 1 > s->cap)
			xgrow(&s->path, &s->cap, mlen + flen + 1, 1);
		memcpy(s->path, mod, mlen);
		s->path[mlen] = '`';
		memcpy(s->path + mlen + 1, fn, flen);
		fn = s->path;
		flen += mlen + 1;
	}
	node = sample_tree_child(s->tree, node, fn, flen);
	if (s->depth >= s->ecap)
		xgrow(&s->ends, &s->ecap, s->depth + 1, sizeof(*s->ends));
	s->ends[s->depth++] = node;
}

/* Appends a frame "module`function" (or the function alone) to the path. */
static void push(struct sample *s, const char *mod, size_t mlen, const char *fn, size_t flen)
{
	size_t fixed;

	if (flen >= 17 && fn[flen - 17] == 'h') {
		const char *f;

		if ((fixed = rustsym_cached(s->rc, fn, flen, &f)) != (size_t)-1) {
			fn = f;
			flen = fixed;
		}
	}
	if (s->tree) {
		tree_push(s, mod, mlen, fn, flen);
		return;
	}
	if (s->len + mlen + flen + 3 > s->cap)	/* xgrow's test, without its call */
		xgrow(&s->path, &s->cap, s->len + mlen + flen + 3, 1);
	if (s->depth > 0)
		s->path[s->len++] = ';';
	if (mlen) {
		memcpy(s->path + s->len, mod, mlen);
		s->len += mlen;
		s->path[s->len++] = '`';
	}
	memcpy(s->path + s->len, fn, flen);
	s->len += flen;
	if (s->depth >= s->ecap)
		xgrow(&s->ends, &s->ecap, s->depth + 1, sizeof(*s->ends));
	s->ends[s->depth++] = s->len;
}

static int is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static int count_of(const char *p, size_t n, uint64_t *v)
{
	size_t i = n > 1 && p[0] == '+';

	if (i == n)
		return 0;
	for (*v = 0; i < n; i++) {
		unsigned dg = (unsigned char)p[i] - '0';

		if (dg > 9 || *v > (UINT64_MAX - dg) / 10)
			return 0;
		*v = *v * 10 + dg;
	}
	return 1;
}

/* The module of "fn  (in libfoo.dylib) + 41": after the last "(in ", up
 * to ')', without ".dylib"; its length, 0 when there is none.  last: the
 * last '(' of the n bytes at p, or NULL: none. */
static size_t module_of(const char *p, size_t n, const char **mod, const char *last)
{
	const char *in = last, *close;
	size_t len;

	/* Backwards from the end: the last "(in " is nearly always the last '('. */
	for (;;) {
		if (!in)
			return 0;
		if ((size_t)(p + n - in) >= 4 && memcmp(in, "(in ", 4) == 0)
			break;
		in = memrchr(p, '(', (size_t)(in - p));
	}
	in += 4;
	if (!(close = memchr(in, ')', (size_t)(p + n - in))))
		return 0;
	len = (size_t)(close - in);
	if (len >= 6 && memcmp(close - 6, ".dylib", 6) == 0)
		len -= 6;
	*mod = in;
	return len;
}

/* The count starting the n bytes at p: returns the space after it, or
 * NULL when there is none; the count in *v (0, said, when it is not a
 * number).  Up to 19 digits and a space, the usual case, are read in one
 * loop (no overflow is possible there). */
static const char *count_field(struct sample *s, const char *p, size_t n, unsigned long lineno,
			       uint64_t *v)
{
	const char *sp = p, *end = p + n;
	size_t tlen;

	for (*v = 0; sp < end && sp - p < 19 && (unsigned)((unsigned char)*sp - '0') <= 9; sp++)
		*v = *v * 10 + (unsigned)((unsigned char)*sp - '0');
	if (sp > p && sp < end && *sp == ' ')
		return sp;
	while (sp < end && *sp != ' ')
		sp++;
	if (sp == end)
		return NULL;
	for (tlen = (size_t)(sp - p); tlen > 0 && is_ws(p[tlen - 1]); tlen--)
		;
	if (!count_of(p, tlen, v)) {
		bad(s, lineno, "the sample count is not a number (read as 0)");
		*v = 0;
	}
	return sp;
}

/* A node after its indent: "825 main  (in rg) + 41  [0x10384b549]". */
static void node(struct sample *s, const char *p, size_t n, unsigned long lineno)
{
	const char *sp, *rest, *open, *mod = NULL;
	size_t rlen, flen, mlen = 0;
	uint64_t v;

	while (n > 0 && is_ws(*p))
		p++, n--;
	if (!(sp = count_field(s, p, n, lineno, &v))) {
		bad(s, lineno, "a call graph line without a count and a function (read as \""
		    UNREADABLE "\")");
		s->samples = 0;
		push(s, NULL, 0, UNREADABLE, sizeof(UNREADABLE) - 1);
		return;
	}
	rest = sp + 1;
	rlen = (size_t)(p + n - rest);
	if (!s->marked)
		open = memchr(rest, '(', rlen);
	else if (s->open1 && s->open1 < rest)	/* the count held one */
		open = memchr(rest, '(', rlen);
	else
		open = s->open1;
	for (flen = open ? (size_t)(open - rest) : rlen; flen > 0 && is_ws(rest[flen - 1]); flen--)
		;
	if (!s->o.no_modules)
		mlen = module_of(rest, rlen, &mod, !s->marked ? memrchr(rest, '(', rlen) :
				 s->openz && s->openz >= rest ? s->openz : NULL);
	s->samples = v;
	push(s, mod, mlen, rest, flen);
}

static int is_indent(char c)
{
	return c == ' ' || c == '+' || c == '|' || c == ':' || c == '!';
}

/* Where the indent starting at p[i] ends (n at most): 16 bytes at a
 * time where SSE2 is there, as deep nodes have long indents. */
static size_t indent_end(const char *p, size_t i, size_t n)
{
#ifdef __SSE2__
	for (; i + 16 <= n; i += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + i)), m;
		unsigned k;

		m = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')), _mm_cmpeq_epi8(v, _mm_set1_epi8('+')));
		m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('|')));
		m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8(':')));
		m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('!')));
		if ((k = ~(unsigned)_mm_movemask_epi8(m) & 0xffff) != 0)
			return i + (size_t)__builtin_ctz(k);
	}
#endif
	while (i < n && is_indent(p[i]))
		i++;
	return i;
}

/* A line of the call graph (starting with 4 spaces): its depth is told by
 * the indent characters after them, two a level.  A node no deeper than
 * the one before ends that one's stack. */
static void graph_line(struct sample *s, const char *p, size_t n, unsigned long lineno)
{
	size_t i = indent_end(p, 4, n), depth;

	if (i == n) {
		bad(s, lineno, "a call graph line of indent characters only (skipped)");
		return;
	}
	if ((i - 4) % 2)	/* taken as the level below */
		bad(s, lineno, "an odd number of indent characters (read as one less)");
	depth = (i - 4) / 2 + 1;
	if (depth <= s->depth) {
		emit(s);
		s->depth = depth - 1;
		if (!s->tree)
			s->len = depth > 1 ? s->ends[depth - 2] : 0;
	} else if (depth > s->depth + 1) {
		bad(s, lineno, "the indent skips a level (filled with \"" MISSING "\")");
		s->samples = 0;
		while (s->depth < depth - 1)
			push(s, NULL, 0, MISSING, sizeof(MISSING) - 1);
	}
	node(s, p + i, n - i, lineno);
}

/* A line, open1 and openz set or not. */
static int one(struct sample *s, const char *line, size_t n, unsigned long lineno)
{
	if (s->state == BEFORE) {
		if (STARTS(line, n, START))
			s->state = GRAPH;
		return 0;
	}
	if (s->state == AFTER)
		return -1;
	while (n > 0 && is_ws(line[n - 1]))
		n--;
	if (n == 0)
		return 0;
	if (STARTS(line, n, "    ")) {
		graph_line(s, line, n, lineno);
	} else if (STARTS(line, n, END)) {
		emit(s);
		s->state = AFTER;
		return -1;
	} else {
		bad(s, lineno, "a call graph line that does not start with 4 spaces (skipped)");
	}
	return 0;
}

int sample_line(struct sample *s, const char *line, size_t n, unsigned long lineno)
{
	s->marked = 0;
	return one(s, line, n, lineno);
}

/* The end of the line at p ('\n' or end), its first and last '(' noted
 * on the way: 16 bytes at a time where SSE2 is there. */
static const char *line_end(struct sample *s, const char *p, const char *end)
{
	const char *first = NULL, *last = NULL;
#ifdef __SSE2__
	for (; end - p >= 16; p += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
		unsigned nl = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n')));
		unsigned op = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('(')));

		if (nl)
			op &= (1u << __builtin_ctz(nl)) - 1;
		if (op) {
			first = first ? first : p + __builtin_ctz(op);
			last = p + 31 - __builtin_clz(op);
		}
		if (nl) {
			p += __builtin_ctz(nl);
			goto done;
		}
	}
#endif
	for (; p < end && *p != '\n'; p++)
		if (*p == '(') {
			first = first ? first : p;
			last = p;
		}
#ifdef __SSE2__
done:
#endif
	s->marked = 1;
	s->open1 = first;
	s->openz = last;
	return p;
}

int sample_text(struct sample *s, const char *text, size_t len, unsigned long *lineno)
{
	const char *p = text, *end = text + len, *nl;
	int rc = 0;

	while (p < end && rc == 0) {
		nl = line_end(s, p, end);
		rc = one(s, p, (size_t)(nl - p), ++*lineno);
		p = nl < end ? nl + 1 : end;
	}
	s->marked = 0;
	return rc;
}

int sample_end(struct sample *s)
{
	char msg[128];

	if (s->state == GRAPH)
		emit(s);
	flush(s);
	if (s->st.bad > MAX_WARN) {
		snprintf(msg, sizeof(msg), "skipped %llu lines that could not be read",
			 (unsigned long long)s->st.bad);
		s->warn(s->ctx, s->name, 0, msg);
	}
	if (s->state == BEFORE) {
		s->warn(s->ctx, s->name, 0, "no \"Call graph:\" line: not a sample report");
		return 1;
	}
	if (s->state == GRAPH) {
		s->warn(s->ctx, s->name, 0, "the input ended before the call graph did (no \""
			END "\" line); the stacks read are kept");
		return 1;
	}
	return 0;
}
