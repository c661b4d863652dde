/* bytes: tests on byte strings given as (pointer, length), no NUL needed. */
#ifndef FLAME_BYTES_H
#define FLAME_BYTES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Non-zero when the n bytes at s end with the NUL-terminated suffix. */
int bytes_ends_with(const char *s, size_t n, const char *suffix);

/* Non-zero when the n bytes at s contain the NUL-terminated needle. */
int bytes_contains(const char *s, size_t n, const char *needle);

/* Writes code point cp (at most U+10FFFF) as UTF-8 at d (room for 4
 * bytes); returns the bytes written. */
size_t bytes_utf8(char *d, unsigned long cp);

/* Length of the valid UTF-8 sequence at s (n > 0 bytes; no overlong
 * forms, surrogates or code points past U+10FFFF), 0 if there is none. */
size_t bytes_utf8_len(const char *s, size_t n);

/* Writes the n bytes at s as the inside of a JSON string: quotes,
 * backslashes and control characters escaped, invalid UTF-8 as U+FFFD.
 * Returns 1 when something was replaced. */
int bytes_json(FILE *f, const char *s, size_t n);

/* Parses "-ddd.ddd" (sign and point optional, at most 15 digits, the
 * whole n bytes) into *d, exactly as strtod would, without its cost.
 * Returns 0, or -1 for anything else (leave that to strtod). */
int bytes_decimal(const char *s, size_t n, double *d);

/* Index of the first byte where a and b differ (or the shorter length):
 * eight bytes at a time, for the stack trees' shared prefixes (inline:
 * it runs for every stack added). */
static inline size_t bytes_mismatch(const char *a, size_t na, const char *b, size_t nb)
{
	size_t n = na < nb ? na : nb, i = 0;

	for (; i + 8 <= n; i += 8) {
		unsigned long long x, y;

		__builtin_memcpy(&x, a + i, 8);
		__builtin_memcpy(&y, b + i, 8);
		if (x != y)
			return i + (size_t)__builtin_ctzll(x ^ y) / 8;
	}
	while (i < n && a[i] == b[i])
		i++;
	return i;
}

/* The 8 bytes at s as a big-endian number: words of byte strings that
 * compare as the strings do (the sorts of pprof's names and stacks). */
static inline uint64_t bytes_be64(const void *s)
{
	uint64_t x;

	__builtin_memcpy(&x, s, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	x = __builtin_bswap64(x);
#endif
	return x;
}

#endif
