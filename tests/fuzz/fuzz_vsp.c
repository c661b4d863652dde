/* libFuzzer target: Visual Studio CSV reports through the vsp collapser.
 * The first byte picks options (metric, waits, process). */
#include <stdint.h>
#include <stdlib.h>

#include "folded.h"
#include "fuzz.h"
#include "strtab.h"
#include "vsp.h"

static int feed(void *v, const char *line, size_t len, unsigned long lineno)
{
	return vsp_line(v, line, len, lineno);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vsp_opts o = { 0 };
	struct strtab *t = strtab_new(sizeof(struct fcount));
	struct vsp *v;

	if (size > 0) {
		o.metric = (enum vsp_metric)(data[0] % 9);
		o.no_process = (data[0] >> 4) & 1;
		o.exclude_waits = (data[0] >> 5) & 1;
		o.mark_waits = (data[0] >> 6) & 1;
		data++;
		size--;
	}
	v = vsp_new(&o, t, fuzz_quiet, NULL);
	vsp_begin(v, "fuzz");
	fuzz_lines(data, size, feed, v);
	vsp_end(v);
	free(strtab_sorted(t));
	vsp_free(v);
	strtab_free(t);
	return 0;
}
