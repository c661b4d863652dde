/* libFuzzer target: sample(1) reports through the sample collapser.  The
 * first byte picks --no-modules.  The input is read twice, a line at a
 * time (sample_line) and in blocks of lines (lblock_feed, sample_text):
 * both must give the same stacks, or the target aborts. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "folded.h"
#include "fuzz.h"
#include "lblock.h"
#include "sample.h"
#include "strtab.h"

static int feed(void *s, const char *line, size_t len, unsigned long lineno)
{
	return sample_line(s, line, len, lineno);
}

static int feed_block(void *s, const char *text, size_t len, unsigned long *lineno)
{
	return sample_text(s, text, len, lineno);
}

static void quiet(void *ctx, const char *file, unsigned long line, const char *msg)
{
	fuzz_quiet(ctx, file, line, msg);
}

/* The stacks of data read one way (blocks or lines), in t. */
static void run(const struct sample_opts *o, int blocks, const uint8_t *data, size_t size,
		struct strtab *t)
{
	struct sample *s = sample_new(o, t, NULL, quiet, NULL, "fuzz");
	char err[256];

	if (blocks) {
		struct lread *lr = lread_from_mem(data, size, "fuzz");

		(void)lblock_feed(lr, feed_block, s, err, sizeof(err));
		lread_free(lr);
	} else {
		fuzz_lines(data, size, feed, s);
	}
	sample_end(s);
	sample_free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sample_opts o = { { 0 }, 0 };
	struct strtab *t = strtab_new(sizeof(struct fcount));
	struct strtab *u = strtab_new(sizeof(struct fcount));

	if (size > 0) {
		o.no_modules = data[0] & 1;
		data++;
		size--;
	}
	run(&o, 0, data, size, t);
	run(&o, 1, data, size, u);
	fuzz_same_stacks(t, u);
	free(strtab_sorted(t));
	strtab_free(t);
	strtab_free(u);
	return 0;
}
