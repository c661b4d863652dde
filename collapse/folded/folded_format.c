/* folded_format: telling collapsed stacks, and reading them for collect. */
#include "folded_format.h"
#include "collect.h"
#include "folded.h"
#include "lread.h"
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

struct sink {
	const struct collect_opts *o;	/* its folded_sink */
	unsigned long bad, first;	/* lines it refused, the first's number */
};

static int to_sink(void *ctx, const char *line, size_t len, unsigned long lineno)
{
	struct sink *k = ctx;

	if (k->o->folded_sink(k->o->sink_ctx, line, len) < 0 && k->bad++ == 0)
		k->first = lineno;
	return 0;
}

/* Lines with two counts ("stack BEFORE AFTER") keep their first in
 * o->before, when the caller asks for it. */
int folded_collect(const struct format_job *j)
{
	struct strtab *before = j->o->before;
	struct strtab *scratch = NULL;
	unsigned long bad = 0, first = 0;
	struct sink k = { j->o, 0, 0 };
	char msg[128];
	int rc;

	if (j->o->folded_sink) {
		rc = lread_feed(j->lr, to_sink, &k, j->err, j->errlen);
		bad = k.bad;
		first = k.first;
	} else {
		scratch = before ? NULL : strtab_new(sizeof(struct fcount));
		rc = folded_read(j->lr, j->t, before ? before : scratch, j->o->seq, &bad, &first,
				 j->err, j->errlen);
	}
	strtab_free(scratch);
	if (bad) {
		snprintf(msg, sizeof(msg), "ignored %lu lines that are not collapsed stacks", bad);
		j->warn(j->ctx, j->name, first, msg);
	}
	return format_fault(j, rc < 0);
}
