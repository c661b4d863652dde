/* etl: the buffers of an .etl file. */
#include "etl_int.h"
#include "strtab.h"
#include "xalloc.h"
#include "xpress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HDR 72				/* WMI_BUFFER_HEADER */
#define MAX_BUFFER (64u << 20)		/* ETW buffers are at most 16 MiB */
#define FLAG_COMPRESSED 0x40		/* BufferFlag: LZ77 after the header */

/* A first buffer: a sane size, its data inside it, and an event marker
 * (header kind, then 0xc0) at 72. */
int etl_sniff(const char *head, size_t len)
{
	const unsigned char *h = (const unsigned char *)head;
	uint64_t size, used;

	if (len < HDR + 4)
		return 0;
	size = etl_le(h, 4);
	used = etl_le(h + 4, 4);
	if (size < HDR + 8 || size > MAX_BUFFER || used > size || used < HDR)
		return 0;
	if ((h[HDR + 3] & 0xc0) != 0xc0 || h[HDR + 2] == 0 || h[HDR + 2] > 0x15)
		return 0;
	return 85;
}

struct etl *etl_new(struct etw *out, const struct etw_opts *o, etw_warn_fn *warn, void *ctx,
		    const char *name)
{
	struct etl *x = xcalloc(1, sizeof(*x));

	x->out = out;
	x->o = o;
	x->warn = warn;
	x->ctx = ctx;
	x->name = name;
	x->freq = 1e7;
	x->names = strtab_new(0);
	if (o->symbols)
		x->syms = etl_syms_new(o->symbols);
	return x;
}

void etl_free(struct etl *x)
{
	if (!x)
		return;
	free(x->buf);
	free(x->raw);
	free(x->rec);
	free(x->addr);
	free(x->fragat);
	free(x->fraglen);
	map64_free(&x->fragmap);
	map64_free(&x->clrmods);
	free(x->modids);
	strtab_free(x->names);
	etl_syms_free(x->syms);
	etl_join_free(x);
	free(x->agg);
	map64_free(&x->aggmap);
	free(x->aggrecent);
	free(x->keyfrag);
	free(x->img);
	free(x->imgord);
	free(x->imgrp);
	free(x->imghint);
	free(x->sigcache);
	free(x);
}

const struct etl_stats *etl_stats(const struct etl *x)
{
	return &x->st;
}

/* Reads exactly n bytes; returns how many came (fewer at the end), -1 on error. */
static ssize_t read_full(etl_read_fn *rd, void *ctx, unsigned char *dst, size_t n)
{
	size_t got = 0;
	ssize_t r;

	while (got < n) {
		if ((r = rd(ctx, dst + got, n - got)) < 0)
			return -1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

static void reserve(unsigned char **p, size_t *cap, size_t need)
{
	if (*cap < need) {
		free(*p);
		*p = xmalloc(need);
		*cap = need;
	}
}

/* Decompresses the buffer read into raw (size bytes) into buf, up to
 * used; returns where its good data ends. */
static size_t inflate_buffer(struct etl *x, size_t size, size_t used, int cut)
{
	size_t fault, got;

	reserve(&x->buf, &x->bufcap, used);
	memcpy(x->buf, x->raw, HDR);
	if (xpress_huff_sniff(x->raw + HDR, size - HDR)) {
		x->st.huffman++;
		got = xpress_huff(x->raw + HDR, size - HDR, x->buf + HDR, used - HDR, &fault);
	} else {
		got = xpress_lz77(x->raw + HDR, size - HDR, x->buf + HDR, used - HDR, &fault);
	}
	if (fault && !cut)
		etl_warn(x, "byte %llu: corrupt compressed buffer (at its byte %zu); the %zu bytes "
			 "before read", (unsigned long long)x->off, HDR + fault - 1, got);
	else if (got < used - HDR && !cut)
		etl_warn(x, "byte %llu: compressed buffer holds %zu of %zu bytes",
			 (unsigned long long)x->off, got, used - HDR);
	if ((fault || got < used - HDR) && !cut)
		x->st.bad_buffers++;
	return HDR + got;
}

/* One buffer whose header is in raw; returns 0 to go on, 1 to stop. */
static int buffer(struct etl *x, etl_read_fn *rd, void *ctx)
{
	size_t size = (size_t)etl_le(x->raw, 4), used = (size_t)etl_le(x->raw + 4, 4);
	int compressed = (etl_le(x->raw + 0x34, 2) & FLAG_COMPRESSED) != 0;
	ssize_t got;
	int cut;

	if (size < HDR || size > MAX_BUFFER || used > MAX_BUFFER || (!compressed && used > size)) {
		etl_warn(x, "byte %llu: a buffer header gives size %zu and %zu bytes used; "
			 "the rest of the file skipped", (unsigned long long)x->off, size, used);
		x->st.bad_buffers++;
		return 1;
	}
	reserve(&x->raw, &x->rawcap, size > HDR ? size : HDR + 1);
	got = read_full(rd, ctx, x->raw + HDR, size - HDR);
	if (got < 0)
		return 1;
	x->st.bytes += (uint64_t)got;
	x->st.buffers++;
	cut = (size_t)got < size - HDR;
	x->cpu = x->raw[0x28];
	if (cut) {
		etl_warn(x, "byte %llu: truncated buffer (%zd of %zu bytes)",
			 (unsigned long long)x->off, got + HDR, size);
		x->st.bad_buffers++;
		size = HDR + (size_t)got;
	}
	if (used < HDR)
		used = HDR;
	if (compressed) {
		size_t end;

		x->st.compressed++;
		end = inflate_buffer(x, size, used, cut);
		etl_events(x, x->buf, end, 1, cut || end < used);
	} else {
		etl_events(x, x->raw, used < size ? used : size, 0, cut);
	}
	x->off += size;
	return cut;
}

int etl_read(struct etl *x, etl_read_fn *rd, void *ctx)
{
	ssize_t got;
	int rc = 0;

	reserve(&x->raw, &x->rawcap, 1 << 16);
	for (;;) {
		got = read_full(rd, ctx, x->raw, HDR);
		if (got < 0) {
			rc = 1;
			break;
		}
		x->st.bytes += (uint64_t)got;
		if (got == 0)
			break;
		if (got < HDR) {
			etl_warn(x, "byte %llu: truncated buffer header (%zd bytes)",
				 (unsigned long long)x->off, got);
			x->st.bad_buffers++;
			rc = 1;
			break;
		}
		if (buffer(x, rd, ctx)) {
			rc = 1;
			break;
		}
		etl_join(x, 0);
	}
	etl_join(x, 1);
	etl_emit(x);
	return rc;
}

int etl_summary(const struct etl *x, char *buf, size_t cap)
{
	const struct etl_stats *st = &x->st;
	int n;

	if (!st->bad_buffers && !st->bad_events && !st->unresolved)
		return 0;
	n = snprintf(buf, cap, "%llu of %llu buffers and %llu events could not be read "
		     "(in part or whole)", (unsigned long long)st->bad_buffers,
		     (unsigned long long)st->buffers, (unsigned long long)st->bad_events);
	if (st->unresolved && n > 0 && (size_t)n < cap)
		snprintf(buf + n, cap - (size_t)n, "; %llu samples name a stack key never defined",
			 (unsigned long long)st->unresolved);
	return 1;
}
