/* libFuzzer target: sample(1) reports through the sample collapser.  The
 * first byte picks --no-modules. */
#include <stdint.h>
#include <stdlib.h>

#include "folded.h"
#include "fuzz.h"
#include "sample.h"
#include "strtab.h"

static int feed(void *s, const char *line, size_t len, unsigned long lineno)
{
	return sample_line(s, line, len, lineno);
}

static void quiet(void *ctx, const char *file, unsigned long line, const char *msg)
{
	fuzz_quiet(ctx, file, line, msg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sample_opts o = { { 0 }, 0 };
	struct strtab *t = strtab_new(sizeof(struct fcount));
	struct sample *s;

	if (size > 0) {
		o.no_modules = data[0] & 1;
		data++;
		size--;
	}
	s = sample_new(&o, t, NULL, quiet, NULL, "fuzz");
	fuzz_lines(data, size, feed, s);
	sample_end(s);
	free(strtab_sorted(t));
	sample_free(s);
	strtab_free(t);
	return 0;
}
