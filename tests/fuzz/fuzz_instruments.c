/* libFuzzer target: Instruments call tree text through its collapser. */
#include <stdint.h>
#include <stdlib.h>

#include "folded.h"
#include "fuzz.h"
#include "instruments.h"
#include "strtab.h"

static int feed(void *s, const char *line, size_t len, unsigned long lineno)
{
	return instruments_line(s, line, len, lineno);
}

static void quiet(void *ctx, const char *file, unsigned long line, const char *msg)
{
	fuzz_quiet(ctx, file, line, msg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strtab *t = strtab_new(sizeof(struct fcount));
	struct instruments *s = instruments_new(t, NULL, quiet, NULL, "fuzz");

	fuzz_lines(data, size, feed, s);
	instruments_end(s);
	free(strtab_sorted(t));
	instruments_free(s);
	strtab_free(t);
	return 0;
}
