/* libFuzzer target: GHC .prof reports through the ghcprof collapser.  The
 * first byte picks the column (%time, ticks, bytes). */
#include <stdint.h>
#include <stdlib.h>

#include "folded.h"
#include "fuzz.h"
#include "ghcprof.h"
#include "strtab.h"

static int feed(void *g, const char *line, size_t len, unsigned long lineno)
{
	return ghcprof_line(g, line, len, lineno);
}

static void quiet(void *ctx, const char *file, unsigned long line, const char *msg)
{
	fuzz_quiet(ctx, file, line, msg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ghcprof_opts o = { { 0 }, GHCPROF_TIME };
	struct strtab *t = strtab_new(sizeof(struct fcount));
	struct ghcprof *g;

	if (size > 0) {
		o.source = (enum ghcprof_source)(data[0] % 3);
		data++;
		size--;
	}
	g = ghcprof_new(&o, t, NULL, quiet, NULL, "fuzz");
	fuzz_lines(data, size, feed, g);
	ghcprof_end(g);
	free(strtab_sorted(t));
	ghcprof_free(g);
	strtab_free(t);
	return 0;
}
