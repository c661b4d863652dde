/* Unit tests for xalloc's growing arrays: xbig keeps every byte written
 * as it grows from a few bytes past the size where it becomes a mapping
 * of its own (2 MB) and on, doubling or in one leap; on Linux a large
 * one begins at a 2 MB boundary, is asked to be huge pages (copied into
 * or moved), and freed, its pages go to the next ones to start; freed,
 * it is empty and can grow again; xgrow keeps its elements and capacity
 * as documented. */
#include "check.h"
#include "xalloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

#define MB ((size_t)1 << 20)

/* The byte at i of the pattern seeded s. */
static unsigned char pat(size_t i, unsigned s)
{
	return (unsigned char)((i * 2654435761u >> 7) ^ s);
}

static void fill(struct xbig *b, size_t from, size_t to, unsigned s)
{
	unsigned char *p = b->p;
	size_t i;

	for (i = from; i < to; i++)
		p[i] = pat(i, s);
}

static int holds(const struct xbig *b, size_t to, unsigned s)
{
	const unsigned char *p = b->p;
	size_t i;

	for (i = 0; i < to; i++)
		if (p[i] != pat(i, s))
			return 0;
	return 1;
}

#if defined(__linux__) && defined(MADV_HUGEPAGE)
/* Whether the mapping that holds p was asked to be huge pages (its
 * VmFlags in /proc/self/smaps have "hg"): 1 or 0, -1 when that cannot
 * be read. */
static int asked_huge(const void *p)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	unsigned long lo, hi;
	int in = 0, r = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		/* A mapping's first line is "lo-hi ...", its fields' are
		 * "Name: ..." (no name is hex digits and a '-'). */
		if (sscanf(line, "%lx-%lx", &lo, &hi) == 2)
			in = (uintptr_t)p >= lo && (uintptr_t)p < hi;
		else if (in && strncmp(line, "VmFlags:", 8) == 0) {
			r = strstr(line, " hg") != NULL;
			break;
		}
	}
	fclose(f);
	return r;
}
#endif

int main(void)
{
	struct xbig b = { NULL, 0 };
	size_t want, used = 0, *a = NULL, cap = 0, i;
	int ok = 1, aligned = 1;

	/* Doubling from 100 bytes to 40 MB, each new byte written, all
	 * read back after every growth. */
	for (want = 100; want <= 40 * MB; want = want * 2 + 12345) {
		xbig_grow(&b, want);
		ok &= b.n >= want && b.p != NULL && holds(&b, used, 7);
#ifdef __linux__
		if (b.n >= 2 * MB)
			aligned &= (uintptr_t)b.p % (2 * MB) == 0;
#endif
		fill(&b, used, want, 7);
		used = want;
	}
	CHECK(ok);
	CHECK(aligned);
	/* Asking for no more than it has changes nothing. */
	{
		void *p = b.p;
		size_t n = b.n;

		xbig_grow(&b, used / 2);
		xbig_grow(&b, n);
		CHECK(b.p == p && b.n == n && holds(&b, used, 7));
	}
	xbig_free(&b);
	CHECK(b.p == NULL && b.n == 0);
	/* From empty straight to 9 MB, then 3 MB more. */
	xbig_grow(&b, 9 * MB);
	CHECK(b.n >= 9 * MB);
	fill(&b, 0, 9 * MB, 3);
	xbig_grow(&b, 12 * MB);
	CHECK(b.n >= 12 * MB && holds(&b, 9 * MB, 3));
	xbig_free(&b);
	xbig_free(&b);
	CHECK(b.p == NULL && b.n == 0);
#ifdef __linux__
	/* A large one freed is kept: the next ones to start take its pages,
	 * the first of them first; xbig_trim gives back what is left. */
	{
		struct xbig e = { NULL, 0 }, c = { NULL, 0 }, d = { NULL, 0 };
		char *at;

		xbig_trim();
		xbig_grow(&e, 16 * MB);
		at = e.p;
		memset(e.p, 5, e.n);
		xbig_free(&e);
		xbig_grow(&c, 4 * MB);
		xbig_grow(&d, 3 * MB);
		CHECK((char *)c.p == at && (char *)d.p == at + c.n);
		/* Taken pages are written, not cleared: each its own. */
		memset(c.p, 1, c.n);
		memset(d.p, 2, d.n);
		CHECK(((char *)c.p)[c.n - 1] == 1 && ((char *)d.p)[0] == 2);
		xbig_free(&c);
		xbig_free(&d);
		xbig_trim();
		xbig_grow(&c, 4 * MB);
		CHECK(c.n >= 4 * MB && (uintptr_t)c.p % (2 * MB) == 0);
		xbig_free(&c);
		xbig_trim();
	}
#ifdef MADV_HUGEPAGE
	/* Every large one is asked to be huge pages: copied from a small
	 * one into its first mapping, and moved onto a larger one. */
	{
		struct xbig g = { NULL, 0 };
		int huge;

		xbig_trim();
		xbig_grow(&g, MB);
		fill(&g, 0, MB, 9);
		xbig_grow(&g, 3 * MB);
		if ((huge = asked_huge(g.p)) >= 0)
			CHECK(huge == 1);
		fill(&g, MB, 3 * MB, 9);
		xbig_grow(&g, 9 * MB);
		if ((huge = asked_huge(g.p)) >= 0)
			CHECK(huge == 1 && asked_huge((char *)g.p + 8 * MB) == 1);
		CHECK(holds(&g, 3 * MB, 9));
		xbig_free(&g);
		xbig_trim();
	}
#endif
#endif
	/* xbig_hold: room for n elements, and how many there is room for. */
	{
		struct xbig h = { NULL, 0 };
		size_t room = 0;
		char *p = xbig_hold(&h, 100000, 24, &room);

		CHECK(p == h.p && room >= 100000 && room == h.n / 24);
		p = xbig_hold(&h, 50, 24, &room);
		CHECK(p == h.p && room >= 100000);
		xbig_free(&h);
	}
	/* xgrow: the capacity doubles to at least what is asked, the
	 * elements stay. */
	for (ok = 1, i = 0; i < 100000; i++) {
		xgrow(&a, &cap, i + 1, sizeof(*a));
		a[i] = i * 3;
		ok &= cap >= i + 1 && (cap & (cap - 1)) == 0;
	}
	for (i = 0; i < 100000; i++)
		ok &= a[i] == i * 3;
	CHECK(ok);
	free(a);
	return check_done();
}
