/* etw_format: telling ETW exports, and collapsing them for collect. */
#include "etw_format.h"
#include "bytes.h"
#include "collect.h"
#include "csv.h"
#include "etw.h"
#include "etw_cli.h"
#include "lread.h"

#include <string.h>

/* wpaexporter's header: a Process (or Process Name) column and a Stack one. */
int wpa_sniff(const char *head, size_t len)
{
	struct csv cs;
	const char *s;
	size_t n, i;
	int stack = 0, proc = 0;

	if (!format_first_line(head, len, &s, &n))
		return 0;
	csv_init(&cs);
	if (csv_split(&cs, s, n) == 0 && cs.n >= 2) {
		for (i = 0; i < cs.n; i++)
			stack |= bytes_contains(cs.f[i].s, cs.f[i].len, "Stack");
		proc = csv_find(&cs, "Process") >= 0 || csv_find(&cs, "Process Name") >= 0;
	}
	csv_release(&cs);
	return proc && stack ? 90 : 0;
}

/* The dumper's BeginHeader block, in the first 400 lines. */
int dumper_sniff(const char *head, size_t len)
{
	const char *p = head, *end = head + len, *s;
	size_t n, lines = 0;

	while (lines < 400 && format_next_line(&p, end, &s, &n)) {
		if (n == 0 || s[0] == '#')
			continue;
		lines++;
		if (n >= 11 && memcmp(s, "BeginHeader", 11) == 0)
			return 80;
	}
	return 0;
}

static int feed(void *e, const char *s, size_t n, unsigned long no)
{
	return etw_line(e, s, n, no);
}

int etw_collect(const struct format_job *j)
{
	const struct etw_cli *cli = j->fopts;
	struct etw_opts eo;
	struct etw *e;
	int rc;

	if (cli)
		eo = cli->opts;
	else
		memset(&eo, 0, sizeof(eo));
	eo.filter = j->o->filter;
	eo.seq = j->o->seq;
	e = etw_new(&eo, j->t, 0, j->warn, j->ctx);
	etw_begin(e, j->name);
	rc = format_fault(j, lread_feed(j->lr, feed, e, j->err, j->errlen) < 0);
	etw_end(e);
	rc |= etw_stats(e)->bad_input != 0;
	etw_free(e);
	return rc;
}
