/* fuzz.h: what the collapser fuzz targets share. */
#ifndef FLAME_FUZZ_H
#define FLAME_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "folded.h"
#include "lread.h"
#include "pvread.h"
#include "strtab.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A message sink that drops everything: fuzzing looks for crashes. */
static inline void fuzz_quiet(void *ctx, const char *file, unsigned long line, const char *msg)
{
	(void)ctx;
	(void)file;
	(void)line;
	(void)msg;
}

/* Feeds the lines of data to fn, as the tools read a file. */
static inline void fuzz_lines(const uint8_t *data, size_t size, lread_line_fn *fn, void *ctx)
{
	struct lread *lr = lread_from_mem(data, size, "fuzz");
	const char *line;
	size_t len;
	int st;

	while ((st = lread_next(lr, &line, &len)) != LREAD_EOF && st != LREAD_ERROR)
		if (st == LREAD_LINE && fn(ctx, line, len, lread_lineno(lr)) < 0)
			break;
	lread_free(lr);
}

/* Aborts unless tables a and b (values: struct fcount) hold the same
 * stacks with the same counts: two readings of one input must agree. */
static inline void fuzz_same_stacks(const struct strtab *a, const struct strtab *b)
{
	size_t i, n = strtab_count(a), len;

	if (strtab_count(b) != n)
		abort();
	for (i = 0; i < n; i++) {
		const char *s = strtab_str(a, (uint32_t)i, &len);
		uint32_t j = strtab_find(b, s, len);

		if (j == UINT32_MAX || memcmp(strtab_val(a, (uint32_t)i), strtab_val(b, j),
					      sizeof(struct fcount)) != 0)
			abort();
	}
}

#ifdef FLAME_LINEFMT_H
/* Reads data, line by line, as linefmt format f with options fopts. */
static inline void fuzz_linefmt(const struct linefmt *f, const void *fopts, const uint8_t *data,
				size_t size)
{
	struct strtab *t = strtab_new(sizeof(struct fcount));
	void *st = linefmt_new(f, fopts, t, NULL, fuzz_quiet, NULL, "fuzz");

	fuzz_lines(data, size, f->line, st);
	linefmt_end(f, st);
	free(strtab_sorted(t));
	linefmt_free(f, st);
	strtab_free(t);
}
#endif

#ifdef FLAME_PERFVIEW_H
static inline void fuzz_pv_quiet(void *ctx, const char *file, unsigned long line,
				 unsigned long col, const char *msg)
{
	(void)ctx, (void)file, (void)line, (void)col, (void)msg;
}

static inline int fuzz_pv_drop(void *ctx, const char *s, size_t len, const struct fcount *c)
{
	(void)ctx, (void)s, (void)len, (void)c;
	return 0;
}

/* Reads data as a PerfView file of the given format.  The first byte
 * picks the refill size (so tokens straddle refills) and time order. */
static inline void fuzz_perfview(const uint8_t *data, size_t size, enum pv_format format)
{
	struct pv_opts o = { 0 };
	struct strtab *t = strtab_new(sizeof(struct fcount));
	struct lread *lr;
	struct pv *p;

	o.format = format;
	o.max_inflate = 1 << 20;
	if (size > 0) {
		o.chunk = 16 + (data[0] & 0x3f);
		o.time_order = data[0] >> 7;
		data++;
		size--;
	}
	p = pv_new(&o, t, fuzz_pv_quiet, NULL);
	lr = lread_from_mem(data, size, "fuzz");
	pvread_lread(p, lr);
	lread_free(lr);
	pv_each_in_order(p, fuzz_pv_drop, NULL);
	free(strtab_sorted(t));
	pv_free(p);
	strtab_free(t);
}
#endif

#endif
