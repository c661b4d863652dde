/* pprof_write: a profile in the order Go writes one (sample types,
 * samples, locations, functions, then the string table), gzipped.  The
 * string table is "" and the type's two strings, the comment, then each
 * frame's name at a fixed offset from its id, so it needs no second
 * pass. */
#include "pprof_write.h"
#include "folded.h"
#include "outfile.h"
#include "pbwrite.h"
#include "strtab.h"
#include "xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* The sample type's name and unit for unit. */
static void sample_type(const char *unit, const char **type, const char **u)
{
	*type = unit && *unit ? unit : "samples";
	*u = "count";
	if (unit && strcmp(unit, "ns") == 0)
		*type = "cpu", *u = "nanoseconds";
	else if (unit && strcmp(unit, "bytes") == 0)
		*type = "space", *u = "bytes";
}

/* A count as the whole number a profile holds, or -1 when it is not one. */
static int whole(const struct fcount *c, uint64_t *v)
{
	double f = c->frac;

	if (f != 0 && (f != floor(f) || f < 0 || f > 9e15))
		return -1;
	*v = c->n + (uint64_t)f;
	return 0;
}

/* Appends one sample of stack s (len bytes) weighing v to w, its frames
 * interned in frames (their ids + 1 are location ids). */
static void put_sample(struct pbw *w, struct pbw *tmp, struct strtab *frames, const char *s,
		       size_t len, uint64_t v, uint32_t **ids, size_t *cap)
{
	const char *p = s, *end = s + len, *semi;
	struct pbw run;
	size_t n = 0;

	do {
		semi = memchr(p, ';', (size_t)(end - p));
		semi = semi ? semi : end;
		xgrow(ids, cap, n + 1, sizeof(**ids));
		(*ids)[n++] = strtab_intern(frames, p, (size_t)(semi - p), NULL);
		p = semi + 1;
	} while (semi < end);
	pbw_init(&run);
	while (n-- > 0)
		pbw_varint(&run, (uint64_t)(*ids)[n] + 1);
	tmp->len = 0;
	pbw_bytes(tmp, 1, run.b, run.len);
	run.len = 0;
	pbw_varint(&run, v);
	pbw_bytes(tmp, 2, run.b, run.len);
	pbw_bytes(w, 2, tmp->b, tmp->len);
	pbw_release(&run);
}

/* Locations, functions and the string table of the frames. */
static void put_frames(struct pbw *w, struct pbw *tmp, const struct strtab *frames,
		       const char *const fixed[], size_t nfixed)
{
	size_t i, n = strtab_count(frames), len;
	const char *s;

	for (i = 0; i < n; i++) {
		struct pbw line;

		pbw_init(&line);
		pbw_uint(&line, 1, i + 1);
		tmp->len = 0;
		pbw_uint(tmp, 1, i + 1);
		pbw_bytes(tmp, 4, line.b, line.len);
		pbw_bytes(w, 4, tmp->b, tmp->len);
		pbw_release(&line);
	}
	for (i = 0; i < n; i++) {
		tmp->len = 0;
		pbw_uint(tmp, 1, i + 1);
		pbw_uint(tmp, 2, i + nfixed);
		pbw_uint(tmp, 3, i + nfixed);
		pbw_bytes(w, 5, tmp->b, tmp->len);
	}
	for (i = 0; i < nfixed; i++)
		pbw_bytes(w, 6, fixed[i], strlen(fixed[i]));
	for (i = 0; i < n; i++) {
		s = strtab_str(frames, (uint32_t)i, &len);
		pbw_bytes(w, 6, s, len);
	}
}

/* Writes len bytes at b to f gzipped.  Returns 0, or -1 (errno set on a
 * write error, else a zlib fault). */
static int gzip_to(FILE *f, const unsigned char *b, size_t len)
{
	unsigned char out[65536];
	z_stream z;
	int rc = Z_OK, flush;

	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return -1;
	z.next_in = (unsigned char *)(uintptr_t)b;
	while (rc == Z_OK) {
		/* avail_in is 32 bits: feed at most 1 GB at a time. */
		size_t chunk = len < (1u << 30) ? len : (1u << 30);

		if (z.avail_in == 0) {
			z.avail_in = (uInt)chunk;
			len -= chunk;
		}
		flush = len == 0 ? Z_FINISH : Z_NO_FLUSH;
		z.next_out = out;
		z.avail_out = sizeof(out);
		rc = deflate(&z, flush);
		if (fwrite(out, 1, sizeof(out) - z.avail_out, f) != sizeof(out) - z.avail_out)
			rc = Z_ERRNO;
		if (rc == Z_BUF_ERROR)
			rc = Z_OK;
	}
	deflateEnd(&z);
	return rc == Z_STREAM_END ? 0 : -1;
}

/* The profile of t's stacks into w.  Returns 0, or -1 with a message in
 * err. */
static int build(struct pbw *w, const struct strtab *t, const char *const fixed[],
		 size_t nfixed, char *err, size_t errlen)
{
	struct strtab *frames = strtab_new(0);
	uint32_t *ids = strtab_sorted(t), *fids = NULL;
	struct pbw tmp;
	size_t i, len, cap = 0;
	const char *s;
	uint64_t v;
	int rc = 0;

	pbw_init(&tmp);
	pbw_uint(&tmp, 1, 1);
	pbw_uint(&tmp, 2, 2);
	pbw_bytes(w, 1, tmp.b, tmp.len);
	for (i = 0; i < strtab_count(t) && rc == 0; i++) {
		s = strtab_str(t, ids[i], &len);
		if (whole(strtab_val(t, ids[i]), &v) < 0) {
			snprintf(err, errlen, "'%.*s' weighs %g, not a whole number: a pprof profile "
				 "holds integers", (int)(len < 200 ? len : 200), s,
				 fcount_value(strtab_val(t, ids[i])));
			rc = -1;
			continue;
		}
		/* Values are int64: a larger count goes as several samples of
		 * the stack, which readers add up. */
		for (; v > INT64_MAX; v -= INT64_MAX)
			put_sample(w, &tmp, frames, s, len, INT64_MAX, &fids, &cap);
		if (v)
			put_sample(w, &tmp, frames, s, len, v, &fids, &cap);
	}
	if (rc == 0 && nfixed > 3)
		pbw_uint(w, 13, 3);
	if (rc == 0)
		put_frames(w, &tmp, frames, fixed, nfixed);
	pbw_release(&tmp);
	free(fids);
	free(ids);
	strtab_free(frames);
	return rc;
}

unsigned char *pprof_write_mem(const struct strtab *t, const char *unit, const char *title,
			       size_t *len, char *err, size_t errlen)
{
	const char *fixed[4] = { "", NULL, NULL, title };
	struct pbw w;

	sample_type(unit, &fixed[1], &fixed[2]);
	pbw_init(&w);
	if (build(&w, t, fixed, title && *title ? 4 : 3, err, errlen) < 0) {
		pbw_release(&w);
		return NULL;
	}
	*len = w.len;
	return w.b ? w.b : xcalloc(1, 1);
}

int pprof_write_save(const struct strtab *t, const char *unit, const char *title,
		     const char *path, char *err, size_t errlen)
{
	const char *name = path && strcmp(path, "-") ? path : "<stdout>";
	struct outfile *o;
	unsigned char *b;
	size_t len;

	if (!(b = pprof_write_mem(t, unit, title, &len, err, errlen)))
		return -1;
	if (!(o = outfile_open(path))) {
		snprintf(err, errlen, "cannot write '%s': %s", name, strerror(errno));
		free(b);
		return -1;
	}
	errno = 0;
	if (gzip_to(outfile_stream(o), b, len) < 0) {
		snprintf(err, errlen, "write error on '%s': %s", name,
			 errno ? strerror(errno) : "deflate failed");
		outfile_abort(o);
		free(b);
		return -1;
	}
	free(b);
	if (outfile_commit(o) < 0) {
		snprintf(err, errlen, "write error on '%s': %s", name, strerror(errno));
		return -1;
	}
	return 0;
}
