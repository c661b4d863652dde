/* pprof_kset: open addressing, linear probing, at most half full (a
 * quarter once large and mostly found: pprof_kset_tune).  A slot is 0
 * (free) or the hash's top bits above the record's place + 1 (in 8-byte
 * words); a record is the nv sums, the key's length (the hash's bits
 * above it, which are all the index uses), then its bytes, padded to 8.
 * A key of up to WIDE bytes is hashed and compared as WIDE / 2 bytes
 * when it has no more (most: it then touches a line of the record
 * fewer), else as WIDE, those past it masked off (branches on its exact
 * length were mispredicted nearly every sample), so the arena keeps
 * WIDE bytes of room past the last record.  The index, once
 * large, and the records are asked to be huge pages (table, xbig). */
#include "pprof_kset.h"
#include "hkey.h"
#include "xalloc.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define WORDS PPROF_KSET_WORDS
#define PLACE_BITS PPROF_KSET_PLACE_BITS
#define PLACE(v) ((size_t)((v) & PPROF_KSET_PLACE_MASK) - 1)
#define TAG(h) PPROF_KSET_TAG(h)	/* of a hash */
#define SLOT_TAG(v) ((v) >> PLACE_BITS)	/* a slot's */
#define POS(h, mask) PPROF_KSET_POS(h, mask)
#define LEN_MASK PPROF_KSET_LEN_MASK
#define LEN_WORD(len, h) PPROF_KSET_LEN_WORD(len, h)

struct pprof_kset {
	struct pprof_kset_head ix;	/* the index (first: see the header) */
	size_t n;		/* keys */
	size_t len, cap;	/* words used, room */
	struct xbig arena;	/* the records' bytes (ix.rec) */
};

/* Where the record after words at of the arena starts: at, or the next
 * line when the lines a lookup reads of a short key's record (its sums,
 * length and WIDE / 2 bytes) would then take three lines, not two: a
 * miss more, for a quarter of the keys with two sums.  (The arena's
 * large blocks start at a line.)  With more sums than fit two lines so,
 * at. */
static size_t start(const struct pprof_kset *k, size_t at)
{
	size_t reads = k->ix.nv + 1 + WORDS / 2;

	return reads <= 16 && (at & 7) > 16 - reads ? (at + 7) & ~(size_t)7 : at;
}

struct pprof_kset *pprof_kset_new(size_t nv)
{
	struct pprof_kset *k = xcalloc(1, sizeof(*k));

	k->ix.nv = nv;
	k->ix.mask = 4095;
	k->ix.slot = xcalloc(k->ix.mask + 1, sizeof(*k->ix.slot));
	return k;
}

void pprof_kset_free(struct pprof_kset *k)
{
	if (!k)
		return;
	free(k->ix.slot);
	xbig_free(&k->arena);
	free(k);
}

uint64_t pprof_kset_hash_long(const void *p, size_t len)
{
	return hkey(p, len);
}

#if HKEY_SECRET / 8 < PPROF_KSET_MIX_ROUNDS
#error "hkey_words() has too few words for pprof_kset_mix"
#endif

/* pprof_kset_mix's: [0] the folds, [1] the rounds where there are. */
static uint64_t mixes[2][PPROF_KSET_MIX];
static pthread_once_t mixed = PTHREAD_ONCE_INIT;

/* Whether the processor has AES rounds, and FLAME_HASH_FOLDS does not
 * ask for the folds (set and not 0: to compare the two). */
static int has_rounds(void)
{
	const char *env = getenv("FLAME_HASH_FOLDS");

	if (env && *env && strcmp(env, "0") != 0)
		return 0;
#ifdef PPROF_KSET_AES
	__builtin_cpu_init();
	return __builtin_cpu_supports("aes") != 0;
#else
	return 0;
#endif
}

static void make_mixes(void)
{
	memcpy(mixes[0], hkey_words(), PPROF_KSET_MIX_ROUNDS * sizeof(mixes[0][0]));
	memcpy(mixes[1], mixes[0], sizeof(mixes[1]));
	mixes[1][PPROF_KSET_MIX_ROUNDS] = (uint64_t)has_rounds();
}

const uint64_t *pprof_kset_mix(int rounds)
{
	pthread_once(&mixed, make_mixes);
	return mixes[rounds != 0];
}

uint64_t pprof_kset_prefetch_probe(const struct pprof_kset *k, uint64_t h, size_t len)
{
	size_t j = POS(h, k->ix.mask), probes;
	uint64_t v;

	/* An effect: without one GCC takes this for a function of none and
	 * drops its calls where what it returns is not used. */
	__asm__ __volatile__("");
	/* The next slots of its probe, as far as one with its tag. */
	for (probes = 1; probes < 4; probes++) {
		j = (j + 1) & k->ix.mask;
		if (!(v = k->ix.slot[j]))
			return 0;
		if (SLOT_TAG(v) == TAG(h)) {
			pprof_kset_prefetch_lines(k->ix.rec + PLACE(v), k->ix.nv, len);
			return v & PPROF_KSET_PLACE_MASK;
		}
	}
	return 0;
}

/* A block of n bytes for the index or the records: from 2 MB on, on
 * huge pages where the system gives them on request.  Every sample
 * reads a slot and a record at random: on 4 KB pages most of those
 * missed the TLB (100k keys: 12 MB, 3,000 pages), and the walks cost
 * 9% of the run.  xmalloc_big leaves the asking to its callers (a fault
 * may wait for the memory to be compacted): worth it here only.  Freed
 * with free(). */
static void *table(size_t n)
{
	void *p = xmalloc_big(n);

#ifdef MADV_HUGEPAGE
	if (n >= ((size_t)2 << 20))
		(void)madvise(p, n, MADV_HUGEPAGE);
#endif
	return p;
}

/* Records placed by grow at a time: their keys hashed and their new
 * slots fetched first, then the slots written (one at a time, nearly
 * each was a miss: 100k keys, grow 5% of the run). */
#define REPLACE 16

/* An index of this many slots or more, out of the cache, grows from
 * its slots alone (grow). */
#define BY_TAG ((size_t)1 << 16)

/* Twice the slots.  From BY_TAG up to 2^24, each slot goes where its
 * tag says, taken in order (its record not read); else each record is
 * placed by the hash its length word keeps, REPLACE at a time, their
 * new slots fetched first.  (Placing a large index's records in their
 * order cost a miss a key: 6% of the run with 1.17M keys.) */
static void grow(struct pprof_kset *k)
{
	size_t mask = k->ix.mask * 2 + 1, at = 0, j, i, n;
	uint64_t *s = table((mask + 1) * sizeof(*s)), h[REPLACE], place[REPLACE], w, v;
	int by_tag = mask >= BY_TAG && mask < ((size_t)1 << PPROF_KSET_TAG_BITS);

	memset(s, 0, (mask + 1) * sizeof(*s));
	if (by_tag)
		for (i = 0; i <= k->ix.mask; i++) {
			if (!(v = k->ix.slot[i]))
				continue;
			for (j = (size_t)SLOT_TAG(v) & mask; s[j]; j = (j + 1) & mask)
				;
			s[j] = v;
		}
	else
		while ((at = start(k, at)) < k->len) {
			for (n = 0; n < REPLACE && (at = start(k, at)) < k->len; n++) {
				w = k->ix.rec[at + k->ix.nv];
				h[n] = w & ~LEN_MASK;
				place[n] = at + 1;
				__builtin_prefetch(&s[POS(h[n], mask)], 1);
				at += k->ix.nv + 1 + ((w & LEN_MASK) + 7) / 8;
			}
			for (i = 0; i < n; i++) {
				for (j = POS(h[i], mask); s[j]; j = (j + 1) & mask)
					;
				s[j] = TAG(h[i]) << PLACE_BITS | place[i];
			}
		}
	free(k->ix.slot);
	k->ix.slot = s;
	k->ix.mask = mask;
}

/* Room for need words of records: the arena doubled (xbig's, which
 * moves the pages, not the bytes, and asks for huge ones). */
static void room(struct pprof_kset *k, size_t need)
{
	if (need <= k->cap)
		return;
	k->ix.rec = xbig_hold(&k->arena, need, sizeof(*k->ix.rec), &k->cap);
}

/* From this many slots on (512 KB, out of the cache), an index a
 * quarter full at most once most adds find their key (pprof_kset_tune). */
#define SPARSE ((size_t)1 << 16)

void pprof_kset_tune(struct pprof_kset *k, size_t adds)
{
	size_t slots = k->ix.mask + 1;

	if (slots >= SPARSE && adds / 2 >= k->n && k->n > slots / 4)
		grow(k);
}

/* A new record for key s (len bytes) at slot j (free); its place. */
static size_t add_new(struct pprof_kset *k, const void *s, size_t len, uint64_t h, size_t j)
{
	size_t at = start(k, k->len), words = k->ix.nv + 1 + (len + 7) / 8;

	if ((k->n + 1) * 2 > k->ix.mask + 1) {
		grow(k);
		for (j = POS(h, k->ix.mask); k->ix.slot[j]; j = (j + 1) & k->ix.mask)
			;
	}
	/* Room for a wide key's read past the last record. */
	room(k, at + words + WORDS);
	memset(k->ix.rec + at, 0, (words + WORDS) * sizeof(*k->ix.rec));
	k->ix.rec[at + k->ix.nv] = LEN_WORD(len, h);
	memcpy(k->ix.rec + at + k->ix.nv + 1, s, len);
	k->len = at + words;
	k->n++;
	k->ix.slot[j] = TAG(h) << PLACE_BITS | (at + 1);
	return at;
}

/* Whether the len bytes at a and b are the same: 8 at a time, the last
 * 8 overlapping (keys are some tens of bytes; memcmp's call costs more
 * than the compare). */
static int same(const unsigned char *a, const unsigned char *b, size_t len)
{
	uint64_t x, y;
	size_t i;

	if (len <= PPROF_KSET_WIDE)
		return pprof_kset_differ(a, b, len) == 0;
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

int pprof_kset_add_any(struct pprof_kset *k, const void *s, size_t len, uint64_t h,
		       const uint64_t *v)
{
	size_t j, at = SIZE_MAX, i, probes = 0;
	uint64_t e, *sum, a, b;

	if (len > LEN_MASK)
		return -1;
	for (j = POS(h, k->ix.mask); (e = k->ix.slot[j]) != 0; j = (j + 1) & k->ix.mask) {
		const uint64_t *r = k->ix.rec + PLACE(e);

		if (++probes > PPROF_KSET_PROBES)
			return -1;
		if (SLOT_TAG(e) == TAG(h) && r[k->ix.nv] == LEN_WORD(len, h) &&
		    same((const unsigned char *)(r + k->ix.nv + 1), s, len)) {
			at = PLACE(e);
			break;
		}
	}
	if (at == SIZE_MAX)
		at = add_new(k, s, len, h, j);
	sum = k->ix.rec + at;
	/* Most profiles have one or two value types: no loops for them. */
	if (k->ix.nv == 2) {
		if (__builtin_add_overflow(sum[0], v[0], &a) || __builtin_add_overflow(sum[1], v[1], &b))
			return -1;
		sum[0] = a;
		sum[1] = b;
		return 0;
	}
	if (k->ix.nv == 1)
		return __builtin_add_overflow(sum[0], v[0], &a) ? -1 : (sum[0] = a, 0);
	for (i = 0; i < k->ix.nv; i++)
		if (sum[i] + v[i] < sum[i])
			return -1;
	for (i = 0; i < k->ix.nv; i++)
		sum[i] += v[i];
	return 0;
}

/* Keys of a merge looked at ahead: their slots, then their records, are
 * fetched some keys before they are added. */
#define MERGE_AHEAD 8

int pprof_kset_merge(struct pprof_kset *dst, const struct pprof_kset *src)
{
	struct {
		const unsigned char *s;
		size_t len;
		uint64_t h;
		const uint64_t *sums;
		uint64_t at;		/* pprof_kset_prefetch_rec's, or 0 */
	} ring[MERGE_AHEAD], *e;
	size_t pos = 0, head = 0, tail = 0;

	if (dst->ix.nv != src->ix.nv)
		return -1;
	for (;;) {
		while (head - tail < MERGE_AHEAD &&
		       (e = &ring[head % MERGE_AHEAD],
			pprof_kset_next(src, &pos, &e->s, &e->len, &e->sums))) {
			/* The hash as the length word keeps it: all the index
			 * uses (the same secret: one process). */
			e->h = e->sums[src->ix.nv] & ~LEN_MASK;
			e->at = 0;
			pprof_kset_prefetch(dst, e->h);
			head++;
		}
		if (tail == head)
			return 0;
		if (head - tail > MERGE_AHEAD / 2) {
			e = &ring[(tail + MERGE_AHEAD / 2) % MERGE_AHEAD];
			e->at = pprof_kset_prefetch_rec(dst, e->h, e->len);
		}
		e = &ring[tail++ % MERGE_AHEAD];
		if (pprof_kset_add_at(dst, e->at, e->s, e->len, e->h, e->sums) < 0)
			return -1;
	}
}

size_t pprof_kset_sums(const struct pprof_kset *k)
{
	return k->ix.nv;
}

size_t pprof_kset_count(const struct pprof_kset *k)
{
	return k->n;
}

size_t pprof_kset_bytes(const struct pprof_kset *k)
{
	return (k->len + k->ix.mask + 1) * sizeof(uint64_t);
}

int pprof_kset_next(const struct pprof_kset *k, size_t *pos, const unsigned char **s,
		    size_t *len, const uint64_t **sums)
{
	if ((*pos = start(k, *pos)) >= k->len)
		return 0;
	*sums = k->ix.rec + *pos;
	*len = (size_t)(k->ix.rec[*pos + k->ix.nv] & LEN_MASK);
	*s = (const unsigned char *)(k->ix.rec + *pos + k->ix.nv + 1);
	*pos += k->ix.nv + 1 + (*len + 7) / 8;
	return 1;
}
