/* perfdata_order: the order records are applied in.  Records are queued
 * by time and, as perf does, each FINISHED_ROUND applies those up to the
 * latest time seen at the round before, so a sample meets the maps and
 * names valid when it was taken. */
#include "perfdata_int.h"
#include "xalloc.h"

#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>

#define QUEUE_MAX ((size_t)256 << 20)	/* queued bytes before half goes out */
#define PREFETCH 4			/* records read ahead in deliver */

void pd_apply(struct pd *d, const unsigned char *r, size_t len, uint64_t off)
{
	struct pd_sample s;

	switch (pd_u32(d, r)) {
	case PERF_RECORD_SAMPLE:
		if (pd_parse_sample(d, r, len, &s) < 0)
			pd_bad(d, off, "sample of %zu bytes does not hold its fields", len);
		else
			pd_emit(d, &s);
		break;
	case PERF_RECORD_MMAP:
		pd_apply_mmap(d, r, len, off, 0);
		pd_jit_mmap(d, r, len);
		break;
	case PERF_RECORD_MMAP2:
		pd_apply_mmap(d, r, len, off, 1);
		pd_jit_mmap(d, r, len);
		break;
	case PERF_RECORD_COMM:
		pd_apply_comm(d, r, len);
		break;
	case PERF_RECORD_FORK:
		pd_apply_fork(d, r, len);
		break;
	case PERF_RECORD_EXIT:
		pd_apply_exit(d, r, len);
		break;
	default:
		break;
	}
}

/* Merges the sorted runs q[0, mid) and q[mid, n) through tmp; ties keep
 * the left run's first, so the order stays stable. */
static void merge(struct pd_qent *q, size_t mid, size_t n, struct pd_qent *tmp)
{
	size_t i = 0, j = mid, o = 0;

	if (q[mid - 1].time <= q[mid].time)
		return;	/* already in order: the common case */
	while (i < mid && j < n)
		tmp[o++] = q[j].time < q[i].time ? q[j++] : q[i++];
	while (i < mid)
		tmp[o++] = q[i++];
	memcpy(q, tmp, o * sizeof(*q));	/* q[j, n) is in place */
}

/* Sorts the queue by time, stably: entries arrive in order of seq after
 * the sorted rest of the last round, so this is the (time, seq) order.
 * Records come in runs already sorted (one per CPU buffer the kernel
 * flushed), so runs are found and merged pairwise, bottom up. */
static void sort_queue(struct pd *d)
{
	struct pd_qent *q = d->q;
	size_t n = d->nq, nruns = 0, i, r;

	if (n < 2)
		return;
	xgrow(&d->runs, &d->runcap, n + 1, sizeof(*d->runs));
	xgrow(&d->qtmp, &d->qtmpcap, n, sizeof(*d->qtmp));
	d->runs[nruns++] = 0;
	for (i = 1; i < n; i++)
		if (q[i].time < q[i - 1].time)
			d->runs[nruns++] = i;
	d->runs[nruns] = n;
	while (nruns > 1) {
		for (r = 0; r + 1 < nruns; r += 2)
			merge(q + d->runs[r], d->runs[r + 1] - d->runs[r], d->runs[r + 2] - d->runs[r],
			      d->qtmp);
		for (r = 0, i = 0; r <= nruns; r += 2)
			d->runs[i++] = d->runs[r];
		if (nruns % 2)	/* the last run had no pair: it still ends at n */
			d->runs[i++] = n;
		nruns = i - 1;
	}
}

static const unsigned char *rec_of(const struct pd *d, const struct pd_qent *e)
{
	return e->ptr ? e->ptr : d->arena + e->off;
}

/* Applies the first k queued records (sorted) and keeps the rest. */
static void deliver(struct pd *d, size_t k)
{
	unsigned char *rest;
	size_t i, o = 0;

	for (i = 0; i < k; i++) {
		/* Records are met out of file order: the next ones are brought
		 * in while this one is applied. */
		if (i + PREFETCH < k) {
			const unsigned char *ahead = rec_of(d, &d->q[i + PREFETCH]);

			__builtin_prefetch(ahead);
			__builtin_prefetch(ahead + 64);
			__builtin_prefetch(ahead + 128);
		}
		if (d->jit)
			pd_jit_due(d, d->q[i].time);
		pd_apply(d, rec_of(d, &d->q[i]), d->q[i].len, d->q[i].fileoff);
		d->qbytes -= d->q[i].len;
	}
	rest = xmalloc(d->acap ? d->acap : 1);
	for (i = k; i < d->nq; i++) {
		d->q[i - k] = d->q[i];
		if (d->q[i].ptr)
			continue;
		memcpy(rest + o, d->arena + d->q[i].off, d->q[i].len);
		d->q[i - k].off = o;
		o += d->q[i].len;
	}
	free(d->arena);
	d->arena = rest;
	d->alen = o;
	d->nq -= k;
}

static size_t upto(const struct pd *d, uint64_t t)
{
	size_t k = 0;

	while (k < d->nq && d->q[k].time <= t)
		k++;
	return k;
}

void pd_queue(struct pd *d, const unsigned char *r, size_t len, uint64_t time, uint64_t off)
{
	struct pd_qent *e;

	if (d->qbytes + len > QUEUE_MAX && d->nq) {
		sort_queue(d);
		deliver(d, d->nq / 2 ? d->nq / 2 : d->nq);
	}
	xgrow(&d->q, &d->qcap, d->nq + 1, sizeof(*d->q));
	e = &d->q[d->nq++];
	e->time = time;
	e->seq = d->seq++;
	e->len = (uint32_t)len;
	e->fileoff = off;
	/* A record of the file stays where it is; others are copied. */
	e->ptr = d->stable && !d->inflating ? r : NULL;
	e->off = d->alen;
	if (!e->ptr) {
		xgrow(&d->arena, &d->acap, d->alen + len, 1);
		memcpy(d->arena + d->alen, r, len);
		d->alen += len;
	}
	d->qbytes += len;
	if (time > d->max_time)
		d->max_time = time;
}

void pd_round(struct pd *d)
{
	sort_queue(d);
	deliver(d, upto(d, d->next_flush));
	d->next_flush = d->max_time;
}

void pd_drain(struct pd *d)
{
	sort_queue(d);
	deliver(d, d->nq);
}
