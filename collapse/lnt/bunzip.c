/* bunzip: bzip2 decompression, written from the format's description:
 *
 *   stream: "BZh" LEVEL, blocks, then 0x177245385090 and the stream CRC
 *   block:  0x314159265359, CRC, a randomised bit (0), the BWT origin,
 *           the bytes in use, Huffman tables and their selectors, then
 *           the MTF/zero-run coded symbols up to end-of-block
 *
 * Undoing it: Huffman symbols -> zero runs (RUNA/RUNB, bijective base 2)
 * and move-to-front indices -> the BWT column -> the inverse BWT -> runs
 * of four equal bytes and a count -> the data.  Bits come most
 * significant first.  CRCs are CRC-32 (0x04c11db7) unreflected. */
#include "bunzip.h"
#include "xalloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_GROUPS 6		/* Huffman tables per block */
#define MAX_ALPHA 258		/* RUNA, RUNB, 255 MTF indices, EOB */
#define MAX_CODE 20		/* longest code */
#define MAX_SEL 18002		/* selectors kept (bzip2 ignores more) */
#define GROUP 50		/* symbols per selector */

struct huff {
	uint16_t count[MAX_CODE + 1];	/* codes of each length */
	uint16_t sym[MAX_ALPHA];	/* symbols by (length, value) */
};

struct bz {
	const unsigned char *in;	/* the input */
	size_t n;			/* its bytes */
	size_t bit;			/* next bit to read */
	int bad;			/* read past the end */
	char *out;			/* output so far */
	size_t len, cap, max;		/* its length, room and cap */
	uint32_t *tt;			/* the block: bytes, then BWT links */
	size_t blockmax;		/* the stream's block size */
	unsigned char seq[256];		/* byte values in use, in order */
	int ninuse;			/* how many */
	unsigned char sel[MAX_SEL];	/* table of each group of 50 */
	size_t nsel;			/* selectors kept */
	int ngroups;			/* tables in this block */
	struct huff h[MAX_GROUPS];	/* the tables */
	uint32_t crctab[256];		/* CRC-32, MSB first */
	char *err;			/* message... */
	size_t errlen;			/* ...of at most this size */
};

static unsigned get(struct bz *z, int k)
{
	unsigned v = 0;

	while (k-- > 0) {
		if (z->bit >= z->n * 8) {
			z->bad = 1;
			return 0;
		}
		v = (v << 1) | ((z->in[z->bit >> 3] >> (7 - (z->bit & 7))) & 1);
		z->bit++;
	}
	return v;
}

/* Sets the message (the byte being read named) and returns -1. */
static int fail(struct bz *z, const char *what)
{
	if (z->bad)
		snprintf(z->err, z->errlen, "truncated bzip2 data at byte %zu", z->n);
	else
		snprintf(z->err, z->errlen, "%s at byte %zu", what, z->bit / 8);
	return -1;
}

static void crc_init(struct bz *z)
{
	uint32_t i, c;
	int k;

	for (i = 0; i < 256; i++) {
		for (c = i << 24, k = 0; k < 8; k++)
			c = c & 0x80000000u ? (c << 1) ^ 0x04c11db7u : c << 1;
		z->crctab[i] = c;
	}
}

/* The bitmap of byte values in use: 16 ranges, then 16 bits each. */
static int read_map(struct bz *z)
{
	unsigned ranges = get(z, 16), i, j;

	z->ninuse = 0;
	for (i = 0; i < 16; i++) {
		unsigned used = ranges & (0x8000u >> i) ? get(z, 16) : 0;

		for (j = 0; j < 16; j++)
			if (used & (0x8000u >> j))
				z->seq[z->ninuse++] = (unsigned char)(i * 16 + j);
	}
	if (z->bad || z->ninuse == 0)
		return fail(z, "no byte values in a bzip2 block");
	return 0;
}

/* The number of tables, and the MTF-coded table of each group. */
static int read_selectors(struct bz *z)
{
	unsigned char mtf[MAX_GROUPS];
	size_t n, i;
	int j, k;

	z->ngroups = (int)get(z, 3);
	n = get(z, 15);
	if (z->bad || z->ngroups < 2 || z->ngroups > MAX_GROUPS || n == 0)
		return fail(z, "bad bzip2 table count");
	for (k = 0; k < z->ngroups; k++)
		mtf[k] = (unsigned char)k;
	for (i = 0, z->nsel = 0; i < n; i++) {
		for (j = 0; get(z, 1); j++)
			if (j + 1 >= z->ngroups || z->bad)
				return fail(z, "bad bzip2 selector");
		for (k = mtf[j]; j > 0; j--)
			mtf[j] = mtf[j - 1];
		mtf[0] = (unsigned char)k;
		if (z->nsel < MAX_SEL)
			z->sel[z->nsel++] = (unsigned char)k;
	}
	return 0;
}

/* A table's code lengths (delta coded), made canonical: codes go by
 * length, then by symbol, as bzip2 assigns them. */
static int read_table(struct bz *z, struct huff *h, int alpha)
{
	unsigned char len[MAX_ALPHA];
	int s, l = (int)get(z, 5), k, i;

	for (s = 0; s < alpha; s++) {
		for (;;) {
			if (l < 1 || l > MAX_CODE || z->bad)
				return fail(z, "bad bzip2 code length");
			if (!get(z, 1))
				break;
			l += get(z, 1) ? -1 : 1;
		}
		len[s] = (unsigned char)l;
	}
	memset(h->count, 0, sizeof(h->count));
	for (s = 0; s < alpha; s++)
		h->count[len[s]]++;
	for (k = 1, i = 0; k <= MAX_CODE; k++)
		for (s = 0; s < alpha; s++)
			if (len[s] == k)
				h->sym[i++] = (uint16_t)s;
	return 0;
}

/* The next symbol with table h, or -1. */
static int decode(struct bz *z, const struct huff *h)
{
	unsigned code = 0, first = 0, index = 0;
	int l;

	for (l = 1; l <= MAX_CODE; l++) {
		code |= get(z, 1);
		if (z->bad)
			return -1;
		if (code - first < h->count[l])
			return h->sym[index + code - first];
		index += h->count[l];
		first = (first + h->count[l]) << 1;
		code <<= 1;
	}
	return -1;
}

/* Appends run copies of byte value v to the block at *nb. */
static int put_run(struct bz *z, size_t *nb, unsigned v, size_t run)
{
	if (run > z->blockmax - *nb)
		return fail(z, "bzip2 block overflows its size");
	while (run--)
		z->tt[(*nb)++] = v;
	return 0;
}

/* The block's symbols into tt (byte values), up to end-of-block: zero
 * runs repeat the front of the MTF list, other symbols move an entry to
 * the front.  Returns the block's length, or -1. */
static long read_symbols(struct bz *z)
{
	unsigned char mtf[256];
	int eob = z->ninuse + 1, sym, i;
	size_t nb = 0, group = 0, left = 0, run = 0, weight = 1;
	const struct huff *h = NULL;

	for (i = 0; i < 256; i++)
		mtf[i] = (unsigned char)i;
	for (;;) {
		if (left-- == 0) {
			if (group >= z->nsel)
				return fail(z, "bzip2 block outruns its selectors");
			h = &z->h[z->sel[group++]];
			left = GROUP - 1;
		}
		if ((sym = decode(z, h)) < 0)
			return fail(z, "bad bzip2 Huffman code");
		if (sym <= 1) {		/* RUNA, RUNB: a digit of the run */
			if (weight > z->blockmax)
				return fail(z, "bzip2 zero run too long");
			run += weight << sym;
			weight <<= 1;
			continue;
		}
		if (run && put_run(z, &nb, z->seq[mtf[0]], run) < 0)
			return -1;
		run = 0;
		weight = 1;
		if (sym == eob)
			return (long)nb;
		for (i = sym - 1, sym = mtf[i]; i > 0; i--)
			mtf[i] = mtf[i - 1];
		mtf[0] = (unsigned char)sym;
		if (put_run(z, &nb, z->seq[sym], 1) < 0)
			return -1;
	}
}

static int put_byte(struct bz *z, unsigned char c, uint32_t *crc)
{
	if (z->len >= z->max) {
		snprintf(z->err, z->errlen, "bzip2 data inflates to more than %zu bytes", z->max);
		return -1;
	}
	if (z->len + 1 >= z->cap)
		xgrow(&z->out, &z->cap, z->len + 2, 1);
	z->out[z->len++] = (char)c;
	*crc = (*crc << 8) ^ z->crctab[(*crc >> 24) ^ c];
	return 0;
}

/* Undoes the BWT of the nb bytes in tt from row origin, and the runs of
 * four equal bytes and a count, onto the output; *crc gets the block's. */
static int unbwt(struct bz *z, size_t nb, size_t origin, uint32_t *crc)
{
	size_t start[256] = { 0 }, i, sum = 0, pos, k;
	int last = -1, same = 0;

	for (i = 0; i < nb; i++)
		start[z->tt[i] & 0xff]++;
	for (i = 0; i < 256; i++) {
		size_t c = start[i];

		start[i] = sum;
		sum += c;
	}
	for (i = 0; i < nb; i++)
		z->tt[start[z->tt[i] & 0xff]++] |= (uint32_t)i << 8;
	*crc = 0xffffffffu;
	for (i = 0, pos = z->tt[origin] >> 8; i < nb; i++) {
		unsigned char c = (unsigned char)(z->tt[pos] & 0xff);

		pos = z->tt[pos] >> 8;
		if (same == 4) {	/* c is a count of more copies */
			for (k = 0; k < c; k++)
				if (put_byte(z, (unsigned char)last, crc) < 0)
					return -1;
			same = 0;
			last = -1;
			continue;
		}
		same = c == last ? same + 1 : 1;
		last = c;
		if (put_byte(z, c, crc) < 0)
			return -1;
	}
	*crc = ~*crc;
	return 0;
}

/* One block, after its magic: returns its CRC through *crc, or -1. */
static int read_block(struct bz *z, uint32_t *crc)
{
	uint32_t want = get(z, 16) << 16;
	size_t origin;
	long nb;
	int g;

	want |= get(z, 16);
	if (get(z, 1))
		return fail(z, "randomised bzip2 block (bzip2 0.9.0) not supported");
	origin = get(z, 24);
	if (read_map(z) < 0 || read_selectors(z) < 0)
		return -1;
	for (g = 0; g < z->ngroups; g++)
		if (read_table(z, &z->h[g], z->ninuse + 2) < 0)
			return -1;
	if ((nb = read_symbols(z)) < 0)
		return -1;
	if (origin >= (size_t)nb)
		return fail(z, "bzip2 block origin out of range");
	if (unbwt(z, (size_t)nb, origin, crc) < 0)
		return -1;
	if (*crc != want)
		return fail(z, "bzip2 block CRC mismatch");
	return 0;
}

/* One stream from its "BZh" header to its end-of-stream CRC. */
static int read_stream(struct bz *z)
{
	uint32_t total = 0, crc;
	unsigned long long magic;
	int level;

	if (get(z, 8) != 'B' || get(z, 8) != 'Z' || get(z, 8) != 'h')
		return fail(z, "not bzip2 data");
	level = (int)get(z, 8) - '0';
	if (level < 1 || level > 9)
		return fail(z, "bad bzip2 block size");
	if ((size_t)level * 100000 > z->blockmax) {
		z->blockmax = (size_t)level * 100000;
		z->tt = xrealloc(z->tt, z->blockmax * sizeof(*z->tt));
	}
	for (;;) {
		magic = (unsigned long long)get(z, 24) << 24;
		magic |= get(z, 24);
		if (z->bad)
			return fail(z, "");
		if (magic == 0x177245385090ull)
			break;
		if (magic != 0x314159265359ull)
			return fail(z, "bad bzip2 block magic");
		if (read_block(z, &crc) < 0)
			return -1;
		total = ((total << 1) | (total >> 31)) ^ crc;
	}
	crc = get(z, 16) << 16;
	crc |= get(z, 16);
	if (z->bad || crc != total)
		return fail(z, "bzip2 stream CRC mismatch");
	z->bit = (z->bit + 7) & ~(size_t)7;
	return 0;
}

int bunzip(const unsigned char *in, size_t n, size_t max, char **out, size_t *outlen,
	   char *err, size_t errlen)
{
	struct bz *z = xcalloc(1, sizeof(*z));
	int rc;

	z->in = in;
	z->n = n;
	z->max = max;
	z->err = err;
	z->errlen = errlen;
	crc_init(z);
	/* Streams may follow one another, as Python's bz2 reads them. */
	do
		rc = read_stream(z);
	while (rc == 0 && z->bit / 8 < n);
	xgrow(&z->out, &z->cap, z->len + 1, 1);
	z->out[z->len] = '\0';
	*out = rc == 0 ? z->out : NULL;
	*outlen = rc == 0 ? z->len : 0;
	if (rc < 0)
		free(z->out);
	free(z->tt);
	free(z);
	return rc;
}
