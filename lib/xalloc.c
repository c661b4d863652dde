/* xalloc: allocation that never returns NULL. */
#include "xalloc.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BIG_ALIGN ((size_t)2 << 20)	/* x86-64's and arm64's usual huge page */

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
	size_t n = *cap ? *cap : 16;

	if (need <= *cap)
		return;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			xalloc_fail(SIZE_MAX);
		n *= 2;
	}
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
