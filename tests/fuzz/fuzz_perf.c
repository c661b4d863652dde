/* libFuzzer target: perf script text through the perf collapser.  The
 * first byte picks options (pid/tid, annotations, addrs, srcline). */
#include <stdint.h>
#include <stdlib.h>

#include "folded.h"
#include "fuzz.h"
#include "perf.h"
#include "strtab.h"

static int feed(void *p, const char *line, size_t len, unsigned long lineno)
{
	perf_line(p, line, len, lineno);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const skip[] = { "main" };
	struct perf_opts o = { 0 };
	struct strtab *t = strtab_new(sizeof(struct fcount));
	struct perf *p;

	if (size > 0) {
		o.pid = data[0] & 1;
		o.tid = (data[0] >> 1) & 1;
		o.kernel = (data[0] >> 2) & 1;
		o.jit = (data[0] >> 3) & 1;
		o.addrs = (data[0] >> 4) & 1;
		o.srcline = (data[0] >> 5) & 1;
		o.skip_after = skip;
		o.nskip_after = (data[0] >> 6) & 1;
		data++;
		size--;
	}
	p = perf_new(&o, t, fuzz_quiet, NULL);
	fuzz_lines(data, size, feed, p);
	perf_end(p);
	free(strtab_sorted(t));
	perf_free(p);
	strtab_free(t);
	return 0;
}
