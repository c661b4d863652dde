/* libFuzzer target: VTune top-down CSV through the vtune collapser.  The
 * first byte picks --no-modules and whether stacks are also kept in input
 * order. */
#include <stdint.h>
#include <stdlib.h>

#include "folded.h"
#include "fuzz.h"
#include "strtab.h"
#include "vtune.h"

static int feed(void *v, const char *line, size_t len, unsigned long lineno)
{
	return vtune_line(v, line, len, lineno);
}

static void quiet(void *ctx, const char *file, unsigned long line, const char *msg)
{
	fuzz_quiet(ctx, file, line, msg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vtune_opts o = { { 0 }, 0 };
	struct strtab *t = strtab_new(sizeof(struct fcount));
	struct fseq seq = { NULL, 0, 0 };
	int keep = 0;
	struct vtune *v;

	if (size > 0) {
		o.no_modules = data[0] & 1;
		keep = (data[0] >> 1) & 1;
		data++;
		size--;
	}
	v = vtune_new(&o, t, keep ? &seq : NULL, quiet, NULL, "fuzz");
	fuzz_lines(data, size, feed, v);
	vtune_end(v);
	free(strtab_sorted(t));
	vtune_free(v);
	fseq_release(&seq);
	strtab_free(t);
	return 0;
}
