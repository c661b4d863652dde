/* json_digits: the digits of a short integer read a word at a time, for
 * the tokenizer's numbers (lib/json.c only). */
#ifndef FLAME_JSON_DIGITS_H
#define FLAME_JSON_DIGITS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* json_digits8 reads 8 bytes as one little-endian word (GCC and clang);
 * elsewhere the tokenizer reads digits one at a time. */
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define FAST_DIGITS 1

/* How many of the 8 bytes at d (0 to 7) are digits before one that is
 * not, their value in *x; 8 when all are (*x not set). */
static inline size_t json_digits8(const char *d, uint64_t *x)
{
	uint64_t w, not_digit, v;
	size_t n;

	memcpy(&w, d, 8);
	w ^= 0x3030303030303030ull;	/* a digit byte becomes its value */
	not_digit = ((w + 0x7676767676767676ull) | w) & 0x8080808080808080ull;
	if (!not_digit)
		return 8;
	n = (size_t)__builtin_ctzll(not_digit) / 8;
	if (n == 0)
		return 0;
	v = w << (8 * (8 - n));		/* the n digits last, zeros before */
	v = v * 10 + (v >> 8);		/* pairs of digits */
	v = ((v & 0x000000ff000000ffull) * (100 + (1000000ull << 32)) +
	     ((v >> 16) & 0x000000ff000000ffull) * (1 + (10000ull << 32))) >> 32;
	*x = v;
	return n;
}
#else
#define FAST_DIGITS 0
#define json_digits8(d, x) ((void)(d), (void)(x), (size_t)8)
#endif

#endif
