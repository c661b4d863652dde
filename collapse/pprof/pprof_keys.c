/* pprof_keys: open addressing, linear probing, at most half full. */
#include "pprof_keys.h"
#include "pprof_rank.h"
#include "hkey.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

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

void pprof_keys_each(const struct pprof_keys *k, void (*fn)(void *ctx, const struct pprof_key *e),
		     void *ctx)
{
	struct pprof_rkey *v = xmalloc((2 * k->n + 1) * sizeof(*v));
	size_t i, n = 0;

	/* By where each came: its bytes' place in the arena, twice, + 1
	 * when not empty (an empty key takes no bytes, so it and the key
	 * after it share a place). */
	for (i = 0; i <= k->mask; i++)
		if (k->slot[i].len1) {
			v[n].pre[0] = 0;
			v[n].pre[1] = k->slot[i].off * 2 + (k->slot[i].len1 > 1);
			v[n++].i = i;
		}
	pprof_rkey_sort(v, v + n, n);
	for (i = 0; i < n; i++)
		fn(ctx, &k->slot[v[i].i]);
	free(v);
}
