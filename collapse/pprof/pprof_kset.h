/* pprof_kset: the sample keys of stackcollapse-pprof's one pass (a
 * sample's location field, its bytes as they are) with the sums of
 * their values, one per value type.  A key's sums and bytes are one
 * record in one arena, and a slot of the index is 8 bytes (a tag of the
 * hash and the record's place), so a sample seen before costs a probe of
 * a small index and one record's cache lines, both fetched ahead. */
#ifndef FLAME_PPROF_KSET_H
#define FLAME_PPROF_KSET_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

struct pprof_kset;

/* What the per-sample path calls: inline even where the caller is large
 * (pprof_fast's loop over samples). */
#define PPROF_KSET_INLINE static inline __attribute__((always_inline))

/* An empty set of keys of nv (>= 1) sums each; free with
 * pprof_kset_free (NULL: does nothing). */
struct pprof_kset *pprof_kset_new(size_t nv);
void pprof_kset_free(struct pprof_kset *k);

/* A key of at most this many bytes is read as this many (the bytes past
 * it masked off): no branch on its length.  Such a key's s must have
 * them there to read. */
#define PPROF_KSET_WIDE 128

/* The hash of a key of more than WIDE bytes (hkey's: XXH3 with the
 * process's secret). */
uint64_t pprof_kset_hash_long(const void *s, size_t len);

/* Inline from here to pprof_kset_hash: it is called for every sample
 * (1-2% of the run on 2.2M samples). */
#define PPROF_KSET_WORDS (PPROF_KSET_WIDE / 8)

/* 0xff WIDE times, then 0 as many: the mask of a key of len bytes is
 * the WIDE bytes at WIDE - len. */
static const unsigned char pprof_kset_ones[2 * PPROF_KSET_WIDE] = {
#define PPROF_KSET_16 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, \
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff
	PPROF_KSET_16, PPROF_KSET_16, PPROF_KSET_16, PPROF_KSET_16,
	PPROF_KSET_16, PPROF_KSET_16, PPROF_KSET_16, PPROF_KSET_16,
#undef PPROF_KSET_16
};

/* The 8 bytes at s. */
static inline uint64_t pprof_kset_word(const unsigned char *s)
{
	uint64_t x;

	memcpy(&x, s, 8);
	return x;
}

/* The 128-bit product of a and b, its halves xored. */
static inline uint64_t pprof_kset_fold(uint64_t a, uint64_t b)
{
	__uint128_t m = (__uint128_t)a * b;

	return (uint64_t)m ^ (uint64_t)(m >> 64);
}

/* The folds of the first 8 * words bytes of s (its len bytes and
 * zeros), each pair of words masked and with its own words of c (hkey's
 * secret: keys cannot be made to collide without it); words is even and
 * a constant, so the loop unrolls. */
static inline uint64_t pprof_kset_folds(const uint64_t *c, const unsigned char *s, size_t len,
					size_t words)
{
	const unsigned char *m = pprof_kset_ones + PPROF_KSET_WIDE - len;
	uint64_t h = len;
	size_t i;

	/* Unrolled: GCC at -O2 kept the loop, its counting a third of the
	 * hash's instructions. */
#pragma GCC unroll 16
	for (i = 0; i < words; i += 2)
		h += pprof_kset_fold((pprof_kset_word(s + i * 8) & pprof_kset_word(m + i * 8)) ^ c[i],
				     (pprof_kset_word(s + i * 8 + 8) & pprof_kset_word(m + i * 8 + 8)) ^
					     c[i + 1]);
	return pprof_kset_fold(h ^ c[PPROF_KSET_WORDS], c[PPROF_KSET_WORDS + 1] | 1);
}

/* Nonzero when the len (at most WIDE) bytes at a and b differ: every
 * word, the bytes past len masked off (a branch on the exact length was
 * mispredicted nearly every sample); half the words for most keys. */
static inline uint64_t pprof_kset_differ_words(const unsigned char *a, const unsigned char *b,
					       size_t len)
{
	const unsigned char *m = pprof_kset_ones + PPROF_KSET_WIDE - len;
	uint64_t d = 0;
	size_t i;

#pragma GCC unroll 16
	for (i = 0; i < PPROF_KSET_WORDS / 2; i++)
		d |= (pprof_kset_word(a + i * 8) ^ pprof_kset_word(b + i * 8)) &
		     pprof_kset_word(m + i * 8);
	if (len > PPROF_KSET_WIDE / 2)
#pragma GCC unroll 16
		for (; i < PPROF_KSET_WORDS; i++)
			d |= (pprof_kset_word(a + i * 8) ^ pprof_kset_word(b + i * 8)) &
			     pprof_kset_word(m + i * 8);
	return d;
}

#ifdef __SSE2__
#if PPROF_KSET_WIDE != 128
#error "pprof_kset_differ reads 128 bytes in two halves of 64"
#endif
/* The 16 bytes at p. */
static inline __m128i pprof_kset_load(const void *p)
{
	return _mm_loadu_si128((const __m128i *)p);
}

/* The 64 bytes at a and b xored, masked by those at m, and the four
 * 16-byte pieces ored. */
static inline __m128i pprof_kset_xm64(const unsigned char *a, const unsigned char *b,
				      const unsigned char *m)
{
	__m128i x[4];
	int i;

#pragma GCC unroll 4
	for (i = 0; i < 4; i++)
		x[i] = _mm_and_si128(
			_mm_xor_si128(pprof_kset_load(a + 16 * i), pprof_kset_load(b + 16 * i)),
			pprof_kset_load(m + 16 * i));
	return _mm_or_si128(_mm_or_si128(x[0], x[1]), _mm_or_si128(x[2], x[3]));
}

#ifdef PPROF_V3
/* The 32 bytes at a and b xored, masked by those at m (AVX2: in a
 * build for it, pprof_fast_v3.c). */
static inline __m256i pprof_kset_xm32(const unsigned char *a, const unsigned char *b,
				      const unsigned char *m)
{
	return _mm256_and_si256(_mm256_xor_si256(_mm256_loadu_si256((const __m256i *)a),
						 _mm256_loadu_si256((const __m256i *)b)),
				_mm256_loadu_si256((const __m256i *)m));
}

/* pprof_kset_differ 32 bytes at a time: half the instructions. */
static inline uint64_t pprof_kset_differ(const unsigned char *a, const unsigned char *b,
					 size_t len)
{
	const unsigned char *m = pprof_kset_ones + PPROF_KSET_WIDE - len;
	__m256i d = _mm256_or_si256(pprof_kset_xm32(a, b, m), pprof_kset_xm32(a + 32, b + 32, m + 32));

	if (len > PPROF_KSET_WIDE / 2)
		d = _mm256_or_si256(d, _mm256_or_si256(pprof_kset_xm32(a + 64, b + 64, m + 64),
						       pprof_kset_xm32(a + 96, b + 96, m + 96)));
	return (uint64_t)!_mm256_testz_si256(d, d);
}
#else
/* pprof_kset_differ_words 16 bytes at a time, with SSE2 (every x86-64
 * has it): a third of the instructions, the sample pass 3 ms shorter on
 * 2.2M samples. */
static inline uint64_t pprof_kset_differ(const unsigned char *a, const unsigned char *b,
					 size_t len)
{
	const unsigned char *m = pprof_kset_ones + PPROF_KSET_WIDE - len;
	__m128i d = pprof_kset_xm64(a, b, m);

	if (len > PPROF_KSET_WIDE / 2)
		d = _mm_or_si128(d, pprof_kset_xm64(a + 64, b + 64, m + 64));
	return (uint64_t)(_mm_movemask_epi8(_mm_cmpeq_epi8(d, _mm_setzero_si128())) ^ 0xffff);
}
#endif
#else
#define pprof_kset_differ pprof_kset_differ_words
#endif

#if defined(__x86_64__) && defined(__SSE2__) && defined(__GNUC__)
#define PPROF_KSET_AES 1
/* One round of AES on st with round key k (aesenc, written as assembly:
 * the compiler then needs no -maes, and pprof_kset_mix checks the
 * processor has it). */
static inline __m128i pprof_kset_round(__m128i st, __m128i k)
{
#if defined(__AVX__) || defined(PPROF_V3)
	__asm__("vaesenc %2, %1, %0" : "=x"(st) : "x"(st), "x"(k));
#else
	__asm__("aesenc %1, %0" : "+x"(st) : "x"(k));
#endif
	return st;
}

/* The hash of len bytes at s (at most WIDE) as pprof_kset_hash's, by
 * rounds of AES on a state that starts as the secret and the length:
 * each 16 bytes (those past len masked off) the round key of one round,
 * then a round with a secret key; two more after the last block.  Half
 * the instructions of the folds.  With one after the last block, every
 * bit of the state depended on every bit of the key, but keys that
 * differ only in their last block's bytes came out as a sum of one
 * function of each changed byte: two bytes' 65,536 values then filled
 * 38,912 to 44,288 first slots of as many, by the secret, where random
 * ones fill 41,427 give or take 80 (test_kset's spread failed on one
 * secret in a few hundred; its mixed finds the sum).  With one round a
 * block, keys could be made to collide without the secret: a byte's
 * change comes out of one round as a change of four bytes that depends
 * on one byte of the state, which 255 tries cover, and the next 16
 * bytes can undo it (test_kset's apart); after two it depends on four
 * bytes. */
static inline uint64_t pprof_kset_aes_hash(const uint64_t *mix, const unsigned char *s,
					   size_t len, size_t blocks)
{
	const unsigned char *m = pprof_kset_ones + PPROF_KSET_WIDE - len;
	const __m128i k = pprof_kset_load(mix + 2);
	__m128i st = _mm_xor_si128(pprof_kset_load(mix), _mm_cvtsi64_si128((long long)len));
	size_t i;

#ifdef PPROF_V3
	/* The same rounds, the key masked 32 bytes at a time. */
	__m256i x;

#pragma GCC unroll 4
	for (i = 0; i < blocks; i += 2) {
		x = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(s + 16 * i)),
				     _mm256_loadu_si256((const __m256i *)(m + 16 * i)));
		st = pprof_kset_round(pprof_kset_round(st, _mm256_castsi256_si128(x)), k);
		st = pprof_kset_round(pprof_kset_round(st, _mm256_extracti128_si256(x, 1)), k);
	}
#else
#pragma GCC unroll 8
	for (i = 0; i < blocks; i++) {
		st = pprof_kset_round(st, _mm_and_si128(pprof_kset_load(s + 16 * i),
							pprof_kset_load(m + 16 * i)));
		st = pprof_kset_round(st, k);
	}
#endif
	st = pprof_kset_round(pprof_kset_round(st, k), pprof_kset_load(mix + 4));
	return (uint64_t)_mm_cvtsi128_si64(st);
}
#endif

/* The words of pprof_kset_mix: the secret's, then whether the hash is
 * made of AES rounds. */
#define PPROF_KSET_MIX_ROUNDS (PPROF_KSET_WORDS + 2)
#define PPROF_KSET_MIX (PPROF_KSET_MIX_ROUNDS + 1)

/* The words pprof_kset_hash mixes keys with (made once): hkey_words()',
 * and AES rounds used when rounds is set and the processor has them
 * (else the folds).  The two hash alike in distribution, not in value:
 * the keys of one set are hashed with one mix. */
const uint64_t *pprof_kset_mix(int rounds);

/* pprof_kset_hash of a key of at most WIDE bytes. */
PPROF_KSET_INLINE uint64_t pprof_kset_hash_short(const uint64_t *mix, const void *s, size_t len)
{
#ifdef PPROF_KSET_AES
	if (mix[PPROF_KSET_MIX_ROUNDS]) {
		if (len <= PPROF_KSET_WIDE / 2)
			return pprof_kset_aes_hash(mix, s, len, PPROF_KSET_WIDE / 32);
		return pprof_kset_aes_hash(mix, s, len, PPROF_KSET_WIDE / 16);
	}
#endif
	/* Most keys are short: half the folds. */
	if (len <= PPROF_KSET_WIDE / 2)
		return pprof_kset_folds(mix, s, len, PPROF_KSET_WORDS / 2);
	return pprof_kset_folds(mix, s, len, PPROF_KSET_WORDS);
}

/* The hash of the len bytes at s, with mix (pprof_kset_mix's), which
 * the caller keeps at hand. */
PPROF_KSET_INLINE uint64_t pprof_kset_hash(const uint64_t *mix, const void *s, size_t len)
{
	if (len > PPROF_KSET_WIDE)
		return pprof_kset_hash_long(s, len);
	return pprof_kset_hash_short(mix, s, len);
}

/* A slot's low bits: its record's place + 1 (in words); the high, the
 * tag (the hash's). */
#define PPROF_KSET_PLACE_BITS 40
#define PPROF_KSET_PLACE_MASK (((uint64_t)1 << PPROF_KSET_PLACE_BITS) - 1)

/* A record's length word: the key's length in its low bits, the hash's
 * bits above them as they are (the index and its tags use those only:
 * a table grows, and two merge, without hashing a key again). */
#define PPROF_KSET_LEN_BITS 24
#define PPROF_KSET_LEN_MASK (((uint64_t)1 << PPROF_KSET_LEN_BITS) - 1)
#define PPROF_KSET_LEN_WORD(len, h) ((uint64_t)(len) | ((h) & ~PPROF_KSET_LEN_MASK))

/* The slot where the probe for hash h starts, in an index of mask + 1;
 * the tag a slot keeps of it (its top bits).  The tag holds the bits
 * the probe starts from, in an index of up to 2^24 slots: one twice as
 * large is made from the slots alone, read and written in order. */
#define PPROF_KSET_POS(h, mask) ((size_t)((h) >> PPROF_KSET_LEN_BITS) & (mask))
#define PPROF_KSET_TAG_BITS (64 - PPROF_KSET_PLACE_BITS)
#define PPROF_KSET_TAG(h) ((h) >> PPROF_KSET_LEN_BITS & (((uint64_t)1 << PPROF_KSET_TAG_BITS) - 1))

/* private: what a pprof_kset starts with, so that the slot's fetch,
 * once a sample, is inline. */
struct pprof_kset_head {
	uint64_t *slot;		/* the index, a power of two of slots */
	size_t mask;		/* their count - 1 */
	uint64_t *rec;		/* the records, end to end */
	size_t nv;		/* sums per key */
};

/* Hints that key of hash h (len bytes) will be added soon: its slot
 * (some adds ahead), then its record (when the slot has had time to
 * come): the lines pprof_kset_add reads of it.  Inlined always: GCC
 * takes a function of loads and prefetches only for one without
 * effects, and drops its calls unless it was inlined first (an inline
 * hint of the record, for small tables, was so dropped unseen). */
PPROF_KSET_INLINE void pprof_kset_prefetch(const struct pprof_kset *k, uint64_t h)
{
	const struct pprof_kset_head *x = (const void *)k;

	__builtin_prefetch(&x->slot[PPROF_KSET_POS(h, x->mask)]);
}

/* The record's lines of a key of len bytes at r, hinted: its sums and
 * length, and the key's words as the compare reads them (WIDE / 2 bytes
 * or WIDE).  No branch on the length (mispredicted for a key in six on
 * the 100k-stack profile): the line of the last word read, and the one
 * before it, are hinted as they fall, again for a short key. */
PPROF_KSET_INLINE void pprof_kset_prefetch_lines(const uint64_t *r, size_t nv, size_t len)
{
	const size_t last = nv + (len > PPROF_KSET_WIDE / 2 ? PPROF_KSET_WORDS : PPROF_KSET_WORDS / 2);

	__builtin_prefetch(r);
	__builtin_prefetch(r + 8);
	__builtin_prefetch(r + last - 8);
	__builtin_prefetch(r + last);
}

/* pprof_kset_prefetch_rec past the first slot of the probe. */
uint64_t pprof_kset_prefetch_probe(const struct pprof_kset *k, uint64_t h, size_t len);

/* Hints the record of key of hash h (len bytes), found through the
 * first slots of its probe (fetched by pprof_kset_prefetch some adds
 * before); inline for the first (nearly every key's).  Returns where it
 * was found, for pprof_kset_add_at: its place + 1, or 0. */
PPROF_KSET_INLINE uint64_t pprof_kset_prefetch_rec(const struct pprof_kset *k, uint64_t h,
						   size_t len)
{
	const struct pprof_kset_head *x = (const void *)k;
	const uint64_t e = x->slot[PPROF_KSET_POS(h, x->mask)];

	if (e && e >> PPROF_KSET_PLACE_BITS == PPROF_KSET_TAG(h)) {
		pprof_kset_prefetch_lines(x->rec + (e & PPROF_KSET_PLACE_MASK) - 1, x->nv, len);
		return e & PPROF_KSET_PLACE_MASK;
	}
	return e ? pprof_kset_prefetch_probe(k, h, len) : 0;
}

/* Far more than a probe of a table at most half full ever takes (the
 * longest in 2^26 slots is about a hundred). */
#define PPROF_KSET_PROBES 512

/* pprof_kset_add for every key. */
int pprof_kset_add_any(struct pprof_kset *k, const void *s, size_t len, uint64_t h,
		       const uint64_t *v);

/* pprof_kset_add's end, for a key of at most WIDE bytes where the set
 * has two sums, the record at r (its place) to be looked at first. */
PPROF_KSET_INLINE int pprof_kset_add_rec(struct pprof_kset *k, uint64_t *r, const void *s,
					 size_t len, uint64_t h, const uint64_t *v)
{
	uint64_t d = pprof_kset_differ((const unsigned char *)(r + 3), s, len), a, b;

	if (r[2] != PPROF_KSET_LEN_WORD(len, h) || d)
		return pprof_kset_add_any(k, s, len, h, v);
	if (__builtin_add_overflow(r[0], v[0], &a) || __builtin_add_overflow(r[1], v[1], &b))
		return -1;
	r[0] = a;
	r[1] = b;
	return 0;
}

/* Adds the nv values v to the sums of key s (len bytes, hash h), added
 * with sums of 0 when new.  Returns 0, or -1 when a sum would pass
 * UINT64_MAX (it is left as it was) or the key is not met within
 * PPROF_KSET_PROBES slots of its probe: keys that share a hash far
 * beyond chance (the hash has the process's secret: they cannot be made
 * to), where every add would walk through all of them, or the key has
 * more bytes than its length word holds (16 MB), so the caller reads the
 * profile another way.  Inline for a key seen before in the first slot
 * of its probe, of at most WIDE bytes, with two sums (nearly every
 * sample of most profiles): no call, no probe loop. */
PPROF_KSET_INLINE int pprof_kset_add(struct pprof_kset *k, const void *s, size_t len, uint64_t h,
				      const uint64_t *v)
{
	const struct pprof_kset_head *x = (const void *)k;
	const uint64_t e = x->slot[PPROF_KSET_POS(h, x->mask)];

	if (e == 0 || e >> PPROF_KSET_PLACE_BITS != PPROF_KSET_TAG(h) || x->nv != 2 ||
	    len > PPROF_KSET_WIDE)
		return pprof_kset_add_any(k, s, len, h, v);
	return pprof_kset_add_rec(k, x->rec + (e & PPROF_KSET_PLACE_MASK) - 1, s, len, h, v);
}

/* pprof_kset_add for a key of at most WIDE bytes where the set has two
 * sums, as the caller knows, its record looked for ahead: at is where
 * the key may be (pprof_kset_prefetch_rec's, or the place + 1 of any
 * record of k's: the compare of the key decides) or 0, and the slot is
 * not read again. */
PPROF_KSET_INLINE int pprof_kset_add2_at(struct pprof_kset *k, uint64_t at, const void *s,
					 size_t len, uint64_t h, const uint64_t *v)
{
	const struct pprof_kset_head *x = (const void *)k;

	if (!at)
		return pprof_kset_add_any(k, s, len, h, v);
	return pprof_kset_add_rec(k, x->rec + at - 1, s, len, h, v);
}

/* pprof_kset_add2_at for any key and set. */
PPROF_KSET_INLINE int pprof_kset_add_at(struct pprof_kset *k, uint64_t at, const void *s,
					size_t len, uint64_t h, const uint64_t *v)
{
	const struct pprof_kset_head *x = (const void *)k;

	if (x->nv != 2 || len > PPROF_KSET_WIDE)
		return pprof_kset_add_any(k, s, len, h, v);
	return pprof_kset_add2_at(k, at, s, len, h, v);
}

/* Told that adds keys have been added so far: when at least half of
 * them found their key and the index is large (out of the cache) and
 * over a quarter full, twice the slots.  There a probe past a key's
 * first slot is a miss the fetching ahead does not hide (100k keys, 22
 * adds a key: 131.5 -> 129.3 ms; 30k: 56.2 -> 54.0); with about one add
 * a key (real profiles: a sample a stack) the room would cost more than
 * it saves (always a quarter full: perf100.pb 17.6 -> 18.9 ms).  The
 * index then takes up to 64 bytes a key, not 32 (600k keys, 3 adds
 * each: peak RSS 114.6 -> 122.9 MB). */
void pprof_kset_tune(struct pprof_kset *k, size_t adds);

/* Adds every key of src with its sums to dst (as pprof_kset_add would
 * one by one): the sets of two threads made one.  Returns 0, or -1 as
 * pprof_kset_add, or when their sums per key differ (dst is then not
 * to be used). */
int pprof_kset_merge(struct pprof_kset *dst, const struct pprof_kset *src);

/* How many sums each key has. */
size_t pprof_kset_sums(const struct pprof_kset *k);

/* How many keys there are. */
size_t pprof_kset_count(const struct pprof_kset *k);

/* Bytes of the records and index: when few enough to stay in the cache,
 * prefetching them costs more than it saves. */
size_t pprof_kset_bytes(const struct pprof_kset *k);

/* The key after *pos (0: the first), in the order they came: its bytes
 * in *s and *len, its sums in *sums.  Returns 0 past the last. */
int pprof_kset_next(const struct pprof_kset *k, size_t *pos, const unsigned char **s,
		    size_t *len, const uint64_t **sums);

#endif
