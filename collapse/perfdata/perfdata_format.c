/* perfdata_format: perf.data as a row of the format table, and the one
 * call perf_run makes for a perf.data given to stackcollapse-perf.  Both
 * feed the perf text collapser, so options and names are the text
 * path's.  The Windows build, which leaves the reader out (it needs
 * libelf, libdw and libzstd), builds this file alone of the folder (with
 * perfdata_sniff.c): a perf.data is still told, and read as an error
 * that says what to do. */
#include "perfdata_format.h"
#include "collect.h"
#include "perf_cli.h"
#include "perfdata.h"
#include "perfsym.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#ifndef _WIN32

/* perf_warn_fn's context, for perfdata's messages. */
struct sink {
	perf_warn_fn *warn;	/* where messages go */
	void *ctx;		/* its context */
};

static void relay(void *ctx, const char *file, const char *msg)
{
	const struct sink *s = ctx;

	s->warn(s->ctx, file, 0, msg);
}

static void report(const struct sink *s, const char *name, const struct perfdata_stats *st)
{
	char msg[200];

	if (st->lost) {
		snprintf(msg, sizeof(msg), "the kernel lost %" PRIu64 " samples while recording "
			 "(LOST records)", st->lost);
		s->warn(s->ctx, name, 0, msg);
	}
	if (st->unknown) {
		snprintf(msg, sizeof(msg), "skipped %" PRIu64 " records of types not known here",
			 st->unknown);
		s->warn(s->ctx, name, 0, msg);
	}
	if (st->bad) {
		snprintf(msg, sizeof(msg), "%" PRIu64 " records or sections could not be read",
			 st->bad);
		s->warn(s->ctx, name, 0, msg);
	}
}

int perfdata_collapse(struct perf *p, const struct perf_opts *o, struct lread *lr,
		      const char *name, perf_warn_fn *warn, void *ctx, char *err, size_t errlen)
{
	struct sink s = { warn, ctx };
	struct perfdata_stats st;
	struct perfsym_opts so = { o->symfs, o->kallsyms, o->no_demangle, NULL };
	struct perfsym *sym = perfsym_new(&so);
	int rc;

	perf_begin(p, name);
	/* A filter drops samples: then everything stays on this thread; so
	 * for an empty --event-filter, which p's stats cannot tell from none
	 * (perfdata_out.c foretells the event kept from them). */
	rc = perfdata_run(name, lr, p, sym, o->symfs,
			  o->filter || (o->event_filter && !o->event_filter[0]) ? 1 : o->threads, &st,
			  relay, &s, err, errlen);
	/* The stacks stay in p: spelled out only by the caller's perf_end
	 * or perf_save, once, not into a table to be split up again. */
	perf_event_end(p);
	if (rc >= 0)
		report(&s, name, &st);
	perfsym_free(sym);
	return rc;
}

#else

int perfdata_collapse(struct perf *p, const struct perf_opts *o, struct lread *lr,
		      const char *name, perf_warn_fn *warn, void *ctx, char *err, size_t errlen)
{
	(void)p, (void)o, (void)lr, (void)name, (void)warn, (void)ctx;
	snprintf(err, errlen, "reading perf.data needs the Linux build; on Linux, "
		 "'perf script -i FILE > FILE.txt' writes text this build reads");
	return -1;
}

#endif

/* Other events and filters, as the text path reports them. */
static void report_perf(const struct format_job *j, const struct perf_stats *st)
{
	char msg[300];
	uint64_t other = st->filtered - st->outside;

	collect_unit(j->o, perf_count_unit(st));
	if (other) {
		snprintf(msg, sizeof(msg), "kept only '%s' events; skipped %" PRIu64 " samples of "
			 "other events such as '%s' (choose with --event-filter)", st->event, other,
			 st->other[0] ? st->other : "?");
		j->warn(j->ctx, j->name, 0, msg);
	}
}

int perfdata_collect(const struct format_job *j)
{
	const struct filter *fl = &j->o->filter;
	const struct perf_cli *cli = j->fopts;
	struct perf_opts po;
	struct perf *p;
	char msg[400];
	int rc;

	memset(&po, 0, sizeof(po));
	if (cli)
		po = cli->opts;
	if (filter_has_ids(fl) || filter_has_time(fl))
		po.filter = fl;
	if (j->o->split_roots)
		po.pid = po.tid = 1;
	po.seq = j->o->seq;
	p = perf_new(&po, j->t, j->warn, j->ctx);
	rc = perfdata_collapse(p, &po, j->lr, j->name, j->warn, j->ctx, msg, sizeof(msg));
	perf_end(p);
	if (rc < 0)
		snprintf(j->err, j->errlen, "%s: %s", j->name, msg);
	report_perf(j, perf_stats(p));
	perf_free(p);
	return rc < 0 ? -1 : rc;
}
