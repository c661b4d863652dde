/* etl_sort: the kept events in time order.  Each CPU's buffers are in
 * time order already: put in CPU order (stable), the records make about
 * one ascending run per CPU, and merging runs costs O(n log runs), where
 * a general sort of the 48-byte records spent a fifth of the reader's
 * time moving them.  Any disorder only makes more runs. */
#include "etl_int.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

static int before(const struct etl_key *a, const struct etl_key *b)
{
	return a->ts < b->ts || (a->ts == b->ts && a->i < b->i);
}

/* Merges a[lo, mid) and a[mid, hi) into t[lo, hi). */
static void merge(const struct etl_key *a, struct etl_key *t, size_t lo, size_t mid, size_t hi)
{
	size_t i = lo, j = mid, o = lo;

	while (i < mid && j < hi)
		t[o++] = before(&a[j], &a[i]) ? a[j++] : a[i++];
	memcpy(t + o, a + i, (mid - i) * sizeof(*t));
	o += mid - i;
	memcpy(t + o, a + j, (hi - j) * sizeof(*t));
}

/* The starts of the ascending runs of k (n entries), and n at the end;
 * returns how many runs. */
static size_t runs(const struct etl_key *k, size_t n, size_t *at)
{
	size_t r = 0, i;

	at[r++] = 0;
	for (i = 1; i < n; i++)
		if (before(&k[i], &k[i - 1]))
			at[r++] = i;
	at[r] = n;
	return r;
}

/* The keys of rec (n of them) grouped by CPU, file order kept within. */
static void by_cpu(const struct erec *rec, size_t n, int cpus, struct etl_key *k)
{
	size_t *start = xcalloc((size_t)cpus + 1, sizeof(*start)), i;

	for (i = 0; i < n; i++)
		start[rec[i].cpu + 1]++;
	for (i = 1; i <= (size_t)cpus; i++)
		start[i] += start[i - 1];
	for (i = 0; i < n; i++) {
		struct etl_key *o = &k[start[rec[i].cpu]++];

		o->ts = rec[i].ts;
		o->i = (uint32_t)i;
	}
	free(start);
}

struct etl_key *etl_sorted(const struct erec *rec, size_t n, int cpus, struct etl_sortbuf *b)
{
	struct etl_key *k, *t, *swap;
	size_t *at, r, i, w;

	if (b->cap < n + 1) {	/* kept from window to window: no pages to map again */
		free(b->k);
		free(b->t);
		free(b->at);
		b->cap = n + 1;
		b->k = xmalloc(b->cap * sizeof(*b->k));
		b->t = xmalloc(b->cap * sizeof(*b->t));
		b->at = xmalloc(b->cap * sizeof(*b->at));
	}
	k = b->k;
	t = b->t;
	at = b->at;
	by_cpu(rec, n, cpus, k);
	if (n < 2 || (r = runs(k, n, at)) == 1)
		return k;
	while (r > 1) {		/* merge runs pairwise, halving their count */
		for (i = 0, w = 0; i < r; i += 2, w++) {
			if (i + 1 < r)
				merge(k, t, at[i], at[i + 1], at[i + 2]);
			else
				memcpy(t + at[i], k + at[i], (at[i + 1] - at[i]) * sizeof(*t));
			at[w] = at[i];
		}
		at[w] = n;
		r = w;
		swap = k, k = t, t = swap;
	}
	return k;
}

void etl_sortbuf_trim(struct etl_sortbuf *b, struct etl_key *order)
{
	if (order == b->t) {
		b->t = b->k;
		b->k = order;
	}
	free(b->t);
	free(b->at);
	b->t = NULL;
	b->at = NULL;
	b->cap = 0;		/* the next sort allocates anew */
}

void etl_sortbuf_free(struct etl_sortbuf *b)
{
	free(b->k);
	free(b->t);
	free(b->at);
	memset(b, 0, sizeof(*b));
}
