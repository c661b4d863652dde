/* ghcprof_format: telling GHC .prof reports, and collapsing them for
 * collect. */
#include "ghcprof.h"
#include "collect.h"
#include "lread.h"

/* The tree's header, anywhere in the head. */
int ghcprof_sniff(const char *head, size_t len)
{
	const char *p = head, *end = head + len, *s;
	size_t n;

	while (format_next_line(&p, end, &s, &n))
		if (ghcprof_header(s, n))
			return 90;
	return 0;
}

static int feed(void *g, const char *line, size_t n, unsigned long no)
{
	return ghcprof_line(g, line, n, no);
}

int ghcprof_collect(const struct format_job *j)
{
	struct ghcprof *g = ghcprof_new(j->fopts, j->t, j->o->seq, j->warn, j->ctx, j->name);
	int rc = format_fault(j, lread_feed(j->lr, feed, g, j->err, j->errlen) < 0);

	rc |= ghcprof_end(g);
	ghcprof_free(g);
	return rc;
}
