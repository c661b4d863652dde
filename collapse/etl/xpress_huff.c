/* xpress_huff: MS-XCA LZ77+Huffman, decoding only (see xpress.h).
 * Written from the MS-XCA description: blocks of 65536 output bytes, each
 * after a 256-byte table of 512 four-bit code lengths (the low nibble the
 * even symbol); canonical codes of at most 15 bits read most significant
 * bit first from 16-bit little-endian words, two words read ahead; a
 * symbol below 256 a literal, else 256 + (offset bits << 4 | length),
 * length 15 taking a byte (255: a 16-bit word, 0: a 32-bit one) from the
 * byte stream, then the offset's low bits from the bit stream. */
#include "xpress.h"
#include "xpress_int.h"

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

/* The table entries of c: each code up to PBITS long fills the entries
 * its bits begin; those of longer codes say LONG, the rest EMPTY. */
static void fill(struct code *c, uint32_t at)
{
	uint32_t k = 0, span, e;
	int len, n;

	for (len = 1; len <= PBITS; len++) {
		span = 1u << (PBITS - len);
		for (n = c->first[len]; n < c->first[len + 1]; n++) {
			e = (uint32_t)c->sym[n] | (uint32_t)len << 9;
			for (uint32_t j = 0; j < span; j++)
				c->tab[k + j] = (uint16_t)e;
			k += span;
		}
	}
	for (; k < (at + (1u << (TBITS - PBITS)) - 1) >> (TBITS - PBITS); k++)
		c->tab[k] = LONG;
	for (; k < 1u << PBITS; k++)
		c->tab[k] = EMPTY;
}

/* Builds c from the code lengths at t (canonical: by length, then by
 * symbol); returns -1 when they overflow or make no code. */
static int build(const unsigned char *t, struct code *c)
{
	uint16_t count[TBITS + 1] = { 0 }, next[TBITS + 1];
	uint32_t at = 0;
	int len, s, n = 0;

	for (s = 0; s < TABLE; s++) {
		count[t[s] & 15]++;
		count[t[s] >> 4]++;
	}
	for (len = 1; len <= TBITS; len++) {
		c->start[len] = at;
		c->first[len] = (uint16_t)n;
		next[len] = (uint16_t)n;
		at += (uint32_t)count[len] << (TBITS - len);
		n += count[len];
	}
	c->start[TBITS + 1] = at;
	c->first[TBITS + 1] = (uint16_t)n;
	if (at == 0 || at > 1u << TBITS)
		return -1;
	for (s = 0; s < NSYM; s++) {
		len = s & 1 ? t[s >> 1] >> 4 : t[s >> 1] & 15;
		if (len)
			c->sym[next[len]++] = (uint16_t)s;
	}
	fill(c, at);
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
static inline void consume(struct hz *z, int n)
{
	z->bits <<= n;
	z->have -= n;
	if (z->have >= 16)
		return;
	if (z->n - z->i < 2) {
		z->dry = 1;
		return;
	}
	z->bits |= xp_le16(z->s + z->i) << (16 - z->have);
	z->have += 16;
	z->i += 2;
}

/* A match's length beyond 3 whose 4 bits were 15, from the byte stream;
 * -1 when it cannot be read. */
static long long_length(struct hz *z)
{
	int wide;
	long len = xp_length(z->s, z->n, &z->i, &wide);

	if (len < 0)
		return -1;
	return !wide ? len + 15 : len < 15 ? -1 : len;
}

/* A match after its symbol s (0-255: offset bits << 4 | length) into dst
 * at *o; returns 0 or -1. */
static inline int match(struct hz *z, unsigned s, unsigned char *dst, size_t cap, size_t *o)
{
	int nb = (int)(s >> 4);
	size_t len = s & 15, off = 1;
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
	xp_copy(dst + *o, off, len, cap - *o);
	*o += len;
	return 0;
}

/* Input bytes one symbol reads at most (a refill, 7 of a long length,
 * the format's reader behind by up to 4), rounded up. */
#define SLACK 16

/* The fast loop's reader: 64 bits refilled 32 at a time, ahead of the
 * format's (hz: 16 to 31 bits held after each code, a word read when
 * fewer) by whole words.  The byte stream a long length comes from starts
 * where the format's reader stands: at_hz says where that is. */
struct fz {
	uint64_t acc;		/* the next bits, top aligned */
	int cnt;		/* how many */
	size_t p;		/* the next byte to load */
};

static inline void refill(struct fz *f, const unsigned char *s)
{
	f->acc |= (uint64_t)(xp_le16(s + f->p) << 16 | xp_le16(s + f->p + 2)) << (32 - f->cnt);
	f->cnt += 32;
	f->p += 4;
}

/* The format's reader as f stands, after a code: the bits it holds are
 * as many as f's, less whole words, and 16 to 31. */
static void at_hz(const struct fz *f, struct hz *z)
{
	int held = 16 + ((f->cnt - 16) & 15);

	z->i = f->p - (size_t)(f->cnt - held) / 8;
	z->bits = (uint32_t)(f->acc >> 32) & ~(0xffffffffu >> held);
	z->have = held;
}

/* A match after its symbol s (0-255), as match() reads it; f refilled. */
static inline int fast_match(struct fz *f, struct hz *z, unsigned s, unsigned char *dst,
			     size_t cap, size_t *o)
{
	int nb = (int)(s >> 4);
	size_t len = s & 15, off = 1;
	long ext;

	if (len == 15) {	/* from the byte stream: f restarts where it ends */
		at_hz(f, z);
		ext = long_length(z);
		f->acc = (uint64_t)z->bits << 32;
		f->cnt = z->have;
		f->p = z->i;
		if (ext < 0)
			return -1;
		len = (size_t)ext;
	}
	len += 3;
	if (nb) {		/* 16 bits or more held */
		off = (size_t)(f->acc >> (64 - nb)) | (size_t)1 << nb;
		f->acc <<= nb;
		f->cnt -= nb;
	}
	if (f->cnt < 32)
		refill(f, z->s);
	if (off > *o || len > cap - *o)
		return -1;
	xp_copy(dst + *o, off, len, cap - *o);
	*o += len;
	return 0;
}

/* block's loop while SLACK input bytes or more are left: there the input
 * cannot end inside a symbol, nor the end-of-stream symbol come.  z is
 * left as block's own reader would be. */
static int fast(struct hz *z, const struct code *c, unsigned char *dst, size_t end, size_t cap,
		size_t *op)
{
	struct fz f = { (uint64_t)z->bits << 32, z->have, z->i };
	size_t o = *op, lim = z->n - SLACK;
	int r = 0, moved = 0;

	if (o >= end || f.p > lim)
		return 0;
	if (f.cnt < 32)
		refill(&f, z->s);
	while (o < end && f.p <= lim) {
		uint32_t e = c->tab[f.acc >> (64 - PBITS)];

		if (e >= LONG) {
			if (e == LONG)
				e = long_code(c, (uint32_t)(f.acc >> (64 - TBITS)));
			if (e == EMPTY) {
				r = -1;
				break;
			}
		}
		f.acc <<= e >> 9;
		f.cnt -= (int)(e >> 9);
		moved = 1;
		e &= NSYM - 1;
		if (e < 256) {
			dst[o++] = (unsigned char)e;
			if (f.cnt < 32)
				refill(&f, z->s);
		} else if ((r = fast_match(&f, z, e - 256, dst, cap, &o)) < 0) {
			break;
		}
	}
	if (moved)
		at_hz(&f, z);
	*op = o;
	return r;
}

/* One block's symbols into dst until *op reaches end (or, matches, cap);
 * returns 0, 1 at the end-of-stream symbol, -1 at a fault.  The reader's
 * state is a local copy meanwhile: stores into dst cannot alias it, so it
 * stays in registers. */
static int block(struct hz *zp, const struct code *c, unsigned char *dst, size_t end, size_t cap,
		 size_t *op)
{
	struct hz z = *zp;
	size_t o = *op;
	int r = z.n >= SLACK ? fast(&z, c, dst, end, cap, &o) : 0;

	while (o < end && r == 0) {
		uint32_t e;

		if (z.dry) {
			r = -1;
			break;
		}
		if ((e = c->tab[z.bits >> (32 - PBITS)]) >= LONG) {
			if (e == LONG)
				e = long_code(c, z.bits >> (32 - TBITS));
			if (e == EMPTY) {
				r = -1;
				break;
			}
		}
		consume(&z, (int)(e >> 9));
		e &= NSYM - 1;
		if (e < 256) {
			dst[o++] = (unsigned char)e;
			continue;
		}
		if (e == 256 && z.i >= z.n) {
			r = 1;
			break;
		}
		if (match(&z, e - 256, dst, cap, &o) < 0) {
			r = -1;
			break;
		}
	}
	*zp = z;
	*op = o;
	return r;
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
		z.bits = xp_le16(src + z.i) << 16 | xp_le16(src + z.i + 2);
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
