/* gdb_format: telling gdb backtraces, and collapsing them for collect. */
#include "gdb.h"
#include "collect.h"
#include "lread.h"

#include <string.h>

/* A "#0 " frame line and, soon after, "#1 ". */
int gdb_sniff(const char *head, size_t len)
{
	const char *p = head, *end = head + len, *s;
	size_t n;
	int zero = 0, lines = 0;

	while (format_next_line(&p, end, &s, &n) && lines++ < 400) {
		if (n >= 4 && memcmp(s, "#0 ", 3) == 0)
			zero = 1;
		else if (zero && n >= 4 && memcmp(s, "#1 ", 3) == 0)
			return 75;
	}
	return 0;
}

static int feed(void *g, const char *line, size_t n, unsigned long no)
{
	return gdb_line(g, line, n, no);
}

int gdb_collect(const struct format_job *j)
{
	struct gdb *g = gdb_new(j->t, j->o->seq, j->warn, j->ctx, j->name);
	int rc = format_fault(j, lread_feed(j->lr, feed, g, j->err, j->errlen) < 0);

	rc |= gdb_end(g);
	gdb_free(g);
	return rc;
}
