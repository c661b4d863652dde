/* libFuzzer target: Visual Studio CSV reports through the vsp collapser.
 * The first byte picks options (metric, waits, process). */
#include <stdint.h>
#include <stdlib.h>

#include "folded.h"
#include "lread.h"
#include "strtab.h"
#include "vsp.h"

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
	struct vsp_opts o = { 0 };
	struct strtab *t = strtab_new(sizeof(struct fcount));
	struct vsp *v;
	struct lread *lr;
	const char *line;
	size_t len;
	int st;

	if (size > 0) {
		o.metric = (enum vsp_metric)(data[0] % 9);
		o.no_process = (data[0] >> 4) & 1;
		o.exclude_waits = (data[0] >> 5) & 1;
		o.mark_waits = (data[0] >> 6) & 1;
		data++;
		size--;
	}
	v = vsp_new(&o, t, quiet, NULL);
	lr = lread_from_mem(data, size, "fuzz");
	vsp_begin(v, "fuzz");
	while ((st = lread_next(lr, &line, &len)) != LREAD_EOF && st != LREAD_ERROR)
		if (st == LREAD_LINE && vsp_line(v, line, len, lread_lineno(lr)) < 0)
			break;
	vsp_end(v);
	lread_free(lr);
	free(strtab_sorted(t));
	vsp_free(v);
	strtab_free(t);
	return 0;
}
