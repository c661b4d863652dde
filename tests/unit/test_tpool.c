/* Unit tests for tpool: every job done once, on the state of the thread
 * that took it; a queue of one; more jobs than room; no jobs; jobs the
 * queue had no room for done by the caller (tpool_try_submit). */
#include "check.h"
#include "tpool.h"

#include <pthread.h>
#include <stdint.h>

struct state {
	uint64_t sum;	/* of the jobs this thread did */
	unsigned n;	/* how many */
};

static void add(void *worker, void *job)
{
	struct state *s = worker;

	s->sum += (uint64_t)(uintptr_t)job;
	s->n++;
}

static void run(int threads, size_t queue, unsigned jobs)
{
	struct state st[8] = { { 0, 0 } };
	void *states[8];
	struct tpool *p;
	uint64_t sum = 0;
	unsigned n = 0, i;
	int k;

	for (k = 0; k < 8; k++)
		states[k] = &st[k];
	p = tpool_new(threads, queue, add, states);
	CHECK(p != NULL && tpool_count(p) == threads);
	for (i = 1; i <= jobs; i++)
		tpool_submit(p, (void *)(uintptr_t)i);
	tpool_free(p);
	for (k = 0; k < 8; k++) {
		sum += st[k].sum;
		n += st[k].n;
		CHECK(k < threads || st[k].n == 0);
	}
	CHECK(n == jobs);
	CHECK(sum == (uint64_t)jobs * (jobs + 1) / 2);
}

/* Jobs offered with tpool_try_submit, those refused done by the caller
 * on a state of its own: every job once, by one or the other. */
static void run_try(int threads, size_t queue, unsigned jobs)
{
	struct state st[9] = { { 0, 0 } };
	void *states[8];
	struct tpool *p;
	uint64_t sum = 0;
	unsigned n = 0, refused = 0, i;
	int k;

	for (k = 0; k < 8; k++)
		states[k] = &st[k + 1];
	p = tpool_new(threads, queue, add, states);
	CHECK(p != NULL);
	for (i = 1; i <= jobs; i++)
		if (tpool_try_submit(p, (void *)(uintptr_t)i) < 0) {
			add(&st[0], (void *)(uintptr_t)i);
			refused++;
		}
	tpool_free(p);
	for (k = 0; k < 9; k++) {
		sum += st[k].sum;
		n += st[k].n;
	}
	CHECK(n == jobs);
	CHECK(st[0].n == refused);
	CHECK(sum == (uint64_t)jobs * (jobs + 1) / 2);
}

/* A queue that is full refuses: the one thread is held on its first job
 * until the queue of one is filled and a second offer refused. */
struct gate {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int open, started;
};

static void held(void *worker, void *job)
{
	struct gate *g = worker;

	(void)job;
	pthread_mutex_lock(&g->mu);
	g->started = 1;
	pthread_cond_broadcast(&g->cv);
	while (!g->open)
		pthread_cond_wait(&g->cv, &g->mu);
	pthread_mutex_unlock(&g->mu);
}

static void full_refuses(void)
{
	struct gate g = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0 };
	void *states[1] = { &g };
	struct tpool *p = tpool_new(1, 1, held, states);

	CHECK(p != NULL);
	CHECK(tpool_try_submit(p, (void *)1) == 0);
	pthread_mutex_lock(&g.mu);
	while (!g.started)
		pthread_cond_wait(&g.cv, &g.mu);
	pthread_mutex_unlock(&g.mu);
	CHECK(tpool_try_submit(p, (void *)2) == 0);	/* queued */
	CHECK(tpool_try_submit(p, (void *)3) < 0);	/* no room */
	pthread_mutex_lock(&g.mu);
	g.open = 1;
	pthread_cond_broadcast(&g.cv);
	pthread_mutex_unlock(&g.mu);
	tpool_free(p);
}

int main(void)
{
	run_try(1, 1, 20000);
	run_try(3, 2, 20000);
	full_refuses();
	run(1, 1, 1000);
	run(4, 1, 10000);
	run(8, 16, 50000);
	run(3, 2, 0);
	tpool_free(NULL);
	CHECK(tpool_count(NULL) == 0);
	return check_done();
}
