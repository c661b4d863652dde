/* perf_pmemo: open addressing over slots holding the two addresses, the
 * lengths and the verdict; the load stays under 1/2.  A key is compared
 * whole, never by a hash alone, so two frames never share a verdict. */
#include "perf_pmemo.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

struct slot {
	const char *a;			/* first text; NULL: empty */
	const char *b;			/* second text */
	uint32_t alen;			/* bytes of a */
	uint32_t blen;			/* bytes of b, the flag in the top bits */
	struct perf_memo_val v;	/* what it came to */
};

#define FLAG_SHIFT 28			/* blen's bits from here hold the flag */
#define MIN_SLOTS 4096
#define MAX_SLOTS ((size_t)1 << 24)	/* 512 MB: past half of it, new frames
					   are simply not remembered */

struct perf_pmemo {
	struct slot *slot;		/* the table */
	size_t mask;			/* slots - 1 (a power of two) */
	size_t n;			/* slots in use */
};

struct perf_pmemo *perf_pmemo_new(void)
{
	struct perf_pmemo *m = xcalloc(1, sizeof(*m));

	m->mask = MIN_SLOTS - 1;
	m->slot = xcalloc(MIN_SLOTS, sizeof(*m->slot));
	return m;
}

void perf_pmemo_free(struct perf_pmemo *m)
{
	if (!m)
		return;
	free(m->slot);
	free(m);
}

void perf_pmemo_clear(struct perf_pmemo *m)
{
	if (!m || !m->n)
		return;
	memset(m->slot, 0, (m->mask + 1) * sizeof(*m->slot));
	m->n = 0;
}

static size_t slot_of(const char *a, const char *b, uint32_t blen, size_t mask)
{
	uint64_t h = ((uint64_t)(uintptr_t)a * 0x9e3779b97f4a7c15ULL) ^
		     ((uint64_t)(uintptr_t)b + blen) * 0xc2b2ae3d27d4eb4fULL;

	return (size_t)(h >> 32 ^ h) & mask;
}

/* blen and flag in one word, or UINT32_MAX when they do not fit (such a
 * frame is not remembered). */
static uint32_t pack(size_t alen, size_t blen, unsigned flag)
{
	if (alen > UINT32_MAX || blen >= (size_t)1 << FLAG_SHIFT || flag >= 1u << (32 - FLAG_SHIFT))
		return UINT32_MAX;
	return (uint32_t)blen | (uint32_t)flag << FLAG_SHIFT;
}

const struct perf_memo_val *perf_pmemo_get(const struct perf_pmemo *m, const char *a,
					    size_t alen, const char *b, size_t blen,
					    unsigned flag)
{
	uint32_t w = pack(alen, blen, flag);
	size_t s;

	if (w == UINT32_MAX || !a)
		return NULL;
	for (s = slot_of(a, b, w, m->mask); m->slot[s].a; s = (s + 1) & m->mask) {
		const struct slot *e = &m->slot[s];

		if (e->a == a && e->b == b && e->alen == alen && e->blen == w)
			return &e->v;
	}
	return NULL;
}

static void grow(struct perf_pmemo *m)
{
	size_t mask = m->mask * 2 + 1, i, s;
	struct slot *slot = xcalloc(mask + 1, sizeof(*slot));

	for (i = 0; i <= m->mask; i++) {
		const struct slot *e = &m->slot[i];

		if (!e->a)
			continue;
		for (s = slot_of(e->a, e->b, e->blen, mask); slot[s].a; s = (s + 1) & mask)
			;
		slot[s] = *e;
	}
	free(m->slot);
	m->slot = slot;
	m->mask = mask;
}

void perf_pmemo_put(struct perf_pmemo *m, const char *a, size_t alen, const char *b, size_t blen,
		    unsigned flag, const struct perf_memo_val *v)
{
	uint32_t w = pack(alen, blen, flag);
	size_t s;

	if (w == UINT32_MAX || !a)
		return;
	if ((m->n + 1) * 2 > m->mask + 1) {
		if (m->mask + 1 >= MAX_SLOTS)
			return;
		grow(m);
	}
	for (s = slot_of(a, b, w, m->mask); m->slot[s].a; s = (s + 1) & m->mask)
		;
	m->slot[s].a = a;
	m->slot[s].b = b;
	m->slot[s].alen = (uint32_t)alen;
	m->slot[s].blen = w;
	m->slot[s].v = *v;
	m->n++;
}
