/* pbuf: the protocol buffers wire format, read from memory.  A message is
 * a run of fields, each a tag (field number and wire type) and a value:
 * a varint, 8 or 4 fixed bytes, or a length and that many bytes (a
 * string, a nested message or a packed run of varints).  Every length is
 * checked against the bytes left before it is used, so no read goes past
 * the buffer whatever the input; errors name the byte offset from the
 * start of the whole buffer.  Nothing is allocated. */
#ifndef FLAME_PBUF_H
#define FLAME_PBUF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum pb_wire { PB_VARINT = 0, PB_I64 = 1, PB_LEN = 2, PB_I32 = 5 };

/* A reader over one message (or one packed run). */
struct pb {
	const unsigned char *p;		/* next byte */
	const unsigned char *end;	/* end of the message */
	const unsigned char *base;	/* start of the whole buffer, for offsets */
};

/* One field as read. */
struct pb_field {
	uint32_t num;			/* field number, >= 1 */
	int wire;			/* enum pb_wire */
	uint64_t v;			/* the value of a varint or fixed field */
	const unsigned char *data;	/* PB_LEN: the bytes... */
	size_t len;			/* ...and how many */
	size_t off;			/* offset of the tag from base */
};

/* A reader over the len bytes at buf (which it does not own; NULL when
 * len is 0). */
void pb_init(struct pb *r, const void *buf, size_t len);

/* A reader over the bytes of f (a PB_LEN field read by r), sharing r's
 * base so offsets stay those of the whole buffer. */
void pb_sub(struct pb *sub, const struct pb *r, const struct pb_field *f);

/* The offset of r's next byte from the start of the buffer. */
size_t pb_offset(const struct pb *r);

/* Reads the next field into *f.  Returns 1, 0 at the end of the message,
 * or -1 with a message naming the byte offset in err (a truncated or
 * overlong varint, a length past the end, field number 0, a wire type
 * that is not one of pb_wire's: groups are long deprecated). */
int pb_next(struct pb *r, struct pb_field *f, char *err, size_t errlen);

/* Reads one varint of r into *v (for packed runs: a reader over a
 * PB_LEN field with pb_sub).  Returns 1, 0 at the end, or -1 with a
 * message in err. */
int pb_varint(struct pb *r, uint64_t *v, char *err, size_t errlen);

/* How many varints the packed run data (len bytes) holds: the bytes
 * without the continuation bit.  A bound for arrays, not a check. */
size_t pb_count_varints(const unsigned char *data, size_t len);

/* For hot loops over bytes known to be well formed: a varint of at most
 * 9 bytes (no bits past 63 to check) at s[*i], ending before s[n], into
 * *v, *i moved past it; else -1 and nothing moved (anything longer or cut
 * short is left to pb_next, which names what is wrong). */
static inline int pb_short_varint(const unsigned char *s, size_t *i, size_t n, uint64_t *v)
{
	size_t j = *i;
	uint64_t x = 0;
	unsigned shift = 0;

	/* The value is built in a register, not through *v. */
	do {
		if (j >= n || shift > 56)
			return -1;
		x |= (uint64_t)(s[j] & 0x7f) << shift;
		shift += 7;
	} while (s[j++] >= 0x80);
	*i = j;
	*v = x;
	return 0;
}

/* For the hottest loops: the varint at s when it ends within 8 bytes
 * (a value below 2^56), into *v, with no branch on its length (a loop
 * over its bytes was mispredicted whenever lengths vary, as ids' and
 * weights' do); returns its length, or 0 when it goes on past them.  It
 * reads all 8 bytes: the caller has them. */
static inline size_t pb_varint8(const unsigned char *s, uint64_t *v)
{
	uint64_t x, stop;
	unsigned bits;

	memcpy(&x, s, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	x = __builtin_bswap64(x);
#endif
	if (!(stop = ~x & 0x8080808080808080u))
		return 0;
	/* Its bytes, the bits above each one's seven gathered down. */
	bits = (unsigned)__builtin_ctzll(stop) + 1;
	x &= ~(uint64_t)0 >> (64 - bits) & 0x7f7f7f7f7f7f7f7fu;
	x = (x & 0x007f007f007f007fu) | (x & 0x7f007f007f007f00u) >> 1;
	x = (x & 0x00003fff00003fffu) | (x & 0x3fff00003fff0000u) >> 2;
	x = (x & 0x000000000fffffffu) | (x & 0x0fffffff00000000u) >> 4;
	*v = x;
	return bits / 8;
}

/* pb_varint8 for a varint of at most 4 bytes (a value below 2^28: the
 * location ids of any real profile), in 32 bits: its masks immediates
 * (pb_varint8's 64-bit ones are loaded at every call).  It reads 4
 * bytes: the caller has them. */
static inline size_t pb_varint4(const unsigned char *s, uint32_t *v)
{
	uint32_t x, stop;

	memcpy(&x, s, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	x = __builtin_bswap32(x);
#endif
	if (!(stop = ~x & 0x80808080u))
		return 0;
	/* Its bytes (those up to the first stop bit), their sevens
	 * gathered a pair of bytes at a time, then the two pairs. */
	x &= stop ^ (stop - 1);
	x = (x & 0x007f007fu) | (x & 0x7f007f00u) >> 1;
	*v = (x & 0x3fffu) | (x & 0x3fff0000u) >> 2;
	return ((unsigned)__builtin_ctz(stop) >> 3) + 1;
}

/* The same for a field's length at s[*i], whose bytes must fit before
 * s[n] too: into *len, else -1. */
static inline int pb_short_length(const unsigned char *s, size_t *i, size_t n, size_t *len)
{
	uint64_t x;

	if (pb_short_varint(s, i, n, &x) < 0 || x > n - *i)
		return -1;
	*len = (size_t)x;
	return 0;
}

#endif
