/* libFuzzer target: xctrace's XML through the xctrace reader.  The first
 * byte picks the size of the pieces it is fed in (so tags straddle them)
 * and whether rows are also kept in order. */
#include <stdint.h>
#include <stdlib.h>

#include "folded.h"
#include "fuzz.h"
#include "strtab.h"
#include "xctrace.h"

static void quiet(void *ctx, const char *file, unsigned long line, const char *msg)
{
	fuzz_quiet(ctx, file, line, msg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strtab *t = strtab_new(sizeof(struct fcount));
	struct fseq seq = { NULL, 0, 0 };
	size_t piece = 64, i, n;
	int keep = 0;
	struct xctrace *x;

	if (size > 0) {
		piece = 1 + (data[0] & 0x7f);
		keep = data[0] >> 7;
		data++;
		size--;
	}
	x = xctrace_new(t, keep ? &seq : NULL, quiet, NULL, "fuzz");
	for (i = 0; i < size; i += n) {
		n = size - i < piece ? size - i : piece;
		if (xctrace_feed(x, (const char *)data + i, n) < 0)
			break;
	}
	xctrace_end(x);
	free(strtab_sorted(t));
	xctrace_free(x);
	fseq_release(&seq);
	strtab_free(t);
	return 0;
}
