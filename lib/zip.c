/* zip: central directory lookup, local headers, a streaming writer. */
#include "zip.h"
#include "xalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>

#define SIG_LOCAL 0x04034b50u
#define SIG_CENTRAL 0x02014b50u
#define SIG_END 0x06054b50u
#define SIG_DESC 0x08074b50u
#define END_MIN 22		/* end of central directory record, no comment */
#define CENTRAL_MIN 46		/* central directory header, no name */
#define LOCAL_MIN 30		/* local header, no name */
#define MAX_ENTRIES 65535	/* without ZIP64 */

static unsigned get16(const unsigned char *p)
{
	return (unsigned)p[0] | (unsigned)p[1] << 8;
}

static uint32_t get32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put16(unsigned char *p, unsigned v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
}

static void put32(unsigned char *p, uint32_t v)
{
	put16(p, v & 0xffff);
	put16(p + 2, v >> 16);
}

static int fail(char *err, size_t errlen, const char *msg)
{
	snprintf(err, errlen, "%s", msg);
	return -1;
}

/* Finds the end-of-central-directory record in the last 64 KiB; returns
 * its offset or -1. */
static int64_t find_end(zip_read_fn *rd, void *ctx, uint64_t size, unsigned char *tail, size_t *tlen)
{
	size_t n = size < 65535 + END_MIN ? (size_t)size : 65535 + END_MIN;
	size_t i;

	if (n < END_MIN || rd(ctx, size - n, tail, n) < 0)
		return -1;
	*tlen = n;
	for (i = n - END_MIN + 1; i-- > 0;)
		if (get32(tail + i) == SIG_END && i + END_MIN + get16(tail + i + 20) <= n)
			return (int64_t)(size - n + i);
	return -1;
}

/* A member is wanted when its name ends in .json, .xml or .etl (PerfView
 * zips a trace with its log). */
static int wanted(const char *name, size_t len)
{
	return (len >= 5 && strcasecmp(name + len - 5, ".json") == 0) ||
	       (len >= 4 && strcasecmp(name + len - 4, ".xml") == 0) ||
	       (len >= 4 && strcasecmp(name + len - 4, ".etl") == 0);
}

/* Reads central directory entry at *pos into m; returns 0 or -1. */
static int central_entry(const unsigned char *cd, size_t cdlen, size_t *pos, struct zip_member *m)
{
	const unsigned char *p = cd + *pos;
	size_t nlen, total;

	if (cdlen - *pos < CENTRAL_MIN || get32(p) != SIG_CENTRAL)
		return -1;
	nlen = get16(p + 28);
	total = CENTRAL_MIN + nlen + get16(p + 30) + get16(p + 32);
	if (total > cdlen - *pos)
		return -1;
	memset(m, 0, sizeof(*m));
	m->method = (int)get16(p + 10);
	m->sizes_known = !(get16(p + 8) & 1);	/* bit 0: encrypted */
	m->crc = get32(p + 16);
	m->csize = get32(p + 20);
	m->usize = get32(p + 24);
	m->offset = get32(p + 42);
	memcpy(m->name, p + CENTRAL_MIN, nlen < sizeof(m->name) - 1 ? nlen : sizeof(m->name) - 1);
	*pos += total;
	return 0;
}

/* Picks the member from the central directory; returns 0 or -1. */
static int pick(const unsigned char *cd, size_t cdlen, unsigned entries, struct zip_member *m,
		char *err, size_t errlen)
{
	struct zip_member e, only;
	size_t pos = 0;
	unsigned i, files = 0;

	for (i = 0; i < entries; i++) {
		if (central_entry(cd, cdlen, &pos, &e) < 0)
			return fail(err, errlen, "corrupt zip central directory");
		if (!e.sizes_known)
			return fail(err, errlen, "encrypted zip members are not supported");
		if (wanted(e.name, strlen(e.name))) {
			*m = e;
			return 0;
		}
		if (e.name[0] && e.name[strlen(e.name) - 1] != '/' && files++ == 0)
			only = e;
	}
	if (files != 1) {
		snprintf(err, errlen, "zip archive has %u files and none ends in .json, .xml or .etl", files);
		return -1;
	}
	*m = only;
	return 0;
}

/* Checks the member's local header and sets m->offset to its data. */
static int locate_data(zip_read_fn *rd, void *ctx, uint64_t size, struct zip_member *m,
		       char *err, size_t errlen)
{
	unsigned char h[LOCAL_MIN];

	if (m->offset > size || rd(ctx, m->offset, h, LOCAL_MIN) < 0 || get32(h) != SIG_LOCAL)
		return fail(err, errlen, "corrupt zip archive: no local header where the directory says");
	m->offset += LOCAL_MIN + get16(h + 26) + get16(h + 28);
	if (m->offset > size || m->csize > size - m->offset)
		return fail(err, errlen, "truncated zip archive: the member runs past its end");
	if (m->method != 0 && m->method != 8) {
		snprintf(err, errlen, "zip member '%s' uses compression method %d "
			 "(only stored and deflated are supported)", m->name, m->method);
		return -1;
	}
	m->sizes_known = 1;
	return 0;
}

int zip_find(zip_read_fn *rd, void *ctx, uint64_t size, struct zip_member *m,
	     char *err, size_t errlen)
{
	unsigned char *tail = xmalloc(65535 + END_MIN), *cd = NULL;
	size_t tlen = 0, cdlen;
	int64_t end = find_end(rd, ctx, size, tail, &tlen);
	const unsigned char *e;
	unsigned entries;
	uint64_t cdoff;
	int rc = -1;

	if (end < 0) {
		rc = fail(err, errlen, "truncated zip archive: no central directory") - 1;
		goto out;
	}
	e = tail + (tlen - (size - (uint64_t)end));
	entries = get16(e + 10);
	cdlen = get32(e + 12);
	cdoff = get32(e + 16);
	if (entries == 0xffff || cdlen == 0xffffffffu || cdoff == 0xffffffffu) {
		fail(err, errlen, "ZIP64 archives are not supported");
		goto out;
	}
	if (cdoff > (uint64_t)end || cdlen > (uint64_t)end - cdoff || entries > MAX_ENTRIES) {
		fail(err, errlen, "corrupt zip central directory");
		goto out;
	}
	cd = xmalloc(cdlen + 1);
	if (rd(ctx, cdoff, cd, cdlen) < 0)
		fail(err, errlen, "truncated zip archive");
	else if (pick(cd, cdlen, entries, m, err, errlen) == 0)
		rc = locate_data(rd, ctx, size, m, err, errlen);
out:
	free(cd);
	free(tail);
	return rc;
}

long zip_local(const unsigned char *p, size_t n, struct zip_member *m, char *err, size_t errlen)
{
	size_t nlen, total;
	unsigned flags;

	if (n < LOCAL_MIN)
		return 0;
	if (get32(p) != SIG_LOCAL)
		return fail(err, errlen, "not a zip archive");
	nlen = get16(p + 26);
	total = LOCAL_MIN + nlen + get16(p + 28);
	if (n < total)
		return 0;
	flags = get16(p + 6);
	memset(m, 0, sizeof(*m));
	m->method = (int)get16(p + 8);
	m->crc = get32(p + 14);
	m->csize = get32(p + 18);
	m->usize = get32(p + 22);
	m->sizes_known = !(flags & 8);
	memcpy(m->name, p + LOCAL_MIN, nlen < sizeof(m->name) - 1 ? nlen : sizeof(m->name) - 1);
	if (flags & 1)
		return fail(err, errlen, "encrypted zip members are not supported");
	if (m->method != 0 && m->method != 8)
		return fail(err, errlen, "zip member uses a compression method other than stored or deflated");
	if (m->method == 0 && !m->sizes_known)
		return fail(err, errlen, "a stored zip member of unknown size cannot be read from a pipe");
	if (m->csize == 0xffffffffu || m->usize == 0xffffffffu)
		return fail(err, errlen, "ZIP64 archives are not supported");
	return (long)total;
}

/* The writer: one deflated member, streamed. */
struct zipw {
	FILE *out;		/* the archive */
	char *name;		/* member name */
	z_stream zs;		/* deflate state */
	uint32_t crc;		/* of the bytes written so far */
	uint64_t usize;		/* bytes written */
	uint64_t csize;		/* bytes of deflated data */
	int failed;		/* a write to out failed */
};

/* 1980-01-01 00:00:00 in DOS form: output must not depend on the clock. */
#define DOS_TIME 0
#define DOS_DATE 0x21

static int put(struct zipw *z, const void *p, size_t n)
{
	if (!z->failed && n && fwrite(p, 1, n, z->out) != n)
		z->failed = 1;
	return z->failed ? -1 : 0;
}

static int deflate_some(struct zipw *z, const unsigned char *p, size_t n, int flush)
{
	unsigned char buf[65536];
	int r;

	z->zs.next_in = (unsigned char *)(uintptr_t)p;
	z->zs.avail_in = (uInt)n;
	do {
		z->zs.next_out = buf;
		z->zs.avail_out = sizeof(buf);
		r = deflate(&z->zs, flush);
		if (r == Z_STREAM_ERROR)
			return -1;
		z->csize += sizeof(buf) - z->zs.avail_out;
		if (put(z, buf, sizeof(buf) - z->zs.avail_out) < 0)
			return -1;
	} while (z->zs.avail_out == 0 || (flush == Z_FINISH && r != Z_STREAM_END));
	return 0;
}

static ssize_t zipw_write(void *cookie, const char *p, size_t n)
{
	struct zipw *z = cookie;
	size_t done = 0;

	while (done < n) {
		size_t k = n - done > (1u << 30) ? 1u << 30 : n - done;

		z->crc = (uint32_t)crc32(z->crc, (const unsigned char *)p + done, (uInt)k);
		if (deflate_some(z, (const unsigned char *)p + done, k, Z_NO_FLUSH) < 0) {
			errno = EIO;
			return -1;
		}
		done += k;
	}
	z->usize += n;
	return (ssize_t)n;
}

/* The fields local and central headers share, from "version needed" on. */
static void common_fields(unsigned char *p, const struct zipw *z, int with_sizes)
{
	put16(p, 20);
	put16(p + 2, 8);	/* sizes in a data descriptor */
	put16(p + 4, 8);	/* deflated */
	put16(p + 6, DOS_TIME);
	put16(p + 8, DOS_DATE);
	put32(p + 10, with_sizes ? z->crc : 0);
	put32(p + 14, with_sizes ? (uint32_t)z->csize : 0);
	put32(p + 18, with_sizes ? (uint32_t)z->usize : 0);
	put16(p + 22, (unsigned)strlen(z->name));
	put16(p + 24, 0);
}

/* Data descriptor, central directory and end record. */
static int finish(struct zipw *z)
{
	unsigned char d[16], c[CENTRAL_MIN], e[END_MIN];
	size_t nlen = strlen(z->name);

	if (z->usize > 0xfffffffeu || z->csize > 0xfffffffeu)
		return -1;	/* would need ZIP64 */
	put32(d, SIG_DESC);
	put32(d + 4, z->crc);
	put32(d + 8, (uint32_t)z->csize);
	put32(d + 12, (uint32_t)z->usize);
	memset(c, 0, sizeof(c));
	put32(c, SIG_CENTRAL);
	put16(c + 4, 20);	/* made by: MS-DOS, 2.0 */
	common_fields(c + 6, z, 1);
	put32(c + 42, 0);	/* local header offset */
	memset(e, 0, sizeof(e));
	put32(e, SIG_END);
	put16(e + 8, 1);
	put16(e + 10, 1);
	put32(e + 12, (uint32_t)(CENTRAL_MIN + nlen));
	put32(e + 16, (uint32_t)(LOCAL_MIN + nlen + z->csize + sizeof(d)));
	if (put(z, d, sizeof(d)) < 0 || put(z, c, sizeof(c)) < 0 ||
	    put(z, z->name, nlen) < 0 || put(z, e, sizeof(e)) < 0)
		return -1;
	return 0;
}

static int zipw_close(void *cookie)
{
	struct zipw *z = cookie;
	int rc = deflate_some(z, NULL, 0, Z_FINISH);

	if (rc == 0)
		rc = finish(z);
	deflateEnd(&z->zs);
	free(z->name);
	free(z);
	return rc;
}

FILE *zip_writer(FILE *out, const char *name)
{
	static const cookie_io_functions_t io = { NULL, zipw_write, NULL, zipw_close };
	struct zipw *z = xcalloc(1, sizeof(*z));
	unsigned char h[LOCAL_MIN];
	size_t nlen = strlen(name) > 1024 ? 1024 : strlen(name);
	FILE *f;

	z->out = out;
	z->name = xstrndup(name, nlen);
	if (deflateInit2(&z->zs, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		xalloc_fail(sizeof(z->zs));
	put32(h, SIG_LOCAL);
	common_fields(h + 4, z, 0);
	f = fopencookie(z, "w", io);
	if (!f || put(z, h, sizeof(h)) < 0 || put(z, z->name, nlen) < 0) {
		if (f)
			fclose(f);
		else
			zipw_close(z);
		errno = errno ? errno : EIO;
		return NULL;
	}
	return f;
}
