/* libFuzzer target: wpaexporter CSV through the etw collapser, with the
 * --split bookkeeping on (no files are written).  The first byte picks
 * options (roots, idle, grep, weight, filters). */
#include <stdint.h>
#include <stdlib.h>

#include "etw.h"
#include "folded.h"
#include "lread.h"
#include "strtab.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void quiet(void *ctx, const char *file, unsigned long line, const char *msg)
{
	(void)ctx;
	(void)file;
	(void)line;
	(void)msg;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const procs[] = { "chrome" };
	static const long ids[] = { 8872, 10 };
	struct etw_opts o = { 0 };
	struct strtab *t = strtab_new(sizeof(struct fcount));
	struct etw *e;
	struct lread *lr;
	const char *line;
	size_t len;
	int st;

	if (size > 0) {
		o.no_process = data[0] & 1;
		o.no_thread = (data[0] >> 1) & 1;
		o.collapse_threads = (data[0] >> 2) & 1;
		o.include_idle = (data[0] >> 3) & 1;
		o.grep = (data[0] >> 4) & 1 ? "!" : NULL;
		o.weight = (data[0] >> 5) & 1 ? "Weight" : NULL;
		if ((data[0] >> 6) & 1) {
			o.process = procs;
			o.nprocess = 1;
			o.pid = ids;
			o.npid = 2;
		}
		data++;
		size--;
	}
	e = etw_new(&o, t, 1, quiet, NULL);
	lr = lread_from_mem(data, size, "fuzz");
	etw_begin(e, "fuzz");
	while ((st = lread_next(lr, &line, &len)) != LREAD_EOF && st != LREAD_ERROR)
		if (st == LREAD_LINE && etw_line(e, line, len, lread_lineno(lr)) < 0)
			break;
	etw_end(e);
	lread_free(lr);
	free(strtab_sorted(t));
	etw_free(e);
	strtab_free(t);
	return 0;
}
