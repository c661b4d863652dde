/* zsrc: gzip and zip-member inflation as bsrc filters.
 *
 * A fault found after some bytes were inflated in the same refill does
 * not cost those bytes: the refill hands them out with the message already
 * in err and broken set, and the next refill fails. */
#include "zsrc.h"
#include "bsrc.h"
#include "xalloc.h"
#include "zip.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define ZLIB_CONST
#include <zlib.h>

#define OUT_SIZE ((size_t)1 << 20)	/* inflated bytes per refill, at most */
#define IN_MAX ((size_t)1 << 30)	/* compressed bytes per inflate() call */

struct gz {
	struct bsrc *raw;	/* the compressed input, owned */
	z_stream zs;		/* inflate state */
	unsigned char *out;	/* the window handed out */
	int done;		/* the last member ended */
	int broken;		/* a fault was found: fail from now on */
};

/* Puts the fault in err and makes the next refill fail; returns got, the
 * bytes inflated before it, or -1 when there are none. */
static ssize_t fault(int *broken, ssize_t got, char *err, size_t errlen, const char *what,
		     const struct bsrc *raw, const char *detail)
{
	snprintf(err, errlen, "%s at byte %llu%s%s", what, (unsigned long long)bsrc_offset(raw),
		 detail ? ": " : "", detail ? detail : "");
	*broken = 1;
	return got > 0 ? got : -1;
}

/* The same when the source below failed: its message is the fault's. */
static ssize_t failed_below(int *broken, ssize_t got, char *err, size_t errlen,
			    const struct bsrc *raw)
{
	snprintf(err, errlen, "%s", bsrc_error(raw));
	*broken = 1;
	return got > 0 ? got : -1;
}

/* After a member's end: another member follows when the next byte starts
 * one (anything else after the stream is ignored, as gzip -d does).
 * Returns 0, or -1 when reading failed. */
static int next_member(struct gz *g)
{
	const unsigned char *p;
	ssize_t n = bsrc_peek(g->raw, 1, &p);

	if (n < 0)
		return -1;
	if (n > 0 && p[0] == 0x1f)
		inflateReset(&g->zs);
	else
		g->done = 1;
	return 0;
}

/* Inflates up to cap bytes into dst. */
static ssize_t gz_inflate(struct gz *g, unsigned char *dst, size_t cap, char *err, size_t errlen)
{
	ssize_t got = 0;

	if (g->broken)
		return -1;
	if (cap > IN_MAX)
		cap = IN_MAX;
	g->zs.next_out = dst;
	g->zs.avail_out = (uInt)cap;
	while (got == 0 && !g->done) {
		const unsigned char *in;
		ssize_t n = bsrc_peek(g->raw, 1, &in);
		int r;

		if (n < 0)
			return failed_below(&g->broken, got, err, errlen, g->raw);
		if (n == 0)
			return fault(&g->broken, got, err, errlen, "truncated gzip input", g->raw, NULL);
		g->zs.next_in = in;
		g->zs.avail_in = (uInt)((size_t)n < IN_MAX ? (size_t)n : IN_MAX);
		r = inflate(&g->zs, Z_NO_FLUSH);
		bsrc_skip(g->raw, (size_t)(g->zs.next_in - in));
		got = (ssize_t)(cap - g->zs.avail_out);
		if (r == Z_STREAM_END && next_member(g) < 0)
			return failed_below(&g->broken, got, err, errlen, g->raw);
		if (r == Z_MEM_ERROR)
			return fault(&g->broken, got, err, errlen, "out of memory inflating", g->raw, NULL);
		if (r != Z_OK && r != Z_BUF_ERROR && r != Z_STREAM_END)
			return fault(&g->broken, got, err, errlen, "corrupt gzip input", g->raw,
				     g->zs.msg ? g->zs.msg : "bad data");
	}
	return got;
}

static ssize_t gz_fill(void *ctx, const unsigned char **p, char *err, size_t errlen)
{
	struct gz *g = ctx;

	*p = g->out;
	return gz_inflate(g, g->out, OUT_SIZE, err, errlen);
}

static ssize_t gz_into(void *ctx, unsigned char *dst, size_t cap, char *err, size_t errlen)
{
	return gz_inflate(ctx, dst, cap, err, errlen);
}

static void gz_free(void *ctx)
{
	struct gz *g = ctx;

	inflateEnd(&g->zs);
	bsrc_free(g->raw);
	free(g->out);
	free(g);
}

static const struct bsrc_ops gz_ops = { gz_fill, gz_into, gz_free };

struct bsrc *zsrc_gzip(struct bsrc *raw)
{
	struct gz *g = xcalloc(1, sizeof(*g));

	if (inflateInit2(&g->zs, 15 + 16) != Z_OK) {
		free(g);
		bsrc_fail(raw, "cannot initialise zlib");
		return raw;
	}
	g->raw = raw;
	g->out = xmalloc(OUT_SIZE);
	return bsrc_filter(&gz_ops, g, bsrc_name(raw));
}

struct zmem {
	struct bsrc *raw;	/* the archive, owned */
	struct zip_member m;	/* the member read */
	z_stream zs;		/* inflate state, when deflated */
	unsigned char *out;	/* inflated bytes handed out */
	uint64_t left;		/* compressed bytes not yet read; UINT64_MAX: unknown */
	uint64_t out_n;		/* bytes handed out so far */
	uint32_t crc;		/* their CRC-32 */
	uint64_t max;		/* no more may come */
	int done;		/* the member is complete and checked */
	int broken;		/* a fault was found: fail from now on */
	int cut;		/* the archive has no directory: read from its
				   local header, failing at the member's end */
};

/* Checks the finished member against its directory entry, or, streamed,
 * against the data descriptor after it when there is one.  Only a
 * deflated member can be streamed: the peek cannot move a stored
 * member's bytes, which are handed out in raw's window. */
static const char *zm_check(struct zmem *z)
{
	struct zip_member *m = &z->m;
	const unsigned char *d;

	z->done = 1;
	if (!m->sizes_known) {
		ssize_t n = bsrc_peek(z->raw, 16, &d);
		size_t skip = n >= 4 && d[0] == 'P' && d[1] == 'K' && d[2] == 7 && d[3] == 8 ? 4 : 0;

		if (n >= (ssize_t)(skip + 12)) {
			m->crc = (uint32_t)d[skip] | (uint32_t)d[skip + 1] << 8 |
				 (uint32_t)d[skip + 2] << 16 | (uint32_t)d[skip + 3] << 24;
			m->usize = z->out_n;
			m->sizes_known = 1;
		}
	}
	if (m->sizes_known && z->crc != m->crc)
		return "corrupt zip member: CRC-32 mismatch";
	if (m->sizes_known && z->out_n != m->usize)
		return "corrupt zip member: its size differs from the directory's";
	return z->cut ? "truncated zip archive (no central directory)" : NULL;
}

/* The most bytes the member may give: its declared size, or the limit. */
static uint64_t zm_limit(const struct zmem *z)
{
	return z->m.sizes_known && z->m.usize < z->max ? z->m.usize : z->max;
}

/* Past the limit.  A member declared past it is refused before a byte is
 * read; one found going past it gives the got bytes up to it (exactly
 * the limit's worth, however the input comes), then fails. */
static ssize_t zm_bomb(struct zmem *z, ssize_t got, char *err, size_t errlen)
{
	z->broken = 1;
	if (z->out_n == 0 && z->m.sizes_known && z->m.usize > z->max)
		snprintf(err, errlen, "zip member '%.160s' would inflate to %llu bytes, over the limit "
			 "of %llu: not read (raise it with --max-inflate)", z->m.name,
			 (unsigned long long)z->m.usize, (unsigned long long)z->max);
	else
		snprintf(err, errlen, "zip member '%.160s' inflates past %llu bytes (its declared size "
			 "or the --max-inflate limit): a zip bomb or a corrupt archive; read no further",
			 z->m.name, (unsigned long long)zm_limit(z));
	return got > 0 ? got : -1;
}

/* One step over the compressed bytes at in (n of them): stored bytes are
 * handed out in place, deflated ones inflated into out; never more than
 * one byte past the limit.  Returns the bytes made and sets *used and *r
 * (zlib's result). */
static size_t zm_step(struct zmem *z, const unsigned char *in, size_t n, const unsigned char **p,
		      size_t *used, int *r)
{
	uint64_t lim = zm_limit(z), room = lim == UINT64_MAX ? lim : lim + 1 - z->out_n;
	size_t got;

	*r = Z_OK;
	if (z->m.method == 0) {
		*p = in;
		*used = got = n < room ? n : (size_t)room;
	} else {
		z->zs.next_in = in;
		z->zs.avail_in = (uInt)(n < IN_MAX ? n : IN_MAX);
		*p = z->out;
		z->zs.next_out = z->out;
		z->zs.avail_out = (uInt)(OUT_SIZE < room ? OUT_SIZE : room);
		*r = inflate(&z->zs, Z_NO_FLUSH);
		*used = (size_t)(z->zs.next_in - in);
		got = (size_t)(z->zs.next_out - z->out);
	}
	if (z->left != UINT64_MAX)
		z->left -= *used;
	z->crc = (uint32_t)crc32(z->crc, *p, (uInt)got);
	z->out_n += got;
	return got;
}

static ssize_t zm_fill(void *ctx, const unsigned char **p, char *err, size_t errlen)
{
	struct zmem *z = ctx;
	ssize_t got = 0;

	if (z->broken || (z->m.sizes_known && z->m.usize > z->max))
		return z->broken ? -1 : zm_bomb(z, -1, err, errlen);
	while (got == 0 && !z->done) {
		const unsigned char *in;
		const char *bad;
		ssize_t n = z->left ? bsrc_peek(z->raw, 1, &in) : 0;
		size_t used;
		int r;

		if (n < 0)
			return failed_below(&z->broken, got, err, errlen, z->raw);
		if (n == 0 && z->left)
			return fault(&z->broken, got, err, errlen, "truncated zip archive", z->raw, NULL);
		if (n == 0) {
			bad = zm_check(z);
			return bad ? fault(&z->broken, got, err, errlen, bad, z->raw, NULL) : got;
		}
		got = (ssize_t)zm_step(z, in, (uint64_t)n < z->left ? (size_t)n : (size_t)z->left,
				       p, &used, &r);
		bsrc_skip(z->raw, used);
		if (z->out_n > zm_limit(z))
			return zm_bomb(z, got - 1, err, errlen);
		if (r == Z_MEM_ERROR)
			return fault(&z->broken, got, err, errlen, "out of memory inflating", z->raw, NULL);
		if (r != Z_OK && r != Z_STREAM_END && r != Z_BUF_ERROR)
			return fault(&z->broken, got, err, errlen, "corrupt zip member: bad deflate data",
				     z->raw, NULL);
		if (r == Z_STREAM_END || (z->m.method == 0 && z->left == 0))
			return (bad = zm_check(z)) ? fault(&z->broken, got, err, errlen, bad, z->raw, NULL) : got;
		if (r == Z_BUF_ERROR && z->left == 0)
			return fault(&z->broken, got, err, errlen,
				     "corrupt zip member: deflate data ends early", z->raw, NULL);
	}
	return got;
}

static void zm_free(void *ctx)
{
	struct zmem *z = ctx;

	if (z->m.method == 8)
		inflateEnd(&z->zs);
	bsrc_free(z->raw);
	free(z->out);
	free(z);
}

static int read_at(void *ctx, uint64_t off, void *buf, size_t n)
{
	return bsrc_pread(ctx, off, buf, n);
}

/* Parses the local header at the start of the stream (read in growing
 * peeks, as long as it may be).  Returns 0, or -1 with a message in err. */
static int zm_local(struct zmem *z, char *err, size_t errlen)
{
	size_t want = 64;

	for (;;) {
		const unsigned char *p;
		ssize_t n = bsrc_peek(z->raw, want, &p);
		long hdr = n < 0 ? -1 : zip_local(p, (size_t)n, &z->m, err, errlen);

		if (n < 0)
			snprintf(err, errlen, "%s", bsrc_error(z->raw));
		if (hdr > 0)
			bsrc_skip(z->raw, (size_t)hdr);
		if (hdr != 0)
			return hdr > 0 ? 0 : -1;
		if ((size_t)n < want || want > 30 + 2 * 65535) {
			snprintf(err, errlen, "zip local header cut short");
			return -1;
		}
		want *= 4;
	}
}

/* Finds the member: through the directory, or from the local header at
 * the start of a stream, or of an archive cut short (its directory lost,
 * what is left of the first member can still be read, up to the cut).
 * Returns 0, 1 for the archive cut short, or -1 with a message in err. */
static int zm_locate(struct zmem *z, char *err, size_t errlen)
{
	int64_t size = bsrc_size(z->raw);
	char local[256];
	int rc;

	if (size < 0)
		return zm_local(z, err, errlen);
	rc = zip_find(read_at, z->raw, (uint64_t)size, &z->m, err, errlen);
	if (rc == -2 && zm_local(z, local, sizeof(local)) == 0)
		return (z->cut = 1);
	if (rc < 0)
		return -1;
	if (bsrc_seek(z->raw, z->m.offset) == 0)
		return 0;
	snprintf(err, errlen, "%s", bsrc_error(z->raw));
	return -1;
}

static const struct bsrc_ops zm_ops = { zm_fill, NULL, zm_free };

struct bsrc *zsrc_zip(struct bsrc *raw, uint64_t max)
{
	struct zmem *z = xcalloc(1, sizeof(*z));
	char err[512];

	int rc;

	z->raw = raw;
	z->max = max;
	rc = zm_locate(z, err, sizeof(err));
	if (rc >= 0 && z->m.method == 8 && inflateInit2(&z->zs, -15) != Z_OK) {
		snprintf(err, sizeof(err), "cannot initialise zlib");
		rc = -1;
	}
	if (rc < 0) {
		free(z);
		bsrc_fail(raw, err);
		return raw;
	}
	z->left = z->m.sizes_known ? z->m.csize : UINT64_MAX;
	if (z->m.method == 8)
		z->out = xmalloc(OUT_SIZE);
	return bsrc_filter(&zm_ops, z, bsrc_name(raw));
}
