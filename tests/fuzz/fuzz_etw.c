/* libFuzzer target: wpaexporter CSV through the etw collapser, with the
 * --split bookkeeping on (no files are written).  The first byte picks
 * options (roots, idle, grep, weight, filters). */
#include <stdint.h>
#include <stdlib.h>

#include "etw.h"
#include "folded.h"
#include "fuzz.h"
#include "strtab.h"

static int feed(void *e, const char *line, size_t len, unsigned long lineno)
{
	return etw_line(e, line, len, lineno);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const procs[] = { "chrome" };
	static const long ids[] = { 8872, 10 };
	struct etw_opts o = { 0 };
	struct strtab *t = strtab_new(sizeof(struct fcount));
	struct etw *e;

	if (size > 0) {
		o.no_process = data[0] & 1;
		o.no_thread = (data[0] >> 1) & 1;
		o.collapse_threads = (data[0] >> 2) & 1;
		o.include_idle = (data[0] >> 3) & 1;
		o.grep = (data[0] >> 4) & 1 ? "!" : NULL;
		o.weight = (data[0] >> 5) & 1 ? "Weight" : NULL;
		if ((data[0] >> 6) & 1) {
			o.filter.process = procs;
			o.filter.nprocess = 1;
			o.filter.pid = ids;
			o.filter.npid = 2;
		}
		data++;
		size--;
	}
	e = etw_new(&o, t, 1, fuzz_quiet, NULL);
	etw_begin(e, "fuzz");
	fuzz_lines(data, size, feed, e);
	etw_end(e);
	free(strtab_sorted(t));
	etw_free(e);
	strtab_free(t);
	return 0;
}
