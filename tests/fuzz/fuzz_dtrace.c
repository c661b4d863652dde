/* libFuzzer target: DTrace stack output through the dtrace collapser.
 * The first byte picks --includeoffset and whether stacks are also kept
 * in input order (flame's chart).  The input is read twice, a line at a
 * time (dtrace_line) and in blocks of lines (lblock_feed, dtrace_text):
 * both must give the same stacks, or the target aborts. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dtrace.h"
#include "folded.h"
#include "fuzz.h"
#include "lblock.h"
#include "strtab.h"

static int feed(void *d, const char *line, size_t len, unsigned long lineno)
{
	return dtrace_line(d, line, len, lineno);
}

static int feed_block(void *d, const char *text, size_t len, unsigned long *lineno)
{
	return dtrace_text(d, text, len, lineno);
}

static void quiet(void *ctx, const char *file, unsigned long line, const char *msg)
{
	fuzz_quiet(ctx, file, line, msg);
}

/* The stacks of data read one way (blocks or lines), in t. */
static void run(const struct dtrace_opts *o, int keep, int blocks, const uint8_t *data,
		size_t size, struct strtab *t)
{
	struct fseq seq = { NULL, 0, 0 };
	struct dtrace *d = dtrace_new(o, t, keep ? &seq : NULL, quiet, NULL, "fuzz");
	char err[256];

	if (blocks) {
		struct lread *lr = lread_from_mem(data, size, "fuzz");

		(void)lblock_feed(lr, feed_block, d, err, sizeof(err));
		lread_free(lr);
	} else {
		fuzz_lines(data, size, feed, d);
	}
	dtrace_end(d);
	dtrace_free(d);
	fseq_release(&seq);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dtrace_opts o = { { 0 }, 0 };
	struct strtab *t = strtab_new(sizeof(struct fcount));
	struct strtab *u = strtab_new(sizeof(struct fcount));
	int keep = 0;

	if (size > 0) {
		o.includeoffset = data[0] & 1;
		keep = (data[0] >> 1) & 1;
		data++;
		size--;
	}
	run(&o, keep, 0, data, size, t);
	run(&o, keep, 1, data, size, u);
	fuzz_same_stacks(t, u);
	free(strtab_sorted(t));
	strtab_free(t);
	strtab_free(u);
	return 0;
}
