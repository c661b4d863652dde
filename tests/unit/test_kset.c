/* Unit tests for pprof_kset: 300k distinct keys (of 4 to 140 bytes, so
 * short, wide and long ones) added one to four times each, in a mixed
 * order, on one set and on two merged: every key comes back once, in
 * the order it first came, with its sums; the index grows past the
 * size where it is made from its slots alone, and 20k keys, looked up
 * between growths below that size, where it is made from the records.
 * Keys that differ in their last byte only, or in length only, stay
 * apart.  Sums that would pass 2^64 are refused.  All of it with either
 * hash, the folds and the AES rounds, each of which spreads keys that
 * differ in two bytes only as keys drawn at random would be, and mixes
 * any two bytes' changes.  The compare of 16 bytes at a time tells the
 * same as the one of words, a byte changed inside a key's length or
 * past it. */
#include "check.h"
#include "pprof_kset.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define KEYS 300000
#define ROOM (PPROF_KSET_WIDE + 160)

/* Key i's bytes into b (room for ROOM, zeros past the key); its length. */
static size_t key(size_t i, unsigned char *b)
{
	size_t len = 4 + (i * 7919) % 137, j;
	uint64_t x = i * 0x9e3779b97f4a7c15u + 1;

	memset(b, 0, ROOM);
	for (j = 0; j < len; j++) {
		x ^= x >> 29;
		x *= 0xbf58476d1ce4e5b9u;
		b[j] = (unsigned char)(x >> 56);
	}
	/* Its number in its last bytes: every key distinct, keys of one
	 * length alike up to their end but for the random bytes. */
	for (j = 0; j < 4; j++)
		b[len - 1 - j] = (unsigned char)(i >> (8 * j));
	return len;
}

/* How many times key i is added: 1 to 4. */
static unsigned times(size_t i)
{
	return 1 + (unsigned)(i % 4);
}

/* Adds the keys from lo to hi to k, each times(i) over, the repeats
 * after all the firsts (value i + 1 and 1 each time). */
static int add_range(struct pprof_kset *k, const uint64_t *mix, size_t lo, size_t hi)
{
	unsigned char b[ROOM];
	size_t i, len;
	unsigned t;
	int bad = 0;

	for (t = 0; t < 4; t++)
		for (i = lo; i < hi; i++) {
			uint64_t v[2] = { i + 1, 1 };

			if (t >= times(i))
				continue;
			len = key(i, b);
			bad |= pprof_kset_add(k, b, len, pprof_kset_hash(mix, b, len), v) < 0;
		}
	return !bad;
}

/* Whether k holds keys lo..hi in that order with their sums. */
static int holds(const struct pprof_kset *k, size_t lo, size_t hi)
{
	unsigned char b[ROOM];
	const unsigned char *s;
	const uint64_t *sums;
	size_t pos = 0, len, i = lo, want;
	int ok = 1;

	while (pprof_kset_next(k, &pos, &s, &len, &sums)) {
		if (i >= hi)
			return 0;
		want = key(i, b);
		ok &= len == want && memcmp(s, b, len) == 0;
		ok &= sums[0] == (i + 1) * times(i) && sums[1] == times(i);
		i++;
	}
	return ok && i == hi && pprof_kset_count(k) == hi - lo;
}

/* pprof_kset_differ against pprof_kset_differ_words: every length,
 * keys alike but for one byte, inside or past the length; 0 when every
 * answer agrees (differ or not) and is right. */
static int compare_agrees(void)
{
	unsigned char a[PPROF_KSET_WIDE], b[PPROF_KSET_WIDE];
	size_t len, at, j;
	int bad = 0;

	for (j = 0; j < sizeof(a); j++)
		a[j] = (unsigned char)(j * 37 + 11);
	for (len = 0; len <= PPROF_KSET_WIDE; len++)
		for (at = 0; at < PPROF_KSET_WIDE; at++) {
			memcpy(b, a, sizeof(b));
			b[at] ^= (unsigned char)(1 + at % 255);
			bad |= !pprof_kset_differ(a, b, len) != !pprof_kset_differ_words(a, b, len);
			bad |= !pprof_kset_differ(a, b, len) != !(at < len);
			bad |= pprof_kset_differ(a, a, len) != 0;
		}
	return bad;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* Keys alike but for two bytes, taking every value: 65,536 of each
 * length and place of the two.  Whether their hashes are all distinct,
 * and their probes' first slots in a table of as many fill as many as
 * slots drawn at random would (1 - 1/e of them, within 1%: a hash that
 * passed over a byte, or mixed some bits too little, fills far fewer). */
static int spread(const uint64_t *mix)
{
	static const size_t lens[] = { 2, 9, 40, 64, 65, 100, 128 };
	static uint64_t h[1 << 16];
	static unsigned char used[1 << 16];
	unsigned char b[ROOM];
	size_t l, at, i, filled, dup;
	int ok = 1;

	/* The two at the start, the middle and the end of each key (the
	 * end of one of 64 or 128 bytes is the last that is hashed). */
	for (l = 0; l < sizeof(lens) / sizeof(lens[0]) * 3; l++) {
		at = l % 3 == 0 ? 0 : l % 3 == 1 ? lens[l / 3] / 2 - 1 : lens[l / 3] - 2;
		{
			memset(used, 0, sizeof(used));
			for (i = 0; i < sizeof(b); i++)
				b[i] = (unsigned char)(i * 29 + 7);
			for (filled = 0, i = 0; i < 1 << 16; i++) {
				b[at] = (unsigned char)i;
				b[at + 1] = (unsigned char)(i >> 8);
				h[i] = pprof_kset_hash(mix, b, lens[l / 3]);
				filled += !used[PPROF_KSET_POS(h[i], 0xffff)];
				used[PPROF_KSET_POS(h[i], 0xffff)] = 1;
			}
			qsort(h, 1 << 16, sizeof(h[0]), cmp_u64);
			for (dup = 0, i = 1; i < 1 << 16; i++)
				dup += h[i] == h[i - 1];
			ok &= dup == 0 && filled > 41013 && filled < 41841;
		}
	}
	return ok;
}

/* b times 2 in AES's field (x^8 + x^4 + x^3 + x + 1). */
static unsigned char times2(unsigned char b)
{
	return (unsigned char)(b << 1 ^ (b & 0x80 ? 0x1b : 0));
}

/* Whether keys made to collide without the secret stay apart.  Against
 * a hash that took each 16 bytes in as the round key of one AES round,
 * a key with its first byte changed collides with the one whose next
 * 16 bytes also differ by what that round's MixColumns makes of the
 * first byte's change after SubBytes: [2d, d, d, 3d] in their first
 * column, d one of 255 values, whatever the secret.  So one of these
 * 255 keys would share the first's hash; with two rounds a block, none
 * does (but for a chance of 255 in 2^64). */
static int apart(const uint64_t *mix)
{
	unsigned char b[ROOM], v[ROOM];
	uint64_t h;
	unsigned d;
	size_t i;
	int ok = 1;

	memset(b, 0, sizeof(b));
	for (i = 0; i < 40; i++)
		b[i] = (unsigned char)(i * 53 + 3);
	h = pprof_kset_hash(mix, b, 40);
	for (d = 1; d < 256; d++) {
		memcpy(v, b, sizeof(v));
		v[0] ^= 0x5a;
		v[16] ^= times2((unsigned char)d);
		v[17] ^= (unsigned char)d;
		v[18] ^= (unsigned char)d;
		v[19] ^= (unsigned char)(times2((unsigned char)d) ^ d);
		ok &= pprof_kset_hash(mix, v, 40) != h;
	}
	return ok;
}

/* Whether changes to two bytes of a key mix: h(a, b) ^ h(a', b) ^
 * h(a, b') ^ h(a', b') is 0 for every pair of changes when the hash is a
 * sum of one function of each byte (as the AES rounds were for two
 * bytes of the last block with one round after it: spread saw that on
 * one secret in a few hundred only), and 0 by chance once in 2^64
 * otherwise.  Every two bytes of keys of some lengths. */
static int mixed(const uint64_t *mix)
{
	static const size_t lens[] = { 2, 9, 40, 64, 65, 100, 128 };
	unsigned char b[ROOM];
	size_t l, p, q, i;
	uint64_t h;
	int ok = 1;

	for (i = 0; i < sizeof(b); i++)
		b[i] = (unsigned char)(i * 29 + 7);
	for (l = 0; l < sizeof(lens) / sizeof(lens[0]); l++)
		for (p = 0; p < lens[l]; p++)
			for (q = p + 1; q < lens[l]; q++) {
				unsigned char x = b[p], y = b[q];

				h = 0;
				for (i = 0; i < 4; i++) {
					b[p] = (unsigned char)(x ^ (i & 1 ? 1 + q % 255 : 0));
					b[q] = (unsigned char)(y ^ (i & 2 ? 1 + p % 255 : 0));
					h ^= pprof_kset_hash(mix, b, lens[l]);
				}
				b[p] = x, b[q] = y;
				ok &= h != 0;
			}
	return ok;
}

/* Everything above with the keys hashed with mix. */
static void with_mix(const uint64_t *mix)
{
	struct pprof_kset *a = pprof_kset_new(2), *b = pprof_kset_new(2), *c;
	unsigned char x[ROOM], y[ROOM];
	uint64_t v[2] = { 5, 1 }, big[2] = { UINT64_MAX - 10, 1 };
	size_t i;

	CHECK(spread(mix));
	CHECK(mixed(mix));
	CHECK(apart(mix));
	CHECK(add_range(a, mix, 0, KEYS));
	/* Found often, so the index also goes a quarter full. */
	pprof_kset_tune(a, 4 * KEYS);
	CHECK(holds(a, 0, KEYS));
	/* The same keys on two sets, merged: the first's then the second's. */
	CHECK(add_range(b, mix, KEYS / 2, KEYS));
	c = pprof_kset_new(2);
	CHECK(add_range(c, mix, 0, KEYS / 2));
	CHECK(pprof_kset_merge(c, b) == 0);
	CHECK(holds(c, 0, KEYS));
	pprof_kset_free(c);
	pprof_kset_free(b);
	pprof_kset_free(a);

	/* 20k keys, twice: the index grows from the records only (below
	 * the size where it grows from its slots), and is looked up
	 * between its growths. */
	a = pprof_kset_new(2);
	CHECK(add_range(a, mix, 0, 20000) && add_range(a, mix, 0, 20000));
	{
		const unsigned char *s;
		const uint64_t *sums;
		size_t pos = 0, len;
		int ok = 1;

		for (i = 0; pprof_kset_next(a, &pos, &s, &len, &sums); i++)
			ok &= i < 20000 && sums[0] == 2 * (i + 1) * times(i);
		CHECK(ok && i == 20000 && pprof_kset_count(a) == 20000);
	}
	pprof_kset_free(a);

	/* Alike but for the last byte, or a zero byte more. */
	a = pprof_kset_new(2);
	memset(x, 0, sizeof(x));
	memset(y, 0, sizeof(y));
	for (i = 0; i < 60; i++)
		x[i] = y[i] = (unsigned char)(i * 13 + 1);
	y[59] ^= 1;
	CHECK(pprof_kset_add(a, x, 60, pprof_kset_hash(mix, x, 60), v) == 0);
	CHECK(pprof_kset_add(a, y, 60, pprof_kset_hash(mix, y, 60), v) == 0);
	CHECK(pprof_kset_add(a, x, 61, pprof_kset_hash(mix, x, 61), v) == 0);
	CHECK(pprof_kset_add(a, x, 60, pprof_kset_hash(mix, x, 60), v) == 0);
	CHECK(pprof_kset_count(a) == 3);
	/* A sum past 2^64: refused, the sums left as they were. */
	CHECK(pprof_kset_add(a, y, 60, pprof_kset_hash(mix, y, 60), big) == 0);
	CHECK(pprof_kset_add(a, y, 60, pprof_kset_hash(mix, y, 60), big) < 0);
	{
		const unsigned char *s;
		const uint64_t *sums;
		size_t pos = 0, len;
		uint64_t got[3][2];

		for (i = 0; i < 3 && pprof_kset_next(a, &pos, &s, &len, &sums); i++)
			got[i][0] = sums[0], got[i][1] = sums[1];
		CHECK(i == 3 && got[0][0] == 10 && got[0][1] == 2 && got[2][0] == 5);
		CHECK(got[1][0] == 5 + (UINT64_MAX - 10) && got[1][1] == 2);
	}
	pprof_kset_free(a);
}

int main(void)
{
	CHECK(compare_agrees() == 0);
	/* The folds, then the AES rounds (the folds again where the
	 * processor has none). */
	with_mix(pprof_kset_mix(0));
	with_mix(pprof_kset_mix(1));
	return check_done();
}
