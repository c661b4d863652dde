/* pprof_kset: open addressing, linear probing, at most half full.  A
 * slot is 0 (free) or the hash's top bits above the record's place + 1
 * (in 8-byte words); a record is the nv sums, the key's length, then its
 * bytes, padded to 8. */
#include "pprof_kset.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

#define PLACE_BITS 40
#define PLACE(v) ((size_t)((v) & (((uint64_t)1 << PLACE_BITS) - 1)) - 1)
#define TAG(h) ((h) >> PLACE_BITS)

struct pprof_kset {
	uint64_t *slot;		/* the index, a power of two of slots */
	size_t mask;		/* their count - 1 */
	size_t n;		/* keys */
	size_t nv;		/* sums per key */
	uint64_t *rec;		/* the records, end to end */
	size_t len, cap;	/* words used, room */
};

struct pprof_kset *pprof_kset_new(size_t nv)
{
	struct pprof_kset *k = xcalloc(1, sizeof(*k));

	k->nv = nv;
	k->mask = 4095;
	k->slot = xcalloc(k->mask + 1, sizeof(*k->slot));
	return k;
}

void pprof_kset_free(struct pprof_kset *k)
{
	if (!k)
		return;
	free(k->slot);
	free(k->rec);
	free(k);
}

uint64_t pprof_kset_hash(const void *s, size_t len)
{
	return XXH3_64bits(s, len);
}

void pprof_kset_prefetch(const struct pprof_kset *k, uint64_t h)
{
	__builtin_prefetch(&k->slot[h & k->mask]);
}

void pprof_kset_prefetch_rec(const struct pprof_kset *k, uint64_t h)
{
	size_t j = h & k->mask, probes;
	uint64_t v;
	const uint64_t *r;

	/* The first slots of its probe, as far as one with its tag. */
	for (probes = 0; probes < 4 && (v = k->slot[j]) != 0; probes++, j = (j + 1) & k->mask)
		if (TAG(v) == TAG(h)) {
			r = k->rec + PLACE(v);
			__builtin_prefetch(r);
			__builtin_prefetch(r + 8);
			return;
		}
}

/* Twice the slots; each record's key hashed again to place it. */
static void grow(struct pprof_kset *k)
{
	size_t mask = k->mask * 2 + 1, at = 0, j, len;
	uint64_t *s = xcalloc(mask + 1, sizeof(*s)), h;

	while (at < k->len) {
		len = (size_t)k->rec[at + k->nv];
		h = XXH3_64bits(k->rec + at + k->nv + 1, len);
		for (j = h & mask; s[j]; j = (j + 1) & mask)
			;
		s[j] = TAG(h) << PLACE_BITS | (at + 1);
		at += k->nv + 1 + (len + 7) / 8;
	}
	free(k->slot);
	k->slot = s;
	k->mask = mask;
}

/* A new record for key s (len bytes) at slot j (free); its place. */
static size_t add_new(struct pprof_kset *k, const void *s, size_t len, uint64_t h, size_t j)
{
	size_t at = k->len, words = k->nv + 1 + (len + 7) / 8;

	if ((k->n + 1) * 2 > k->mask + 1) {
		grow(k);
		for (j = h & k->mask; k->slot[j]; j = (j + 1) & k->mask)
			;
	}
	xgrow(&k->rec, &k->cap, at + words, sizeof(*k->rec));
	memset(k->rec + at, 0, words * sizeof(*k->rec));
	k->rec[at + k->nv] = len;
	memcpy(k->rec + at + k->nv + 1, s, len);
	k->len += words;
	k->n++;
	k->slot[j] = TAG(h) << PLACE_BITS | (at + 1);
	return at;
}

/* Whether the len bytes at a and b are the same: 8 at a time, the last
 * 8 overlapping (keys are some tens of bytes; memcmp's call costs more
 * than the compare). */
static int same(const unsigned char *a, const unsigned char *b, size_t len)
{
	uint64_t x, y;
	size_t i;

	if (len < 8)
		return memcmp(a, b, len) == 0;
	for (i = 0; i + 8 < len; i += 8) {
		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		if (x != y)
			return 0;
	}
	memcpy(&x, a + len - 8, 8);
	memcpy(&y, b + len - 8, 8);
	return x == y;
}

int pprof_kset_add(struct pprof_kset *k, const void *s, size_t len, uint64_t h,
		   const uint64_t *v)
{
	size_t j, at = SIZE_MAX, i;
	uint64_t e, *sum;

	for (j = h & k->mask; (e = k->slot[j]) != 0; j = (j + 1) & k->mask) {
		const uint64_t *r = k->rec + PLACE(e);

		if (TAG(e) == TAG(h) && r[k->nv] == len &&
		    same((const unsigned char *)(r + k->nv + 1), s, len)) {
			at = PLACE(e);
			break;
		}
	}
	if (at == SIZE_MAX)
		at = add_new(k, s, len, h, j);
	sum = k->rec + at;
	for (i = 0; i < k->nv; i++)
		if (sum[i] + v[i] < sum[i])
			return -1;
	for (i = 0; i < k->nv; i++)
		sum[i] += v[i];
	return 0;
}

size_t pprof_kset_count(const struct pprof_kset *k)
{
	return k->n;
}

int pprof_kset_next(const struct pprof_kset *k, size_t *pos, const unsigned char **s,
		    size_t *len, const uint64_t **sums)
{
	if (*pos >= k->len)
		return 0;
	*sums = k->rec + *pos;
	*len = (size_t)k->rec[*pos + k->nv];
	*s = (const unsigned char *)(k->rec + *pos + k->nv + 1);
	*pos += k->nv + 1 + (*len + 7) / 8;
	return 1;
}
