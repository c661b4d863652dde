/* xalloc: allocation that never returns NULL. */
#include "xalloc.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <pthread.h>
#include <sys/mman.h>
#endif

#define BIG_ALIGN ((size_t)2 << 20)	/* x86-64's and arm64's usual huge page */

/* Where a large xbig is a mapping of its own, grown by moving pages. */
#if defined(__linux__) && defined(MREMAP_MAYMOVE) && defined(MREMAP_FIXED)
#define XBIG_MAPS 1
#endif

/* from (or first, when from is 0) doubled until it is at least need;
 * exits when it would pass SIZE_MAX. */
static size_t doubled(size_t from, size_t first, size_t need)
{
	size_t n = from ? from : first;

	while (n < need) {
		if (n > SIZE_MAX / 2)
			xalloc_fail(SIZE_MAX);
		n *= 2;
	}
	return n;
}

_Noreturn void xalloc_fail(size_t n)
{
	/* program_invocation_short_name (glibc) names the tool without a
	 * global of our own. */
	fprintf(stderr, "%s: out of memory (%zu bytes)\n",
		program_invocation_short_name, n);
	exit(1);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		xalloc_fail(n);
	return p;
}

void *xmalloc_big(size_t n)
{
#ifdef _WIN32
	return xmalloc(n);	/* no posix_memalign; free() takes malloc's */
#else
	void *p;

	if (n < BIG_ALIGN)
		return xmalloc(n);
	if (posix_memalign(&p, BIG_ALIGN, n) != 0)
		xalloc_fail(n);
	return p;
#endif
}

#ifdef XBIG_MAPS
/* n bytes (a multiple of BIG_ALIGN) of fresh memory at a BIG_ALIGN
 * boundary, or NULL. */
static void *map_aligned(size_t n)
{
	size_t span = n + BIG_ALIGN;
	char *p = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *a;

	if (p == MAP_FAILED)
		return NULL;
	a = (char *)(((uintptr_t)p + BIG_ALIGN - 1) & ~(uintptr_t)(BIG_ALIGN - 1));
	if (a > p)
		munmap(p, (size_t)(a - p));
	if (p + span > a + n)
		munmap(a + n, (size_t)(p + span - (a + n)));
	return a;
}

/* What xbig_free gave back, kept for the xbigs that start after: its
 * pages are the process's already.  Filling fresh ones costs their
 * clearing, and in a virtual machine whose memory is backed as first
 * touched the host's faults too: the 1.17M-stack profile's sort took
 * 100 MB of arrays fresh just after its 128 MB of records were given
 * back.  One run of pages at a BIG_ALIGN boundary (the largest, or two
 * that meet made one); an xbig takes its first pages, the rest stay. */
static struct {
	char *p;
	size_t n;
} spare;
static pthread_mutex_t spare_lock = PTHREAD_MUTEX_INITIALIZER;

/* The spare's first n bytes (a multiple of BIG_ALIGN), or NULL when it
 * has fewer. */
static void *take_spare(size_t n)
{
	char *p = NULL;

	pthread_mutex_lock(&spare_lock);
	if (spare.n >= n) {
		p = spare.p;
		spare.p += n;
		spare.n -= n;
	}
	pthread_mutex_unlock(&spare_lock);
	return p;
}

/* The n bytes at p (mapped, at a BIG_ALIGN boundary) kept as the spare,
 * or given back to the system. */
static void keep_spare(char *p, size_t n)
{
	char *drop = NULL;
	size_t dn = 0;

	pthread_mutex_lock(&spare_lock);
	if (spare.n && p + n == spare.p) {
		spare.p = p;
		spare.n += n;
	} else if (spare.n && spare.p + spare.n == p) {
		spare.n += n;
	} else if (n > spare.n) {
		drop = spare.p, dn = spare.n;
		spare.p = p, spare.n = n;
	} else {
		drop = p, dn = n;
	}
	pthread_mutex_unlock(&spare_lock);
	if (dn)
		munmap(drop, dn);
}

void xbig_trim(void)
{
	char *p;
	size_t n;

	pthread_mutex_lock(&spare_lock);
	p = spare.p, n = spare.n;
	spare.p = NULL, spare.n = 0;
	pthread_mutex_unlock(&spare_lock);
	if (n)
		munmap(p, n);
}

/* b (n bytes at most BIG_ALIGN, or mapped already) as a mapping of n
 * bytes, a multiple of BIG_ALIGN; 0, or -1 when the system would not.
 * A small one moves into the spare when it is large enough. */
static int map_grow(struct xbig *b, size_t n)
{
	void *p = b->n < BIG_ALIGN ? take_spare(n) : NULL, *q;

	if (!p && !(p = map_aligned(n)))
		return -1;
	if (b->n < BIG_ALIGN) {
#ifdef MADV_HUGEPAGE
		/* Asked once, here, before the copy first touches the new
		 * pages (after it, the copy's 2 MB took 512 small faults);
		 * a mapping moved and grown below keeps the flag. */
		(void)madvise(p, n, MADV_HUGEPAGE);
#endif
		if (b->n)
			memcpy(p, b->p, b->n);
		free(b->p);
	} else {
		/* The pages moved onto the place just taken (MREMAP_FIXED
		 * unmaps what was there): still at a 2 MB boundary, where
		 * they stay huge. */
		q = mremap(b->p, b->n, n, MREMAP_MAYMOVE | MREMAP_FIXED, p);
		if (q == MAP_FAILED) {
			munmap(p, n);
			return -1;
		}
		p = q;
	}
	b->p = p;
	b->n = n;
	return 0;
}
#else
void xbig_trim(void)
{
}
#endif

void xbig_grow(struct xbig *b, size_t n)
{
	size_t m;

	if (n <= b->n)
		return;
	m = doubled(b->n, 4096, n);
#ifdef XBIG_MAPS
	if (m >= BIG_ALIGN) {
		if (map_grow(b, (m + BIG_ALIGN - 1) / BIG_ALIGN * BIG_ALIGN) < 0)
			xalloc_fail(m);
		return;
	}
#endif
	b->p = xrealloc(b->p, m);
	b->n = m;
}

void *xbig_hold(struct xbig *b, size_t n, size_t elem, size_t *cap)
{
	if (elem && n > SIZE_MAX / elem)
		xalloc_fail(SIZE_MAX);
	xbig_grow(b, n * elem);
	if (cap)
		*cap = b->n / elem;
	return b->p;
}

void xbig_free(struct xbig *b)
{
#ifdef XBIG_MAPS
	if (b->n >= BIG_ALIGN)
		keep_spare(b->p, b->n);
	else
#endif
		free(b->p);
	b->p = NULL;
	b->n = 0;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p;

	if (size && nmemb > SIZE_MAX / size)
		xalloc_fail(SIZE_MAX);
	p = calloc(nmemb ? nmemb : 1, size ? size : 1);
	if (!p)
		xalloc_fail(nmemb * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		xalloc_fail(n);
	return q;
}

char *xstrndup(const char *s, size_t len)
{
	char *d = xmalloc(len + 1);

	memcpy(d, s, len);
	d[len] = '\0';
	return d;
}

void xgrow(void *p, size_t *cap, size_t need, size_t elem)
{
	void **pp = p;
	size_t n;

	if (need <= *cap)
		return;
	n = doubled(*cap, 16, need);
	if (elem && n > SIZE_MAX / elem)
		xalloc_fail(SIZE_MAX);
	*pp = xrealloc(*pp, n * elem);
	*cap = n;
}

void xappend(char **buf, size_t *len, size_t *cap, const void *src, size_t n)
{
	xgrow(buf, cap, *len + n + 1, 1);
	memcpy(*buf + *len, src, n);
	*len += n;
}
