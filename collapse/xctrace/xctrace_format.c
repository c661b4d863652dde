/* xctrace_format: telling xctrace's XML, and reading it for collect. */
#include "xctrace.h"
#include "bytes.h"
#include "collect.h"
#include "lread.h"
#include "xalloc.h"

#include <stdlib.h>

/* An XML declaration and a <trace-query-result>, as inferno tells it. */
int xctrace_sniff(const char *head, size_t len)
{
	return bytes_contains(head, len, "<?xml version=\"1.0\"") &&
	       bytes_contains(head, len, "<trace-query-result") ? 90 : 0;
}

int xctrace_collect(const struct format_job *j)
{
	struct xctrace *x = xctrace_new(j->t, j->o->seq, j->warn, j->ctx, j->name);
	char *buf = xmalloc(256 * 1024);
	ssize_t n;
	int rc = 0;

	while ((n = lread_read(j->lr, buf, 256 * 1024)) > 0)
		if (xctrace_feed(x, buf, (size_t)n) < 0)
			break;
	if (n < 0)
		rc = format_fault(j, 1);
	rc |= xctrace_end(x);
	xctrace_free(x);
	free(buf);
	return rc;
}
