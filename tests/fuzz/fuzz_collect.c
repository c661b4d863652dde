/* libFuzzer target: flame's front half, format detection and then the
 * detected collapser, over bytes that may be any format (gzip and zip
 * included).  The first byte picks the --format override, or none. */
#include <stdint.h>
#include <stdlib.h>

#include "collect.h"
#include "folded.h"
#include "fuzz.h"
#include "strtab.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct collect_opts o = { 0 };
	struct strtab *t = strtab_new(sizeof(struct fcount));
	enum detect_fmt fmt;
	char err[512];

	static const long ids[] = { 1, 4387, 4391 };
	static const char *const names[] = { "worker-3", "app.exe" };

	if (size > 0) {
		/* Most inputs are detected; one in 8 is forced to a format. */
		if (data[0] < 32)
			o.format = (enum detect_fmt)(data[0] % (FMT_FOLDED + 1));
		/* Bits 5..7: the filters, on ETW, perf and PerfView input. */
		if (data[0] & 0x20) {
			o.etw.pid = ids;
			o.etw.npid = 2;
		}
		if (data[0] & 0x40) {
			o.etw.tid = ids + 1;
			o.etw.ntid = 2;
			o.etw.process = names;
			o.etw.nprocess = 2;
		}
		if (data[0] & 0x80) {
			o.has_begin = o.etw.has_begin = 1;
			o.has_end = o.etw.has_end = 1;
			o.begin = o.etw.begin = 0.5;
			o.end = o.etw.end = 2470.5;
		}
		data++;
		size--;
	}
	o.before = strtab_new(sizeof(struct fcount));
	o.threads = 1;
	o.max_inflate = 1 << 20;
	collect_mem((const char *)data, size, &o, t, &fmt, fuzz_quiet, NULL, err, sizeof(err));
	free(strtab_sorted(t));
	strtab_free(o.before);
	strtab_free(t);
	return 0;
}
