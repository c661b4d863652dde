/* tpool: worker threads over one mutex-guarded ring of jobs. */
#include "tpool.h"

#include "xalloc.h"

#include <pthread.h>
#include <stdlib.h>

struct thread {
	pthread_t th;		/* the thread */
	struct tpool *pool;	/* where its jobs come from */
	void *state;		/* passed with each job */
};

struct tpool {
	pthread_mutex_t mu;	/* guards the fields below */
	pthread_cond_t ready;	/* a job was queued, or the queue closed */
	pthread_cond_t room;	/* a job was taken */
	void **q;		/* ring of queued jobs */
	size_t cap;		/* ring size */
	size_t head;		/* next job to take */
	size_t count;		/* jobs queued */
	int closed;		/* no more jobs will come */
	tpool_fn *fn;		/* what a job is given to */
	struct thread *t;	/* the threads */
	int n;			/* how many started */
};

/* The next job, or NULL once the queue is closed and empty. */
static void *take(struct tpool *p)
{
	void *job = NULL;

	pthread_mutex_lock(&p->mu);
	while (!p->count && !p->closed)
		pthread_cond_wait(&p->ready, &p->mu);
	if (p->count) {
		job = p->q[p->head];
		p->head = (p->head + 1) % p->cap;
		p->count--;
		pthread_cond_signal(&p->room);
	}
	pthread_mutex_unlock(&p->mu);
	return job;
}

static void *thread_main(void *arg)
{
	struct thread *t = arg;
	void *job;

	while ((job = take(t->pool)))
		t->pool->fn(t->state, job);
	return NULL;
}

struct tpool *tpool_new(int n, size_t queue, tpool_fn *fn, void *const *workers)
{
	struct tpool *p = xcalloc(1, sizeof(*p));
	int i;

	p->cap = queue ? queue : 1;
	p->q = xcalloc(p->cap, sizeof(*p->q));
	p->fn = fn;
	p->t = xcalloc(n > 0 ? (size_t)n : 1, sizeof(*p->t));
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->ready, NULL);
	pthread_cond_init(&p->room, NULL);
	for (i = 0; i < n; i++, p->n++) {
		p->t[i].pool = p;
		p->t[i].state = workers[i];
		if (pthread_create(&p->t[i].th, NULL, thread_main, &p->t[i]) != 0)
			break;
	}
	if (p->n == 0) {
		tpool_free(p);
		return NULL;
	}
	return p;
}

int tpool_count(const struct tpool *p)
{
	return p ? p->n : 0;
}

/* job at the queue's end (room known, the lock held), a worker woken. */
static void enqueue(struct tpool *p, void *job)
{
	p->q[(p->head + p->count) % p->cap] = job;
	p->count++;
	pthread_cond_signal(&p->ready);
}

void tpool_submit(struct tpool *p, void *job)
{
	pthread_mutex_lock(&p->mu);
	while (p->count == p->cap)
		pthread_cond_wait(&p->room, &p->mu);
	enqueue(p, job);
	pthread_mutex_unlock(&p->mu);
}

int tpool_try_submit(struct tpool *p, void *job)
{
	int rc = -1;

	pthread_mutex_lock(&p->mu);
	if (p->count < p->cap) {
		enqueue(p, job);
		rc = 0;
	}
	pthread_mutex_unlock(&p->mu);
	return rc;
}

void tpool_free(struct tpool *p)
{
	int i;

	if (!p)
		return;
	pthread_mutex_lock(&p->mu);
	p->closed = 1;
	pthread_cond_broadcast(&p->ready);
	pthread_mutex_unlock(&p->mu);
	for (i = 0; i < p->n; i++)
		pthread_join(p->t[i].th, NULL);
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->ready);
	pthread_cond_destroy(&p->room);
	free(p->t);
	free(p->q);
	free(p);
}
