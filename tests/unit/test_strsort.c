/* Unit tests for lib/strsort: the same order as memcmp's, on strings
 * sharing long prefixes (the case it is for), prefixes of each other,
 * empty ones, bytes above 0x7f, NULs and repeats. */
#include "check.h"
#include "strsort.h"

#include <stdlib.h>

/* memcmp order, a prefix first; then the id, for repeats (stable). */
static int cmp_ref(const void *a, const void *b)
{
	const struct strsort_key *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int r = memcmp(x->s, y->s, n);

	if (r)
		return r;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

/* n strings from seed: a shared start of up to 300 bytes, then a few
 * bytes of a small alphabet (so prefixes and repeats come up), sorted by
 * strsort and by qsort; 1 when both orders are the same. */
static int same_order(size_t n, unsigned seed)
{
	static const char alpha[] = { 'a', 'b', ';', '\0', (char)0xe9, (char)0x80 };
	struct strsort_key *k = calloc(n, sizeof(*k)), *r = calloc(n, sizeof(*r));
	char *pool = malloc(n * 340);
	size_t i, j, shared = seed % 301;
	int same = 1;

	srand(seed);
	for (i = 0; i < n; i++) {
		char *s = pool + i * 340;
		size_t len = shared * (size_t)(rand() % 4 != 0) + (size_t)(rand() % 24);

		for (j = 0; j < len; j++)
			s[j] = j < shared ? (char)('A' + j % 7) : alpha[rand() % 6];
		k[i].s = s;
		k[i].len = len;
		k[i].id = (uint32_t)i;
	}
	memcpy(r, k, n * sizeof(*k));
	strsort(k, n);
	qsort(r, n, sizeof(*r), cmp_ref);
	for (i = 0; i < n; i++)
		same &= k[i].id == r[i].id && k[i].s == r[i].s && k[i].len == r[i].len;
	free(k);
	free(r);
	free(pool);
	return same;
}

int main(void)
{
	struct strsort_key one = { "x", 1, 7 };
	unsigned seed;
	int ok = 1;

	strsort(NULL, 0);
	strsort(&one, 1);
	CHECK(one.id == 7 && one.len == 1);
	for (seed = 0; seed < 60; seed++)
		ok &= same_order(1 + seed * 37 % 500, seed);
	CHECK(ok);
	CHECK(same_order(70000, 299));
	return check_done();
}
