/* perfdata_zstd: PERF_RECORD_COMPRESSED (perf record -z).  The payloads
 * of all such records are one zstd stream, cut anywhere: a record inside
 * may begin in one and end in the next, so what is left over waits in
 * zbuf for the next payload.  Garbage resets the stream and drops what
 * was pending; the records after the next good payload are read again. */
#include "perfdata_int.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#define ZOUT ((size_t)256 << 10)	/* bytes decompressed at a time */

/* Hands the complete records in zbuf to pd_record, keeping a cut one. */
static void records(struct pd *d, uint64_t off)
{
	size_t pos = 0;

	while (d->zlen - pos >= 8) {
		size_t size = pd_u16(d, d->zbuf + pos + 6);

		if (size < 8) {
			pd_bad(d, off, "compressed data holds a record of %zu bytes; dropped the rest", size);
			pos = d->zlen;
			break;
		}
		if (size > d->zlen - pos)
			break;
		d->st->records++;
		pd_record(d, d->zbuf + pos, size, off);
		pos += size;
	}
	memmove(d->zbuf, d->zbuf + pos, d->zlen - pos);
	d->zlen -= pos;
}

void pd_decompress(struct pd *d, const unsigned char *p, size_t len, uint64_t off)
{
	ZSTD_inBuffer in = { p, len, 0 };

	d->st->compressed++;
	if (!d->zstd && !(d->zstd = ZSTD_createDStream())) {
		pd_bad(d, off, "cannot start zstd");
		return;
	}
	while (in.pos < in.size) {
		ZSTD_outBuffer out;
		size_t rc;

		xgrow(&d->zbuf, &d->zcap, d->zlen + ZOUT, 1);
		out.dst = d->zbuf + d->zlen;
		out.size = ZOUT;
		out.pos = 0;
		rc = ZSTD_decompressStream(d->zstd, &out, &in);
		if (ZSTD_isError(rc)) {
			pd_bad(d, off, "compressed record: %s", ZSTD_getErrorName(rc));
			ZSTD_DCtx_reset(d->zstd, ZSTD_reset_session_only);
			d->zlen = 0;
			return;
		}
		d->zlen += out.pos;
		records(d, off);
	}
}

void pd_zstd_free(struct pd *d)
{
	ZSTD_freeDStream(d->zstd);
	free(d->zbuf);
}
