/* perfdata_out: where pd_emit's samples go.  On one thread each goes
 * straight to the perf collapser.  With two, the reader (records, time
 * order, maps, symbols) fills batches of samples whose frames are already
 * named, and one more thread feeds them to the collapser (frame tidying,
 * the stack table) in the order they were made: the output is the same
 * either way, and the two halves of the work overlap.
 *
 * A batch holds samples back to back: a struct bsample, then its frames
 * (struct bframe).  The strings they point to (comms, paths, names)
 * stay where they are until the run ends, so only pointers are copied. */
#include "perfdata_int.h"
#include "perf.h"
#include "perf_header.h"
#include "tpool.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BATCH_BYTES ((size_t)1 << 20)	/* a batch is handed over when this full
					   (tests: FLAME_PD_BATCH bytes) */
#define BATCH_QUEUE 4			/* batches waiting: bounds the memory */

struct pd_batch {
	struct perf *perf;		/* the collapser (used on the worker only) */
	unsigned char *buf;		/* samples */
	size_t len, cap;		/* used, allocated */
};

struct bsample {
	struct perf_header h;		/* as for perf_event_begin; pid and tid
					   point into ids once taken out */
	char ids[32];			/* pid text at 0, tid text at 16 */
	size_t nframes;			/* frames that follow */
};

/* A frame in a batch: what the collapser needs of a struct pd_rframe. */
struct bframe {
	const char *sym, *dso;		/* as in pd_rframe */
	uint64_t pc;			/* as in pd_rframe */
	uint32_t symlen, dlen;		/* as in pd_rframe */
};

static void run_batch(void *worker, void *job)
{
	struct pd_batch *b = job;
	size_t off = 0;

	(void)worker;
	while (off < b->len) {
		struct bsample *s = (struct bsample *)(void *)(b->buf + off);
		const struct bframe *f = (const struct bframe *)(s + 1);
		size_t i;

		s->h.pid = s->ids;
		s->h.tid = s->ids + 16;
		perf_event_begin_kept(b->perf, &s->h);
		for (i = 0; i < s->nframes; i++)
			perf_event_frame(b->perf, f[i].pc, f[i].sym, f[i].symlen, f[i].dso, f[i].dlen,
					 NULL);
		perf_event_end(b->perf);
		off += sizeof(*s) + s->nframes * sizeof(*f);
	}
	free(b->buf);
	free(b);
}

static void new_batch(struct pd *d)
{
	d->batch = xcalloc(1, sizeof(*d->batch));
	d->batch->perf = d->perf;
	d->batch->cap = d->batch_bytes + sizeof(struct bsample) + PD_MAX_STACK * sizeof(struct bframe);
	d->batch->buf = xmalloc(d->batch->cap);
}

void pd_out_start(struct pd *d, int threads)
{
	const struct perf_stats *st = perf_stats(d->perf);
	void *none = NULL;

	/* perf_event_begin's answer cannot come back from the worker in
	 * time, and naming the frames of samples it drops would name (and
	 * report as missing) files the one-thread run never opens: so its
	 * answer is foretold here.  Filters (the caller's threads 1 then)
	 * cannot be; the event can: the collapser keeps the one it names in
	 * its stats (--event-filter, or an earlier input's), or else the
	 * first it meets.  Events it met unnamed leave that unknown. */
	if (threads == 1 || sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return;
	if (!st->event[0] && st->samples + st->filtered > 0)
		return;
	d->keeplen = strlen(st->event);
	memcpy(d->keep, st->event, d->keeplen + 1);
	d->keep_known = d->keeplen > 0;
	d->batch_bytes = getenv("FLAME_PD_BATCH") ? strtoul(getenv("FLAME_PD_BATCH"), NULL, 10) : 0;
	if (!d->batch_bytes || d->batch_bytes > BATCH_BYTES)
		d->batch_bytes = BATCH_BYTES;
	d->pool = tpool_new(1, BATCH_QUEUE, run_batch, &none);
	if (d->pool)
		new_batch(d);
}

int pd_out_begin(struct pd *d, const struct perf_header *h)
{
	struct bsample *s;

	if (!d->pool)
		return perf_event_begin_kept(d->perf, h);
	if (!d->keep_known) {	/* as perf_event_begin notes the first */
		snprintf(d->keep, sizeof(d->keep), "%.*s", (int)h->eventlen, h->event);
		d->keeplen = strlen(d->keep);
		d->keep_known = 1;
	}
	if (d->batch->len >= d->batch_bytes) {
		tpool_submit(d->pool, d->batch);
		new_batch(d);
	}
	d->bsample = d->batch->len;
	s = (struct bsample *)(void *)(d->batch->buf + d->batch->len);
	s->h = *h;
	memcpy(s->ids, h->pid, h->pidlen < 16 ? h->pidlen : 16);
	memcpy(s->ids + 16, h->tid, h->tidlen < 16 ? h->tidlen : 16);
	s->nframes = 0;
	d->batch->len += sizeof(*s);
	/* The header goes over either way: the worker counts it. */
	return h->eventlen == d->keeplen && memcmp(h->event, d->keep, d->keeplen) == 0;
}

void pd_out_frame(struct pd *d, const struct pd_rframe *f)
{
	struct bsample *s;
	struct bframe *g;

	if (!d->pool) {
		perf_event_frame(d->perf, f->pc, f->sym, f->symlen, f->dso, f->dlen, f->hint);
		return;
	}
	/* Room was made for PD_MAX_STACK frames; inlined ones may add more. */
	if (d->batch->len + sizeof(*g) > d->batch->cap)	/* no call per frame */
		xgrow(&d->batch->buf, &d->batch->cap, d->batch->len + sizeof(*g), 1);
	s = (struct bsample *)(void *)(d->batch->buf + d->bsample);
	g = (struct bframe *)(void *)(d->batch->buf + d->batch->len);
	g->sym = f->sym;
	g->dso = f->dso;
	g->pc = f->pc;
	g->symlen = f->symlen;
	g->dlen = f->dlen;
	d->batch->len += sizeof(*g);
	s->nframes++;
}

void pd_out_end(struct pd *d)
{
	if (!d->pool)
		perf_event_end(d->perf);
}

void pd_out_finish(struct pd *d)
{
	if (!d->pool)
		return;
	if (d->batch->len)
		tpool_submit(d->pool, d->batch);
	else
		run_batch(NULL, d->batch);	/* frees it */
	tpool_free(d->pool);	/* waits for the batches queued */
	d->pool = NULL;
	d->batch = NULL;
}
