/* gzip.h: the unit tests' gzip of a buffer in memory (zlib). */
#ifndef FLAME_TEST_GZIP_H
#define FLAME_TEST_GZIP_H

#include <stdint.h>
#include <string.h>
#include <zlib.h>

/* Writes s (len bytes) gzipped to out (cap bytes); returns the size. */
static inline size_t test_gzip(const void *s, size_t len, unsigned char *out, size_t cap)
{
	z_stream z;
	size_t n;

	memset(&z, 0, sizeof(z));
	deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
	z.next_in = (unsigned char *)(uintptr_t)s;
	z.avail_in = (uInt)len;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	deflate(&z, Z_FINISH);
	n = cap - z.avail_out;
	deflateEnd(&z);
	return n;
}

#endif
