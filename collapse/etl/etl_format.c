/* etl_format: collapsing an .etl input for collect. */
#include "etl_format.h"
#include "collect.h"
#include "etl.h"
#include "etw.h"
#include "etw_cli.h"
#include "lread.h"

#include <stdio.h>
#include <string.h>

int etl_format_sniff(const char *head, size_t len)
{
	return etl_sniff(head, len);
}

static ssize_t from_lread(void *ctx, void *buf, size_t n)
{
	return lread_read(ctx, buf, n);
}

int etl_collect(const struct format_job *j)
{
	const struct etw_cli *cli = j->fopts;
	struct etw_opts eo;
	struct etw *e;
	struct etl *x;
	char msg[256];
	int rc;

	if (cli)
		eo = cli->opts;
	else
		memset(&eo, 0, sizeof(eo));
	eo.filter = j->o->filter;
	eo.seq = j->o->seq;
	e = etw_new(&eo, j->t, 0, j->warn, j->ctx);
	x = etl_new(e, &eo, j->warn, j->ctx, j->name);
	rc = etl_read(x, from_lread, j->lr);
	if (rc && lread_error(j->lr) && *lread_error(j->lr))
		rc = format_fault(j, 1);
	if (etl_summary(x, msg, sizeof(msg)))
		j->warn(j->ctx, j->name, 0, msg);
	etl_free(x);
	etw_free(e);
	return rc;
}
