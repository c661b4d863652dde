/* libFuzzer target: Java thread dumps through the jstack collapser.  The
 * first byte picks the options. */
#include <stdint.h>
#include <stdlib.h>

#include "folded.h"
#include "fuzz.h"
#include "jstack.h"
#include "strtab.h"

static int feed(void *s, const char *line, size_t len, unsigned long lineno)
{
	return jstack_line(s, line, len, lineno);
}

static void quiet(void *ctx, const char *file, unsigned long line, const char *msg)
{
	fuzz_quiet(ctx, file, line, msg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jstack_opts o = { { 0 }, 0, 0, 0 };
	struct strtab *t = strtab_new(sizeof(struct fcount));
	struct jstack *s;

	if (size > 0) {
		o.no_tname = data[0] & 1;
		o.tid = (data[0] >> 1) & 1;
		o.shorten = (data[0] >> 2) & 1;
		data++;
		size--;
	}
	s = jstack_new(&o, t, NULL, quiet, NULL, "fuzz");
	fuzz_lines(data, size, feed, s);
	jstack_end(s);
	free(strtab_sorted(t));
	jstack_free(s);
	strtab_free(t);
	return 0;
}
