/* vtune_format: telling VTune top-down CSV, and collapsing it for
 * collect. */
#include "vtune.h"
#include "collect.h"
#include "lread.h"

#include <string.h>

/* Its header, on the first line that is not empty. */
int vtune_sniff(const char *head, size_t len)
{
	static const char h[] = "Function Stack,CPU Time:Self,Module";
	const char *s;
	size_t n;

	if (!format_first_line(head, len, &s, &n))
		return 0;
	return n >= sizeof(h) - 1 && memcmp(s, h, sizeof(h) - 1) == 0 ? 95 : 0;
}

static int feed(void *v, const char *line, size_t n, unsigned long no)
{
	return vtune_line(v, line, n, no);
}

int vtune_collect(const struct format_job *j)
{
	struct vtune *v = vtune_new(j->fopts, j->t, j->o->seq, j->warn, j->ctx, j->name);
	int rc = format_fault(j, lread_feed(j->lr, feed, v, j->err, j->errlen) < 0);

	rc |= vtune_end(v);
	vtune_free(v);
	return rc;
}
