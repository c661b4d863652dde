/* perf_format: telling perf script text, and collapsing it for collect. */
#include "perf_format.h"
#include "collect.h"
#include "folded.h"
#include "lread.h"
#include "perf_cli.h"
#include "perf_run.h"

#include <stdio.h>
#include <string.h>

/* A perf script frame line: indented, a hex address, a space, more. */
static int frame_line(const char *s, size_t n)
{
	size_t i = 0, h;

	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i == 0)
		return 0;
	for (h = i; i < n && ((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')); i++)
		;
	return i > h && i < n && s[i] == ' ';
}

/* An event line's time stamp: " 12345.678901: ". */
static int stamp(const char *s, size_t n)
{
	size_t i, d, e;

	for (i = 0; i + 3 < n; i++) {
		if (s[i] != ' ')
			continue;
		for (d = i + 1; d < n && s[d] >= '0' && s[d] <= '9'; d++)
			;
		if (d == i + 1 || d + 2 >= n || s[d] != '.')
			continue;
		for (e = d + 1; e < n && s[e] >= '0' && s[e] <= '9'; e++)
			;
		if (e > d + 1 && e + 1 < n && s[e] == ':' && s[e + 1] == ' ')
			return 1;
	}
	return 0;
}

/* Frame lines and event lines (a time stamp weighs most), against the
 * lines that read as collapsed stacks. */
int perf_sniff(const char *head, size_t len)
{
	const char *p = head, *end = head + len, *s;
	size_t n, lines = 0, folded = 0, frames = 0, events = 0;
	struct folded f;

	while (lines < 400 && format_next_line(&p, end, &s, &n)) {
		if (n == 0 || (s[0] == '#' && !folded))
			continue;
		lines++;
		if (frame_line(s, n))
			frames++;
		else if (stamp(s, n))
			events += 1000;
		else if (s[0] != ' ' && s[0] != '\t' && memchr(s, ':', n))
			events++;
		if (folded_parse(s, n, &f) == 0)
			folded++;
	}
	return (frames && events) || (lines && events >= 1000 * (lines - folded) / 2 + 1000) ? 50 : 0;
}

static int feed(void *p, const char *s, size_t n, unsigned long no)
{
	perf_line(p, s, n, no);
	return 0;
}

/* What the collapser left out, as stackcollapse-perf says it. */
static void report(const struct format_job *j, const struct perf_stats *st)
{
	/* filtered counts the filters' drops (outside) too. */
	uint64_t other = st->filtered - st->outside;
	char msg[300];

	collect_unit(j->o, perf_count_unit(st));
	if (other) {
		snprintf(msg, sizeof(msg), "kept only '%s' events; skipped %llu samples of other "
			 "events such as '%s' (choose with --event-filter)", st->event,
			 (unsigned long long)other, st->other[0] ? st->other : "?");
		j->warn(j->ctx, j->name, 0, msg);
	}
	if (st->malformed) {
		snprintf(msg, sizeof(msg), "skipped %llu malformed lines", (unsigned long long)st->malformed);
		j->warn(j->ctx, j->name, 0, msg);
	}
	if (st->unknown) {
		snprintf(msg, sizeof(msg), "%llu events dropped: they print no PID or time stamp to "
			 "filter on (perf script -F +pid,+time)", (unsigned long long)st->unknown);
		j->warn(j->ctx, j->name, 0, msg);
	}
}

/* Through perf_run's workers, or for a flame chart (events in order) one
 * collapser feeding the table itself (the workers fill tables of their
 * own). */
int perf_collect(const struct format_job *j)
{
	const struct filter *fl = &j->o->filter;
	struct perf_cli dflt;
	const struct perf_cli *cli = j->fopts;
	struct perf_opts po;
	struct perf_stats st;
	struct perf *p;
	int rc;

	if (!cli) {
		memset(&dflt, 0, sizeof(dflt));
		dflt.run.threads = 1;
		cli = &dflt;
	}
	po = cli->opts;
	if (filter_has_ids(fl) || filter_has_time(fl))
		po.filter = fl;
	if (j->o->split_roots)
		po.pid = po.tid = 1;
	po.seq = j->o->seq;
	if (!po.seq && j->o->stack_sink) {
		/* Straight to the sink: no stack spelled out. */
		rc = perf_run_reader_kept(&po, j->lr, j->name, &cli->run, &p, &st, j->warn, j->ctx,
					  j->err, j->errlen);
		perf_emit(p, j->o->stack_sink);
		perf_free(p);
	} else if (!po.seq) {
		rc = perf_run_reader(&po, j->lr, j->name, &cli->run, j->t, &st, j->warn, j->ctx,
				     j->err, j->errlen);
	}
	if (!po.seq) {
		report(j, &st);
		return format_fault(j, rc != 0);
	}
	p = perf_new(&po, j->t, j->warn, j->ctx);
	perf_begin(p, j->name);
	rc = lread_feed(j->lr, feed, p, j->err, j->errlen);
	perf_end(p);
	report(j, perf_stats(p));
	perf_free(p);
	return format_fault(j, rc < 0);
}
