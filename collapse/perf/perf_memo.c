/* perf_memo: open addressing over slots that hold the hash, where the
 * text is in one arena, and the value; the load stays under 1/2.  In
 * front of it a small direct-mapped cache holds the texts themselves, so
 * the frames of hot code are found in one slot that stays in the
 * processor's caches (a lookup in the big table reads two places far
 * apart).  In front of both, a bigger direct-mapped cache keyed by the
 * whole frame line as it came: a hit there needs the line neither split
 * nor its offset found, and one hash of it, not two of its parts. */
#include "perf_memo.h"
#include "hkey.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#define MAX_KEY 4096			/* longer texts are not remembered */
#define MAX_ARENA ((size_t)256 << 20)	/* bytes of text kept at most */

struct slot {
	uint64_t h;			/* hash | 1; 0: empty */
	uint32_t off;			/* text offset in the arena */
	uint32_t alen;			/* bytes of its first part */
	uint32_t len;			/* text bytes */
	struct perf_memo_val v;		/* what it came to */
};

#define NEAR_SLOTS 4096
#define NEAR_TEXT 240

struct near {
	uint64_t h;			/* hash | 1; 0: empty */
	uint32_t alen;			/* bytes of its first part */
	uint32_t len;			/* text bytes */
	struct perf_memo_val v;		/* what it came to */
	char text[NEAR_TEXT];		/* the text */
};

#define LINE_SLOTS 16384
#define LINE_TEXT 172	/* a slot is then three cache lines, aligned */
#define CACHE_LINE 64

struct line {
	uint64_t h;			/* hash | 1; 0: empty */
	struct perf_memo_val v;		/* what it came to */
	uint32_t len;			/* line bytes */
	char text[LINE_TEXT];		/* the line */
};

_Static_assert(sizeof(struct line) % CACHE_LINE == 0, "a line slot is whole cache lines");

struct perf_memo {
	struct line *line;		/* LINE_SLOTS recent lines */
	void *line_mem;			/* where line was allocated */
	struct near *near;		/* NEAR_SLOTS recent texts */
	struct slot *slot;		/* the table */
	size_t mask;			/* slots - 1 (a power of two) */
	size_t n;			/* slots in use */
	char *arena;			/* the texts */
	size_t alen;			/* bytes used */
	size_t acap;			/* capacity */
};

struct perf_memo *perf_memo_new(void)
{
	struct perf_memo *m = xcalloc(1, sizeof(*m));

	m->line_mem = xcalloc(LINE_SLOTS + 1, sizeof(*m->line));
	m->line = (struct line *)(((uintptr_t)m->line_mem + CACHE_LINE - 1) & ~(uintptr_t)(CACHE_LINE - 1));
	m->near = xcalloc(NEAR_SLOTS, sizeof(*m->near));
	m->mask = 4095;
	m->slot = xcalloc(m->mask + 1, sizeof(*m->slot));
	return m;
}

void perf_memo_free(struct perf_memo *m)
{
	if (!m)
		return;
	free(m->line_mem);
	free(m->near);
	free(m->slot);
	free(m->arena);
	free(m);
}

uint64_t perf_memo_hash(const char *a, size_t alen, const char *b, size_t blen)
{
	return (hkey(a, alen) * 0x9e3779b97f4a7c15u ^ hkey(b, blen)) | 1;
}

static uint64_t load64(const char *s)
{
	uint64_t v;

	memcpy(&v, s, sizeof(v));
	return v;
}

static uint64_t rotl(uint64_t v, int k)
{
	return v << k | v >> (64 - k);
}

/* A frame line is told from others by its first 24 bytes (the address
 * and the symbol's start), its end and its length: those are mixed, not
 * every byte (a slot is only a guess, the line is compared whole). */
uint64_t perf_memo_line_hash(const char *s, size_t n)
{
	uint64_t x;

	if (n < 24)
		return XXH3_64bits(s, n) | 1;
	x = load64(s) * 0x9e3779b97f4a7c15u + load64(s + 8);
	x = rotl(x, 31) * 0xc2b2ae3d27d4eb4fu + load64(s + 16);
	x = rotl(x, 31) * 0x165667b19e3779f9u + (load64(s + n - 8) ^ n);
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdu;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53u;
	x ^= x >> 33;
	return x | 1;
}

void perf_memo_line_fetch(const struct perf_memo *m, uint64_t h)
{
	const char *l = (const char *)&m->line[h >> 50 & (LINE_SLOTS - 1)];

	__builtin_prefetch(l);
	__builtin_prefetch(l + CACHE_LINE);
	__builtin_prefetch(l + 2 * CACHE_LINE);
}

const struct perf_memo_val *perf_memo_line_get(const struct perf_memo *m, const char *s, size_t n,
					       uint64_t h)
{
	const struct line *l = &m->line[h >> 50 & (LINE_SLOTS - 1)];

	if (l->h == h && l->len == n && memcmp(l->text, s, n) == 0)
		return &l->v;
	return NULL;
}

void perf_memo_line_put(struct perf_memo *m, const char *s, size_t n, uint64_t h,
			const struct perf_memo_val *v)
{
	struct line *l = &m->line[h >> 50 & (LINE_SLOTS - 1)];

	if (n > LINE_TEXT)
		return;
	l->h = h;
	l->v = *v;
	l->len = (uint32_t)n;
	memcpy(l->text, s, n);
}

/* Whether text (alen + blen bytes at t) is the key a, b. */
static int same(const char *t, size_t talen, size_t tlen, const char *a, size_t alen,
		const char *b, size_t blen)
{
	return talen == alen && tlen == alen + blen && memcmp(t, a, alen) == 0 &&
	       memcmp(t + alen, b, blen) == 0;
}

/* Keeps a text found in the big table in the near cache too. */
static const struct perf_memo_val *near_put(struct near *c, const char *a, size_t alen,
					    const char *b, size_t blen, uint64_t h,
					    const struct perf_memo_val *v)
{
	if (alen + blen > NEAR_TEXT)
		return v;
	c->h = h;
	c->alen = (uint32_t)alen;
	c->len = (uint32_t)(alen + blen);
	c->v = *v;
	memcpy(c->text, a, alen);
	memcpy(c->text + alen, b, blen);
	return &c->v;
}

const struct perf_memo_val *perf_memo_get(struct perf_memo *m, const char *a, size_t alen,
					  const char *b, size_t blen, uint64_t h)
{
	struct near *c = &m->near[h >> 52 & (NEAR_SLOTS - 1)];
	size_t s;

	if (c->h == h && same(c->text, c->alen, c->len, a, alen, b, blen))
		return &c->v;
	for (s = (size_t)h & m->mask; m->slot[s].h; s = (s + 1) & m->mask) {
		const struct slot *e = &m->slot[s];

		if (e->h == h && same(m->arena + e->off, e->alen, e->len, a, alen, b, blen))
			return near_put(c, a, alen, b, blen, h, &e->v);
	}
	return NULL;
}

static void grow(struct perf_memo *m)
{
	size_t mask = m->mask * 2 + 1, i, s;
	struct slot *slot = xcalloc(mask + 1, sizeof(*slot));

	for (i = 0; i <= m->mask; i++) {
		if (!m->slot[i].h)
			continue;
		for (s = (size_t)m->slot[i].h & mask; slot[s].h; s = (s + 1) & mask)
			;
		slot[s] = m->slot[i];
	}
	free(m->slot);
	m->slot = slot;
	m->mask = mask;
}

void perf_memo_put(struct perf_memo *m, const char *a, size_t alen, const char *b, size_t blen,
		   uint64_t h, const struct perf_memo_val *v)
{
	size_t s, len = alen + blen;

	near_put(&m->near[h >> 52 & (NEAR_SLOTS - 1)], a, alen, b, blen, h, v);
	if (len == 0 || len > MAX_KEY || m->alen + len > MAX_ARENA)
		return;
	if ((m->n + 1) * 2 > m->mask + 1)
		grow(m);
	for (s = (size_t)h & m->mask; m->slot[s].h; s = (s + 1) & m->mask)
		;
	if (m->acap - m->alen < len)
		xgrow(&m->arena, &m->acap, m->alen + len, 1);
	memcpy(m->arena + m->alen, a, alen);
	memcpy(m->arena + m->alen + alen, b, blen);
	m->slot[s].h = h;
	m->slot[s].off = (uint32_t)m->alen;
	m->slot[s].alen = (uint32_t)alen;
	m->slot[s].len = (uint32_t)len;
	m->slot[s].v = *v;
	m->alen += len;
	m->n++;
}
