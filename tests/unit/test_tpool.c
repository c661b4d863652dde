/* Unit tests for tpool: every job done once, on the state of the thread
 * that took it; a queue of one; more jobs than room; no jobs. */
#include "check.h"
#include "tpool.h"

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

int main(void)
{
	run(1, 1, 1000);
	run(4, 1, 10000);
	run(8, 16, 50000);
	run(3, 2, 0);
	tpool_free(NULL);
	CHECK(tpool_count(NULL) == 0);
	return check_done();
}
