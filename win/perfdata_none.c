/* perfdata_none: perf.data in the Windows build, which leaves
 * collapse/perfdata/ out (its reader needs libelf, libdw and libzstd).
 * A perf.data is still recognised (perfdata_sniff.c is built), so that
 * flame.exe says what to do rather than calling it an unknown input.  windows.mk builds this file
 * only when collapse/perfdata/perfdata_format.h exists; it stands in for
 * what collapse/perf/ and format.c call of that folder. */
#include "perfdata.h"
#include "perfdata_format.h"

#include <stdio.h>

#define NEEDS_LINUX "reading perf.data needs the Linux build; on Linux, " \
	"'perf script -i FILE > FILE.txt' writes text this build reads"

int perfdata_collect(const struct format_job *j)
{
	snprintf(j->err, j->errlen, "%s", NEEDS_LINUX);
	return -1;
}

int perfdata_collapse(struct perf *p, const struct perf_opts *o, struct lread *lr,
		      const char *name, perf_warn_fn *warn, void *ctx, char *err, size_t errlen)
{
	(void)p, (void)o, (void)lr, (void)name, (void)warn, (void)ctx;
	snprintf(err, errlen, "%s", NEEDS_LINUX);
	return -1;
}
