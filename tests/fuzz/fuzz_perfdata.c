/* libFuzzer target: perf.data bytes through the native reader into the
 * perf collapser (with --addrs and --kernel, so every frame is built). */
#include <stdint.h>
#include <stdlib.h>

#include "folded.h"
#include "fuzz.h"
#include "perf.h"
#include "perfdata_format.h"
#include "strtab.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perf_opts o = { 0 };
	struct strtab *t = strtab_new(sizeof(struct fcount));
	struct lread *lr = lread_from_mem(data, size, "<fuzz>");
	struct perf *p;
	char err[256];

	o.addrs = 1;
	o.kernel = 1;
	/* The reading alone: no file of this machine is opened for symbols. */
	o.symfs = "/nonexistent";
	o.kallsyms = "/dev/null";
	p = perf_new(&o, t, fuzz_quiet, NULL);
	perfdata_collapse(p, &o, lr, "<fuzz>", fuzz_quiet, NULL, err, sizeof(err));
	perf_end(p);
	free(strtab_sorted(t));
	perf_free(p);
	strtab_free(t);
	lread_free(lr);
	return 0;
}
