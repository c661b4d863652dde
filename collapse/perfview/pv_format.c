/* pv_format: telling PerfView files, and collapsing them for collect. */
#include "pv_format.h"
#include "bytes.h"
#include "collect.h"
#include "folded.h"
#include "perfview.h"
#include "pvread.h"

#include <stdio.h>

/* Where the text starts, past white space. */
static const char *start(const char *head, size_t len)
{
	const char *p = head, *end = head + len;

	while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
		p++;
	return p;
}

int pv_json_sniff(const char *head, size_t len)
{
	const char *p = start(head, len);

	return p < head + len && *p == '{' ? 100 : 0;
}

int pv_xml_sniff(const char *head, size_t len)
{
	const char *p = start(head, len);
	size_t n = (size_t)(head + len - p);

	return n && *p == '<' && (bytes_contains(p, n, "<StackSource") ||
				  bytes_contains(p, n, "<StackWindow")) ? 100 : 0;
}

/* PerfView's messages carry a column: "file:line:col" as the place. */
static void warn_col(void *ctx, const char *file, unsigned long line, unsigned long col,
		     const char *msg)
{
	const struct format_job *j = ctx;
	char at[4200];

	if (file && line && col) {
		snprintf(at, sizeof(at), "%s:%lu:%lu", file, line, col);
		file = at;
		line = 0;
	}
	j->warn(j->ctx, file, line, msg);
}

static int chart_add(void *ctx, const char *stack, size_t len, const struct fcount *c)
{
	const struct format_job *j = ctx;

	fseq_put(j->t, j->o->seq, stack, len, c);
	return 0;
}

int pv_collect(const struct format_job *j)
{
	const struct filter *fl = &j->o->filter;
	struct pv_opts po = { 0 };
	struct pv *p;
	int rc;

	po.format = j->f->kind == PV_KIND_JSON ? PV_JSON : PV_XML;
	po.has_begin = fl->has_begin;
	po.has_end = fl->has_end;
	po.begin = fl->begin;
	po.end = fl->end;
	po.max_inflate = j->o->max_inflate;
	po.time_order = j->o->seq != NULL;
	p = pv_new(&po, j->t, warn_col, (void *)(size_t)j);
	rc = pvread_lread(p, j->lr);
	rc = rc < 0 ? 1 : pv_stats(p)->bad_input != 0;
	if (j->o->seq)
		pv_each_in_order(p, chart_add, (void *)(size_t)j);
	pv_free(p);
	return rc;
}
