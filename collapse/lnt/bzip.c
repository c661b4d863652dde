/* bzip: bzip2 compression, the steps of bunzip.c forwards: runs of four
 * equal bytes and a count, the Burrows-Wheeler transform (cyclic
 * rotations sorted by prefix doubling), move-to-front with zero runs as
 * RUNA/RUNB, then fixed-length codes (two equal tables: bzip2 wants two
 * at least), all selectors 0. */
#include "bzip.h"
#include "xalloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK 99000		/* under level 1's 100000, with room for a run */

struct out {
	unsigned char *b;	/* bytes written */
	size_t len, cap;	/* whole bytes, room */
	uint32_t acc;		/* bits not yet a byte */
	int nacc;		/* how many */
};

static void put(struct out *o, uint32_t v, int k)
{
	while (k-- > 0) {
		o->acc = (o->acc << 1) | ((v >> k) & 1);
		if (++o->nacc == 8) {
			xgrow(&o->b, &o->cap, o->len + 1, 1);
			o->b[o->len++] = (unsigned char)o->acc;
			o->acc = 0;
			o->nacc = 0;
		}
	}
}

static uint32_t crc_byte(uint32_t crc, unsigned char c)
{
	int k;

	crc ^= (uint32_t)c << 24;
	for (k = 0; k < 8; k++)
		crc = crc & 0x80000000u ? (crc << 1) ^ 0x04c11db7u : crc << 1;
	return crc;
}

/* Rotations of blk (n bytes) sorted: sa gets their starts. */
struct sorter {
	const uint32_t *rank;	/* rank of each start at this length */
	size_t n, k;		/* block size, length compared so far */
};

static int by_rank(const void *a, const void *b, void *ctx)
{
	const struct sorter *s = ctx;
	size_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	if (s->rank[x] != s->rank[y])
		return s->rank[x] < s->rank[y] ? -1 : 1;
	x = (x + s->k) % s->n;
	y = (y + s->k) % s->n;
	return s->rank[x] < s->rank[y] ? -1 : s->rank[x] > s->rank[y];
}

static void sort_rotations(const unsigned char *blk, size_t n, uint32_t *sa)
{
	uint32_t *rank = xmalloc(n * sizeof(*rank)), *next = xmalloc(n * sizeof(*next));
	struct sorter s = { rank, n, 0 };
	size_t i;

	for (i = 0; i < n; i++) {
		sa[i] = (uint32_t)i;
		rank[i] = blk[i];
	}
	for (s.k = 1;; s.k *= 2) {
		qsort_r(sa, n, sizeof(*sa), by_rank, &s);
		next[sa[0]] = 0;
		for (i = 1; i < n; i++)
			next[sa[i]] = next[sa[i - 1]] + (by_rank(&sa[i - 1], &sa[i], &s) != 0);
		memcpy(rank, next, n * sizeof(*rank));
		if (rank[sa[n - 1]] == n - 1 || s.k >= n)
			break;
	}
	free(rank);
	free(next);
}

/* The MTF/zero-run symbols of the BWT column last (n bytes) into sym;
 * returns how many.  seq maps MTF entries to the bytes in use. */
static size_t mtf_symbols(const unsigned char *last, size_t n, const int *index, int ninuse,
			  uint16_t *sym)
{
	unsigned char mtf[256];
	size_t i, ns = 0, run = 0;
	int j, c;

	for (j = 0; j < ninuse; j++)
		mtf[j] = (unsigned char)j;
	for (i = 0; i <= n; i++) {
		c = i < n ? index[last[i]] : -1;
		if (c == mtf[0]) {
			run++;
			continue;
		}
		for (; run > 0; run = (run - 1 - !(run & 1)) / 2)	/* bijective base 2 */
			sym[ns++] = run & 1 ? 0 : 1;
		if (c < 0)
			break;
		for (j = 1; mtf[j] != c; j++)
			;
		sym[ns++] = (uint16_t)(j + 1);
		memmove(mtf + 1, mtf, (size_t)j);
		mtf[0] = (unsigned char)c;
	}
	sym[ns++] = (uint16_t)(ninuse + 1);	/* end of block */
	return ns;
}

/* The map of bytes in use; index gets each one's place. */
static int put_map(struct out *o, const unsigned char *blk, size_t n, int *index)
{
	int used[256] = { 0 }, i, j, ninuse = 0;
	unsigned ranges = 0;

	for (size_t k = 0; k < n; k++)
		used[blk[k]] = 1;
	for (i = 0; i < 16; i++)
		for (j = 0; j < 16; j++)
			ranges |= used[i * 16 + j] ? 0x8000u >> i : 0;
	put(o, ranges, 16);
	for (i = 0; i < 16; i++) {
		unsigned bits = 0;

		if (!(ranges & (0x8000u >> i)))
			continue;
		for (j = 0; j < 16; j++)
			bits |= used[i * 16 + j] ? 0x8000u >> j : 0;
		put(o, bits, 16);
	}
	for (i = 0; i < 256; i++)
		index[i] = used[i] ? ninuse++ : -1;
	return ninuse;
}

/* One block of blk (n > 0 bytes after the first run-length step). */
static void put_block(struct out *o, const unsigned char *blk, size_t n, uint32_t crc)
{
	uint32_t *sa = xmalloc(n * sizeof(*sa));
	unsigned char *last = xmalloc(n);
	uint16_t *sym = xmalloc((n + 2) * sizeof(*sym));
	int index[256], ninuse, len, g;
	size_t i, origin = 0, ns, nsel;

	sort_rotations(blk, n, sa);
	for (i = 0; i < n; i++) {
		last[i] = blk[(sa[i] + n - 1) % n];
		if (sa[i] == 0)
			origin = i;
	}
	put(o, 0x314159, 24);
	put(o, 0x265359, 24);
	put(o, crc, 32);
	put(o, 0, 1);			/* not randomised */
	put(o, (uint32_t)origin, 24);
	ninuse = put_map(o, blk, n, index);
	ns = mtf_symbols(last, n, index, ninuse, sym);
	for (len = 1; (1 << len) < ninuse + 2; len++)
		;
	nsel = (ns + 49) / 50;
	put(o, 2, 3);			/* two tables */
	put(o, (uint32_t)nsel, 15);
	for (i = 0; i < nsel; i++)
		put(o, 0, 1);		/* table 0, MTF-coded */
	for (g = 0; g < 2; g++) {
		put(o, (uint32_t)len, 5);
		for (i = 0; i < (size_t)ninuse + 2; i++)
			put(o, 0, 1);	/* every symbol the same length */
	}
	for (i = 0; i < ns; i++)
		put(o, sym[i], len);	/* canonical: the code is the symbol */
	free(sa);
	free(last);
	free(sym);
}

unsigned char *bzip(const unsigned char *in, size_t n, size_t *outlen)
{
	struct out o = { NULL, 0, 0, 0, 0 };
	unsigned char *blk = xmalloc(BLOCK + 8);
	uint32_t total = 0, crc = 0xffffffffu;
	size_t i = 0, nb = 0, run, k;

	put(&o, 'B', 8), put(&o, 'Z', 8), put(&o, 'h', 8), put(&o, '1', 8);
	while (i < n || nb) {
		if (i < n) {	/* runs of 4 to 255: four bytes and the rest's count */
			for (run = 1; i + run < n && run < 255 && in[i + run] == in[i]; run++)
				;
			for (k = 0; k < run; k++)
				crc = crc_byte(crc, in[i]);
			for (k = 0; k < (run < 4 ? run : 4); k++)
				blk[nb++] = in[i];
			if (run >= 4)
				blk[nb++] = (unsigned char)(run - 4);
			i += run;
		}
		if (nb >= BLOCK - 5 || (i >= n && nb)) {
			put_block(&o, blk, nb, ~crc);
			total = ((total << 1) | (total >> 31)) ^ ~crc;
			crc = 0xffffffffu;
			nb = 0;
		}
	}
	put(&o, 0x177245, 24);
	put(&o, 0x385090, 24);
	put(&o, total, 32);
	put(&o, 0, (8 - o.nacc) & 7);
	free(blk);
	*outlen = o.len;
	return o.b;
}
