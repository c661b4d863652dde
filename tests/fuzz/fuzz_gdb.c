/* libFuzzer target: gdb backtraces through its collapser. */
#include <stdint.h>
#include <stdlib.h>

#include "folded.h"
#include "fuzz.h"
#include "gdb.h"
#include "strtab.h"

static int feed(void *s, const char *line, size_t len, unsigned long lineno)
{
	return gdb_line(s, line, len, lineno);
}

static void quiet(void *ctx, const char *file, unsigned long line, const char *msg)
{
	fuzz_quiet(ctx, file, line, msg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strtab *t = strtab_new(sizeof(struct fcount));
	struct gdb *s = gdb_new(t, NULL, quiet, NULL, "fuzz");

	fuzz_lines(data, size, feed, s);
	gdb_end(s);
	free(strtab_sorted(t));
	gdb_free(s);
	strtab_free(t);
	return 0;
}
