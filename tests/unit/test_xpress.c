/* Unit tests of collapse/etl/xpress.c on hand-made MS-XCA plain LZ77
 * streams: every length form, shared half bytes, and each fault. */
#include "check.h"
#include "xpress.h"

#include <stdlib.h>
#include <string.h>

static unsigned char out[80000];

/* Decompresses n bytes of s; returns the count, fault in *fault. */
static size_t run(const char *s, size_t n, size_t cap, size_t *fault)
{
	memset(out, 0, sizeof(out));
	return xpress_lz77((const unsigned char *)s, n, out, cap, fault);
}

static int all(const unsigned char *p, size_t n, int c)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != c)
			return 0;
	return 1;
}

static void literals(void)
{
	size_t f, n;

	/* A zero flags word: 32 literals; the input ends after three. */
	n = run("\0\0\0\0abc", 7, sizeof(out), &f);
	CHECK(n == 3 && f == 0 && memcmp(out, "abc", 3) == 0);
	/* The output's cap stops it. */
	n = run("\0\0\0\0abc", 7, 2, &f);
	CHECK(n == 2 && f == 0);
	/* Padding after the last flags word is no fault. */
	n = run("\0\0\0\0ab\0", 7, sizeof(out), &f);
	CHECK(n == 3 && f == 0);
}

static void short_and_nibble(void)
{
	size_t f, n;

	/* 'a', then a match one back of 3 + 7 + 0 (word 7, nibble 0), then
	 * the end: a match flag with no match. */
	n = run("\xff\xff\xff\x7f" "a" "\x07\x00" "\x00", 8, sizeof(out), &f);
	CHECK(n == 11 && f == 0 && all(out, 11, 'a'));
	/* 'a', a match of 3 + 2 (no nibble). */
	n = run("\xff\xff\xff\x7f" "a" "\x02\x00", 7, sizeof(out), &f);
	CHECK(n == 6 && f == 0 && all(out, 6, 'a'));
	/* Two long matches share a byte: "ab", 12 from 2 back (nibble 2, the
	 * low half), 14 from 1 back (nibble 4, the high half). */
	n = run("\xff\xff\xff\x3f" "ab" "\x0f\x00" "\x42" "\x07\x00", 11, sizeof(out), &f);
	CHECK(n == 28 && f == 0);
	CHECK(memcmp(out, "ababababababab", 14) == 0 && all(out + 14, 14, 'b'));
}

static void long_lengths(void)
{
	size_t f, n;

	/* Nibble 15 then a byte: 3 + 7 + 15 + 5 = 30. */
	n = run("\xff\xff\xff\x7f" "x" "\x07\x00" "\x0f" "\x05", 9, sizeof(out), &f);
	CHECK(n == 31 && f == 0 && all(out, 31, 'x'));
	/* Byte 255 then 16 bits: the length - 3 itself (300). */
	n = run("\xff\xff\xff\x7f" "y" "\x07\x00" "\x0f" "\xff" "\x2c\x01", 11, sizeof(out), &f);
	CHECK(n == 304 && f == 0 && all(out, 304, 'y'));
	/* 16 bits of 0 then 32: 70000. */
	n = run("\xff\xff\xff\x7f" "z" "\x07\x00" "\x0f" "\xff" "\x00\x00" "\x70\x11\x01\x00", 15,
		sizeof(out), &f);
	CHECK(n == 70004 && f == 0 && all(out, 70004, 'z'));
}

static void faults(void)
{
	size_t f, n;

	/* A match reaching before the output's start. */
	n = run("\xff\xff\xff\x7f" "a" "\x08\x00", 7, sizeof(out), &f);
	CHECK(n == 1 && f != 0);
	/* A match that runs past the output's end. */
	n = run("\xff\xff\xff\x7f" "a" "\x07\x00" "\x00", 8, 5, &f);
	CHECK(n == 1 && f != 0);
	/* The input ends inside a match word, a length byte, a 16-bit and a
	 * 32-bit length: what came before is kept. */
	n = run("\xff\xff\xff\x7f" "a" "\x07", 6, sizeof(out), &f);
	CHECK(n == 1 && f != 0);
	n = run("\xff\xff\xff\x7f" "a" "\x07\x00", 7, sizeof(out), &f);
	CHECK(n == 1 && f != 0);
	n = run("\xff\xff\xff\x7f" "a" "\x07\x00" "\x0f" "\xff" "\x2c", 10, sizeof(out), &f);
	CHECK(n == 1 && f != 0);
	n = run("\xff\xff\xff\x7f" "a" "\x07\x00" "\x0f" "\xff" "\x00\x00" "\x70\x11", 13,
		sizeof(out), &f);
	CHECK(n == 1 && f != 0);
	/* A 16-bit length under 22 cannot be written by a compressor. */
	n = run("\xff\xff\xff\x7f" "a" "\x07\x00" "\x0f" "\xff" "\x05\x00", 11, sizeof(out), &f);
	CHECK(n == 1 && f != 0);
	/* An empty input. */
	n = run("", 0, sizeof(out), &f);
	CHECK(n == 0 && f == 0);
}

int main(void)
{
	literals();
	short_and_nibble();
	long_lengths();
	faults();
	return check_done();
}
