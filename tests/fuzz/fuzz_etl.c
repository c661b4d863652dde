/* libFuzzer target: .etl traces through the etl reader into the ETW
 * collapser.  The first byte picks options (idle, addresses, roots). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "etl.h"
#include "etw.h"
#include "folded.h"
#include "fuzz.h"
#include "strtab.h"

static ssize_t from_lread(void *ctx, void *buf, size_t n)
{
	return lread_read(ctx, buf, n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct etw_opts o;
	struct strtab *t = strtab_new(sizeof(struct fcount));
	struct lread *lr;
	struct etw *e;
	struct etl *x;
	int split = 0;

	memset(&o, 0, sizeof(o));
	if (size > 0) {
		split = (data[0] >> 4) & 1;
		o.include_idle = data[0] & 1;
		o.addrs = (data[0] >> 1) & 1;
		o.collapse_threads = (data[0] >> 2) & 1;
		o.grep = (data[0] >> 3) & 1 ? "dll" : NULL;
		data++;
		size--;
	}
	lr = lread_from_mem(data, size, "fuzz");
	e = etw_new(&o, t, split, fuzz_quiet, NULL);
	x = etl_new(e, &o, fuzz_quiet, NULL, "fuzz");
	etl_read(x, from_lread, lr);
	etl_free(x);
	etw_free(e);
	lread_free(lr);
	free(strtab_sorted(t));
	strtab_free(t);
	return 0;
}
