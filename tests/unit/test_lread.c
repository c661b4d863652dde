/* Unit tests for lib/lread: line splitting, CRLF, BOM, UTF-16, gzip. */
#include "check.h"
#include "gzip.h"
#include "lread.h"

#include <stdlib.h>
#include <zlib.h>

/* Reads all lines of data joined by '|', into out. */
static int lines(const void *data, size_t len, char *out, size_t cap)
{
	struct lread *lr = lread_from_mem(data, len, "mem");
	const char *l;
	size_t n, o = 0;
	int r, count = 0;

	while ((r = lread_next(lr, &l, &n)) == LREAD_LINE) {
		if (o + n + 2 < cap) {
			if (count)
				out[o++] = '|';
			memcpy(out + o, l, n);
			o += n;
		}
		count++;
	}
	out[o] = '\0';
	if (r == LREAD_ERROR)
		count = -1;
	lread_free(lr);
	return count;
}

static void test_basic(void)
{
	char out[256];

	CHECK(lines("a\nb\n", 4, out, sizeof(out)) == 2);
	CHECK_STR(out, "a|b");
	CHECK(lines("a\r\nb", 4, out, sizeof(out)) == 2);
	CHECK_STR(out, "a|b");
	CHECK(lines("\xef\xbb\xbfx 1\n", 7, out, sizeof(out)) == 1);
	CHECK_STR(out, "x 1");
	CHECK(lines("", 0, out, sizeof(out)) == 0);
	CHECK(lines("\n\n", 2, out, sizeof(out)) == 2);
	CHECK(lines("a\0b\nc", 5, out, sizeof(out)) == 2);
	CHECK(out[1] == '\0' && out[2] == 'b');
	CHECK(lines("a\r\r\n", 4, out, sizeof(out)) == 1);
	CHECK_STR(out, "a\r");
}

static void test_utf16(void)
{
	char out[256];
	/* "a€\n𝄞" little endian, with BOM; then big endian. */
	static const char le[] = "\xff\xfe" "a\0" "\xac\x20" "\n\0" "\x34\xd8\x1e\xdd";
	static const char be[] = "\xfe\xff" "\0a" "\x20\xac" "\0\n" "\xd8\x34\xdd\x1e";
	static const char lone[] = "\xff\xfe" "\x00\xd8" "b\0";

	CHECK(lines(le, sizeof(le) - 1, out, sizeof(out)) == 2);
	CHECK_STR(out, "a\xe2\x82\xac|\xf0\x9d\x84\x9e");
	CHECK(lines(be, sizeof(be) - 1, out, sizeof(out)) == 2);
	CHECK_STR(out, "a\xe2\x82\xac|\xf0\x9d\x84\x9e");
	CHECK(lines(lone, sizeof(lone) - 1, out, sizeof(out)) == 1);
	CHECK_STR(out, "\xef\xbf\xbd" "b");
}

static void test_gzipped(void)
{
	static unsigned char z[4096], z2[8192];
	char out[256];
	size_t n = test_gzip("one 1\ntwo 2\n", 12, z, sizeof(z)), m;

	CHECK(lines(z, n, out, sizeof(out)) == 2);
	CHECK_STR(out, "one 1|two 2");
	/* Concatenated members read as one stream. */
	memcpy(z2, z, n);
	m = test_gzip("three 3", 7, z2 + n, sizeof(z2) - n);
	CHECK(lines(z2, n + m, out, sizeof(out)) == 3);
	CHECK_STR(out, "one 1|two 2|three 3");
	/* Truncated: complete lines first, then an error. */
	CHECK(lines(z, n - 6, out, sizeof(out)) == -1);
	z[n / 2] ^= 0xff;
	CHECK(lines(z, n, out, sizeof(out)) == -1);
}

static void test_long(void)
{
	size_t big = 3 * 1024 * 1024, i;
	char *s = malloc(big + 16);
	struct lread *lr;
	const char *l;
	size_t n;

	for (i = 0; i < big; i++)
		s[i] = 'x';
	memcpy(s + big, "\nok\n", 4);
	lr = lread_from_mem(s, big + 4, "long");
	CHECK(lread_next(lr, &l, &n) == LREAD_LINE && n == big);
	CHECK(lread_next(lr, &l, &n) == LREAD_LINE && n == 2);
	CHECK(lread_lineno(lr) == 2);
	lread_free(lr);
	lr = lread_from_mem(s, big + 4, "long");
	lread_set_max_line(lr, 1000);
	CHECK(lread_next(lr, &l, &n) == LREAD_TOOLONG);
	CHECK(lread_next(lr, &l, &n) == LREAD_LINE && n == 2 && memcmp(l, "ok", 2) == 0);
	CHECK(lread_lineno(lr) == 2);
	CHECK(lread_next(lr, &l, &n) == LREAD_EOF);
	lread_free(lr);
	free(s);
}

int main(void)
{
	test_basic();
	test_utf16();
	test_gzipped();
	test_long();
	CHECK(lread_open("/nonexistent/x") == NULL);
	return check_done();
}
