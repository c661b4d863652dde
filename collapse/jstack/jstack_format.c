/* jstack_format: telling jstack thread dumps, and collapsing them for
 * collect. */
#include "jstack.h"
#include "bytes.h"
#include "collect.h"
#include "lread.h"

/* A "Full thread dump" header, or a thread line followed by its state. */
int jstack_sniff(const char *head, size_t len)
{
	if (bytes_contains(head, len, "Full thread dump"))
		return 85;
	return bytes_contains(head, len, "\n\"") && bytes_contains(head, len, "java.lang.Thread.State: ")
	       ? 80 : 0;
}

static int feed(void *s, const char *line, size_t n, unsigned long no)
{
	return jstack_line(s, line, n, no);
}

int jstack_collect(const struct format_job *j)
{
	struct jstack *s = jstack_new(j->fopts, j->t, j->o->seq, j->warn, j->ctx, j->name);
	int rc = format_fault(j, lread_feed(j->lr, feed, s, j->err, j->errlen) < 0);

	rc |= jstack_end(s);
	jstack_free(s);
	return rc;
}
