/* xpress_huff: MS-XCA LZ77+Huffman, decoding only (see xpress.h).
 * Written from the MS-XCA description: blocks of 65536 output bytes, each
 * after a 256-byte table of 512 four-bit code lengths (the low nibble the
 * even symbol); canonical codes of at most 15 bits read most significant
 * bit first from 16-bit little-endian words, two words read ahead; a
 * symbol below 256 a literal, else 256 + (offset bits << 4 | length),
 * length 15 taking a byte (255: a 16-bit word, 0: a 32-bit one) from the
 * byte stream, then the offset's low bits from the bit stream. */
#include "xpress.h"

#include <stdint.h>
#include <string.h>

#define TBITS 15
#define NSYM 512
#define TABLE 256			/* bytes of code lengths */
#define BLOCK 65536			/* output bytes per block */
#define EMPTY 0xffff			/* a table entry no code reaches */
#define LONG 0xfffe			/* one whose codes are longer than PBITS */
#define PBITS 10			/* bits of the first table */

struct hz {
	const unsigned char *s;	/* input */
	size_t n, i;		/* its size, the next byte */
	uint32_t bits;		/* the next bits, top aligned */
	int have;		/* how many of them are valid */
	int dry;		/* the input ended at a refill */
};

static uint32_t le16(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

/* The lengths' Kraft sum in units of 2^-15 (32768: a complete code). */
static uint32_t kraft(const unsigned char *t)
{
	uint32_t sum = 0;
	int i;

	for (i = 0; i < TABLE; i++) {
		if (t[i] & 15)
			sum += 1u << (TBITS - (t[i] & 15));
		if (t[i] >> 4)
			sum += 1u << (TBITS - (t[i] >> 4));
	}
	return sum;
}

int xpress_huff_sniff(const unsigned char *src, size_t n)
{
	return n >= TABLE + 4 && kraft(src) == 1u << TBITS;
}

/* The decoder of one block's code: codes up to PBITS long by a table of
 * their first PBITS bits, longer ones (rare: 0.1% of symbols at most) by
 * the canonical order.  A small table is cheap to fill for every buffer. */
struct code {
	uint16_t tab[1 << PBITS];	/* symbol | length << 9, EMPTY, or LONG */
	uint32_t start[TBITS + 2];	/* where length l's codes begin (15-bit units) */
	uint16_t first[TBITS + 2];	/* their first index in sym */
	uint16_t sym[NSYM];		/* symbols by (length, value) */
};

/* Builds c from the code lengths at t; returns -1 when they overflow. */
static int build(const unsigned char *t, struct code *c)
{
	uint32_t at = 0, span, k;
	int len, s, l, n = 0;

	for (len = 1; len <= TBITS; len++) {
		c->start[len] = at;
		c->first[len] = (uint16_t)n;
		span = 1u << (TBITS - len);
		for (s = 0; s < NSYM; s++) {
			l = s & 1 ? t[s >> 1] >> 4 : t[s >> 1] & 15;
			if (l != len)
				continue;
			if (at + span > 1u << TBITS)
				return -1;
			c->sym[n++] = (uint16_t)s;
			if (len <= PBITS)
				for (k = 0; k < span >> (TBITS - PBITS); k++)
					c->tab[(at >> (TBITS - PBITS)) + k] = (uint16_t)(s | len << 9);
			else if ((at & ((1u << (TBITS - PBITS)) - 1)) == 0)
				c->tab[at >> (TBITS - PBITS)] = LONG;
			at += span;
		}
	}
	c->start[TBITS + 1] = at;
	if (at == 0)
		return -1;
	for (k = (at + (1u << (TBITS - PBITS)) - 1) >> (TBITS - PBITS); k < 1u << PBITS; k++)
		c->tab[k] = EMPTY;
	return 0;
}

/* The entry of a code longer than PBITS whose 15 bits are v, or EMPTY. */
static uint32_t long_code(const struct code *c, uint32_t v)
{
	int len;

	for (len = PBITS + 1; len <= TBITS; len++)
		if (v < c->start[len + 1] && v >= c->start[len])
			return c->sym[c->first[len] + ((v - c->start[len]) >> (TBITS - len))] |
			       (uint32_t)len << 9;
	return EMPTY;
}

/* Drops n bits, reading a word when fewer than 16 are left. */
static void consume(struct hz *z, int n)
{
	z->bits <<= n;
	z->have -= n;
	if (z->have >= 16)
		return;
	if (z->n - z->i < 2) {
		z->dry = 1;
		return;
	}
	z->bits |= le16(z->s + z->i) << (16 - z->have);
	z->have += 16;
	z->i += 2;
}

/* A match's length beyond 3 whose 4 bits were 15, from the byte stream;
 * -1 when it cannot be read. */
static long long_length(struct hz *z)
{
	long len;

	if (z->i >= z->n)
		return -1;
	len = z->s[z->i++];
	if (len < 255)
		return len + 15;
	if (z->n - z->i < 2)
		return -1;
	len = (long)le16(z->s + z->i);
	z->i += 2;
	if (len == 0) {
		if (z->n - z->i < 4)
			return -1;
		len = (long)((le16(z->s + z->i) | le16(z->s + z->i + 2) << 16) & 0x7fffffff);
		z->i += 4;
	}
	return len < 15 ? -1 : len;
}

/* A match after its symbol s (0-255: offset bits << 4 | length) into dst
 * at *o; returns 0 or -1. */
static int match(struct hz *z, unsigned s, unsigned char *dst, size_t cap, size_t *o)
{
	int nb = (int)(s >> 4);
	size_t len = s & 15, off = 1, k;
	long ext;

	if (len == 15) {
		if ((ext = long_length(z)) < 0)
			return -1;
		len = (size_t)ext;
	}
	len += 3;
	if (nb) {
		if (z->have < nb)
			return -1;
		off = (size_t)(z->bits >> (32 - nb)) | (size_t)1 << nb;
		consume(z, nb);
	}
	if (off > *o || len > cap - *o)
		return -1;
	if (off >= len) {
		memcpy(dst + *o, dst + *o - off, len);
	} else {
		for (k = 0; k < len; k++)
			dst[*o + k] = dst[*o + k - off];
	}
	*o += len;
	return 0;
}

/* One block's symbols into dst until *o reaches end (or, matches, cap);
 * returns 0, 1 at the end-of-stream symbol, -1 at a fault. */
static int block(struct hz *z, const struct code *c, unsigned char *dst, size_t end, size_t cap,
		 size_t *o)
{
	while (*o < end) {
		uint32_t e;

		if (z->dry)
			return -1;
		if ((e = c->tab[z->bits >> (32 - PBITS)]) == LONG)
			e = long_code(c, z->bits >> (32 - TBITS));
		if (e == EMPTY)
			return -1;
		consume(z, (int)(e >> 9));
		e &= NSYM - 1;
		if (e < 256) {
			dst[(*o)++] = (unsigned char)e;
			continue;
		}
		if (e == 256 && z->i >= z->n)
			return 1;
		if (match(z, e - 256, dst, cap, o) < 0)
			return -1;
	}
	return 0;
}

size_t xpress_huff(const unsigned char *src, size_t n, unsigned char *dst, size_t cap,
		   size_t *fault)
{
	struct hz z = { src, n, 0, 0, 0, 0 };
	struct code c;
	size_t o = 0, end;
	int r;

	*fault = 0;
	while (o < cap) {
		if (n - z.i < TABLE + 4 || build(src + z.i, &c) < 0) {
			*fault = z.i + 1;
			break;
		}
		z.i += TABLE;
		z.bits = le16(src + z.i) << 16 | le16(src + z.i + 2);
		z.i += 4;
		z.have = 32;
		z.dry = 0;
		end = cap - o > BLOCK ? o + BLOCK : cap;
		if ((r = block(&z, &c, dst, end, cap, &o)) < 0)
			*fault = z.i + 1;
		if (r)
			break;
	}
	return o;
}
