/* xpress: MS-XCA plain LZ77, decoding only. */
#include "xpress.h"
#include "xpress_int.h"

#include <stdint.h>
#include <string.h>

struct lz {
	const unsigned char *s;	/* input */
	size_t n, i;		/* its size, the next byte */
	size_t half;		/* where a shared length nibble waits, 0: none */
};


/* The extra length of a match whose 3-bit length was 7 (before the +3);
 * returns -1 when the input ends inside it. */
static long long_length(struct lz *z)
{
	long len;

	if (z->half == 0) {		/* a new byte: its low nibble now */
		if (z->i >= z->n)
			return -1;
		len = z->s[z->i] & 15;
		z->half = z->i++;
	} else {			/* the high nibble of the waiting byte */
		len = z->s[z->half] >> 4;
		z->half = 0;
	}
	if (len == 15) {
		int wide;

		if ((len = xp_length(z->s, z->n, &z->i, &wide)) < 0 || (wide && len < 15 + 7))
			return -1;
		len = wide ? len - 7 : len + 15;	/* a wide one counts the 15 + 7 */
	}
	return len + 7;
}

/* Copies one match at z's position into dst at *o; returns 0 or -1.
 * Pieces of 16 or 8 bytes may write past the match, below cap: bytes
 * the next literals and matches overwrite. */
static inline int match(struct lz *z, unsigned char *dst, size_t cap, size_t *o)
{
	uint32_t word;
	size_t off, len;
	long extra;

	if (z->n - z->i < 2)
		return -1;
	word = xp_le16(z->s + z->i);
	z->i += 2;
	off = (word >> 3) + 1;
	len = word & 7;
	if (len == 7) {
		if ((extra = long_length(z)) < 0)
			return -1;
		len = (size_t)extra;
	}
	len += 3;
	if (off > *o || len > cap - *o)
		return -1;
	xp_copy(dst + *o, off, len, cap - *o);
	*o += len;
	return 0;
}

/* How many literal flags (zero bits) come next among the left low bits. */
static size_t literal_run(uint32_t flags, int left)
{
	uint32_t rest = left == 32 ? flags : flags & ((1u << left) - 1);

	return rest ? (size_t)(left - 1 - (31 - __builtin_clz(rest))) : (size_t)left;
}

size_t xpress_lz77(const unsigned char *src, size_t n, unsigned char *dst, size_t cap,
		   size_t *fault)
{
	struct lz z = { src, n, 0, 0 };
	uint32_t flags = 0;
	int left = 0;
	size_t o = 0, k;

	*fault = 0;
	while (o < cap && z.i < n) {
		if (left == 0) {
			if (n - z.i < 4)
				break;	/* padding after the last flags word */
			flags = xp_le32(src + z.i);
			z.i += 4;
			left = 32;
		}
		if ((k = literal_run(flags, left)) > 0) {	/* a run of literals at once */
			if (k > n - z.i)
				k = n - z.i;
			if (k > cap - o)
				k = cap - o;
			if (n - z.i >= 32 && cap - o >= 32) {	/* no call: 32 bytes, k of them kept */
				memcpy(dst + o, src + z.i, 16);
				memcpy(dst + o + 16, src + z.i + 16, 16);
			} else {
				memcpy(dst + o, src + z.i, k);
			}
			o += k;
			z.i += k;
			left -= (int)k;
			continue;
		}
		left--;
		if (z.i >= n)
			break;		/* the end marker: a match flag with no match */
		if (match(&z, dst, cap, &o) < 0) {
			*fault = z.i + 1;
			break;
		}
	}
	return o;
}
