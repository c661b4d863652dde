/* folded_format: telling collapsed stacks, and reading them for collect. */
#include "folded_format.h"
#include "collect.h"
#include "folded.h"
#include "strtab.h"

#include <stdio.h>

/* Two lines in three: flamegraph.pl draws a file with a few bad lines,
 * and so does flame (it counts them). */
int folded_sniff(const char *head, size_t len)
{
	const char *p = head, *end = head + len, *s;
	size_t n, lines = 0, folded = 0;
	struct folded f;

	while (lines < 400 && format_next_line(&p, end, &s, &n)) {
		if (n == 0 || (s[0] == '#' && !folded))
			continue;
		lines++;
		if (folded_parse(s, n, &f) == 0)
			folded++;
	}
	return lines && folded * 3 >= lines * 2 ? 40 : 0;
}

/* Lines with two counts ("stack BEFORE AFTER") keep their first in
 * o->before, when the caller asks for it. */
int folded_collect(const struct format_job *j)
{
	struct strtab *before = j->o->before;
	struct strtab *scratch = before ? NULL : strtab_new(sizeof(struct fcount));
	unsigned long bad = 0, first = 0;
	int rc = folded_read(j->lr, j->t, before ? before : scratch, j->o->seq, &bad, &first, j->err,
			     j->errlen);
	char msg[128];

	strtab_free(scratch);
	if (bad) {
		snprintf(msg, sizeof(msg), "ignored %lu lines that are not collapsed stacks", bad);
		j->warn(j->ctx, j->name, first, msg);
	}
	return format_fault(j, rc < 0);
}
