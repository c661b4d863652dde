/* pprof_set: stacks as frame ids, kept leaf first (as a profile lists
 * them: they are copied there as they are read), written root first, in
 * the bytewise order of their text, which pprof_order finds without
 * making it. */
#include "pprof_set.h"
#include "pprof_names.h"
#include "pprof_order.h"
#include "pprof_rank.h"
#include "blockout.h"
#include "folded.h"
#include "numfmt.h"
#include "outfile.h"
#include "stacksink.h"
#include "strtab.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pprof_set {
	struct pprof_names fn;	/* frame names; the id is the index */
	uint32_t *pool;		/* every stack's frames, end to end */
	size_t npool, poolcap;	/* ids used, room */
	struct xbig poolmem;	/* pool's bytes */
	struct pprof_stk *stk;	/* the stacks */
	size_t nstk, stkcap;	/* how many, room */
	struct xbig stkmem;	/* stk's bytes */
	int threads;		/* above 1: written on two threads */
};

/* A stack in output order. */
struct skey {
	const uint32_t *id;	/* its frames */
	size_t n;		/* how many */
	uint64_t c;		/* its weight */
	size_t same;		/* how many it shares with the one before
				   (below n; fewer is no fault) */
};

struct pprof_set *pprof_set_new(void)
{
	struct pprof_set *s = xcalloc(1, sizeof(*s));

	pprof_names_init(&s->fn);
	return s;
}

void pprof_set_free(struct pprof_set *s)
{
	if (!s)
		return;
	pprof_names_release(&s->fn);
	xbig_free(&s->poolmem);
	xbig_free(&s->stkmem);
	free(s);
}

/* The most names reserved for: a profile may list many functions of
 * few names, which would then hold an index of its functions' size. */
#define RESERVE_MAX ((size_t)1 << 20)

void pprof_set_reserve(struct pprof_set *s, size_t n)
{
	pprof_names_reserve(&s->fn, s->fn.n + (n < RESERVE_MAX ? n : RESERVE_MAX));
}

void pprof_set_room(struct pprof_set *s, size_t stacks, size_t frames)
{
	if (s->nstk + stacks > s->stkcap)
		s->stk = xbig_hold(&s->stkmem, s->nstk + stacks, sizeof(*s->stk), &s->stkcap);
	if (s->npool + frames + PPROF_SET_SLACK > s->poolcap)
		s->pool = xbig_hold(&s->poolmem, s->npool + frames + PPROF_SET_SLACK, sizeof(*s->pool),
				    &s->poolcap);
}

void pprof_set_threads(struct pprof_set *s, int threads)
{
	s->threads = threads;
}

uint32_t pprof_set_name(struct pprof_set *s, const char *name, size_t len)
{
	return pprof_names_id(&s->fn, name, len);
}

/* Room for n more ids at the pool's end (and PPROF_SET_SLACK past
 * them), counted as used.  The pool and the stacks are xbig's (the pool
 * of a million stacks is 100 MB, which realloc copied at each doubling
 * while glibc kept it on its heap). */
static uint32_t *pool_add(struct pprof_set *s, size_t n)
{
	if (s->npool + n + PPROF_SET_SLACK > s->poolcap)
		s->pool = xbig_hold(&s->poolmem, s->npool + n + PPROF_SET_SLACK, sizeof(*s->pool),
				    &s->poolcap);
	s->npool += n;
	return s->pool + s->npool - n;
}

uint32_t *pprof_set_next(struct pprof_set *s, size_t max)
{
	uint32_t *d = pool_add(s, max);

	s->npool -= max;
	return d;
}

uint32_t *pprof_set_add(struct pprof_set *s, size_t n, uint64_t c)
{
	uint32_t *d = pool_add(s, n);
	struct pprof_stk *t;

	if (s->nstk == s->stkcap)
		s->stk = xbig_hold(&s->stkmem, s->nstk + 1, sizeof(*s->stk), &s->stkcap);
	t = &s->stk[s->nstk++];
	t->off = (size_t)(d - s->pool);
	t->n = n;
	t->c = c;
	return d;
}

void pprof_set_take(struct pprof_set *dst, struct pprof_set *src)
{
	size_t i, at = dst->npool;

	memcpy(pool_add(dst, src->npool), src->pool, src->npool * sizeof(*src->pool));
	if (dst->nstk + src->nstk > dst->stkcap)
		dst->stk = xbig_hold(&dst->stkmem, dst->nstk + src->nstk, sizeof(*dst->stk),
				     &dst->stkcap);
	for (i = 0; i < src->nstk; i++) {
		dst->stk[dst->nstk] = src->stk[i];
		dst->stk[dst->nstk++].off += at;
	}
	src->npool = src->nstk = 0;
}

size_t pprof_set_mark(const struct pprof_set *s)
{
	return s->nstk;
}

void pprof_set_undo(struct pprof_set *s, size_t mark)
{
	if (mark > s->nstk)
		return;
	s->npool = mark < s->nstk ? s->stk[mark].off : s->npool;
	s->nstk = mark;
}

/* The stacks in output order, the same ones merged into one (weights
 * summed as the table would), in *mem (xbig's, as the sort's arrays:
 * once large they reuse the pages the keys' records gave back); their
 * number in *n.  The caller frees mem. */
static struct skey *sorted(const struct pprof_set *s, struct xbig *mem, size_t *n)
{
	struct xbig imem = { NULL, 0 }, lmem = { NULL, 0 };
	const struct pprof_stk *t, *prev = NULL;
	struct skey *out;
	size_t i, k = 0, *at, *same;
	uint32_t *rank = pprof_key_ranks(&s->fn);

	same = xbig_hold(&lmem, s->nstk + 1, sizeof(*same), NULL);
	at = pprof_order(s->stk, s->nstk, s->pool, rank, s->fn.n, s->threads > 1, &imem, same);
	free(rank);
	out = xbig_hold(mem, s->nstk + 1, sizeof(*out), NULL);
	for (i = 0; i < s->nstk; prev = t, i++) {
		t = &s->stk[at[i]];
		/* Alike to the end: the same frames. */
		if (prev && same[i] == t->n && same[i] == prev->n) {
			out[k - 1].c += t->c;
			continue;
		}
		out[k].id = s->pool + t->off, out[k].n = t->n, out[k].c = t->c;
		out[k++].same = same[i];
	}
	xbig_free(&imem), xbig_free(&lmem);
	*n = k;
	return out;
}

/* A block of output being formatted: lines in buf; the last line's
 * frames end at fend[j] bytes from its start, so the next line copies
 * the frames the two share in one piece. */
struct out {
	char *buf;		/* lines not yet written */
	size_t len, cap;	/* bytes in buf, room */
	size_t last;		/* where the last line starts */
	size_t *fend;		/* the ends of its frames */
	size_t fcap;		/* room */
	const struct skey *prev;	/* its stack, NULL: none yet */
	size_t most;		/* room made for each name not shared (the
				   longest's bytes), 0: their own bytes */
};

/* Names are copied CHUNK bytes at a time, not by a call of memcpy each
 * (they are some tens of bytes): reading and writing up to CHUNK - 1
 * bytes past each, which the lines' buffer and pprof_names leave room
 * for. */
#define CHUNK 32
#if CHUNK > PPROF_NAMES_PAD
#error "pprof_names keeps too few bytes after a name for CHUNK"
#endif

/* Room for need more bytes after the last line. */
static void room(struct out *o, size_t need)
{
	if (o->cap - o->len < need)
		xgrow(&o->buf, &o->cap, o->len + need, 1);
}

/* Appends the line of stack k. */
static void put_line(struct out *o, const struct pprof_names *f, const struct skey *k)
{
	size_t j = o->prev ? k->same : 0, at, need = 24 + k->n, off, nf, *fend;
	const size_t *len;
	const uint32_t *id;
	const char *const *name;
	char *d;

	/* The frames it shares with the last line (sorted stacks share most
	 * of theirs) are copied from it in one piece. */
	if (o->most)
		need += (k->n - j) * (o->most + 1);
	else
		for (at = j; at < k->n; at++)
			need += f->len[k->id[k->n - 1 - at]];
	need += (j ? o->fend[j - 1] : 0) + CHUNK;
	room(o, need);
	if (k->n > o->fcap)
		xgrow(&o->fend, &o->fcap, k->n, sizeof(*o->fend));
	d = o->buf + o->len;
	if (j) {
		memcpy(d, o->buf + o->last, o->fend[j - 1]);
		d[o->fend[j - 1]] = ';';
	}
	o->last = o->len;
	/* In locals, not reread after every copy (a char store may alias
	 * anything). */
	fend = o->fend, id = k->id, name = f->name, len = f->len, nf = k->n;
	for (at = j, off = j ? fend[j - 1] + 1 : 0; at < nf; at++) {
		size_t n = len[id[nf - 1 - at]], c;
		const char *src = name[id[nf - 1 - at]];

		/* The name and its ';' (the last's is written over). */
		for (c = 0; c <= n; c += CHUNK)
			memcpy(d + off + c, src + c, CHUNK);
		fend[at] = off + n;
		off += n + 1;
	}
	d += fend[nf - 1];
	*d++ = ' ';
	d += numfmt_u64(d, k->c);
	*d++ = '\n';
	o->len = (size_t)(d - o->buf);
	o->prev = k;
}

/* How many stacks ahead their frames are fetched. */
#define AHEAD 8

/* Hints that k's frames will be read soon (the first of them). */
static void prefetch_ids(const struct skey *k)
{
	__builtin_prefetch(k->id);
	__builtin_prefetch(k->id + 16);
}

/* Stacks in a block of the output (a line each, the first spelled out
 * in full), made on a second thread every other block when there are
 * two or more blocks of PAR_BLOCK and threads allow.  On one thread, few
 * enough that a block of long lines (300 KB of the 100k-stack
 * profile's) stays in the second-level cache until written: 4096 took
 * 9.6 ms to write its 58 MB, 512 7.2.  On two, each block handed over
 * costs the threads a wait: 512 took 100.1 ms of wall clock for the
 * whole run, 4096 96.8. */
#define BLOCK 512
#define PAR_BLOCK 4096

/* The sorted stacks, for format_block. */
struct lines {
	const struct pprof_set *s;	/* the set */
	const struct skey *v;		/* its stacks in order */
	size_t n;			/* how many */
	size_t block;			/* in a block */
	size_t most;			/* struct out's */
};

/* Block k of the lines into b (blockout's). */
static void format_block(void *ctx, size_t k, struct blockbuf *b)
{
	const struct lines *l = ctx;
	struct out o = { b->buf, 0, b->cap, 0, NULL, 0, NULL, l->most };
	size_t i, end = (k + 1) * l->block < l->n ? (k + 1) * l->block : l->n;

	for (i = k * l->block; i < end; i++) {
		if (i + AHEAD < end)
			prefetch_ids(&l->v[i + AHEAD]);
		put_line(&o, &l->s->fn, &l->v[i]);
	}
	b->buf = o.buf;
	b->len = o.len;
	b->cap = o.cap;
	free(o.fend);
}

void pprof_set_spell(const struct pprof_set *s, struct strtab *t)
{
	char *buf = NULL;
	size_t cap = 0, i, j, len;

	for (i = 0; i < s->nstk; i++) {
		const uint32_t *id = s->pool + s->stk[i].off;
		struct fcount c = { s->stk[i].c, 0 };

		for (len = 0, j = s->stk[i].n; j-- > 0;) {
			if (j + 1 < s->stk[i].n)
				xappend(&buf, &len, &cap, ";", 1);
			xappend(&buf, &len, &cap, s->fn.name[id[j]], s->fn.len[id[j]]);
		}
		fcount_add(strtab_val(t, strtab_intern(t, buf ? buf : "", len, NULL)), &c);
	}
	free(buf);
}

/* Whether the weights of all stacks together pass 2^64: sums of equal
 * stacks might then wrap in sorted's uint64_t, where the table's
 * fcount goes on in floating point. */
static int sums_may_wrap(const struct pprof_set *s)
{
	uint64_t total = 0;
	size_t i;

	for (i = 0; i < s->nstk; i++) {
		if (total + s->stk[i].c < total)
			return 1;
		total += s->stk[i].c;
	}
	return 0;
}

int pprof_set_emit(struct pprof_set *s, const struct stack_sink *sink)
{
	struct skey *v;
	struct fcount c = { 0, 0 };
	struct xbig mem = { NULL, 0 };
	size_t n, i, j, names = s->fn.n, cap = 0;
	uint32_t *root = NULL;

	if (sums_may_wrap(s))
		return -1;
	v = sorted(s, &mem, &n);
	for (i = 0; i < names; i++)
		sink->frame(sink->ctx, (uint32_t)i, s->fn.name[i], s->fn.len[i]);
	for (i = 0; i < n; i++) {
		/* The sink takes a stack root first. */
		xgrow(&root, &cap, v[i].n + 1, sizeof(*root));
		for (j = 0; j < v[i].n; j++)
			root[j] = v[i].id[v[i].n - 1 - j];
		c.n = v[i].c;
		sink->stack(sink->ctx, root, v[i].n, &c);
	}
	free(root);
	xbig_free(&mem);
	/* The sink draws from here: what the sort and the keys left is of
	 * no more use. */
	xbig_trim();
	return 0;
}

/* Names up to this long make room for a line by the longest. */
#define MOST 256

/* The longest of f's names, 0 when one passes MOST: a line's room is
 * then made for the longest name for each frame it does not share with
 * the line before, not by summing their lengths (a thirtieth of the
 * writing), with few bytes unused. */
static size_t longest_name(const struct pprof_names *f)
{
	size_t i, most = 0;

	for (i = 0; i < f->n; i++)
		most = f->len[i] > most ? f->len[i] : most;
	return most > MOST ? 0 : most;
}

static int save_lines(FILE *f, void *ctx)
{
	struct pprof_set *s = ctx;
	struct lines l;
	struct xbig mem = { NULL, 0 };
	struct skey *v;
	size_t n;
	int rc, par;

	v = sorted(s, &mem, &n);
	par = s->threads > 1 && n >= 2 * PAR_BLOCK;
	l.s = s, l.v = v, l.n = n, l.block = par ? PAR_BLOCK : BLOCK;
	l.most = longest_name(&s->fn);
	rc = blockout_write(f, (n + l.block - 1) / l.block, format_block, &l, par);
	xbig_free(&mem);
	return rc;
}

int pprof_set_save(struct pprof_set *s, struct strtab *t, const char *path, char *err,
		   size_t errlen)
{
	if (strtab_count(t) || sums_may_wrap(s)) {
		pprof_set_spell(s, t);
		return folded_save(t, path, err, errlen);
	}
	return outfile_save(path, save_lines, s, err, errlen);
}
