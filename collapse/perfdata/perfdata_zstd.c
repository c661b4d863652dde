/* perfdata_zstd: PERF_RECORD_COMPRESSED (perf record -z).  The payloads
 * of all such records are one zstd stream, cut anywhere: a record inside
 * may begin in one and end in the next, so what is left over waits in
 * zbuf for the next payload.  The reader takes the records out one at a
 * time (pd_zstd_record), so this module hands nothing back itself.  Garbage resets the stream and drops what
 * was pending; the records after the next good payload are read again. */
#include "perfdata_int.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#define ZOUT ((size_t)256 << 10)	/* bytes decompressed at a time */

void pd_decompress(struct pd *d, const unsigned char *p, size_t len, uint64_t off)
{
	d->st->compressed++;
	d->zin = p;
	d->zinlen = len;
	d->zinpos = 0;
	if (!d->zstd && !(d->zstd = ZSTD_createDStream())) {
		pd_bad(d, off, "cannot start zstd");
		d->zinlen = 0;
	}
}

/* Inflates up to ZOUT more bytes behind those not yet handed out; 0 when
 * the payload is used up or broken (the stream is then reset and what
 * was pending dropped). */
static int inflate_more(struct pd *d, uint64_t off)
{
	ZSTD_inBuffer in = { d->zin, d->zinlen, d->zinpos };
	ZSTD_outBuffer out;
	size_t rc;

	if (in.pos >= in.size)
		return 0;
	if (d->zpos) {
		memmove(d->zbuf, d->zbuf + d->zpos, d->zlen - d->zpos);
		d->zlen -= d->zpos;
		d->zpos = 0;
	}
	xgrow(&d->zbuf, &d->zcap, d->zlen + ZOUT, 1);
	out.dst = d->zbuf + d->zlen;
	out.size = ZOUT;
	out.pos = 0;
	rc = ZSTD_decompressStream(d->zstd, &out, &in);
	d->zinpos = in.pos;
	if (ZSTD_isError(rc)) {
		pd_bad(d, off, "compressed record: %s", ZSTD_getErrorName(rc));
		ZSTD_DCtx_reset(d->zstd, ZSTD_reset_session_only);
		d->zlen = d->zpos = 0;
		d->zinpos = d->zinlen;
		return 0;
	}
	d->zlen += out.pos;
	return 1;
}

const unsigned char *pd_zstd_record(struct pd *d, size_t *len, uint64_t off)
{
	for (;;) {
		size_t avail = d->zlen - d->zpos, size;

		if (avail >= 8) {
			size = pd_u16(d, d->zbuf + d->zpos + 6);
			if (size < 8) {
				pd_bad(d, off, "compressed data holds a record of %zu bytes; "
				       "dropped the rest", size);
				d->zlen = d->zpos = 0;
				continue;
			}
			if (size <= avail) {
				d->zpos += size;
				*len = size;
				return d->zbuf + d->zpos - size;
			}
		}
		/* A record cut between payloads waits for the next one. */
		if (!inflate_more(d, off))
			return NULL;
	}
}

void pd_zstd_free(struct pd *d)
{
	ZSTD_freeDStream(d->zstd);
	free(d->zbuf);
}
