/* pprof_set: stacks as frame ids.  Sorting bytewise needs no text: a
 * stack's bytes are a list of keys, each frame's name followed by ';' or,
 * for the last frame, by the end (which sorts before any byte).  Names
 * hold no ';', so no key begins another, and stacks sort as the lists of
 * their keys' ranks: the keys (two per name) are ranked once, then
 * stacks are compared by ids while they agree and by the ranks of the
 * first keys that differ. */
#include "pprof_set.h"
#include "pprof_names.h"
#include "pprof_rank.h"
#include "blockout.h"
#include "bytes.h"
#include "folded.h"
#include "numfmt.h"
#include "outfile.h"
#include "stacksink.h"
#include "strtab.h"
#include "xalloc.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct stk {
	size_t off;		/* its first frame in the pool */
	size_t n;		/* how many frames */
	uint64_t c;		/* its weight */
};

struct pprof_set {
	struct pprof_names fn;	/* frame names; the id is the index */
	uint32_t *pool;		/* every stack's frames, end to end */
	size_t npool, poolcap;	/* ids used, room */
	struct xbig poolmem;	/* pool's bytes */
	struct stk *stk;	/* the stacks */
	size_t nstk, stkcap;	/* how many, room */
	struct xbig stkmem;	/* stk's bytes */
	int threads;		/* above 1: written on two threads */
};

/* A stack in the sort.  pre holds the ranks (from 1, 0 past its end) of
 * its first keys, packed from the top bits down, so most compares need
 * no more than pre. */
struct skey {
	uint64_t pre[2];	/* the ranks of its first 2 * per keys */
	const uint32_t *id;	/* its frames */
	size_t n;		/* how many */
	uint64_t c;		/* its weight */
};

/* The packing of ranks into pre. */
struct pack {
	const uint32_t *rank;	/* key ranks */
	unsigned bits;		/* bits per rank */
	size_t per;		/* ranks per word of pre */
	size_t d;		/* the first key pre holds */
	int whole;		/* stk_cmp goes on past pre (else: stacks
				   that agree there compare equal) */
};

/* Levels of the sort (2 * per keys each) before stacks are sorted by
 * whole compares. */
#define LEVELS 16

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
 * while glibc kept it on its heap), on small pages (filled and read in
 * order). */
static uint32_t *pool_add(struct pprof_set *s, size_t n)
{
	if (s->npool + n + PPROF_SET_SLACK > s->poolcap)
		s->pool = xbig_hold(&s->poolmem, s->npool + n + PPROF_SET_SLACK, sizeof(*s->pool),
				    &s->poolcap);
	s->npool += n;
	return s->pool + s->npool - n;
}

uint32_t *pprof_set_add(struct pprof_set *s, size_t n, uint64_t c)
{
	uint32_t *d = pool_add(s, n);
	struct stk *t;

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

/* Stacks that agree on their first pk->d keys, in bytewise order of
 * their text: by pre, then (pk->whole) by the keys after it; 0 only for
 * the same frames (or, not whole, the same pre). */
static inline int stk_cmp(const struct pack *pk, const struct skey *a, const struct skey *b)
{
	size_t n = a->n < b->n ? a->n : b->n, k = pk->d + 2 * pk->per;
	uint32_t ra, rb;

	if (a->pre[0] != b->pre[0])
		return a->pre[0] < b->pre[0] ? -1 : 1;
	if (a->pre[1] != b->pre[1])
		return a->pre[1] < b->pre[1] ? -1 : 1;
	/* The same keys in pre: the same stack when one ends among them,
	 * else both go on. */
	if (!pk->whole || n <= k)
		return 0;
	while (k + 1 < n && a->id[k] == b->id[k])
		k++;
	ra = pk->rank[(size_t)a->id[k] * 2 + (k + 1 == a->n)];
	rb = pk->rank[(size_t)b->id[k] * 2 + (k + 1 == b->n)];
	return (ra > rb) - (ra < rb);
}

/* Runs of at most this many stacks are sorted by insertion (6, 12, 24
 * and 40 measured: 24 and 40 alike, the smaller ones slower). */
#define STK_FEW 24

static void stk_sort(const struct pack *pk, struct skey *v, struct skey *tmp, size_t n)
{
	size_t h = n / 2, i = 0, j = h, k = 0;
	struct skey x;

	if (n <= STK_FEW) {
		/* Few: by insertion (no calls, no copying through tmp). */
		for (i = 1; i < n; i++) {
			for (x = v[i], j = i; j > 0 && stk_cmp(pk, &x, &v[j - 1]) < 0; j--)
				v[j] = v[j - 1];
			v[j] = x;
		}
		return;
	}
	stk_sort(pk, v, tmp, h);
	stk_sort(pk, v + h, tmp, n - h);
	if (stk_cmp(pk, &v[h - 1], &v[h]) <= 0)
		return;
	while (i < h && j < n)
		tmp[k++] = stk_cmp(pk, &v[j], &v[i]) < 0 ? v[j++] : v[i++];
	while (i < h)
		tmp[k++] = v[i++];
	memcpy(v, tmp, k * sizeof(*v));
}

/* How many stacks ahead their frames are fetched. */
#define AHEAD 8

/* Hints that k's frames will be read soon (the first of them). */
static void prefetch_ids(const struct skey *k)
{
	__builtin_prefetch(k->id);
	__builtin_prefetch(k->id + 16);
}

/* k's pre: the ranks (from 1, 0 past its end) of its keys from d on.
 * The keys it has are packed in a register, then moved up past the room
 * of those it has not (a check of each against its end, and a store of
 * pre at each, were three quarters of the instructions).  Each frame is
 * packed as its ';' key, the last one's then made its end key: no test
 * of each frame for being the last. */
static inline void pack_pre(const struct pack *pk, struct skey *k, size_t d)
{
	const uint32_t *id = k->id, *rank = pk->rank;
	size_t n = k->n, per = pk->per, j, end, w;
	unsigned bits = pk->bits;
	uint64_t x;

	for (w = 0; w < 2; w++, d += per) {
		end = d + per < n ? d + per : n;
		for (x = 0, j = d; j < end; j++)
			x = x << bits | rank[(size_t)id[j] * 2];
		if (end == n && end > d)
			x ^= rank[(size_t)id[n - 1] * 2] ^ rank[(size_t)id[n - 1] * 2 + 1];
		/* Less than 64 bits up: per * bits is at most 64. */
		k->pre[w] = end > d ? x << (bits * (per - (end - d))) : 0;
	}
}

/* Stack i of s as a key of the sort. */
static void skey_of(const struct pprof_set *s, const struct pack *pk, size_t i, struct skey *k)
{
	k->id = s->pool + s->stk[i].off;
	k->n = s->stk[i].n;
	k->c = s->stk[i].c;
	pack_pre(pk, k, 0);
}

static void sort_group(const struct pack *pk0, struct skey *v, struct skey *tmp, size_t n,
		       size_t d, unsigned level);

/* v (n stacks, sorted by their keys d.. in pre): each run that agrees
 * there too sorted by the keys after. */
static void sort_runs(const struct pack *pk, struct skey *v, struct skey *tmp, size_t n,
		      size_t d, unsigned level)
{
	size_t a, i, j, w = 2 * pk->per;

	for (a = 0; a < n; a = i) {
		for (i = a + 1; i < n && v[i].pre[0] == v[a].pre[0] && v[i].pre[1] == v[a].pre[1]; i++)
			;
		/* One that ends among those keys: all do, the same stack. */
		if (i - a < 2 || v[a].n <= d + w)
			continue;
		for (j = a; j < i; j++) {
			if (j + AHEAD < i)
				prefetch_ids(&v[j + AHEAD]);
			pack_pre(pk, &v[j], d + w);
		}
		sort_group(pk, v + a, tmp, i - a, d + w, level + 1);
	}
}

/* Sorts v (n stacks that agree on their first d keys, pre holding the
 * ranks of the next ones): by pre, then each run of the same pre a level
 * deeper, or by whole compares past LEVELS. */
static void sort_group(const struct pack *pk0, struct skey *v, struct skey *tmp, size_t n,
		       size_t d, unsigned level)
{
	struct pack pk = *pk0;

	pk.d = d;
	pk.whole = level >= LEVELS;
	stk_sort(&pk, v, tmp, n);
	if (!pk.whole)
		sort_runs(&pk, v, tmp, n, d, level);
}

/* The longest run of the same pre in v (n, sorted by it). */
static size_t longest_run(const struct pprof_rkey *v, size_t n)
{
	size_t a = 0, i, run = 1;

	for (i = 1; i <= n; i++)
		if (i == n || v[i].pre[0] != v[a].pre[0] || v[i].pre[1] != v[a].pre[1]) {
			run = i - a > run ? i - a : run;
			a = i;
		}
	return run;
}

/* Stacks q[a, b) (sorted by their packed first ranks) into out[a, b),
 * each run of the same ranks sorted by the rest (merge sort, with room
 * for the longest run only).  A run does not cross a or b. */
struct range {
	const struct pprof_set *s;	/* the set */
	const struct pack *pk;		/* the first ranks' packing */
	const struct pprof_rkey *q;	/* the stacks by those */
	struct skey *out;		/* where they go */
	size_t a, b;			/* which */
};

static void *sort_range(void *arg)
{
	const struct range *g = arg;
	const struct pprof_rkey *q = g->q;
	struct skey *out = g->out, *tmp;
	const struct stk *t;
	size_t i;

	for (i = g->a; i < g->b; i++) {
		if (i + AHEAD < g->b)
			__builtin_prefetch(&g->s->stk[q[i + AHEAD].i]);
		t = &g->s->stk[q[i].i];
		out[i].pre[0] = q[i].pre[0];
		out[i].pre[1] = q[i].pre[1];
		out[i].id = g->s->pool + t->off;
		out[i].n = t->n;
		out[i].c = t->c;
	}
	tmp = xmalloc((longest_run(q + g->a, g->b - g->a) + 1) * sizeof(*tmp));
	sort_runs(g->pk, out + g->a, tmp, g->b - g->a, 0, 0);
	free(tmp);
	return NULL;
}

/* Stacks from this many on are sorted on two threads (when s->threads
 * allows). */
#define PAR_SORT 8192

/* s's n stacks sorted into out: by their packed first ranks (radix),
 * then each run of the same ranks by the rest; the runs from about the
 * middle on by a second thread when there are many. */
static void sort_all(const struct pprof_set *s, const struct pack *pk, struct skey *out, size_t n)
{
	struct xbig rmem = { NULL, 0, 0 }, tmem = { NULL, 0, 0 };
	struct pprof_rkey *r = xbig_hold(&rmem, n + 1, sizeof(*r), NULL);
	struct pprof_rkey *rt = xbig_hold(&tmem, n + 1, sizeof(*rt), NULL);
	struct range lo = { s, pk, r, out, 0, n }, hi;
	struct skey k;
	pthread_t th;
	size_t i, mid;

	for (i = 0; i < n; i++) {
		skey_of(s, pk, i, &k);
		r[i].pre[0] = k.pre[0];
		r[i].pre[1] = k.pre[1];
		r[i].i = i;
	}
	pprof_rkey_sort(r, rt, n);
	/* The second half begins where a run does. */
	for (mid = n / 2; mid > 0 && mid < n && r[mid].pre[0] == r[mid - 1].pre[0] &&
			  r[mid].pre[1] == r[mid - 1].pre[1];
	     mid++)
		;
	hi = lo;
	hi.a = lo.b = mid;
	if (s->threads > 1 && n >= PAR_SORT && mid < n &&
	    pthread_create(&th, NULL, sort_range, &hi) == 0) {
		sort_range(&lo);
		pthread_join(th, NULL);
	} else {
		lo.b = n;
		sort_range(&lo);
	}
	xbig_free(&rmem);
	xbig_free(&tmem);
}

/* The stacks in output order, the same ones merged into one (weights
 * summed as the table would), in *mem (xbig's, as sort_all's arrays:
 * once large they reuse the pages the keys' records gave back); their
 * number in *n.  The caller frees mem. */
static struct skey *sorted(const struct pprof_set *s, struct xbig *mem, size_t *n)
{
	struct skey *out;
	struct pack pk;
	size_t i, k = 0, nk = s->fn.n * 2;

	pk.rank = pprof_key_ranks(&s->fn);
	for (pk.bits = 1; pk.bits < 32 && ((uint64_t)1 << pk.bits) <= nk; pk.bits++)
		;
	pk.per = 64 / pk.bits;
	pk.d = 0;
	pk.whole = 0;
	out = xbig_hold(mem, s->nstk + 1, sizeof(*out), NULL);
	sort_all(s, &pk, out, s->nstk);
	free((void *)(uintptr_t)pk.rank);
	for (i = 0; i < s->nstk; i++) {
		if (k && out[k - 1].n == out[i].n && out[k - 1].pre[0] == out[i].pre[0] &&
		    out[k - 1].pre[1] == out[i].pre[1] &&
		    memcmp(out[k - 1].id, out[i].id, out[i].n * sizeof(*out[i].id)) == 0)
			out[k - 1].c += out[i].c;
		else if (k++ != i)
			out[k - 1] = out[i];
	}
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
	size_t j = 0, at, need = 24 + k->n, m = o->prev ? o->prev->n : 0, off, nf, *fend;
	const size_t *len;
	const uint32_t *id;
	const char *const *name;
	char *d;

	m = m < k->n ? m : k->n;
	/* The frames it shares with the last line, two ids at a time (one
	 * at a time was a tenth of the writing: sorted stacks share most of
	 * theirs). */
	if (m)
		j = bytes_mismatch((const char *)o->prev->id, m * sizeof(*k->id),
				   (const char *)k->id, m * sizeof(*k->id)) / sizeof(*k->id);
	for (at = j; at < k->n; at++)
		need += f->len[k->id[at]];
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
		size_t n = len[id[at]], c;
		const char *src = name[id[at]];

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
};

/* Block k of the lines into b (blockout's). */
static void format_block(void *ctx, size_t k, struct blockbuf *b)
{
	const struct lines *l = ctx;
	struct out o = { b->buf, 0, b->cap, 0, NULL, 0, NULL };
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

		for (len = 0, j = 0; j < s->stk[i].n; j++) {
			if (j)
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
	struct xbig mem = { NULL, 0, 0 };
	size_t n, i, names = s->fn.n;

	if (sums_may_wrap(s))
		return -1;
	v = sorted(s, &mem, &n);
	for (i = 0; i < names; i++)
		sink->frame(sink->ctx, (uint32_t)i, s->fn.name[i], s->fn.len[i]);
	for (i = 0; i < n; i++) {
		c.n = v[i].c;
		sink->stack(sink->ctx, v[i].id, v[i].n, &c);
	}
	xbig_free(&mem);
	/* The sink draws from here: what the sort and the keys left is of
	 * no more use. */
	xbig_trim();
	return 0;
}

static int save_lines(FILE *f, void *ctx)
{
	struct pprof_set *s = ctx;
	struct lines l;
	struct xbig mem = { NULL, 0, 0 };
	struct skey *v;
	size_t n;
	int rc, par;

	v = sorted(s, &mem, &n);
	par = s->threads > 1 && n >= 2 * PAR_BLOCK;
	l.s = s, l.v = v, l.n = n, l.block = par ? PAR_BLOCK : BLOCK;
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
