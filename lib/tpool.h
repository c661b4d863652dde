/* tpool: a few worker threads taking jobs from a bounded queue (the size
 * of lz4's programs/threadpool.c).  Each thread has a state of its own
 * that it passes to the job function with each job, so work can fill
 * per-thread tables that the caller merges after tpool_free. */
#ifndef FLAME_TPOOL_H
#define FLAME_TPOOL_H

#include <stddef.h>

/* Does job on the thread whose state is worker. */
typedef void tpool_fn(void *worker, void *job);

struct tpool;

/* Starts up to n threads, thread i with state workers[i], and a queue of
 * queue jobs (at least 1).  Returns NULL when no thread could start. */
struct tpool *tpool_new(int n, size_t queue, tpool_fn *fn, void *const *workers);

/* How many threads started: workers[0] to workers[count - 1] are used. */
int tpool_count(const struct tpool *p);

/* Queues job, waiting while the queue is full. */
void tpool_submit(struct tpool *p, void *job);

/* Queues job when there is room, without waiting: returns 0, or -1 when
 * the queue is full (the caller may do the job itself). */
int tpool_try_submit(struct tpool *p, void *job);

/* Waits for every queued job to be done, stops the threads and frees p.
 * tpool_free(NULL) does nothing. */
void tpool_free(struct tpool *p);

#endif
