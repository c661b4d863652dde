/* pprof_fast: one pass.  A sample is keyed by its location field's bytes
 * (pprof_kset, which keeps a key's sums of every value type: which type
 * is drawn is known only at the end), looked up some samples after it is
 * read so that the cache misses of the lookups overlap; on several
 * threads, each keeps keys of its own, merged at the end.  Then each key
 * whose sum is not zero becomes a stack of frame ids (pprof_build). */
#include "pprof_fast.h"
#include "pprof_build.h"
#include "pprof_kset.h"
#include "pprof_set.h"
#include "pprof_stack.h"
#include "pbuf.h"
#include "tpool.h"
#include "xalloc.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* The per-sample path is inline in the loops over samples (GCC, left
 * to itself, kept parts of it out of line there: a call cost some 40
 * instructions a sample with its prologue); the rare shapes are not. */
#define HOT static inline __attribute__((always_inline))
#define COLD static __attribute__((noinline))

/* Value types a sample may have here: more go to pprof_stack_add. */
#define TYPES 4
/* How far ahead (in samples) the slots, and the keys in them, are
 * fetched. */
#define AHEAD 16
#define AHEAD_KEY 8
/* A key's slot is fetched ahead at every size; its record, through the
 * probe to the slot of its tag (pprof_kset_prefetch_rec), only once the
 * table is larger than FAR bytes (looked at every FAR_EVERY samples).  A
 * smaller table stays in the cache, where the hint costs more than it
 * saves (a tenth of the run with 1,000 keys, as a call); hinting the
 * record of the slot's first probe inline made no difference there
 * (1,000 keys: 64.8 -> 64.9 ms; 10,000: 29.9 -> 29.8).  For a large
 * table the first slot is looked at inline, the others by a call. */
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
	const uint64_t *mix;		/* pprof_kset_mix(1): the keys' hash's */
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
COLD int quick(const unsigned char *s, size_t n, struct pend *e, size_t *cnt)
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

/* The varint at p when it has at most 5 bytes (a value below 2^35:
 * counts and nanoseconds of most samples), into *v; returns the byte
 * after it, or NULL when it goes on.  No loop and no bounds check: the
 * caller has 5 bytes at p.  A loop over the bytes with a check of each
 * (pb_short_varint) was a fifth of the sample pass's instructions. */
static inline const unsigned char *value5(const unsigned char *p, uint64_t *v)
{
	uint64_t x = p[0];

	if (x < 0x80)
		return *v = x, p + 1;
	x = (x & 0x7f) | (uint64_t)p[1] << 7;
	if (p[1] < 0x80)
		return *v = x, p + 2;
	x = (x & 0x3fff) | (uint64_t)p[2] << 14;
	if (p[2] < 0x80)
		return *v = x, p + 3;
	x = (x & 0x1fffff) | (uint64_t)p[3] << 21;
	if (p[3] < 0x80)
		return *v = x, p + 4;
	x = (x & 0xfffffff) | (uint64_t)p[4] << 28;
	if (p[4] < 0x80)
		return *v = x, p + 5;
	return NULL;
}

/* Sample s (n bytes, the input ending at lim) into e as quick reads it
 * when it has two values (most profiles: pprofgen's, perf's): no loop
 * over the values, no count; else 0, for quick and fields to read it.
 * Values of up to 5 bytes each are read by value5 where the input has
 * 5 bytes past the sample, the second only when the first ends inside
 * it (a second that would end past it then makes this 0), any other the
 * long way. */
HOT int quick2(const unsigned char *s, size_t n, const unsigned char *lim, struct pend *e)
{
	size_t i = pprof_packed_locs(s, n);
	const unsigned char *p;
	uint64_t a, b;

	if (!i)
		return 0;
	e->key = s;
	e->klen = i;
	i += 2;
	if ((size_t)(lim - s) - n >= 5 && (p = value5(s + i, &a)) != NULL && p < s + n &&
	    (p = value5(p, &b)) != NULL) {
		if (p != s + n)
			return 0;
	} else if (pb_short_varint(s, &i, n, &a) < 0 || pb_short_varint(s, &i, n, &b) < 0 ||
		   i != n || (a | b) >> 63)
		return 0;
	e->v[0] = a;
	e->v[1] = b;
	return 1;
}

/* Sample s (n bytes) into e's key and values (*cnt) when its fields are
 * locations (field 1) and values (field 2), each packed or not, the
 * locations side by side, and labels (field 3, passed over); else 0. */
COLD int fields(const unsigned char *s, size_t n, struct pend *e, size_t *cnt)
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
			bad = pb_short_length(s, &i, n, &len) < 0 || key_part(s, at, i += len, e) < 0;
			break;
		case 0x10:
			bad = value(s, &i, n, e, cnt) < 0;
			break;
		case 0x12:
			if ((bad = pb_short_length(s, &i, n, &len) < 0))
				break;
			for (len += i; !bad && i < len;)
				bad = value(s, &i, len, e, cnt) < 0;
			break;
		case 0x1a:
			bad = pb_short_length(s, &i, n, &len) < 0;
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
HOT int parse(struct lane *l, const unsigned char *s, size_t n, const unsigned char *lim,
	      struct pend *e)
{
	size_t cnt;

	if (l->nv == 2 && quick2(s, n, lim, e))
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
HOT void take(struct lane *l, const struct pend *e)
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
HOT void lane_sample(struct lane *l, const unsigned char *at, const unsigned char *end,
		     const unsigned char *lim)
{
	struct pend *e = &l->ring[l->head % AHEAD];

	if (l->bad)
		return;
	pprof_read_ahead(end);
	if (!parse(l, at, (size_t)(end - at), lim, e)) {
		l->bad = 1;
		atomic_store_explicit(l->quit, 1, memory_order_relaxed);
		return;
	}
	/* pprof_kset reads a short key as WIDE bytes: here, not past lim. */
	if (e->klen <= PPROF_KSET_WIDE && (size_t)(lim - e->key) < PPROF_KSET_WIDE)
		e->key = memcpy(memset(e->own, 0, sizeof(e->own)), e->key, e->klen);
	e->h = pprof_kset_hash(l->mix, e->key, e->klen);
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

/* The hook's streak, on one thread: the sample fields from q on, read
 * into the caller's lane as they are stepped over. */
static const unsigned char *on_streak(void *ctx, const unsigned char *q,
				      const unsigned char *stop, const unsigned char *end,
				      const unsigned char *lim, size_t *n)
{
	struct lane *const l = &((struct pprof_fast *)ctx)->lane[0];
	const unsigned char *body, *next;
	size_t k = 0;

	while (q < stop && *q == PPROF_SAMPLE_TAG && (next = pprof_quick_sample(q, end, &body))) {
		lane_sample(l, body, next, lim);
		q = next;
		k++;
	}
	*n = k;
	return q;
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
	for (i = 0; i < f->threads; i++) {
		f->lane[i].quit = &f->quit;
		f->lane[i].mix = pprof_kset_mix(1);
	}
	f->hook.sample = on_sample;
	/* On one thread the samples are read as the hook steps over them, a
	 * streak at a time, while their bytes are in the cache: no runs. */
	f->hook.run = f->threads > 1 ? on_run : NULL;
	f->hook.streak = f->threads > 1 ? NULL : on_streak;
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

void pprof_fast_free(struct pprof_fast *f)
{
	if (!f)
		return;
	stop(f);
	drop(f);
	free(f->lane);
	free(f);
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
	struct merging m = { f, NULL, 0 };
	size_t mark = pprof_set_mark(set), nv;
	struct pprof_build *b;
	pthread_t th;
	int bad, many, apart, lazy;

	m.all = settle(f, &bad, &many);
	nv = m.all ? pprof_kset_sums(m.all) : 0;
	if (bad || (p->ntypes && nv != p->ntypes) || vi < 0 ||
	    (p->ntypes && (size_t)vi >= p->ntypes)) {
		drop(f);
		return -1;
	}
	if (!m.all)
		return 0;
	/* Few keys use few of the locations: those are built as met, in the
	 * order of the keys.  Keys merged from several lanes come in an order
	 * that varies from run to run: every location is built then, so that
	 * the frames' ids do not vary (and the stacks may be made on two
	 * threads). */
	lazy = !many && pprof_kset_count(m.all) * 8 < p->nloc && p->nloc < UINT32_MAX;
	apart = many && pthread_create(&th, NULL, merge_apart, &m) == 0;
	if (many && !apart)
		m.rc = merge(f, m.all);
	b = pprof_build_new(p, set, p->ntypes ? (size_t)vi : nv - 1, lazy);
	if (apart)
		pthread_join(th, NULL);
	bad = !b || m.rc < 0 || pprof_build_stacks(b, m.all, f->threads > 1) < 0;
	pprof_build_free(b);
	if (bad)
		pprof_set_undo(set, mark);
	drop(f);
	return bad ? -1 : 0;
}
