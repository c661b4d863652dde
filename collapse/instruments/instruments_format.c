/* instruments_format: telling Instruments' call tree text, and collapsing
 * it for collect. */
#include "instruments.h"
#include "bytes.h"
#include "collect.h"
#include "lread.h"

#include <string.h>

/* Its header names the running time and symbol columns, and the next line
 * is a row ("... ms\t \t..."). */
int instruments_sniff(const char *head, size_t len)
{
	const char *p = head, *end = head + len, *s;
	size_t n;

	if (!format_next_line(&p, end, &s, &n) || !bytes_contains(s, n, "Running Time") ||
	    !bytes_contains(s, n, "Symbol Name"))
		return 0;
	if (!format_next_line(&p, end, &s, &n))
		return 0;
	return bytes_contains(s, n, "%") && bytes_contains(s, n, "\t \t") ? 85 : 0;
}

static int feed(void *s, const char *line, size_t n, unsigned long no)
{
	return instruments_line(s, line, n, no);
}

int instruments_collect(const struct format_job *j)
{
	struct instruments *s = instruments_new(j->t, j->o->seq, j->warn, j->ctx, j->name);
	int rc = format_fault(j, lread_feed(j->lr, feed, s, j->err, j->errlen) < 0);

	rc |= instruments_end(s);
	instruments_free(s);
	return rc;
}
