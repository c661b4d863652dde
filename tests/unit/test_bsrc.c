/* Unit tests for lib/bsrc, lib/zsrc and lib/decode, and lread over them:
 * windows of any size give the same bytes and lines (memory, a mapped
 * file, a read file, a pipe, refills of one byte), peeks join windows,
 * random access, the stdin tee, and faults after the bytes before them. */
#include "check.h"
#include "gzip.h"
#include "drip.h"
#include "bsrc.h"
#include "decode.h"
#include "lread.h"
#include "zip.h"

#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include <zlib.h>

/* All of s read with bsrc_read in pieces of cap; *st gets the last return. */
static unsigned char *slurp(struct bsrc *s, size_t cap, size_t *len, ssize_t *st)
{
	unsigned char *out = NULL, *buf = malloc(cap);
	size_t n = 0;
	ssize_t r;

	while ((r = bsrc_read(s, buf, cap)) > 0) {
		out = realloc(out, n + (size_t)r + 1);
		memcpy(out + n, buf, (size_t)r);
		n += (size_t)r;
	}
	*len = n;
	*st = r;
	free(buf);
	return out;
}

/* Text with long lines, CRLF and empty lines, len bytes. */
static char *text(size_t len)
{
	char *t = malloc(len);
	size_t i, k = 0;

	for (i = 0; i < len; i++, k++) {
		t[i] = (char)('a' + k % 23);
		if (k % 997 == 996 || k == 5000 || (k > 300000 && k % 7 == 0))
			t[i] = '\n';
		if (t[i] == '\n' && i > 0 && k % 3 == 0)
			t[i - 1] = '\r';
		if (k == 1500000)
			k = 0;
	}
	return t;
}

static void test_windows(void)
{
	const char *s = "0123456789abcdef";
	struct bsrc *b = drip(s, 16, 1);
	const unsigned char *p;
	unsigned char buf[16];

	CHECK(bsrc_peek(b, 5, &p) >= 5 && memcmp(p, "01234", 5) == 0);
	bsrc_skip(b, 2);
	CHECK(bsrc_offset(b) == 2);
	CHECK(bsrc_next(b, &p) == 3 && memcmp(p, "234", 3) == 0);
	CHECK(bsrc_read(b, buf, 4) == 4 && memcmp(buf, "5678", 4) == 0);
	CHECK(bsrc_peek(b, 100, &p) == 7 && memcmp(p, "9abcdef", 7) == 0);
	CHECK(bsrc_offset(b) == 9);
	CHECK(bsrc_read(b, buf, 16) == 7 && bsrc_read(b, buf, 16) == 0);
	CHECK(bsrc_next(b, &p) == 0 && bsrc_offset(b) == 16);
	CHECK(bsrc_size(b) == -1 && bsrc_pread(b, 0, buf, 1) < 0);
	bsrc_free(b);
	b = bsrc_from_mem(s, 16, "mem");
	CHECK(bsrc_size(b) == 16 && bsrc_pread(b, 10, buf, 6) == 0 && memcmp(buf, "abcdef", 6) == 0);
	CHECK(bsrc_pread(b, 11, buf, 6) < 0);
	CHECK(bsrc_seek(b, 12) == 0 && bsrc_read(b, buf, 16) == 4 && memcmp(buf, "cdef", 4) == 0);
	CHECK(bsrc_seek(b, 17) < 0 && bsrc_read(b, buf, 16) < 0 && strstr(bsrc_error(b), "seek"));
	bsrc_free(b);
	bsrc_free(NULL);
}

/* The same bytes and lines from memory, a mapped and a read file, and
 * refills of 1 byte up to 300. */
static void test_same_everywhere(void)
{
	size_t len = 3 * 1024 * 1024 + 123, n, k;
	char *t = text(len), path[] = "/tmp/test_bsrc_XXXXXX";
	int fd = mkstemp(path);
	unsigned char *got;
	ssize_t st;

	CHECK(fd >= 0 && write(fd, t, len) == (ssize_t)len);
	close(fd);
	for (k = 0; k < 5; k++) {
		struct bsrc *b = k == 0 ? bsrc_from_mem(t, len, "m") : k == 1 ? bsrc_open(path, 1)
			       : k == 2 ? bsrc_open(path, SIZE_MAX) : drip(t, len, k == 3 ? 1 : 0);

		got = slurp(b, k == 4 ? 100000 : 4093, &n, &st);
		CHECK(st == 0 && n == len && memcmp(got, t, len) == 0);
		CHECK(bsrc_offset(b) == len);
		free(got);
		bsrc_free(b);
	}
	for (k = 0; k < 4; k++) {
		struct lread *a = lread_from_mem(t, len, "m");
		struct lread *b = lread_from(k == 0 ? bsrc_open(path, 1) : k == 1 ? bsrc_open(path, SIZE_MAX)
						    : drip(t, len, k == 2 ? 1 : 0));
		const char *la, *lb;
		size_t na, nb;
		int ra, rb, same = 1;

		lread_set_max_line(a, 200000);
		lread_set_max_line(b, 200000);
		do {
			ra = lread_next(a, &la, &na);
			rb = lread_next(b, &lb, &nb);
			same &= ra == rb && lread_lineno(a) == lread_lineno(b) &&
				(ra != LREAD_LINE || (na == nb && memcmp(la, lb, na) == 0));
		} while (same && ra != LREAD_EOF && ra != LREAD_ERROR);
		CHECK(same && ra == LREAD_EOF && lread_lineno(a) > 3000);
		lread_free(a);
		lread_free(b);
	}
	unlink(path);
	free(t);
}

/* gzip through decode_inflate, whole and a byte at a time, concatenated
 * members, and cut: the bytes before the cut, then the fault at it. */
static void test_gzipped(void)
{
	size_t len = 2 * 1024 * 1024, zn, n;
	char *t = text(len);
	unsigned char *z = malloc(len), *got;
	ssize_t st;

	zn = test_gzip(t, len, z, len);
	for (n = 0; n < 2; n++) {
		struct bsrc *b = decode_inflate(n ? drip(z, zn, 1) : bsrc_from_mem(z, zn, "z"), 0);
		size_t got_n;

		got = slurp(b, n ? 777 : 1 << 20, &got_n, &st);
		CHECK(st == 0 && got_n == len && memcmp(got, t, len) == 0);
		free(got);
		bsrc_free(b);
	}
	{
		struct bsrc *b = decode_inflate(bsrc_from_mem(z, zn / 2, "cut.gz"), 0);

		got = slurp(b, 4096, &n, &st);
		CHECK(st < 0 && n > len / 4 && n < len && memcmp(got, t, n) == 0);
		CHECK(strstr(bsrc_error(b), "truncated gzip input at byte ") != NULL);
		CHECK((size_t)strtoul(strstr(bsrc_error(b), "byte ") + 5, NULL, 10) == zn / 2);
		free(got);
		bsrc_free(b);
	}
	z[zn - 7] ^= 1;		/* the CRC: every byte comes, then the fault */
	{
		struct bsrc *b = decode_inflate(bsrc_from_mem(z, zn, "bad.gz"), 0);

		got = slurp(b, 1 << 20, &n, &st);
		CHECK(st < 0 && n == len && memcmp(got, t, len) == 0);
		CHECK(strstr(bsrc_error(b), "corrupt gzip input at byte") && strstr(bsrc_error(b), "check"));
		free(got);
		bsrc_free(b);
	}
	free(z);
	free(t);
}

/* A zip_writer archive through its directory and through its local
 * header (a stream), whole and cut short. */
static void test_zip(void)
{
	char *arch = NULL, *t = text(500000);
	size_t alen = 0, n, k;
	FILE *mem = open_memstream(&arch, &alen), *zw = zip_writer(mem, "t.txt");
	unsigned char *got;
	ssize_t st;

	fwrite(t, 1, 500000, zw);
	fclose(zw);
	fclose(mem);
	for (k = 0; k < 4; k++) {
		size_t cut = k < 2 ? alen : alen / 2;
		struct bsrc *b = decode_inflate(k % 2 ? drip(arch, cut, 0) : bsrc_from_mem(arch, cut, "z"),
						1 << 20);

		got = slurp(b, 5000, &n, &st);
		if (k < 2)
			CHECK(st == 0 && n == 500000 && memcmp(got, t, n) == 0);
		else
			CHECK(st < 0 && n > 0 && n < 500000 && memcmp(got, t, n) == 0 &&
			      strstr(bsrc_error(b), "truncated zip archive at byte"));
		free(got);
		bsrc_free(b);
	}
	free(arch);
	free(t);
}

/* UTF-16 with a BOM a byte at a time: the same UTF-8 as from memory. */
static void test_utf16(void)
{
	unsigned char u[4002];
	unsigned char *a, *b;
	size_t i, na, nb;
	ssize_t sa, sb;
	int bom;
	struct bsrc *s;

	u[0] = 0xff;
	u[1] = 0xfe;
	for (i = 2; i < sizeof(u); i += 2) {
		unsigned v = i % 10 == 2 ? 0xd834 : i % 10 == 4 ? 0xdd1e : i % 14 == 0 ? 0xdc00 : 0x20ac + (unsigned)i;

		u[i] = (unsigned char)v;
		u[i + 1] = (unsigned char)(v >> 8);
	}
	s = decode_text(bsrc_from_mem(u, sizeof(u) - 1, "m"), &bom);
	a = slurp(s, 4096, &na, &sa);
	CHECK(bom == 1);
	bsrc_free(s);
	s = decode_text(drip(u, sizeof(u) - 1, 1), &bom);
	b = slurp(s, 16, &nb, &sb);
	CHECK(sa == 0 && sb == 0 && na == nb && na > 4000 && memcmp(a, b, na) == 0);
	CHECK(memcmp(a + na - 3, "\xef\xbf\xbd", 3) == 0);	/* the odd last byte */
	free(a);
	free(b);
	bsrc_free(s);
}

/* Reading a pipe on stdin twice: the tee's record, then the rest. */
static void test_tee(void)
{
	int fds[2], saved = dup(0);
	const char *msg = "first part, second part\n";
	unsigned char buf[64], *rec;
	size_t len, n;
	struct bsrc *b;
	ssize_t st;

	CHECK(pipe(fds) == 0 && write(fds[1], msg, strlen(msg)) == (ssize_t)strlen(msg));
	close(fds[1]);
	dup2(fds[0], 0);
	close(fds[0]);
	b = bsrc_stdin_tee();
	CHECK(bsrc_read(b, buf, 5) == 5 && bsrc_size(b) == -1);
	rec = bsrc_take_record(b, &len);
	CHECK(len >= 5 && memcmp(rec, msg, len) == 0);
	bsrc_free(b);
	b = bsrc_resume_stdin(rec, len);
	rec = slurp(b, 7, &n, &st);
	CHECK(st == 0 && n == strlen(msg) && memcmp(rec, msg, n) == 0);
	free(rec);
	bsrc_free(b);
	dup2(saved, 0);
	close(saved);
}

/* lread: the lines before a fault, not the one it cut, then the error. */
static void test_lread_fault(void)
{
	unsigned char z[256];
	size_t zn = test_gzip("one 1\ntwo 2\nthree", 17, z, sizeof(z));
	struct lread *lr = lread_from(drip(z, zn - 8, 1));
	const char *l;
	size_t n;

	CHECK(lread_next(lr, &l, &n) == LREAD_LINE && n == 5);
	CHECK(lread_next(lr, &l, &n) == LREAD_LINE && n == 5 && memcmp(l, "two 2", 5) == 0);
	CHECK(lread_next(lr, &l, &n) == LREAD_ERROR);
	CHECK(strstr(lread_error(lr), "truncated gzip input at byte") != NULL);
	lread_free(lr);
}

int main(void)
{
	test_windows();
	test_same_everywhere();
	test_gzipped();
	test_zip();
	test_utf16();
	test_tee();
	test_lread_fault();
	return check_done();
}
