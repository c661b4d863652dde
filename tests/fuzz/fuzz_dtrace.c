/* libFuzzer target: DTrace stack output through the dtrace collapser.
 * The first byte picks --includeoffset and whether stacks are also kept
 * in input order (flame's chart). */
#include <stdint.h>
#include <stdlib.h>

#include "dtrace.h"
#include "folded.h"
#include "fuzz.h"
#include "strtab.h"

static int feed(void *d, const char *line, size_t len, unsigned long lineno)
{
	return dtrace_line(d, line, len, lineno);
}

static void quiet(void *ctx, const char *file, unsigned long line, const char *msg)
{
	fuzz_quiet(ctx, file, line, msg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dtrace_opts o = { { 0 }, 0 };
	struct strtab *t = strtab_new(sizeof(struct fcount));
	struct fseq seq = { NULL, 0, 0 };
	int keep = 0;
	struct dtrace *d;

	if (size > 0) {
		o.includeoffset = data[0] & 1;
		keep = (data[0] >> 1) & 1;
		data++;
		size--;
	}
	d = dtrace_new(&o, t, keep ? &seq : NULL, quiet, NULL, "fuzz");
	fuzz_lines(data, size, feed, d);
	dtrace_end(d);
	free(strtab_sorted(t));
	dtrace_free(d);
	fseq_release(&seq);
	strtab_free(t);
	return 0;
}
