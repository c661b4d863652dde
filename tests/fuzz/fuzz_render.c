/* libFuzzer target: folded text through the whole renderer.  The first
 * byte picks options, so flags that change parsing and layout (reverse,
 * flamechart, chain, inverted, minwidth) are explored too. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "lread.h"
#include "render.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void quiet(void *ctx, const char *msg)
{
	(void)ctx;
	(void)msg;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fg_opts o;
	struct render *r;
	struct lread *lr;
	const char *line;
	size_t len;
	char *out = NULL;
	size_t outlen = 0;
	FILE *f;
	int st;

	fgopt_init(&o);
	if (size > 0) {
		o.reverse = data[0] & 1;
		o.flamechart = (data[0] >> 1) & 1;
		o.colors = (data[0] >> 2) & 1 ? PAL_CHAIN : PAL_HOT;
		o.inverted = (data[0] >> 3) & 1;
		o.minwidth = (data[0] >> 4) & 1 ? 0 : 0.1;
		o.hash = (data[0] >> 5) & 1;
		data++;
		size--;
	}
	r = render_new(&o, quiet, NULL);
	lr = lread_from_mem(data, size, "fuzz");
	while ((st = lread_next(lr, &line, &len)) != LREAD_EOF && st != LREAD_ERROR)
		if (st == LREAD_LINE)
			render_add_line(r, line, len);
	lread_free(lr);
	f = open_memstream(&out, &outlen);
	if (f) {
		render_write(r, f);
		fclose(f);
	}
	free(out);
	render_free(r);
	return 0;
}
