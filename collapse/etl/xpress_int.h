/* xpress_int: what MS-XCA's two decoders (xpress.c, xpress_huff.c)
 * share: little-endian words, a match's longer lengths from the byte
 * stream, and the copy of a match. */
#ifndef FLAME_XPRESS_INT_H
#define FLAME_XPRESS_INT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline uint32_t xp_le16(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static inline uint32_t xp_le32(const unsigned char *p)
{
	return xp_le16(p) | xp_le16(p + 2) << 16;
}

/* A length read from s[*i, n) after a field that saturated: a byte; 255
 * there means a 16-bit length follows, and 0 there a 32-bit one (its top
 * bit dropped).  The byte (under 255), or the wider length with *wide set;
 * -1 when the input ends inside it. */
static inline long xp_length(const unsigned char *s, size_t n, size_t *i, int *wide)
{
	long len;

	*wide = 0;
	if (*i >= n)
		return -1;
	if ((len = s[(*i)++]) < 255)
		return len;
	*wide = 1;
	if (n - *i < 2)
		return -1;
	len = (long)xp_le16(s + *i);
	*i += 2;
	if (len == 0) {
		if (n - *i < 4)
			return -1;
		len = (long)(xp_le32(s + *i) & 0x7fffffff);
		*i += 4;
	}
	return len;
}

/* A match's len bytes from off back to d, room bytes being writable
 * there: far ones in 16 or 8-byte pieces (a piece may write past len
 * within room, bytes the next symbols overwrite), near ones (a repeating
 * pattern) a byte at a time. */
static inline void xp_copy(unsigned char *d, size_t off, size_t len, size_t room)
{
	const unsigned char *from = d - off;
	size_t k;

	if (off >= 16 && room >= len + 16) {
		for (k = 0; k < len; k += 16)
			memcpy(d + k, from + k, 16);
	} else if (off >= 8 && room >= len + 8) {
		for (k = 0; k < len; k += 8)
			memcpy(d + k, from + k, 8);
	} else if (off >= len) {
		memcpy(d, from, len);
	} else {
		for (k = 0; k < len; k++)
			d[k] = from[k];
	}
}

#endif
