/* fuzz.h: what the collapser fuzz targets share. */
#ifndef FLAME_FUZZ_H
#define FLAME_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "lread.h"

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

#endif
