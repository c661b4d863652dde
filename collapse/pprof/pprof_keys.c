/* pprof_keys: open addressing, linear probing, at most half full. */
#include "pprof_keys.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>
#include "hkey.h"

struct pprof_keys {
	struct pprof_key *slot;		/* the slots, a power of two of them */
	size_t mask;			/* their count - 1 */
	size_t n;			/* slots used */
	char *arena;			/* the keys' bytes, end to end */
	size_t alen, acap;		/* bytes used, room */
};

struct pprof_keys *pprof_keys_new(void)
{
	struct pprof_keys *k = xcalloc(1, sizeof(*k));

	k->mask = 1023;
	k->slot = xcalloc(k->mask + 1, sizeof(*k->slot));
	return k;
}

void pprof_keys_free(struct pprof_keys *k)
{
	if (!k)
		return;
	free(k->slot);
	free(k->arena);
	free(k);
}

uint64_t pprof_keys_hash(const void *s, size_t len)
{
	return hkey(s, len);
}

/* Twice the slots, each entry moved by its kept hash. */
static void grow(struct pprof_keys *k)
{
	size_t i, j, mask = k->mask * 2 + 1;
	struct pprof_key *s = xcalloc(mask + 1, sizeof(*s));

	for (i = 0; i <= k->mask; i++) {
		if (!k->slot[i].len1)
			continue;
		for (j = k->slot[i].h & mask; s[j].len1; j = (j + 1) & mask)
			;
		s[j] = k->slot[i];
	}
	free(k->slot);
	k->slot = s;
	k->mask = mask;
}

struct pprof_key *pprof_keys_get(struct pprof_keys *k, const void *s, size_t len, uint64_t h)
{
	struct pprof_key *e;
	size_t i;

	for (i = h & k->mask;; i = (i + 1) & k->mask) {
		e = &k->slot[i];
		if (!e->len1)
			break;
		if (e->h == h && e->len1 == len + 1 && memcmp(k->arena + e->off, s, len) == 0)
			return e;
	}
	if ((k->n + 1) * 2 > k->mask + 1) {
		grow(k);
		for (i = h & k->mask; k->slot[i].len1; i = (i + 1) & k->mask)
			;
		e = &k->slot[i];
	}
	k->n++;
	xgrow(&k->arena, &k->acap, k->alen + len + 1, 1);
	if (len)
		memcpy(k->arena + k->alen, s, len);
	e->h = h;
	e->off = k->alen;
	e->len1 = (uint32_t)(len + 1);
	k->alen += len;
	return e;
}

void pprof_keys_prefetch(const struct pprof_keys *k, uint64_t h)
{
	__builtin_prefetch(&k->slot[h & k->mask]);
}

void pprof_keys_prefetch_key(const struct pprof_keys *k, uint64_t h)
{
	const struct pprof_key *e = &k->slot[h & k->mask];

	if (e->len1 && e->h == h)
		__builtin_prefetch(k->arena + e->off);
}

/* An entry and where it comes in the order of adds: its bytes' place in
 * the arena, twice, + 1 when not empty (an empty key takes no bytes, so
 * it and the key after it share a place). */
struct ranked {
	uint64_t at;			/* the place */
	const struct pprof_key *e;	/* the entry */
};

/* Bits of at sorted on in a pass. */
#define DIGIT 11

/* Sorts v (n) by at (whose set bits are all in most), least significant
 * DIGIT bits first, into v. */
static void sort_ranked(struct ranked *v, size_t n, uint64_t most)
{
	struct ranked *t = xmalloc((n + 1) * sizeof(*t)), *a = v, *b = t, *x;
	const uint64_t mask = ((uint64_t)1 << DIGIT) - 1;
	size_t cnt[(size_t)1 << DIGIT], i, sum, c;
	unsigned shift;

	for (shift = 0; shift < 64 && most >> shift; shift += DIGIT) {
		memset(cnt, 0, sizeof(cnt));
		for (i = 0; i < n; i++)
			cnt[a[i].at >> shift & mask]++;
		for (sum = 0, i = 0; i <= mask; i++)
			c = cnt[i], cnt[i] = sum, sum += c;
		for (i = 0; i < n; i++)
			b[cnt[a[i].at >> shift & mask]++] = a[i];
		x = a, a = b, b = x;
	}
	if (a != v)
		memcpy(v, a, n * sizeof(*v));
	free(t);
}

void pprof_keys_each(const struct pprof_keys *k, void (*fn)(void *ctx, const struct pprof_key *e),
		     void *ctx)
{
	struct ranked *v = xmalloc((k->n + 1) * sizeof(*v));
	uint64_t most = 0;
	size_t i, n = 0;

	for (i = 0; i <= k->mask; i++)
		if (k->slot[i].len1) {
			v[n].at = k->slot[i].off * 2 + (k->slot[i].len1 > 1);
			v[n].e = &k->slot[i];
			most |= v[n++].at;
		}
	sort_ranked(v, n, most);
	for (i = 0; i < n; i++)
		fn(ctx, v[i].e);
	free(v);
}
