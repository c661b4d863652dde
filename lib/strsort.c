/* strsort: LCP merge sort with the next byte cached.  Each run carries,
 * for every key, the length of the prefix it shares with the key before
 * it in the run (its lcp) and the byte after that prefix.  Merging two
 * runs, the heads' lcps with the key last written tell which head is
 * smaller whenever they differ; when they are equal the cached bytes
 * mostly do; only when those are equal too are the strings read, and
 * from there on.  So a string's common start with its neighbours is read
 * about once, not at every comparison as memcmp would, and most steps
 * touch no string at all (their bytes are spread over a big arena). */
#include "strsort.h"
#include "bytes.h"
#include "xalloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* A key in a run. */
struct item {
	const char *s;		/* the string */
	size_t len;		/* its length */
	size_t h;		/* prefix shared with the item before it */
	int c;			/* s[h], or -1 when h == len */
	uint32_t id;		/* the caller's */
};

/* A run: items in order. */
struct run {
	struct item *k;		/* the items */
	size_t n;		/* how many */
};

static int byte_at(const struct item *x, size_t h)
{
	return h < x->len ? (unsigned char)x->s[h] : -1;
}

/* Where the n bytes at a and b first differ (n if nowhere): 16 at a time
 * where SSE2 is there, as the shared parts are long. */
static size_t mismatch(const char *a, const char *b, size_t n)
{
	size_t i = 0;
#ifdef __SSE2__
	for (; i + 16 <= n; i += 16) {
		__m128i x = _mm_loadu_si128((const __m128i *)(const void *)(a + i));
		__m128i y = _mm_loadu_si128((const __m128i *)(const void *)(b + i));
		unsigned d = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, y)) ^ 0xffffu;

		if (d)
			return i + (size_t)__builtin_ctz(d);
	}
#endif
	return i + bytes_mismatch(a + i, n - i, b + i, n - i);
}

/* Whether b comes before a, both sharing h bytes with the key last
 * written and their bytes there being equal; the one that comes after
 * gets what it shares with the other as its h, and its byte there. */
static int b_first(struct item *a, struct item *b, size_t h)
{
	size_t m = h + mismatch(a->s + h, b->s + h, (a->len < b->len ? a->len : b->len) - h);
	int ca = byte_at(a, m), cb = byte_at(b, m);
	struct item *later = cb < ca ? a : b;

	later->h = m;
	later->c = cb < ca ? ca : cb;
	return cb < ca;
}

/* Merges runs a and b into out (room for both).  Each head's h is what it
 * shares with the item last written; a run's first item has h 0 and c its
 * first byte, which merging keeps true. */
static void merge(struct run a, struct run b, struct item *out)
{
	struct item *x = a.k, *xe = a.k + a.n, *y = b.k, *ye = b.k + b.n;

	while (x < xe && y < ye) {
		/* The head sharing more with the last item is the smaller one,
		 * and the other head shares with it what it shared before.
		 * With equal shares, the next bytes decide, and the later head
		 * shares exactly that much with the earlier one. */
		int yfirst;

		if (x->h != y->h)
			yfirst = y->h > x->h;
		else if (x->c != y->c)
			yfirst = y->c < x->c;
		else
			yfirst = b_first(x, y, x->h);
		if (yfirst)
			*out++ = *y++;
		else
			*out++ = *x++;
	}
	if (x < xe)
		memcpy(out, x, (size_t)(xe - x) * sizeof(*x));
	else if (y < ye)
		memcpy(out, y, (size_t)(ye - y) * sizeof(*y));
}

/* Sorts the items of src, scratch being dst (as long); the sorted run ends
 * up in dst when into is 1, else in src. */
static void sort_run(struct run src, struct run dst, int into)
{
	size_t m = src.n / 2;
	struct run sa = { src.k, m }, sb = { src.k + m, src.n - m };
	struct run da = { dst.k, m }, db = { dst.k + m, src.n - m };

	if (src.n == 1) {
		if (into)
			dst.k[0] = src.k[0];
		return;
	}
	sort_run(sa, da, !into);
	sort_run(sb, db, !into);
	if (into)
		merge(sa, sb, dst.k);
	else
		merge(da, db, src.k);
}

void strsort(struct strsort_key *k, size_t n)
{
	struct item *a, *b;
	struct run ra, rb;
	size_t i;

	if (n < 2)
		return;
	if (n > SIZE_MAX / 2 / sizeof(*a))
		xalloc_fail(SIZE_MAX);
	a = xmalloc_big(2 * n * sizeof(*a));
	b = a + n;
	for (i = 0; i < n; i++) {
		a[i].s = k[i].s;
		a[i].len = k[i].len;
		a[i].id = k[i].id;
		a[i].h = 0;
		a[i].c = byte_at(&a[i], 0);
	}
	ra.k = a;
	rb.k = b;
	ra.n = rb.n = n;
	sort_run(ra, rb, 0);
	for (i = 0; i < n; i++) {
		k[i].s = a[i].s;
		k[i].len = a[i].len;
		k[i].id = a[i].id;
	}
	free(a);
}
