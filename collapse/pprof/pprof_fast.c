/* pprof_fast: one pass.  A sample is keyed by its location field's bytes
 * (pprof_kset, which keeps a key's sums of every value type: which type
 * is drawn is known only at the end), looked up some samples after it is
 * read so that the cache misses of the lookups overlap; on several
 * threads, each keeps keys of its own, merged at the end.  Then each key
 * whose sum is not zero becomes a stack of frame ids (pprof_build). */
#include "pprof_fast.h"
#include "pprof_build.h"
#include "pprof_lane.h"
#include "pprof_set.h"
#include "tpool.h"
#include "xalloc.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* Bytes of sample fields in runs handed to a thread at a time, by
 * default (two to three milliseconds' work): the last thread to finish
 * waits for the others less than that. */
#define JOB ((size_t)2 << 20)
/* Jobs waiting for a worker at most: when they are as many, the caller
 * reads the next one itself. */
#define QUEUE 2

struct pprof_fast {
	struct pprof_hook hook;		/* pprof_read's, ctx: this */
	int threads;			/* workers wanted (up to 1: none) */
	size_t job;			/* bytes of samples handed on at a time */
	struct lane *lane;		/* [0] the caller's, then the workers' */
	struct tpool *pool;		/* the workers, once a job is full */
	atomic_int quit;		/* a lane went bad (lane's quit) */
	struct job cur;			/* runs gathered, not yet handed on */
};

/* Job j's samples into lane (tpool's job function: the worker's), as
 * the processor can read them fastest. */
static void lane_run(void *lane, void *job)
{
	struct lane *l = lane;

	if (l->v3)
		pprof_lane_job_v3(l, job);
	else
		lane_job(l, job);
}

/* A worker's job: run, then freed. */
static void work(void *lane, void *job)
{
	lane_run(lane, job);
	free(job);
}

/* The hook's streak: into the caller's lane. */
static const unsigned char *on_streak(void *ctx, const unsigned char *q,
				      const unsigned char *stop, const unsigned char *end,
				      const unsigned char *lim, size_t *n)
{
	struct lane *l = &((struct pprof_fast *)ctx)->lane[0];

	if (l->v3)
		return pprof_lane_streak_v3(l, q, stop, end, lim, n);
	return lane_streak(l, q, stop, end, lim, n);
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
	int i, v3 = pprof_lane_v3();

	f->job = job ? job : JOB;
	f->threads = threads < 1 ? 1 : threads > 64 ? 64 : threads;
	f->lane = xcalloc((size_t)f->threads, sizeof(*f->lane));
	atomic_init(&f->quit, 0);
	for (i = 0; i < f->threads; i++) {
		f->lane[i].quit = &f->quit;
		f->lane[i].mix = pprof_kset_mix(1);
		f->lane[i].v3 = v3;
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
