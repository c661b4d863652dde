/* pprof_order: stacks of frame ids put in the bytewise order of their
 * text (pprof_set's, see there), the text never made.  A stack's bytes
 * are a list of keys, each frame's name followed by ';' or, for the
 * last frame, by the end (which sorts before any byte); names hold no
 * ';', so no key begins another, and stacks sort as the lists of their
 * keys' ranks (pprof_rank): each stack is spelled as its keys' ranks and
 * the spellings sorted (see struct order). */
#include "pprof_order.h"
#include "bytes.h"
#include "xalloc.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* A stack in the sort: eight bytes of its spelling (see struct order),
 * so that most compares need no more.  Sixteen bytes: the sort moves
 * these, not the stacks. */
struct sel {
	uint64_t w;		/* bytes d to d + 7 of its spelling, d the
				   depth its group is sorted at, as a
				   big-endian number (0 past its end) */
	size_t i;		/* which stack (its index in stk) */
};

/* The stacks spelled for the sort: each key's rank (a frame's ';' key,
 * the last frame's end key) as a big-endian number of width bytes, so
 * that stacks sort as their spellings do bytewise, read 8 bytes at a
 * time.  A rank is never 0 and an end key ends a stack, so no spelling
 * begins another and two spellings are alike only for the same frames.
 * Each is followed by 8 zero bytes: a word read from inside it is
 * whole. */
struct order {
	const struct pprof_stk *stk;		/* the stacks */
	const uint32_t *pool;		/* their frames */
	const unsigned char *key;	/* each key's rank (pprof_key_ranks)
					   spelled: key k's at k * width */
	unsigned width;			/* bytes of a rank: 1, 2 or 4 */
	unsigned char **at;		/* each stack's spelling */
	struct sel *tmp;		/* room for a merge sort of every stack */
	const struct sel *v0;		/* the whole array being sorted */
	size_t *lcp;			/* by place in it: the bytes of
					   spelling the stack there shares with
					   the one before, once sorted */
};

/* Bytes of spelling a group is sorted by, a word at a time, before it
 * is sorted by whole compares: bounds the recursion. */
#define DEEP 256

/* Rank r as a big-endian number of w bytes at d. */
static inline void put_rank(unsigned char *d, uint32_t r, unsigned w)
{
	uint16_t h = (uint16_t)r;
	uint32_t x = r;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	h = __builtin_bswap16(h);
	x = __builtin_bswap32(x);
#endif
	if (w == 1)
		*d = (unsigned char)r;
	else if (w == 2)
		memcpy(d, &h, 2);
	else
		memcpy(d, &x, 4);
}

/* The keys of rank (pprof_key_ranks: two for each of n names) spelled,
 * w bytes each; the caller frees them. */
static unsigned char *spell_keys(const uint32_t *rank, size_t n, unsigned w)
{
	unsigned char *key = xmalloc(2 * n * w + 1);
	size_t k;

	for (k = 0; k < 2 * n; k++)
		put_rank(key + k * w, rank[k], w);
	return key;
}

/* Spells the keys of n (above 0) frames at d, w bytes each, root first:
 * from e, the frame after the root, back to id (the leaf), which is
 * spelled last as its end key (a copy of the key's spelling: looking up
 * its rank and turning it big-endian at each frame was twice the
 * instructions): four a turn of the loop (one a turn was half loop). */
static inline void spell_frames(unsigned char *d, const uint32_t *id, size_t n,
				const unsigned char *key, unsigned w)
{
	const uint32_t *e = id + n;
	size_t j;

	n--;
	memcpy(d + n * w, key + ((size_t)id[0] * 2 + 1) * w, w);
	for (j = 0; j + 4 <= n; j += 4) {
		memcpy(d + j * w, key + (size_t)e[-1 - (ptrdiff_t)j] * 2 * w, w);
		memcpy(d + (j + 1) * w, key + (size_t)e[-2 - (ptrdiff_t)j] * 2 * w, w);
		memcpy(d + (j + 2) * w, key + (size_t)e[-3 - (ptrdiff_t)j] * 2 * w, w);
		memcpy(d + (j + 3) * w, key + (size_t)e[-4 - (ptrdiff_t)j] * 2 * w, w);
	}
	for (; j < n; j++)
		memcpy(d + j * w, key + (size_t)e[-1 - (ptrdiff_t)j] * 2 * w, w);
}

/* Spells stack i at o->at[i]: its frames by a loop for each width (a
 * test of the width at each frame was two thirds of the spelling), the
 * last as its end key. */
static void spell(const struct order *o, size_t i)
{
	const uint32_t *id = o->pool + o->stk[i].off;
	size_t n = o->stk[i].n;
	unsigned w = o->width;
	unsigned char *d = o->at[i];

	if (n && w == 1)
		spell_frames(d, id, n, o->key, 1);
	else if (n && w == 2)
		spell_frames(d, id, n, o->key, 2);
	else if (n)
		spell_frames(d, id, n, o->key, 4);
	memset(d + n * w, 0, 8);
}

/* Bytes in stack i's spelling. */
static inline size_t spelled(const struct order *o, size_t i)
{
	return o->stk[i].n * o->width;
}

/* The first byte from k (a multiple of 8) on at which the spellings of
 * stacks a and b differ (they agree before k), or the shorter's length. */
static size_t tail_diff(const struct order *o, size_t a, size_t b, size_t k)
{
	size_t la = spelled(o, a), lb = spelled(o, b), n = la < lb ? la : lb;
	uint64_t x;

	for (; k < n; k += 8)
		if ((x = bytes_be64(o->at[a] + k) ^ bytes_be64(o->at[b] + k)) != 0) {
			k += (size_t)__builtin_clzll(x) / 8;
			return k < n ? k : n;
		}
	return n;
}

/* Stacks a and b, alike in their spellings' first k bytes (k a multiple
 * of 8), in bytewise order of their text: 0 only for the same frames. */
static int tail_cmp(const struct order *o, size_t a, size_t b, size_t k)
{
	size_t m = tail_diff(o, a, b, k), la = spelled(o, a), lb = spelled(o, b);

	if (m < la && m < lb)
		return o->at[a][m] < o->at[b][m] ? -1 : 1;
	return (la > lb) - (la < lb);
}

/* Where the sort records what the stack at v[0] shares with the one
 * before it (and v[1] with v[0], ...). */
static inline size_t *lcp_at(const struct order *o, const struct sel *v)
{
	return o->lcp + (v - o->v0);
}

/* The byte of the word at d where words x and y, not alike, differ. */
static inline size_t word_diff(size_t d, uint64_t x, uint64_t y)
{
	return d + (size_t)__builtin_clzll(x ^ y) / 8;
}

/* Stacks a and b, alike in their spellings' first d bytes, words at d:
 * by their words, then by the bytes after.  Words alike where one
 * spelling ends are the same stack. */
static inline int sel_cmp(const struct order *o, const struct sel *a, const struct sel *b,
			  size_t d)
{
	if (a->w != b->w)
		return a->w < b->w ? -1 : 1;
	return tail_cmp(o, a->i, b->i, d + 8);
}

/* Groups of at most this many are sorted by insertion. */
#define SEL_FEW 16

/* Sorts v (n stacks alike in their first d bytes, words at d) by whole
 * compares, o->tmp as room: for a group whose words tell too little
 * (past DEEP, or splitting it by them went badly). */
static void sel_merge(const struct order *o, struct sel *v, size_t n, size_t d)
{
	size_t h = n / 2, i = 0, j = h, k = 0;
	struct sel x;

	if (n <= SEL_FEW) {
		for (i = 1; i < n; i++) {
			for (x = v[i], j = i; j > 0 && sel_cmp(o, &x, &v[j - 1], d) < 0; j--)
				v[j] = v[j - 1];
			v[j] = x;
		}
		return;
	}
	sel_merge(o, v, h, d);
	sel_merge(o, v + h, n - h, d);
	if (sel_cmp(o, &v[h - 1], &v[h], d) <= 0)
		return;
	while (i < h && j < n)
		o->tmp[k++] = sel_cmp(o, &v[j], &v[i], d) < 0 ? v[j++] : v[i++];
	while (i < h)
		o->tmp[k++] = v[i++];
	memcpy(v, o->tmp, k * sizeof(*v));
}

/* sel_merge, then what each stack shares with the one before it
 * recorded. */
static void sel_merged(const struct order *o, struct sel *v, size_t n, size_t d)
{
	size_t *lcp = lcp_at(o, v), j;

	sel_merge(o, v, n, d);
	for (j = 1; j < n; j++)
		lcp[j] = tail_diff(o, v[j - 1].i, v[j].i, d);
}

/* The median of the words of v's first, middle and last. */
static uint64_t pivot(const struct sel *v, size_t n)
{
	uint64_t a = v[0].w, b = v[n / 2].w, c = v[n - 1].w, t;

	if (a > b)
		t = a, a = b, b = t;
	return c < a ? a : c > b ? b : c;
}

/* Splits v (n) by word around p: those below to [0, *lt), those equal
 * to [*lt, *gt), those above after; the highest word below p in *lo,
 * the lowest above in *hi (what the parts' ends share with p). */
static void split3(struct sel *v, size_t n, uint64_t p, size_t *lt, size_t *gt, uint64_t *lo,
		   uint64_t *hi)
{
	size_t a = 0, i = 0, b = n;
	uint64_t l = 0, h = UINT64_MAX;
	struct sel x;

	while (i < b) {
		x = v[i];
		if (x.w < p) {
			l = x.w > l ? x.w : l;
			v[i++] = v[a], v[a++] = x;
		} else if (x.w > p) {
			h = x.w < h ? x.w : h;
			v[i] = v[--b], v[b] = x;
		} else
			i++;
	}
	*lt = a, *gt = b, *lo = l, *hi = h;
}

/* How many splits by pivots a group of n may take before it is merge
 * sorted: twice as many as good ones would. */
static unsigned budget_of(size_t n)
{
	return 2 * (unsigned)(64 - __builtin_clzll((uint64_t)n | 1)) + 4;
}

static void sel_sort(const struct order *o, struct sel *v, size_t n, size_t d, unsigned budget);

/* v (n stacks alike in their first d + 8 bytes, words at d) sorted by
 * the bytes after: none to sort when one ends by then (all do, the same
 * stack). */
static void sort_equal(const struct order *o, struct sel *v, size_t n, size_t d)
{
	size_t j, *lcp = lcp_at(o, v), len;
	struct sel x;

	if (n < 2)
		return;
	if ((len = spelled(o, v[0].i)) <= d + 8) {
		for (j = 1; j < n; j++)
			lcp[j] = len;
		return;
	}
	/* Two (the most common, leaves of a tree): one compare of what
	 * follows, no deeper group. */
	if (n == 2) {
		if (tail_cmp(o, v[0].i, v[1].i, d + 8) > 0)
			x = v[0], v[0] = v[1], v[1] = x;
		lcp[1] = tail_diff(o, v[0].i, v[1].i, d + 8);
		return;
	}
	if (d + 8 >= DEEP)
		return sel_merged(o, v, n, d);
	d += 8;
	for (j = 0; j < n; j++)
		v[j].w = bytes_be64(o->at[v[j].i] + d);
	sel_sort(o, v, n, d, budget_of(n));
}

/* Groups of this many and more are split by a byte of their words at a
 * time (the first in which they differ), not by pivots: a group of many
 * words, as the first keys of a real profile's stacks are, takes a
 * split for each bit by pivots. */
#define RADIX_MIN 256

/* Sorts v (n stacks alike in their first d bytes, words at d) by the
 * first byte of the words in which they differ, o->tmp as room, then
 * each part alike in it on. */
static void radix(const struct order *o, struct sel *v, size_t n, size_t d)
{
	size_t cnt[256], i, at, c, *lcp = lcp_at(o, v), first = 1;
	uint64_t x = 0;
	unsigned shift;

	for (i = 1; i < n; i++)
		x |= v[i].w ^ v[0].w;
	if (!x)
		return sort_equal(o, v, n, d);
	shift = 56 - (unsigned)__builtin_clzll(x) / 8 * 8;
	memset(cnt, 0, sizeof(cnt));
	for (i = 0; i < n; i++)
		cnt[v[i].w >> shift & 0xff]++;
	for (at = 0, i = 0; i < 256; i++) {
		c = cnt[i];
		cnt[i] = at;
		at += c;
	}
	for (i = 0; i < n; i++)
		o->tmp[cnt[v[i].w >> shift & 0xff]++] = v[i];
	/* Back by a loop: memcpy's rep movsb of a large group is counted
	 * (callgrind, the measure here) a byte at a time. */
	for (i = 0; i < n; i++)
		v[i] = o->tmp[i];
	/* cnt[i] is now where part i ends; the parts after the first share
	 * the bytes before that byte with the one before them. */
	for (at = 0, i = 0; i < 256; at = cnt[i++]) {
		if (cnt[i] == at)
			continue;
		if (!first)
			lcp[at] = word_diff(d, 0, x);
		first = 0;
		if (cnt[i] - at > 1)
			sel_sort(o, v + at, cnt[i] - at, d, budget_of(cnt[i] - at));
	}
}

/* Sorts v (n, few, stacks alike in their first d bytes, words at d) by
 * word, by insertion, then each run of one word by the words after (a
 * whole compare of two stacks of one word reads on through the frames
 * they share, most of them in a real profile). */
static void sel_few(const struct order *o, struct sel *v, size_t n, size_t d)
{
	size_t i, j;
	struct sel x;

	for (i = 1; i < n; i++) {
		for (x = v[i], j = i; j > 0 && x.w < v[j - 1].w; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && v[j].w == v[i].w; j++)
			;
		/* Before the run is sorted on: its words change. */
		if (j < n)
			lcp_at(o, v)[j] = word_diff(d, v[j - 1].w, v[j].w);
		if (j - i > 1)
			sort_equal(o, v + i, j - i, d);
	}
}

/* Sorts v (n stacks alike in their first d bytes, words at d): many by
 * radix; else split three ways by word, those of the pivot's word then
 * sorted by the next word, the smaller of the other two parts by
 * recursion (the stack stays shallow) and the larger in this loop.
 * After budget splits a part is merge sorted: a bad pivot every time
 * costs no more than that. */
static void sel_sort(const struct order *o, struct sel *v, size_t n, size_t d, unsigned budget)
{
	size_t lt, gt;
	uint64_t p, lo, hi;

	while (n > SEL_FEW) {
		if (n >= RADIX_MIN)
			return radix(o, v, n, d);
		if (!budget--)
			return sel_merged(o, v, n, d);
		split3(v, n, p = pivot(v, n), &lt, &gt, &lo, &hi);
		if (lt)
			lcp_at(o, v)[lt] = word_diff(d, lo, p);
		if (gt < n)
			lcp_at(o, v)[gt] = word_diff(d, p, hi);
		sort_equal(o, v + lt, gt - lt, d);
		if (lt < n - gt) {
			sel_sort(o, v, lt, d, budget);
			v += gt, n -= gt;
		} else {
			sel_sort(o, v + gt, n - gt, d, budget);
			n = lt;
		}
	}
	sel_few(o, v, n, d);
}

/* A part of the stacks sorted on a thread. */
struct part {
	struct order o;		/* what it reads, its own room */
	struct sel *v;		/* the part */
	size_t n;		/* how many */
};

static void *sort_part(void *arg)
{
	const struct part *p = arg;
	size_t i;

	for (i = 0; i < p->n; i++) {
		spell(&p->o, p->v[i].i);
		p->v[i].w = bytes_be64(p->o.at[p->v[i].i]);
	}
	sel_sort(&p->o, p->v, p->n, 0, budget_of(p->n));
	return NULL;
}

/* Stacks from this many on are sorted on two threads (when s->threads
 * allows): each half on its own, then the two merged. */
#define PAR_SORT 8192

/* v (n stacks, v[i].i set, o->at too) spelled and sorted: the halves on
 * two threads when par is set, merged through o->tmp. */
static void sort_all(const struct order *o, struct sel *v, size_t n, int par)
{
	struct part lo = { *o, v, n }, hi = lo;
	pthread_t th;
	size_t i = 0, j, k = 0;

	if (!par || n < PAR_SORT)
		return (void)sort_part(&lo);
	lo.n = j = n / 2;
	hi.v = v + j, hi.n = n - j;
	hi.o.tmp = o->tmp + j;
	if (pthread_create(&th, NULL, sort_part, &hi) != 0) {
		lo.n = n;
		return (void)sort_part(&lo);
	}
	sort_part(&lo);
	pthread_join(th, NULL);
	while (i < n / 2 && j < n)
		o->tmp[k++] = tail_cmp(o, v[j].i, v[i].i, 0) < 0 ? v[j++] : v[i++];
	while (i < n / 2)
		o->tmp[k++] = v[i++];
	memcpy(v, o->tmp, k * sizeof(*v));
	/* Merged: what each shares with the one before it is found again. */
	for (i = 1; i < n; i++)
		o->lcp[i] = tail_diff(o, v[i - 1].i, v[i].i, 0);
}

/* Bytes of a rank of n names' keys (ranks 1 to 2n). */
static unsigned rank_width(size_t n)
{
	return n * 2 < 0x100 ? 1 : n * 2 < 0x10000 ? 2 : 4;
}

size_t *pprof_order(const struct pprof_stk *stk, size_t n, const uint32_t *pool,
		    const uint32_t *rank, size_t nnames, int par, struct xbig *mem, size_t *same)
{
	struct xbig vmem = { NULL, 0 }, tmem = { NULL, 0 }, amem = { NULL, 0 };
	struct xbig smem = { NULL, 0 };
	struct order o;
	struct sel *v;
	size_t i, len = 0, *at;
	unsigned char *sp;

	o.stk = stk, o.pool = pool;
	o.width = rank_width(nnames);
	o.key = spell_keys(rank, nnames, o.width);
	v = xbig_hold(&vmem, n + 1, sizeof(*v), NULL);
	o.tmp = xbig_hold(&tmem, n + 1, sizeof(*o.tmp), NULL);
	o.at = xbig_hold(&amem, n + 1, sizeof(*o.at), NULL);
	o.lcp = same;
	o.v0 = v;
	o.lcp[0] = 0;
	for (i = 0; i < n; i++)
		len += stk[i].n * o.width + 8;
	sp = xbig_hold(&smem, len + 1, 1, NULL);
	for (i = 0; i < n; i++) {
		v[i].i = i;
		o.at[i] = sp;
		sp += stk[i].n * o.width + 8;
	}
	sort_all(&o, v, n, par);
	free((void *)(uintptr_t)o.key);
	xbig_free(&tmem), xbig_free(&amem), xbig_free(&smem);
	/* Made once the sort's room is given back: the peak stays its. */
	at = xbig_hold(mem, n + 1, sizeof(*at), NULL);
	for (i = 0; i < n; i++) {
		at[i] = v[i].i;
		same[i] /= o.width;
	}
	xbig_free(&vmem);
	return at;
}
