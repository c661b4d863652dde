/* blockout: the second thread makes block 1, 3, 5...; each waits in its
 * buffer until the caller has written it, then the next is begun. */
#include "blockout.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

struct helper {
	blockout_fn *fn;	/* makes a block */
	void *ctx;		/* fn's */
	size_t n;		/* blocks in all */
	struct blockbuf b;	/* the block in hand */
	int ready;		/* b is made, not yet written */
	int stop;		/* make no more: a write failed */
	pthread_mutex_t mu;	/* guards ready and stop */
	pthread_cond_t cv;	/* they changed */
};

static void *help(void *arg)
{
	struct helper *h = arg;
	size_t k;
	int stop;

	for (k = 1; k < h->n; k += 2) {
		pthread_mutex_lock(&h->mu);
		while (h->ready && !h->stop)
			pthread_cond_wait(&h->cv, &h->mu);
		stop = h->stop;
		pthread_mutex_unlock(&h->mu);
		if (stop)
			break;
		h->b.len = 0;
		h->fn(h->ctx, k, &h->b);
		pthread_mutex_lock(&h->mu);
		h->ready = 1;
		pthread_cond_broadcast(&h->cv);
		pthread_mutex_unlock(&h->mu);
	}
	return NULL;
}

/* b to f; returns 0, or the write's errno. */
static int put(const struct blockbuf *b, FILE *f)
{
	errno = 0;
	if (fwrite(b->buf, 1, b->len, f) != b->len)
		return errno ? errno : EIO;
	return 0;
}

int blockout_write(FILE *f, size_t n, blockout_fn *fn, void *ctx, int par)
{
	struct helper h = { fn, ctx, n, { NULL, 0, 0 }, 0, 0, PTHREAD_MUTEX_INITIALIZER,
			    PTHREAD_COND_INITIALIZER };
	struct blockbuf mine = { NULL, 0, 0 };
	pthread_t th;
	size_t k;
	int e = 0;

	par = par && n > 1 && pthread_create(&th, NULL, help, &h) == 0;
	for (k = 0; k < n && !e; k++) {
		if (!par || k % 2 == 0) {
			mine.len = 0;
			fn(ctx, k, &mine);
			e = put(&mine, f);
			continue;
		}
		pthread_mutex_lock(&h.mu);
		while (!h.ready)
			pthread_cond_wait(&h.cv, &h.mu);
		pthread_mutex_unlock(&h.mu);
		e = put(&h.b, f);
		pthread_mutex_lock(&h.mu);
		h.ready = 0;
		pthread_cond_broadcast(&h.cv);
		pthread_mutex_unlock(&h.mu);
	}
	if (par) {
		pthread_mutex_lock(&h.mu);
		h.stop = 1;
		pthread_cond_broadcast(&h.cv);
		pthread_mutex_unlock(&h.mu);
		pthread_join(th, NULL);
	}
	free(mine.buf);
	free(h.b.buf);
	errno = e;
	return e ? -1 : 0;
}
