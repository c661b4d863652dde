/* perf_stacks: the ids of every distinct stack one after another in one
 * array, an entry per stack (where its ids are, its count), and an
 * open-addressing index whose slots keep 24 bits of the hash beside where
 * the stack's record is, so a probe rarely reads a record that is not the
 * one.  Frame names sit in a strtab (their ids) with an index of the same
 * kind.
 *
 * An event's stack is counted two adds late (LAG): its add hashes it and
 * asks for its slot, the next add looks in that slot and asks for the
 * record there, and the one after counts it, both then in the cache (a
 * table of many stacks is far bigger than the cache: three misses an
 * event, one after the other, were most of an add).  Pending adds are
 * settled in order before anything else reads the table, so the order
 * stacks are first seen in, and every count, are as without the lag. */
#include "perf_stacks.h"
#include "blockout.h"
#include "fnames.h"
#include "hkey.h"
#include "outfile.h"
#include "stacksink.h"
#include "strtab.h"
#include "xalloc.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A stack's record in ids: its frame count, a pad, its struct fcount
 * (copied in and out: only 4-byte aligned), then its ids.  The count
 * sits beside the ids, so an event's lookup reads one place past its
 * hash slot. */
#define HDR (2 + sizeof(struct fcount) / sizeof(uint32_t))

/* A slot: the hash's top bits, then where the record starts in ids + 1;
 * 0 is empty. */
#define TAG_SHIFT 40
#define OFF_MASK (((uint64_t)1 << TAG_SHIFT) - 1)

#define LAG 2	/* adds pending at most */

/* An add not yet counted. */
struct pending {
	uint32_t *ids;		/* a copy of its frames */
	size_t n;		/* how many */
	size_t cap;		/* capacity of ids */
	uint64_t h;		/* their hash */
	struct fcount c;	/* what to add */
};

struct perf_stacks {
	struct fnames fn;	/* frame names; the id is the index */
	uint32_t *ids;		/* the stacks' records, one after another */
	size_t nids;		/* words in use */
	size_t idcap;		/* capacity of ids */
	size_t *stk;		/* where each stack's record starts, in the
				   order first seen */
	size_t nstk;		/* how many */
	size_t stkcap;		/* capacity of stk */
	uint64_t *slot;		/* stack index: tag | (record + 1), 0 empty */
	size_t mask;		/* its slots - 1 (a power of two) */
	struct pending pend[LAG];	/* adds not yet counted, a ring */
	size_t first;		/* the oldest of them */
	size_t npend;		/* how many */
	int threads;		/* above 1: sort and write on two threads... */
	size_t par_min;		/* ...when there are this many stacks */
};

/* Stacks ahead whose records are asked for while sorting and writing. */
#define AHEAD 8
/* Below this many stacks a second thread costs more than it saves. */
#define PAR_MIN 32768
/* Stacks per block of output text a thread formats at a time. */
#define BLOCK 2048

struct perf_stacks *perf_stacks_new(void)
{
	struct perf_stacks *t = xcalloc(1, sizeof(*t));

	fnames_init(&t->fn, 1024);
	t->mask = 4095;
	t->slot = xcalloc(t->mask + 1, sizeof(*t->slot));
	return t;
}

void perf_stacks_threads(struct perf_stacks *t, int threads)
{
	const char *min = getenv("FLAME_PAR_MIN");	/* tests: small inputs too */

	t->threads = threads;
	t->par_min = min ? (size_t)strtoul(min, NULL, 10) : PAR_MIN;
}

void perf_stacks_free(struct perf_stacks *t)
{
	if (!t)
		return;
	fnames_release(&t->fn);
	for (size_t i = 0; i < LAG; i++)
		free(t->pend[i].ids);
	free(t->ids);
	free(t->stk);
	free(t->slot);
	free(t);
}

static uint64_t tagged(uint64_t h, size_t off)
{
	return (h >> TAG_SHIFT) << TAG_SHIFT | ((uint64_t)off + 1);
}

/* Puts the record at off (hash h) in the first free slot of a table. */
static void slot_put(uint64_t *slot, size_t mask, uint64_t h, size_t off)
{
	size_t s;

	for (s = (size_t)h & mask; slot[s] != 0; s = (s + 1) & mask)
		;
	slot[s] = tagged(h, off);
}

uint32_t perf_stacks_frame(struct perf_stacks *t, const char *name, size_t len)
{
	return fnames_id(&t->fn, name, len);
}

const char *perf_stacks_frame_name(const struct perf_stacks *t, uint32_t id, size_t *len)
{
	*len = t->fn.len[id];
	return t->fn.name[id];
}

static uint32_t rec_n(const struct perf_stacks *t, size_t i)
{
	return t->ids[t->stk[i]];
}

static const uint32_t *rec_ids(const struct perf_stacks *t, size_t i)
{
	return t->ids + t->stk[i] + HDR;
}

static struct fcount rec_count(const struct perf_stacks *t, size_t i)
{
	struct fcount c;

	memcpy(&c, t->ids + t->stk[i] + 2, sizeof(c));
	return c;
}

static uint64_t ids_hash(const uint32_t *ids, size_t n)
{
	return hkey(ids, n * sizeof(*ids));
}

static void rehash(struct perf_stacks *t)
{
	size_t mask = t->mask * 2 + 1, i;
	uint64_t *slot = xcalloc(mask + 1, sizeof(*slot));

	for (i = 0; i < t->nstk; i++)
		slot_put(slot, mask, ids_hash(rec_ids(t, i), rec_n(t, i)), t->stk[i]);
	free(t->slot);
	t->slot = slot;
	t->mask = mask;
}

/* A stack not seen before, for slot s of the index (hash h); returns
 * its record. */
static uint32_t *new_stack(struct perf_stacks *t, const uint32_t *frames, size_t n, uint64_t h,
			   size_t s)
{
	uint32_t *r;

	if (t->nstk >= UINT32_MAX - 1 || n > UINT32_MAX - HDR || t->nids + n + HDR >= OFF_MASK)
		xalloc_fail(t->nstk * sizeof(*t->stk));
	if (t->idcap - t->nids < n + HDR)
		xgrow(&t->ids, &t->idcap, t->nids + n + HDR, sizeof(*t->ids));
	r = t->ids + t->nids;
	memset(r, 0, HDR * sizeof(*r));
	r[0] = (uint32_t)n;
	memcpy(r + HDR, frames, n * sizeof(*frames));
	if (t->nstk == t->stkcap)
		xgrow(&t->stk, &t->stkcap, t->nstk + 1, sizeof(*t->stk));
	t->stk[t->nstk++] = t->nids;
	t->slot[s] = tagged(h, t->nids);
	t->nids += n + HDR;
	/* Load at most 1/2: the probes stay short. */
	if (t->nstk * 2 > t->mask + 1)
		rehash(t);
	return r;
}

/* Adds c to the count in record r. */
static void rec_add(uint32_t *r, const struct fcount *c)
{
	struct fcount acc;

	memcpy(&acc, r + 2, sizeof(acc));
	fcount_add(&acc, c);
	memcpy(r + 2, &acc, sizeof(acc));
}

/* Counts a pending add. */
static void settle_one(struct perf_stacks *t, const struct pending *e)
{
	size_t s = (size_t)e->h & t->mask;
	uint64_t v;
	uint32_t *r;

	for (; (v = t->slot[s]) != 0; s = (s + 1) & t->mask) {
		r = t->ids + (v & OFF_MASK) - 1;
		if ((v ^ e->h) >> TAG_SHIFT == 0 && r[0] == e->n &&
		    memcmp(r + HDR, e->ids, e->n * sizeof(*e->ids)) == 0) {
			rec_add(r, &e->c);
			return;
		}
	}
	rec_add(new_stack(t, e->ids, e->n, e->h, s), &e->c);
}

/* Counts every pending add, oldest first. */
static void settle(struct perf_stacks *t)
{
	for (; t->npend; t->npend--, t->first = (t->first + 1) % LAG)
		settle_one(t, &t->pend[t->first]);
}

/* Asks for the record in the first slot of e's hash that may be it. */
static void fetch_record(const struct perf_stacks *t, const struct pending *e)
{
	size_t s = (size_t)e->h & t->mask;
	uint64_t v;

	for (; (v = t->slot[s]) != 0; s = (s + 1) & t->mask) {
		if ((v ^ e->h) >> TAG_SHIFT == 0) {
			__builtin_prefetch(t->ids + (v & OFF_MASK) - 1);
			return;
		}
	}
}

void perf_stacks_add(struct perf_stacks *t, const uint32_t *frames, size_t n,
		     const struct fcount *c)
{
	struct pending *e;

	if (t->npend == LAG) {
		settle_one(t, &t->pend[t->first]);
		t->first = (t->first + 1) % LAG;
		t->npend--;
	}
	if (t->npend)
		fetch_record(t, &t->pend[(t->first + t->npend - 1) % LAG]);
	e = &t->pend[(t->first + t->npend) % LAG];
	xgrow(&e->ids, &e->cap, n ? n : 1, sizeof(*e->ids));
	memcpy(e->ids, frames, n * sizeof(*frames));
	e->n = n;
	e->h = ids_hash(frames, n);
	e->c = *c;
	__builtin_prefetch(&t->slot[(size_t)e->h & t->mask]);
	t->npend++;
}

/* Forgets the stacks (the names stay). */
static void clear(struct perf_stacks *t)
{
	memset(t->slot, 0, (t->mask + 1) * sizeof(*t->slot));
	t->nstk = 0;
	t->nids = 0;
}

void perf_stacks_absorb(struct perf_stacks *t, struct perf_stacks *from)
{
	uint32_t *fmap, *buf = NULL;
	size_t i, k, nf = fnames_count(&from->fn), cap = 0;

	settle(t);
	settle(from);
	if (!from->nstk)
		return;
	if (!t->nstk && !fnames_count(&t->fn)) {
		/* Nothing here yet (the calling thread of a threaded run):
		 * from's table is taken whole, no stack hashed again. */
		struct perf_stacks tmp = *t;

		*t = *from;
		*from = tmp;
		return;
	}
	fmap = xmalloc((nf ? nf : 1) * sizeof(*fmap));
	for (i = 0; i < nf; i++)
		fmap[i] = perf_stacks_frame(t, from->fn.name[i], from->fn.len[i]);
	for (i = 0; i < from->nstk; i++) {
		const uint32_t *id = rec_ids(from, i);
		size_t n = rec_n(from, i);
		struct fcount c = rec_count(from, i);

		xgrow(&buf, &cap, n, sizeof(*buf));
		for (k = 0; k < n; k++)
			buf[k] = fmap[id[k]];
		perf_stacks_add(t, buf, n, &c);
	}
	settle(t);
	clear(from);
	free(buf);
	free(fmap);
}

/* Stack i, frames joined with ';', into *buf; returns its length. */
static size_t stack_str(const struct perf_stacks *t, size_t i, char **buf, size_t *cap)
{
	const uint32_t *id = rec_ids(t, i);
	size_t n = rec_n(t, i), len = n - 1, o = 0, k;

	for (k = 0; k < n; k++)
		len += t->fn.len[id[k]];
	xgrow(buf, cap, len + 1, 1);
	for (k = 0; k < n; k++) {
		if (k)
			(*buf)[o++] = ';';
		memcpy(*buf + o, t->fn.name[id[k]], t->fn.len[id[k]]);
		o += t->fn.len[id[k]];
	}
	return len;
}

/* Sorting.  A stack's text is its frames' keys one after another: the
 * name and ';', or for the last frame the name and the end (which sorts
 * before any byte).  Names hold no ';' (perf.c splits them there), so no
 * key begins another and stacks sort as their lists of key ranks: the
 * keys (2 per name) are ranked once, and stacks are compared by ids
 * while they agree, then by the ranks of the first keys that differ. */
struct sortkey {
	const uint32_t *id;	/* the stack's frames */
	uint32_t n;		/* how many */
	uint32_t stack;		/* its index */
};

/* Key k: frame k / 2, ending the stack when k is odd. */
static int cmp_keys(const struct perf_stacks *t, uint32_t a, uint32_t b)
{
	const char *x = t->fn.name[a / 2], *y = t->fn.name[b / 2];
	size_t nx = t->fn.len[a / 2], ny = t->fn.len[b / 2], n = nx < ny ? nx : ny;
	int r = memcmp(x, y, n), cx, cy;

	if (r || a == b)
		return r;
	cx = nx > n ? (unsigned char)x[n] : a % 2 ? -1 : ';';
	cy = ny > n ? (unsigned char)y[n] : b % 2 ? -1 : ';';
	return (cx > cy) - (cx < cy);
}

/* Merge sort of the keys v (n of them), tmp as room. */
static void sort_keys(const struct perf_stacks *t, uint32_t *v, uint32_t *tmp, size_t n)
{
	size_t h = n / 2, i = 0, j = h, k = 0;

	if (n < 2)
		return;
	sort_keys(t, v, tmp, h);
	sort_keys(t, v + h, tmp, n - h);
	while (i < h && j < n)
		tmp[k++] = cmp_keys(t, v[j], v[i]) < 0 ? v[j++] : v[i++];
	while (i < h)
		tmp[k++] = v[i++];
	memcpy(v, tmp, k * sizeof(*v));
}

/* rank[k]: the place of key k among all keys. */
static uint32_t *key_ranks(const struct perf_stacks *t)
{
	size_t nk = fnames_count(&t->fn) * 2, i;
	uint32_t *v = xmalloc((nk ? nk : 1) * sizeof(*v)), *tmp = xmalloc((nk ? nk : 1) * sizeof(*tmp));

	for (i = 0; i < nk; i++)
		v[i] = (uint32_t)i;
	sort_keys(t, v, tmp, nk);
	for (i = 0; i < nk; i++)
		tmp[v[i]] = (uint32_t)i;
	free(v);
	return tmp;
}

static int cmp_stacks(const uint32_t *rank, const struct sortkey *a, const struct sortkey *b)
{
	uint32_t n = a->n < b->n ? a->n : b->n, k = 0, ra, rb;

	while (k + 1 < n && a->id[k] == b->id[k])
		k++;
	ra = rank[a->id[k] * 2 + (k + 1 == a->n)];
	rb = rank[b->id[k] * 2 + (k + 1 == b->n)];
	return (ra > rb) - (ra < rb);
}

/* Merges the sorted runs v[0, h) and v[h, n) into tmp, the records some
 * stacks ahead on both sides asked for (they are far apart); returns
 * how many went to tmp (the rest of the first run stays to be copied). */
static size_t merge_runs(const uint32_t *rank, const struct sortkey *v, struct sortkey *tmp,
			 size_t h, size_t n)
{
	size_t i = 0, j = h, k = 0;

	while (i < h && j < n) {
		if (i + AHEAD < h)
			__builtin_prefetch(v[i + AHEAD].id);
		if (j + AHEAD < n)
			__builtin_prefetch(v[j + AHEAD].id);
		tmp[k++] = cmp_stacks(rank, &v[j], &v[i]) < 0 ? v[j++] : v[i++];
	}
	while (i < h)
		tmp[k++] = v[i++];
	return k;
}

static void sort_stacks(const uint32_t *rank, struct sortkey *v, struct sortkey *tmp, size_t n)
{
	size_t h = n / 2, k;

	if (n < 2)
		return;
	sort_stacks(rank, v, tmp, h);
	sort_stacks(rank, v + h, tmp, n - h);
	if (cmp_stacks(rank, &v[h - 1], &v[h]) <= 0)
		return;
	k = merge_runs(rank, v, tmp, h, n);
	memcpy(v, tmp, k * sizeof(*v));
}

/* A second thread's half of the sort. */
struct half {
	const uint32_t *rank;	/* key ranks */
	struct sortkey *v;	/* the half */
	struct sortkey *tmp;	/* room as large */
	size_t n;		/* its stacks */
};

static void *sort_half(void *arg)
{
	struct half *h = arg;

	sort_stacks(h->rank, h->v, h->tmp, h->n);
	return NULL;
}

/* sort_stacks with the second half on another thread when it pays; the
 * result is the same (the stacks are distinct, no two compare equal). */
static void sort_all(const struct perf_stacks *t, const uint32_t *rank, struct sortkey *v,
		     struct sortkey *tmp, size_t n)
{
	size_t h = n / 2, k;
	struct half hv = { rank, v + h, tmp + h, n - h };
	pthread_t th;

	if (t->threads < 2 || n < t->par_min || pthread_create(&th, NULL, sort_half, &hv) != 0) {
		sort_stacks(rank, v, tmp, n);
		return;
	}
	sort_stacks(rank, v, tmp, h);
	pthread_join(th, NULL);
	k = merge_runs(rank, v, tmp, h, n);
	memcpy(v, tmp, k * sizeof(*v));
}

/* The stacks' indexes in output order; the caller frees them. */
static uint32_t *sorted(const struct perf_stacks *t)
{
	size_t n = t->nstk ? t->nstk : 1, i;
	uint32_t *rank = key_ranks(t), *out = xmalloc(n * sizeof(*out));
	struct sortkey *v = xmalloc(n * sizeof(*v)), *tmp = xmalloc(n * sizeof(*tmp));

	for (i = 0; i < t->nstk; i++) {
		v[i].id = rec_ids(t, i);
		v[i].n = rec_n(t, i);
		v[i].stack = (uint32_t)i;
	}
	sort_all(t, rank, v, tmp, t->nstk);
	for (i = 0; i < t->nstk; i++)
		out[i] = v[i].stack;
	free(tmp);
	free(v);
	free(rank);
	return out;
}

void perf_stacks_flush(struct perf_stacks *t, struct strtab *out)
{
	/* In output order: a table filled in order needs no sorting after
	 * (strtab_sorted checks first). */
	uint32_t *v;
	char *buf = NULL;
	size_t cap = 0, i;

	settle(t);
	v = sorted(t);
	for (i = 0; i < t->nstk; i++) {
		size_t len = stack_str(t, v[i], &buf, &cap);
		struct fcount c = rec_count(t, v[i]);

		fcount_add(strtab_val(out, strtab_intern(out, buf, len, NULL)), &c);
	}
	free(buf);
	free(v);
	clear(t);
}

void perf_stacks_emit(struct perf_stacks *t, const struct stack_sink *sink)
{
	uint32_t *v;
	size_t i, n = fnames_count(&t->fn);

	settle(t);
	v = sorted(t);
	for (i = 0; i < n; i++)
		sink->frame(sink->ctx, (uint32_t)i, t->fn.name[i], t->fn.len[i]);
	for (i = 0; i < t->nstk; i++) {
		struct fcount c = rec_count(t, v[i]);

		sink->stack(sink->ctx, rec_ids(t, v[i]), rec_n(t, v[i]), &c);
	}
	free(v);
	clear(t);
}

/* The stacks in an order, for format_block. */
struct order {
	const struct perf_stacks *t;	/* the stacks */
	const uint32_t *v;		/* their order */
};

/* Block k of the stacks in order v, as folded_write writes them, into b. */
static void format_block(void *ctx, size_t k, struct blockbuf *b)
{
	const struct order *or = ctx;
	const struct perf_stacks *t = or->t;
	const uint32_t *v = or->v;
	size_t i, j, end = (k + 1) * BLOCK < t->nstk ? (k + 1) * BLOCK : t->nstk;

	for (i = k * BLOCK; i < end; i++) {
		const uint32_t *id;

		/* The records are far apart: ask for them some stacks ahead. */
		if (i + 2 * AHEAD < end)
			__builtin_prefetch(&t->stk[v[i + 2 * AHEAD]]);
		if (i + AHEAD < end)
			__builtin_prefetch(t->ids + t->stk[v[i + AHEAD]]);
		id = rec_ids(t, v[i]);
		size_t n = rec_n(t, v[i]), need = n + 33;	/* ';'s, ' ', count, '\n' */
		struct fcount c = rec_count(t, v[i]);
		char *o;

		for (j = 0; j < n; j++)
			need += t->fn.len[id[j]];
		if (b->cap - b->len < need)
			xgrow(&b->buf, &b->cap, b->len + need, 1);
		o = b->buf + b->len;
		for (j = 0; j < n; j++) {
			if (j)
				*o++ = ';';
			memcpy(o, t->fn.name[id[j]], t->fn.len[id[j]]);
			o += t->fn.len[id[j]];
		}
		*o++ = ' ';
		o += fcount_format(&c, o);
		*o++ = '\n';
		b->len = (size_t)(o - b->buf);
	}
}

/* Writes the stacks in order v to f, the odd blocks formatted by a second
 * thread when it pays (the bytes are the same).  Returns 0, or -1 with
 * errno set by the first write that failed. */
static int write_blocks(const struct perf_stacks *t, const uint32_t *v, FILE *f)
{
	struct order or = { t, v };

	return blockout_write(f, (t->nstk + BLOCK - 1) / BLOCK, format_block, &or,
			      t->threads > 1 && t->nstk >= t->par_min);
}

static int save_blocks(FILE *f, void *ctx)
{
	struct perf_stacks *t = ctx;
	uint32_t *v = sorted(t);
	int rc = write_blocks(t, v, f);

	free(v);
	return rc;
}

int perf_stacks_save(struct perf_stacks *t, const char *path, char *err, size_t errlen)
{
	settle(t);
	return outfile_save(path, save_blocks, t, err, errlen);
}
