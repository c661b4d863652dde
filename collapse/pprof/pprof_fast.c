/* pprof_fast: one pass.  A sample is keyed by its location field's bytes
 * (pprof_kset, which keeps a key's sums of every value type: which type
 * is drawn is known only at the end), looked up some samples after it is
 * read so that the cache misses of the lookups overlap.  At the end each
 * key whose sum is not zero becomes a stack of frame ids: its locations'
 * frames, every location's built once, every function named once. */
#include "pprof_fast.h"
#include "pprof_kset.h"
#include "pprof_set.h"
#include "pprof_stack.h"
#include "pbuf.h"
#include "tpool.h"
#include "xalloc.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Value types a sample may have here: more go to pprof_stack_add. */
#define TYPES 4
/* How far ahead (in samples) the slots, and the keys in them, are
 * fetched, and the input (in bytes). */
#define AHEAD 16
#define AHEAD_KEY 8
#define PREFETCH 512
/* A key's slot is fetched ahead at every size; its record, through the
 * probe to the slot of its tag (pprof_kset_prefetch_rec, a call), only
 * once the table is larger than FAR bytes (looked at every FAR_EVERY
 * samples).  A smaller table stays in the cache, where that call costs
 * more than it saves (a tenth of the run with 1,000 keys): the record
 * of the slot's first probe is hinted inline instead (1,000 keys: 68.6
 * -> 66.5 ms; 10,000: 43.2 -> 41.7). */
#define FAR ((size_t)1 << 20)
#define FAR_EVERY 1024

/* Bytes of sample fields in runs handed to a thread at a time, by
 * default (two to three milliseconds' work): the last thread to finish
 * waits for the others less than that. */
#define JOB ((size_t)2 << 20)
/* Jobs waiting for a worker at most: when they are as many, the caller
 * reads the next one itself. */
#define QUEUE 2

/* A sample read, not yet looked up. */
struct pend {
	const unsigned char *key;	/* its location field... */
	size_t klen;			/* ...of this many bytes */
	uint64_t h;			/* their hash */
	unsigned char own[PPROF_KSET_WIDE];	/* it, near the input's end */
	uint64_t v[TYPES];		/* its values */
};

/* The keys one thread has met: the caller's, or a worker's of the pool
 * (merged at the end).  Lanes side by side share no cache line: each
 * thread writes its own at every sample. */
struct lane {
	struct pprof_kset *seen;	/* keys met, made at the first sample */
	size_t nv;			/* values per sample (the first's) */
	int bad;			/* a sample not taken: of no use */
	int far;			/* the keys outgrew the cache: fetched ahead */
	struct pend ring[AHEAD];	/* samples read ahead */
	size_t head, tail;		/* read, looked up */
	atomic_int *quit;		/* set by a lane that went bad: the
					   others' jobs are of no use either */
	unsigned char gap[128];		/* away from the next lane's lines */
};

/* Runs of samples (whole fields) in p's input, for one lane. */
struct job {
	const struct pprof_prof *p;	/* the profile */
	const unsigned char *at, *end;	/* the fields */
};

struct pprof_fast {
	struct pprof_hook hook;		/* pprof_read's, ctx: this */
	int threads;			/* workers wanted (up to 1: none) */
	size_t job;			/* bytes of samples handed on at a time */
	struct lane *lane;		/* [0] the caller's, then the workers' */
	struct tpool *pool;		/* the workers, once a job is full */
	atomic_int quit;		/* a lane went bad (lane's quit) */
	struct job cur;			/* runs gathered, not yet handed on */
};

/* A field's length at s[*i] (before s[n]), its bytes fitting: into *len,
 * or -1. */
static int length(const unsigned char *s, size_t *i, size_t n, size_t *len)
{
	uint64_t x;

	if (pb_short_varint(s, i, n, &x) < 0 || x > n - *i)
		return -1;
	*len = (size_t)x;
	return 0;
}

/* The value at s[*i] (a varint before s[n]) into e's next, as long as
 * there is room and it is not negative; else -1. */
static int value(const unsigned char *s, size_t *i, size_t n, struct pend *e, size_t *cnt)
{
	if (*cnt == TYPES || pb_short_varint(s, i, n, &e->v[*cnt]) < 0 || e->v[*cnt] >> 63)
		return -1;
	++*cnt;
	return 0;
}

/* Field 1 (a packed run, tag 0x0a, or one varint, 0x08) from s[at] to
 * s[end] into e's key: the key is the location fields side by side, so
 * one after other fields is not taken (-1). */
static int key_part(const unsigned char *s, size_t at, size_t end, struct pend *e)
{
	if (!e->key)
		e->key = s + at;
	else if (e->key + e->klen != s + at)
		return -1;
	e->klen = (size_t)(s + end - e->key);
	return 0;
}

/* Sample s (n bytes) into e's key and values (*cnt) when it is a packed
 * run of locations then a packed run of values ending it; else 0. */
static int quick(const unsigned char *s, size_t n, struct pend *e, size_t *cnt)
{
	size_t i = pprof_packed_locs(s, n);

	if (!i)
		return 0;
	e->key = s;
	e->klen = i;
	for (*cnt = 0, i += 2; i < n;)
		if (value(s, &i, n, e, cnt) < 0)
			return 0;
	return 1;
}

/* Sample s (n bytes) into e as quick reads it when it has two values
 * (most profiles: pprofgen's, perf's): no loop over the values, no
 * count; else 0, for quick and fields to read it. */
static int quick2(const unsigned char *s, size_t n, struct pend *e)
{
	size_t i = pprof_packed_locs(s, n);
	uint64_t a, b;

	if (!i)
		return 0;
	e->key = s;
	e->klen = i;
	i += 2;
	if (pb_short_varint(s, &i, n, &a) < 0 || pb_short_varint(s, &i, n, &b) < 0 || i != n ||
	    (a | b) >> 63)
		return 0;
	e->v[0] = a;
	e->v[1] = b;
	return 1;
}

/* Sample s (n bytes) into e's key and values (*cnt) when its fields are
 * locations (field 1) and values (field 2), each packed or not, the
 * locations side by side, and labels (field 3, passed over); else 0. */
static int fields(const unsigned char *s, size_t n, struct pend *e, size_t *cnt)
{
	size_t i = 0, at, len = 0;
	uint64_t x;
	int bad = 0;

	e->key = NULL;
	e->klen = 0;
	for (*cnt = 0; !bad && i < n;) {
		at = i++;
		switch (s[at]) {
		case 0x08:
			bad = pb_short_varint(s, &i, n, &x) < 0 || key_part(s, at, i, e) < 0;
			break;
		case 0x0a:
			bad = length(s, &i, n, &len) < 0 || key_part(s, at, i += len, e) < 0;
			break;
		case 0x10:
			bad = value(s, &i, n, e, cnt) < 0;
			break;
		case 0x12:
			if ((bad = length(s, &i, n, &len) < 0))
				break;
			for (len += i; !bad && i < len;)
				bad = value(s, &i, len, e, cnt) < 0;
			break;
		case 0x1a:
			bad = length(s, &i, n, &len) < 0;
			i += len;
			break;
		default:
			bad = 1;
		}
	}
	return !bad && e->key;
}

/* Sample s (n bytes) into e (the packed shape looked for first, as
 * pprofgen and writers of more than two values write it, then any),
 * with values as many as the first sample's and none negative; else 0. */
static int parse(struct lane *l, const unsigned char *s, size_t n, struct pend *e)
{
	size_t cnt;

	if (l->nv == 2 && quick2(s, n, e))
		return 1;
	if ((!quick(s, n, e, &cnt) && !fields(s, n, e, &cnt)) || !cnt)
		return 0;
	if (!l->nv) {
		l->nv = cnt;
		l->seen = pprof_kset_new(cnt);
	}
	return cnt == l->nv;
}

/* Looks sample e up and adds its values to its key's sums. */
static void take(struct lane *l, const struct pend *e)
{
	/* A sum that would wrap (the table's count would too, but whether
	 * it wrapped to 0 is not followed here), or keys made to share a
	 * hash: pprof_stack reads the profile. */
	if (pprof_kset_add(l->seen, e->key, e->klen, e->h, e->v) < 0) {
		l->bad = 1;
		atomic_store_explicit(l->quit, 1, memory_order_relaxed);
	}
}

/* The lookups still pending in l's ring, done. */
static void drain(struct lane *l)
{
	while (l->tail < l->head && !l->bad)
		take(l, &l->ring[l->tail++ % AHEAD]);
}

/* The sample [at, end) (input ending at lim) read ahead into l; the one
 * AHEAD before it looked up. */
static void lane_sample(struct lane *l, const unsigned char *at, const unsigned char *end,
			const unsigned char *lim)
{
	struct pend *e = &l->ring[l->head % AHEAD];

	if (l->bad)
		return;
	/* The input is read once, in order: its bytes are asked for a few
	 * samples ahead of their parsing. */
	__builtin_prefetch(end + PREFETCH);
	if (!parse(l, at, (size_t)(end - at), e)) {
		l->bad = 1;
		atomic_store_explicit(l->quit, 1, memory_order_relaxed);
		return;
	}
	/* pprof_kset reads a short key as WIDE bytes: here, not past lim. */
	if (e->klen <= PPROF_KSET_WIDE && (size_t)(lim - e->key) < PPROF_KSET_WIDE)
		e->key = memcpy(memset(e->own, 0, sizeof(e->own)), e->key, e->klen);
	e->h = pprof_kset_hash(e->key, e->klen);
	/* Whether the keys outgrew the cache is looked at now and then. */
	if ((l->head & (FAR_EVERY - 1)) == 0) {
		l->far = pprof_kset_bytes(l->seen) > FAR;
		pprof_kset_tune(l->seen, l->tail);
	}
	pprof_kset_prefetch(l->seen, e->h);
	if (++l->head - l->tail < AHEAD)
		return;
	if (l->far)
		pprof_kset_prefetch_rec(l->seen, l->ring[(l->tail + AHEAD_KEY) % AHEAD].h,
					l->ring[(l->tail + AHEAD_KEY) % AHEAD].klen);
	else
		pprof_kset_prefetch_near(l->seen, l->ring[(l->tail + AHEAD_KEY) % AHEAD].h);
	take(l, &l->ring[l->tail++ % AHEAD]);
}

/* Job j's samples into l, every lookup done, then its pages given back:
 * they are not read again (tpool's job function: l is the worker's). */
static void lane_run(void *lane, void *job)
{
	struct lane *l = lane;
	const struct job *j = job;
	const unsigned char *q = j->at, *body, *lim = j->p->buf + j->p->len;
	size_t n;

	/* The fields were read and checked: a tag, a length of one or two
	 * bytes, the sample.  None is read once a lane went bad. */
	if (atomic_load_explicit(l->quit, memory_order_relaxed))
		l->bad = 1;
	while (q < j->end && !l->bad) {
		n = q[1] & 0x7f;
		body = q + 2;
		if (q[1] & 0x80)
			n |= (size_t)q[2] << 7, body++;
		lane_sample(l, body, body + n, lim);
		q = body + n;
	}
	drain(l);
	pprof_give_back(j->p, (size_t)(j->at - j->p->buf), (size_t)(j->end - j->at));
}

/* A worker's job: run, then freed. */
static void work(void *lane, void *job)
{
	lane_run(lane, job);
	free(job);
}

/* The hook's sample: into the caller's lane. */
static void on_sample(void *ctx, const unsigned char *at, const unsigned char *end,
		      const unsigned char *lim)
{
	struct pprof_fast *f = ctx;

	lane_sample(&f->lane[0], at, end, lim);
}

/* The runs gathered handed to a worker (the pool started at the first)
 * when one is free, else read on this thread. */
static void hand_on(struct pprof_fast *f)
{
	void *states[64];
	struct job *j;
	int i;

	if (f->cur.at == f->cur.end)
		return;
	if (!f->pool && f->threads > 1) {
		for (i = 1; i < f->threads; i++)
			states[i - 1] = &f->lane[i];
		f->pool = tpool_new(f->threads - 1, QUEUE, work, states);
		if (!f->pool)
			f->threads = 1;
	}
	j = f->pool ? memcpy(xmalloc(sizeof(*j)), &f->cur, sizeof(*j)) : NULL;
	if (!j || tpool_try_submit(f->pool, j) < 0) {
		free(j);
		lane_run(&f->lane[0], &f->cur);
	}
	f->cur.at = f->cur.end;
}

/* The hook's run: gathered while they follow one another, handed on by
 * the JOB bytes. */
static void on_run(void *ctx, const struct pprof_prof *p, const unsigned char *at,
		   const unsigned char *end)
{
	struct pprof_fast *f = ctx;

	if (f->cur.end != at)
		hand_on(f);
	if (f->cur.at == f->cur.end) {
		f->cur.p = p;
		f->cur.at = at;
	}
	f->cur.end = end;
	if ((size_t)(f->cur.end - f->cur.at) >= f->job)
		hand_on(f);
}

struct pprof_fast *pprof_fast_new(int threads, size_t job)
{
	struct pprof_fast *f = xcalloc(1, sizeof(*f));
	int i;

	f->job = job ? job : JOB;
	f->threads = threads < 1 ? 1 : threads > 64 ? 64 : threads;
	f->lane = xcalloc((size_t)f->threads, sizeof(*f->lane));
	atomic_init(&f->quit, 0);
	for (i = 0; i < f->threads; i++)
		f->lane[i].quit = &f->quit;
	f->hook.sample = on_sample;
	/* On one thread the samples are read as the reader steps over them,
	 * while their bytes are in the cache: no runs. */
	f->hook.run = f->threads > 1 ? on_run : NULL;
	f->hook.ctx = f;
	return f;
}

/* Waits for the workers (if any) and stops them. */
static void stop(struct pprof_fast *f)
{
	hand_on(f);
	tpool_free(f->pool);
	f->pool = NULL;
}

void pprof_fast_free(struct pprof_fast *f)
{
	int i;

	if (!f)
		return;
	stop(f);
	for (i = 0; i < f->threads; i++)
		pprof_kset_free(f->lane[i].seen);
	free(f->lane);
	free(f);
}

const struct pprof_hook *pprof_fast_hook(struct pprof_fast *f)
{
	return &f->hook;
}

/* The lanes' keys to be made one (merge): the workers stopped, the
 * lookups pending done.  Returns the first lane's set that has any, or
 * NULL with none; sets *bad when a lane took no more, and *many when more
 * than one has keys. */
static struct pprof_kset *settle(struct pprof_fast *f, int *bad, int *many)
{
	struct pprof_kset *all = NULL;
	int i;

	stop(f);
	drain(&f->lane[0]);
	*bad = *many = 0;
	for (i = 0; i < f->threads; i++) {
		*bad |= f->lane[i].bad;
		*many |= all && f->lane[i].seen;
		all = all ? all : f->lane[i].seen;
	}
	return all;
}

/* Every other lane's keys added to the first's (settle's all), each
 * lane's table freed once added (the peak memory is then all's and one
 * lane's): 0, or -1 when they cannot be. */
static int merge(struct pprof_fast *f, struct pprof_kset *all)
{
	struct lane *l;
	int i, rc;

	for (i = 0; i < f->threads; i++) {
		if (!(l = &f->lane[i])->seen || l->seen == all)
			continue;
		rc = pprof_kset_merge(all, l->seen);
		pprof_kset_free(l->seen);
		l->seen = NULL;
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* A location's frames, once built. */
struct lrec {
	uint32_t a;		/* its frames' place in pool; not built:
				   its index in p->loc + 1 */
	uint32_t cnt;		/* how many (0: not built, or with a 0 no such
				   location) */
	uint32_t tlen;		/* their text's bytes (PPROF_MAX_STACK + 1: more) */
};

/* A function's frame, once named. */
struct fname {
	uint32_t id;		/* its frame, UINT32_MAX: not yet */
	size_t len;		/* its name's length */
};

/* Turning keys into stacks. */
struct res {
	const struct pprof_prof *p;	/* the profile */
	struct pprof_set *set;		/* where the stacks go */
	size_t type;			/* the value type drawn */
	struct lrec *rec;		/* each location's frames: by id when
					   direct, else by index in p->loc
					   (all built first, in order, unless
					   lazy) */
	size_t nrec;			/* how many */
	int direct;			/* ids run from 1 with few gaps (as
					   nearly always): rec by id, no search */
	int lazy;			/* few keys: locations built as met */
	uint32_t *pool;			/* the locations' frames */
	size_t npool, poolcap;		/* ids used, room */
	struct fname *fname;		/* each function's frame, by index */
	uint64_t *ids;			/* a key's locations */
	size_t idcap;			/* room */
	const struct lrec **locs;	/* a key's locations' records */
	size_t lcap;			/* room */
	char *name;			/* a name being tidied */
	size_t ncap;			/* room */
	uint64_t used, budget;		/* bytes as pprof_stack counts them; its limit */
	int bad;			/* a key pprof_stack would not take */
};

/* The frame of name (n bytes), tidied as pprof_stack tidies it. */
static uint32_t name_id(struct res *r, const char *s, size_t n)
{
	xgrow(&r->name, &r->ncap, n + 1, 1);
	pprof_tidy_name(r->name, s, n);
	return pprof_set_name(r->set, r->name, n);
}

/* Location l's frame when no function names it (pprof_where); its
 * length in *n. */
static uint32_t where_id(struct res *r, const struct pprof_loc *l, size_t *n)
{
	struct pprof_where w;

	pprof_where(r->p, l, &w);
	*n = w.n + 2 * (size_t)w.bracket;
	xgrow(&r->name, &r->ncap, *n + 1, 1);
	if (w.bracket) {
		r->name[0] = '[';
		memcpy(r->name + 1, w.s, w.n);
		r->name[*n - 1] = ']';
	} else
		memcpy(r->name, w.s, w.n);
	/* name_id tidies in place: the copy is its own source. */
	return name_id(r, r->name, *n);
}

/* Function fn's frame (its name, else its system name), named once;
 * the name's length in *n. */
static uint32_t func_id(struct res *r, const struct pprof_func *fn, size_t *n)
{
	struct fname *e = &r->fname[fn - r->p->fn];
	const char *s;

	if (e->id != UINT32_MAX) {
		*n = e->len;
		return e->id;
	}
	s = pprof_str(r->p, fn->name, n);
	if (!*n)
		s = pprof_str(r->p, fn->sysname, n);
	e->id = name_id(r, s, *n);
	e->len = *n;
	return e->id;
}

/* Location l's frames into e, root first (its last line first). */
static void build_loc(struct res *r, const struct pprof_loc *l, struct lrec *e)
{
	const struct pprof_func *fn;
	size_t i, n, first = r->npool;
	uint64_t len = 0;
	uint32_t id;

	for (i = l->nlines + !l->nlines; i-- > 0;) {
		fn = l->nlines ? pprof_func(r->p, r->p->line_fn[l->line0 + i]) : NULL;
		if (!fn)
			id = where_id(r, l, &n);
		else
			id = func_id(r, fn, &n);
		if (r->npool + PPROF_SET_SLACK >= r->poolcap)
			xgrow(&r->pool, &r->poolcap, r->npool + 1 + PPROF_SET_SLACK,
			      sizeof(*r->pool));
		r->pool[r->npool++] = id;
		len += n + (r->npool - first > 1);
	}
	/* key_stack copies PPROF_SET_SLACK ids from a location's first:
	 * those past the last location's are there and set. */
	memset(r->pool + r->npool, 0, PPROF_SET_SLACK * sizeof(*r->pool));
	e->cnt = (uint32_t)(r->npool - first);
	e->a = (uint32_t)first;
	e->tlen = len > PPROF_MAX_STACK ? (uint32_t)PPROF_MAX_STACK + 1 : (uint32_t)len;
	/* Every location is counted, used or not: more than pprof_stack
	 * counts, so a profile it would stop is not taken here either (a
	 * lazy one's were counted by loc_len). */
	if (!r->lazy)
		r->used += len;
}

/* Location l's text's bytes as build_loc makes it, its frames not
 * named. */
static uint64_t loc_len(const struct res *r, const struct pprof_loc *l)
{
	const struct pprof_func *fn;
	struct pprof_where w;
	size_t i, n, k = l->nlines + !l->nlines;
	uint64_t len = k - 1;

	for (i = 0; i < k; i++) {
		fn = l->nlines ? pprof_func(r->p, r->p->line_fn[l->line0 + i]) : NULL;
		if (fn && (pprof_str(r->p, fn->name, &n), !n))
			pprof_str(r->p, fn->sysname, &n);
		if (!fn) {
			pprof_where(r->p, l, &w);
			n = w.n + 2 * (size_t)w.bracket;
		}
		len += n;
	}
	return len;
}

/* The frames of location id, built when not yet; NULL for an id not in
 * the profile, or frames too many to number. */
static const struct lrec *loc_of(struct res *r, uint64_t id)
{
	const struct pprof_loc *l;
	struct lrec *e;

	if (r->direct)
		e = id < r->nrec ? &r->rec[id] : NULL;
	else
		e = (l = pprof_loc(r->p, id)) ? &r->rec[l - r->p->loc] : NULL;
	if (e && e->cnt)
		return e;
	if (!e || !e->a || r->npool >= UINT32_MAX - 1)
		return NULL;
	build_loc(r, &r->p->loc[e->a - 1], e);
	return e;
}

/* The location ids of key (klen bytes: field 1 entries, packed runs or
 * single varints) into r->ids; returns how many, 0 when they cannot be
 * read. */
static size_t key_ids(struct res *r, const unsigned char *key, size_t klen)
{
	size_t i = 0, n = 0, end;

	/* A varint is at least a byte: klen of them at most. */
	if (klen > r->idcap)
		xgrow(&r->ids, &r->idcap, klen, sizeof(*r->ids));
	while (i < klen) {
		if (key[i++] == 0x08) {
			if (pb_short_varint(key, &i, klen, &r->ids[n++]) < 0)
				return 0;
			continue;
		}
		if (key[i - 1] != 0x0a || length(key, &i, klen, &end) < 0)
			return 0;
		for (end += i; i < end;)
			if (pb_short_varint(key, &i, end, &r->ids[n++]) < 0)
				return 0;
	}
	return n;
}

/* The stack of key (klen bytes) weighing c into the set, or r->bad:
 * its locations looked up (and its length checked) first, then their
 * frames copied into the set's room. */
static void key_stack(struct res *r, const unsigned char *key, size_t klen, uint64_t c)
{
	size_t n = key_ids(r, key, klen), slen = 0, len = 0, i, j;
	const struct lrec *e;
	uint32_t *d;

	if (!n || n > r->lcap)
		xgrow(&r->locs, &r->lcap, n + 1, sizeof(*r->locs));
	for (i = 0; i < n; i++) {
		if (!(r->locs[i] = loc_of(r, r->ids[i])) ||
		    (slen += r->locs[i]->tlen + 1) > PPROF_MAX_STACK) {
			n = 0;
			break;
		}
		len += r->locs[i]->cnt;
	}
	if (!n) {
		r->bad = 1;
		return;
	}
	r->used += slen - 1;
	d = pprof_set_grow(r->set, len);
	while (n-- > 0) {
		e = r->locs[n];
		/* A few frames (nearly always) as one copy of a fixed size,
		 * into the slack past the room when they are the last: no
		 * branch on how many. */
		if (e->cnt <= PPROF_SET_SLACK)
			memcpy(d, r->pool + e->a, PPROF_SET_SLACK * sizeof(*d));
		else
			for (j = 0; j < e->cnt; j++)
				d[j] = r->pool[e->a + j];
		d += e->cnt;
	}
	pprof_set_end(r->set, c);
}

/* Builds r's location records, by id when the ids are dense, in the
 * order of the locations (their lines are read in order).  Returns -1
 * when the frames are too many to number or two locations share an id. */
static int res_init(struct res *r, const struct pprof_prof *p)
{
	size_t i, n;

	r->p = p;
	r->nrec = p->nloc;
	if (p->nloc && p->loc[p->nloc - 1].id < (uint64_t)p->nloc * 2 + 1024) {
		r->direct = 1;
		r->nrec = (size_t)p->loc[p->nloc - 1].id + 1;
	}
	if (!r->lazy)
		pprof_set_reserve(r->set, p->nfn);
	r->rec = xcalloc(r->nrec + 1, sizeof(*r->rec));
	r->fname = xmalloc((p->nfn + 1) * sizeof(*r->fname));
	for (i = 0; i < p->nfn; i++)
		r->fname[i].id = UINT32_MAX;
	/* Every location built: the functions named in their order (and
	 * their names' in the string table), not the locations'. */
	for (i = 0; !r->lazy && i < p->nfn; i++)
		func_id(r, &p->fn[i], &n);
	for (i = 0; i < p->nloc; i++) {
		struct lrec *e = &r->rec[r->direct ? p->loc[i].id : i];

		/* Two locations of one id: which pprof_loc finds is its own
		 * affair. */
		if ((i && p->loc[i].id == p->loc[i - 1].id) || r->npool >= UINT32_MAX - 1)
			return -1;
		if (!r->lazy)
			build_loc(r, &p->loc[i], e);
		else {
			e->a = (uint32_t)(i + 1);
			r->used += loc_len(r, &p->loc[i]);
		}
	}
	/* pprof_stack's limit on the stacks' bytes (see there). */
	r->budget = (uint64_t)p->len * 256 + ((uint64_t)64 << 20);
	return 0;
}

/* The stacks of count keys of seen from *pos on (SIZE_MAX: to the end)
 * into r's set, or r->bad; returns their weights' total. */
static uint64_t key_stacks(struct res *r, const struct pprof_kset *seen, size_t pos,
			   size_t count)
{
	const unsigned char *key;
	const uint64_t *sums;
	uint64_t total = 0;
	size_t klen;

	while (count-- > 0 && !r->bad && pprof_kset_next(seen, &pos, &key, &klen, &sums)) {
		/* Weights passing 2^64 together go on in floating point,
		 * where the order of the adds shows in the last digits: such
		 * a profile is read sample by sample (pprof_stack), in the
		 * order its figures are defined by. */
		if ((r->bad = total + sums[r->type] < total))
			break;
		total += sums[r->type];
		if (sums[r->type])
			key_stack(r, key, klen, sums[r->type]);
	}
	return total;
}

/* The keys from the middle on, turned into stacks on a thread of their
 * own: a copy of the caller's res (its records and frames only read, all
 * built before) with buffers and a set of its own. */
struct half {
	struct res r;			/* the copy */
	const struct pprof_kset *seen;	/* the keys */
	size_t skip;			/* the caller's, before the middle */
	uint64_t total;			/* the weights of the stacks made */
};

static void *second_half(void *arg)
{
	struct half *h = arg;
	const unsigned char *key;
	const uint64_t *sums;
	size_t pos = 0, klen;

	while (h->skip-- > 0)
		pprof_kset_next(h->seen, &pos, &key, &klen, &sums);
	h->total = key_stacks(&h->r, h->seen, pos, SIZE_MAX);
	return NULL;
}

/* Keys from this many on are made stacks on two threads (when read on
 * more than one: their locations are all built first then). */
#define HALVES 8192

/* Every key of seen made a stack in r->set, the second half on another
 * thread when par is set, there are many and r->lazy is not set; r->bad
 * as key_stacks. */
static void all_stacks(struct res *r, const struct pprof_kset *seen, int par)
{
	struct half h = { 0 };
	pthread_t th;
	size_t n = pprof_kset_count(seen);
	uint64_t total;

	if (!par || r->lazy || n < HALVES)
		return (void)key_stacks(r, seen, 0, SIZE_MAX);
	h.r = *r;
	h.r.ids = NULL, h.r.idcap = 0, h.r.locs = NULL, h.r.lcap = 0;
	h.r.name = NULL, h.r.ncap = 0, h.r.used = 0;
	h.r.set = pprof_set_new();
	h.seen = seen;
	h.skip = n / 2;
	if (pthread_create(&th, NULL, second_half, &h) != 0) {
		pprof_set_free(h.r.set);
		return (void)key_stacks(r, seen, 0, SIZE_MAX);
	}
	total = key_stacks(r, seen, 0, n / 2);
	pthread_join(th, NULL);
	r->bad |= h.r.bad || total + h.total < total;
	r->used += h.r.used;
	pprof_set_take(r->set, h.r.set);
	pprof_set_free(h.r.set);
	free(h.r.ids), free(h.r.locs), free(h.r.name);
}

/* Every lane's table freed: its keys are stacks now, or the profile is
 * to be read another way (while it is, they would only take memory). */
static void drop(struct pprof_fast *f)
{
	int i;

	for (i = 0; i < f->threads; i++) {
		pprof_kset_free(f->lane[i].seen);
		f->lane[i].seen = NULL;
	}
}

/* The lanes' keys merged on a thread of their own while the caller
 * builds the locations. */
struct merging {
	struct pprof_fast *f;		/* the lanes */
	struct pprof_kset *all;		/* where their keys go */
	int rc;				/* merge's */
};

static void *merge_apart(void *arg)
{
	struct merging *m = arg;

	m->rc = merge(m->f, m->all);
	return NULL;
}

int pprof_fast_finish(struct pprof_fast *f, const struct pprof_prof *p, int vi,
		      struct pprof_set *set)
{
	struct res r = { 0 };
	struct merging m = { f, NULL, 0 };
	size_t mark = pprof_set_mark(set), nv;
	pthread_t th;
	int bad, many, apart;

	m.all = settle(f, &bad, &many);
	nv = m.all ? pprof_kset_sums(m.all) : 0;
	if (bad || (p->ntypes && nv != p->ntypes) || vi < 0 ||
	    (p->ntypes && (size_t)vi >= p->ntypes)) {
		drop(f);
		return -1;
	}
	if (!m.all)
		return 0;
	r.set = set;
	r.type = p->ntypes ? (size_t)vi : nv - 1;
	/* Few keys use few of the locations: those are built as met, in the
	 * order of the keys.  Keys merged from several lanes come in an order
	 * that varies from run to run: every location is built then, so that
	 * the frames' ids do not vary (and the stacks may be made on two
	 * threads). */
	r.lazy = !many && pprof_kset_count(m.all) * 8 < p->nloc && p->nloc < UINT32_MAX;
	apart = many && pthread_create(&th, NULL, merge_apart, &m) == 0;
	if (many && !apart)
		m.rc = merge(f, m.all);
	r.bad = res_init(&r, p) < 0;
	if (apart)
		pthread_join(th, NULL);
	r.bad |= m.rc < 0;
	if (!r.bad)
		all_stacks(&r, m.all, f->threads > 1);
	if (r.used > r.budget)
		r.bad = 1;
	if (r.bad)
		pprof_set_undo(set, mark);
	free(r.rec), free(r.pool), free(r.ids), free(r.fname);
	free(r.locs), free(r.name);
	drop(f);
	return r.bad ? -1 : 0;
}
