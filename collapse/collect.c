/* collect: detection, then the format's collapser over one input. */
#include "collect.h"
#include "folded.h"
#include "lread.h"
#include "perf_run.h"
#include "perfview.h"
#include "strtab.h"
#include "vsp.h"
#include "xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define HEAD (64 * 1024)	/* text looked at to tell the format */

/* An input: a file, stdin, or bytes in memory.  Each is read twice, to
 * tell the format and then to collapse it; a pipe on stdin is read once,
 * its first bytes kept from the first reading for the second. */
struct input {
	const char *path;	/* the file, NULL for stdin or memory */
	const char *data;	/* collect_mem's bytes, or NULL */
	size_t len;		/* how many */
	int pipe;		/* stdin cannot be rewound */
	off_t start;		/* else where stdin began */
	unsigned char *prefix;	/* a pipe's bytes read while sniffing */
	size_t plen;		/* how many */
	const char *name;	/* for messages */
};

/* Notes how stdin can be read twice: rewound, or a pipe. */
static void stdin_kind(struct input *in)
{
	struct stat st;

	in->pipe = !(fstat(0, &st) == 0 && S_ISREG(st.st_mode) &&
		     (in->start = lseek(0, 0, SEEK_CUR)) >= 0);
}

/* A reader over the input from its start (for a pipe: what sniff kept,
 * then the rest). */
static struct lread *reopen(struct input *in)
{
	struct lread *lr;

	if (in->path)
		return lread_open(in->path);
	if (in->data)
		return lread_from_mem(in->data, in->len, in->name);
	if (!in->pipe)
		return lseek(0, in->start, SEEK_SET) < 0 ? NULL : lread_open(NULL);
	lr = lread_resume_stdin(in->prefix, in->plen);
	in->prefix = NULL;	/* the reader owns it now */
	in->plen = 0;
	return lr;
}

static int sniff(struct input *in, uint64_t max_inflate, enum detect_fmt *f,
		 char *err, size_t errlen)
{
	struct lread *lr = in->pipe && !in->data ? lread_stdin_tee() : reopen(in);
	char *head = xmalloc(HEAD);
	const char *hint;
	size_t len = 0;
	ssize_t n = 1;

	if (!lr) {
		free(head);
		snprintf(err, errlen, "cannot open '%s': %s", in->name, strerror(errno));
		return -1;
	}
	if (max_inflate)
		lread_set_max_inflate(lr, max_inflate);
	while (len < HEAD - 16 && (n = lread_read(lr, head + len, HEAD - len)) > 0)
		len += (size_t)n;
	/* Text before a fault is told and read as any other: the collapser
	 * reports the fault when it reaches it. */
	if (n < 0 && len > 0)
		n = 0;
	if (n < 0)
		snprintf(err, errlen, "%s: %s", in->name, lread_error(lr));
	else if ((*f = detect_format(head, len)) == FMT_UNKNOWN && (hint = detect_hint(head, len)))
		snprintf(err, errlen, "%s: %s", in->name, hint);
	else if (*f == FMT_UNKNOWN)
		snprintf(err, errlen, "%s: %s; name it with --format (one of: %s)", in->name,
			 len ? "cannot tell its format" : "empty input", detect_names());
	if (in->pipe && !in->data)
		in->prefix = lread_take_record(lr, &in->plen);
	lread_free(lr);
	free(head);
	return n < 0 || *f == FMT_UNKNOWN ? -1 : 0;
}

/* Whether any of --pid/--tid/--process/--begin/--end was given. */
static int filtering(const struct collect_opts *o)
{
	return o->etw.npid || o->etw.ntid || o->etw.nprocess || o->has_begin || o->has_end;
}

/* Adapters from each collapser's line interface to lread_feed. */
static int perf_feed(void *p, const char *s, size_t n, unsigned long no)
{
	perf_line(p, s, n, no);
	return 0;
}

static int vsp_feed(void *v, const char *s, size_t n, unsigned long no)
{
	return vsp_line(v, s, n, no);
}

static int etw_feed(void *e, const char *s, size_t n, unsigned long no)
{
	return etw_line(e, s, n, no);
}

struct pv_bridge {
	collect_warn_fn *warn;	/* where messages go */
	void *ctx;		/* for warn */
};

static void pv_warn_bridge(void *ctx, const char *file, unsigned long line, unsigned long col,
			   const char *msg)
{
	const struct pv_bridge *b = ctx;
	char at[4200];

	if (file && line && col) {
		/* "file:line:col" as the place, no line of its own. */
		snprintf(at, sizeof(at), "%s:%lu:%lu", file, line, col);
		file = at;
		line = 0;
	}
	b->warn(b->ctx, file, line, msg);
}

/* What the perf collapser left out, as stackcollapse-perf says it: other
 * events than the one kept, unreadable lines, events the filters could
 * not judge. */
static void perf_report(const struct input *in, const struct perf_stats *st, collect_warn_fn *warn,
			void *ctx)
{
	/* filtered counts the filters' drops (outside) too. */
	uint64_t other = st->filtered - st->outside;
	char msg[300];

	if (other) {
		snprintf(msg, sizeof(msg), "kept only '%s' events; skipped %llu samples of other "
			 "events such as '%s' (choose with --event-filter)", st->event,
			 (unsigned long long)other, st->other[0] ? st->other : "?");
		warn(ctx, in->name, 0, msg);
	}
	if (st->malformed) {
		snprintf(msg, sizeof(msg), "skipped %llu malformed lines", (unsigned long long)st->malformed);
		warn(ctx, in->name, 0, msg);
	}
	if (st->unknown) {
		snprintf(msg, sizeof(msg), "%llu events dropped: they print no PID or time stamp to "
			 "filter on (perf script -F +pid,+time)", (unsigned long long)st->unknown);
		warn(ctx, in->name, 0, msg);
	}
}

/* After a collapser's pass over lr (rc non-zero: reading broke off):
 * names the fault and returns 1, what came before being kept; else 0. */
static int broke_off(const struct input *in, const struct lread *lr, int rc, collect_warn_fn *warn,
		     void *ctx)
{
	if (!rc)
		return 0;
	warn(ctx, in->name, 0, lread_error(lr));
	return 1;
}

/* perf script text: through perf_run's workers, or for a flame chart
 * (events in order) one collapser. */
static int run_perf(const struct input *in, struct lread *lr, const struct collect_opts *o,
		    struct strtab *t, collect_warn_fn *warn, void *ctx, char *err, size_t errlen)
{
	struct perf_run_opts ro = { o->threads > 0 ? o->threads : (int)sysconf(_SC_NPROCESSORS_ONLN), 0 };
	struct perf_filter pf = { o->etw.pid, o->etw.npid, o->etw.tid, o->etw.ntid, o->etw.process,
				  o->etw.nprocess, o->has_begin, o->has_end, o->begin, o->end };
	struct perf_opts po = o->perf;
	struct perf_stats st;
	struct perf *p;
	int rc;

	if (ro.threads < 1)
		ro.threads = 1;
	if (filtering(o))
		po.filter = &pf;
	po.seq = o->seq;
	if (!po.seq) {
		rc = perf_run_reader(&po, lr, in->name, &ro, t, &st, warn, ctx, err, errlen);
		perf_report(in, &st, warn, ctx);
		return broke_off(in, lr, rc, warn, ctx);
	}
	/* A chart's runs name stacks of t, in event order: perf_run's workers
	 * fill tables of their own, so one collapser feeds t itself. */
	p = perf_new(&po, t, warn, ctx);
	perf_begin(p, in->name);
	rc = lread_feed(lr, perf_feed, p, err, errlen);
	perf_end(p);
	perf_report(in, perf_stats(p), warn, ctx);
	perf_free(p);
	return broke_off(in, lr, rc, warn, ctx);
}

/* PerfView samples in Time order, or a report's stacks, into t and the
 * chart. */
struct chart {
	struct strtab *t;	/* the stacks */
	struct fseq *seq;	/* their order */
};

static int chart_add(void *ctx, const char *stack, size_t len, const struct fcount *c)
{
	const struct chart *ch = ctx;
	uint32_t id = strtab_intern(ch->t, stack, len, NULL);

	fcount_add(strtab_val(ch->t, id), c);
	fseq_add(ch->seq, id, c, NULL);
	return 0;
}

static int run_lines(const struct input *in, struct lread *lr, enum detect_fmt f,
		     const struct collect_opts *o, struct strtab *t, collect_warn_fn *warn, void *ctx,
		     char *err, size_t errlen)
{
	struct etw_opts eo = o->etw;
	struct vsp_opts vo = { 0 };
	struct etw *e = NULL;
	struct vsp *v = NULL;
	struct strtab *vt = NULL;
	int rc;

	eo.seq = o->seq;
	if (f == FMT_WPA || f == FMT_DUMPER) {
		e = etw_new(&eo, t, 0, warn, ctx);
		etw_begin(e, in->name);
		rc = broke_off(in, lr, lread_feed(lr, etw_feed, e, err, errlen), warn, ctx);
		etw_end(e);
		rc |= etw_stats(e)->bad_input != 0;
	} else {
		/* A report has no time: a chart gets its stacks sorted. */
		if (o->seq) {
			warn(ctx, in->name, 0, "a Visual Studio report has no time order: the flame "
			     "chart shows its stacks sorted");
			vt = strtab_new(sizeof(struct fcount));
		}
		v = vsp_new(&vo, vt ? vt : t, warn, ctx);
		vsp_begin(v, in->name);
		rc = broke_off(in, lr, lread_feed(lr, vsp_feed, v, err, errlen), warn, ctx);
		vsp_end(v);
		rc |= vsp_stats(v)->bad_input != 0;
	}
	if (vt) {
		struct chart ch = { t, o->seq };
		uint32_t *ids = strtab_sorted(vt);
		size_t i, len;

		for (i = 0; i < strtab_count(vt); i++) {
			const char *s = strtab_str(vt, ids[i], &len);

			chart_add(&ch, s, len, strtab_val(vt, ids[i]));
		}
		free(ids);
		strtab_free(vt);
	}
	etw_free(e);
	vsp_free(v);
	return rc;
}

static int run_perfview(struct lread *lr, enum detect_fmt f, const struct collect_opts *o,
			struct strtab *t, collect_warn_fn *warn, void *ctx)
{
	struct pv_opts po = { 0 };
	struct pv_bridge b = { warn, ctx };
	struct pv *p;
	int rc;

	po.format = f == FMT_PV_JSON ? PV_JSON : PV_XML;
	po.has_begin = o->has_begin;
	po.has_end = o->has_end;
	po.begin = o->begin;
	po.end = o->end;
	po.max_inflate = o->max_inflate;
	po.time_order = o->seq != NULL;
	p = pv_new(&po, t, pv_warn_bridge, &b);
	rc = pv_read_lread(p, lr);
	rc = rc < 0 ? 1 : pv_stats(p)->bad_input != 0;
	if (o->seq) {
		struct chart ch = { t, o->seq };

		pv_each_in_order(p, chart_add, &ch);
	}
	pv_free(p);
	return rc;
}

static int run_folded(const struct input *in, struct lread *lr, struct strtab *t,
		      const struct collect_opts *o, collect_warn_fn *warn, void *ctx, char *err,
		      size_t errlen)
{
	struct strtab *before = o->before;
	struct strtab *scratch = before ? NULL : strtab_new(sizeof(struct fcount));
	unsigned long bad = 0, first = 0;
	int rc = folded_read(lr, t, before ? before : scratch, o->seq, &bad, &first, err, errlen);
	char msg[128];

	strtab_free(scratch);
	if (bad) {
		snprintf(msg, sizeof(msg), "ignored %lu lines that are not collapsed stacks", bad);
		warn(ctx, in->name, first, msg);
	}
	return broke_off(in, lr, rc, warn, ctx);
}

/* Names the filters the format f has no field for; they are ignored. */
static void unfiltered(const struct input *in, enum detect_fmt f, const struct collect_opts *o,
		       collect_warn_fn *warn, void *ctx)
{
	int pv = f == FMT_PV_JSON || f == FMT_PV_XML;
	int ids = o->etw.npid || o->etw.ntid || o->etw.nprocess;
	char msg[200];

	if (f == FMT_PERF || f == FMT_WPA || f == FMT_DUMPER || !filtering(o) || (pv && !ids))
		return;
	snprintf(msg, sizeof(msg), "%s input has no %s to filter on; %s ignored", detect_name(f),
		 pv ? "process or thread ids" : "process, thread or time",
		 pv ? "--pid, --tid and --process are" : "the filters are");
	warn(ctx, in->name, 0, msg);
}

/* Detection (unless the format is given), then the collapser. */
static int collect_input(struct input *in, const struct collect_opts *o, struct strtab *t,
			 enum detect_fmt *fmt, collect_warn_fn *warn, void *ctx, char *err,
			 size_t errlen)
{
	enum detect_fmt f = o->format;
	struct lread *lr;
	int rc;

	if (f == FMT_UNKNOWN && sniff(in, o->max_inflate, &f, err, errlen) < 0)
		return -1;
	*fmt = f;
	unfiltered(in, f, o, warn, ctx);
	if (!(lr = reopen(in))) {
		snprintf(err, errlen, "cannot read '%s' again: %s", in->name, strerror(errno));
		return -1;
	}
	if (o->max_inflate)
		lread_set_max_inflate(lr, o->max_inflate);
	if (f == FMT_PERF)
		rc = run_perf(in, lr, o, t, warn, ctx, err, errlen);
	else if (f == FMT_PV_JSON || f == FMT_PV_XML)
		rc = run_perfview(lr, f, o, t, warn, ctx);
	else if (f == FMT_FOLDED)
		rc = run_folded(in, lr, t, o, warn, ctx, err, errlen);
	else
		rc = run_lines(in, lr, f, o, t, warn, ctx, err, errlen);
	lread_free(lr);
	return rc;
}

int collect(const char *path, const struct collect_opts *o, struct strtab *t,
	    enum detect_fmt *fmt, collect_warn_fn *warn, void *ctx, char *err, size_t errlen)
{
	struct input in = { 0 };
	int rc = -1;

	in.path = path && strcmp(path, "-") ? path : NULL;
	in.name = in.path ? in.path : "<stdin>";
	if (!in.path)
		stdin_kind(&in);
	if (in.path && access(in.path, R_OK) < 0)
		snprintf(err, errlen, "cannot open '%s': %s", in.name, strerror(errno));
	else
		rc = collect_input(&in, o, t, fmt, warn, ctx, err, errlen);
	free(in.prefix);
	return rc;
}

int collect_mem(const char *data, size_t len, const struct collect_opts *o, struct strtab *t,
		enum detect_fmt *fmt, collect_warn_fn *warn, void *ctx, char *err, size_t errlen)
{
	struct input in = { 0 };

	in.data = data;
	in.len = len;
	in.name = "<stdin>";
	return collect_input(&in, o, t, fmt, warn, ctx, err, errlen);
}
