/* flame_report: --split-by graphs and the --diff summary. */
#include "flame_opts.h"
#include "flame_report.h"
#include "bytes.h"
#include "folded.h"
#include "outfile.h"
#include "render.h"
#include "split.h"
#include "stackdiff.h"
#include "strtab.h"
#include "xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define SUMMARY_TOP 20		/* functions listed per table */

static void warn_render(void *ctx, const char *msg)
{
	(void)ctx;
	fprintf(stderr, "flame: %s\n", msg);
}

struct render *flame_renderer(const struct fg_opts *o)
{
	char err[512];
	struct render *r = render_open(o, warn_render, NULL, err, sizeof(err));

	if (!r)
		fprintf(stderr, "flame: %s\n", err);
	return r;
}

int flame_finish(struct render *r, const char *path)
{
	char err[512];
	int rc = render_save(r, path, err, sizeof(err));

	render_free(r);
	if (rc < 0)
		fprintf(stderr, "flame: %s\n", err);
	else if (rc > 0)
		fprintf(stderr, "flame: no samples to draw\n");
	return rc < 0 ? 1 : rc > 0 ? 2 : 0;
}

/* One graph being drawn: its options point at its own title. */
struct graph {
	struct fg_opts o;	/* the options, with this title */
	char title[300];	/* CPU Usage flame graph of NAME */
	struct render *r;	/* the graph */
};

/* Feeds every graph in one pass: the stacks in table order (the renderer
 * sorts a flame graph itself), or a chart's runs in time order. */
static void feed_graphs(const struct flame_opts *f, const struct strtab *t, const struct split *sp,
			struct graph *gr)
{
	size_t i, n = f->c.seq ? f->c.seq->n : strtab_count(t), len;

	for (i = 0; i < n; i++) {
		const struct fseq_run *x = f->c.seq ? &f->c.seq->run[i] : NULL;
		uint32_t id = x ? x->id : (uint32_t)i;
		int rank = split_rank(sp, id);
		const char *s;

		if (rank < 0)
			continue;
		s = strtab_str(t, id, &len);
		if (x)
			render_add(gr[rank].r, s, len, &x->c[0], x->two ? &x->c[1] : NULL);
		else
			render_add(gr[rank].r, s, len, strtab_val(t, id), NULL);
	}
}

int flame_split(const struct flame_opts *f, const struct strtab *t)
{
	struct split *sp;
	struct graph *gr;
	size_t i, top;
	int rc = 0;

	if (strtab_count(t) == 0) {
		fprintf(stderr, "flame: no samples to draw\n");
		return 2;
	}
	if (mkdir(f->fg.output, 0777) < 0 && errno != EEXIST) {
		fprintf(stderr, "flame: cannot create '%s': %s\n", f->fg.output, strerror(errno));
		return 1;
	}
	sp = split_new(t, f->split_by, f->top);
	top = split_count(sp);
	gr = xcalloc(top ? top : 1, sizeof(*gr));
	for (i = 0; i < top && rc == 0; i++) {
		struct graph *x = &gr[i];

		snprintf(x->title, sizeof(x->title), "CPU Usage flame graph of %s", split_group(sp, i)->name);
		x->o = f->fg;
		if (!f->fg.title || f->fg.title == f->title)
			x->o.title = x->title;
		if (!(x->r = flame_renderer(&x->o)))
			rc = 1;
	}
	if (rc == 0)
		feed_graphs(f, t, sp, gr);
	/* Each graph is written and listed, busiest first. */
	for (i = 0; i < top && rc == 0; i++) {
		char path[4096];

		snprintf(path, sizeof(path), "%s" SPLIT_DIR_SEP "%s.svg", f->fg.output, split_group(sp, i)->name);
		rc = flame_finish(gr[i].r, path);
		gr[i].r = NULL;
		if (rc == 0)
			printf("%s\n", path);
	}
	for (i = 0; i < top; i++)
		render_free(gr[i].r);
	free(gr);
	split_free(sp);
	return rc;
}

/* s as a JSON string (names are untrusted bytes: bytes_json makes any
 * of them valid JSON). */
static void json_string(FILE *o, const char *s)
{
	putc('"', o);
	bytes_json(o, s, strlen(s));
	putc('"', o);
}

/* Sorting by the change of share, incl or self. */
struct ranked {
	const struct stackdiff_fn *fn;	/* the function */
	double delta;			/* after% - before%, points */
};

static int bigger(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->delta != y->delta)
		return x->delta < y->delta ? 1 : -1;
	return strcmp(x->fn->name, y->fn->name);
}

static double pct(double v, double total)
{
	return total > 0 ? 100 * v / total : 0;
}

/* Ranks fns by the change of their incl (self 0) or self share. */
static struct ranked *rank(const struct stackdiff_fn *fns, size_t n, int self, double ta, double tb)
{
	struct ranked *r = xcalloc(n ? n : 1, sizeof(*r));
	size_t i;

	for (i = 0; i < n; i++) {
		const double *v = self ? fns[i].self : fns[i].incl;

		r[i].fn = &fns[i];
		r[i].delta = pct(v[1], tb) - pct(v[0], ta);
	}
	qsort(r, n, sizeof(*r), bigger);
	return r;
}

/* The first SUMMARY_TOP of r as a JSON array; shrunk: the last ones
 * instead, those that lost share, most first. */
static void table(FILE *o, const char *name, const struct ranked *r, size_t n, int self, int shrunk,
		  double ta, double tb)
{
	size_t i, k;

	fprintf(o, "  \"%s\": [", name);
	for (i = k = 0; i < n && k < SUMMARY_TOP; i++) {
		const struct ranked *e = shrunk ? &r[n - 1 - i] : &r[i];
		const double *v = self ? e->fn->self : e->fn->incl;

		if (shrunk && !(e->delta < 0))
			break;
		fputs(k++ ? ",\n    {\"function\": " : "\n    {\"function\": ", o);
		json_string(o, e->fn->name);
		fprintf(o, ", \"before\": %.15g, \"after\": %.15g, \"delta\": %.15g, \"before_pct\": %.4f, "
			"\"after_pct\": %.4f, \"delta_pct\": %.4f}", v[0], v[1], v[1] - v[0],
			pct(v[0], ta), pct(v[1], tb), e->delta);
	}
	fputs(k ? "\n  ]" : "]", o);
}

/* Names the functions past a threshold; returns 1 when there are any. */
static int gate(const struct ranked *r, size_t n, int self, double limit, double ta, double tb)
{
	size_t i;

	for (i = 0; limit >= 0 && i < n && r[i].delta > limit; i++) {
		const double *v = self ? r[i].fn->self : r[i].fn->incl;

		fprintf(stderr, "flame: %s: %s share grew by %.2f points (%.2f%% to %.2f%%), "
			"over --fail-if-%s-grows %g\n", r[i].fn->name, self ? "self" : "inclusive",
			r[i].delta, pct(v[0], ta), pct(v[1], tb), self ? "self" : "total", limit);
	}
	return i > 0;
}

/* Where --top-functions prints: stdout when it carries nothing else. */
static FILE *text_out(const struct flame_opts *f)
{
	return f->fg.output && !f->split_by ? stdout : stderr;
}

/* A name in a text table: control bytes (a terminal's escapes) as '?'. */
static void put_name(FILE *o, const char *s)
{
	for (; *s; s++)
		putc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, o);
	putc('\n', o);
}

/* --top-functions with --diff: those whose self share grew most. */
static void diff_text(const struct flame_opts *f, const struct ranked *r, size_t n, double ta,
		      double tb)
{
	FILE *o = text_out(f);
	size_t i;

	fprintf(o, "%8s %8s %8s  %s\n", "before%", "after%", "change", "function (self share)");
	for (i = 0; i < n && i < f->top_functions; i++)
	{
		fprintf(o, "%7.2f%% %7.2f%% %+8.2f  ", pct(r[i].fn->self[0], ta),
			pct(r[i].fn->self[1], tb), r[i].delta);
		put_name(o, r[i].fn->name);
	}
}

int flame_summary(const struct flame_opts *f, const struct strtab *u, double ta, double tb)
{
	struct strtab *names = strtab_new(0);
	size_t n;
	struct stackdiff_fn *fns = stackdiff_functions(u, names, &n);
	struct ranked *incl = rank(fns, n, 0, ta, tb), *self = rank(fns, n, 1, ta, tb);
	struct outfile *o = NULL;
	int rc = 0;

	if (f->summary && !(o = outfile_open(f->summary))) {
		fprintf(stderr, "flame: cannot write '%s': %s\n", f->summary, strerror(errno));
		rc = -1;
	} else if (o) {
		FILE *out = outfile_stream(o);

		fprintf(out, "{\n  \"before_total\": %.15g,\n  \"after_total\": %.15g,\n", ta, tb);
		table(out, "top_inclusive", incl, n, 0, 0, ta, tb);
		fputs(",\n", out);
		table(out, "top_self", self, n, 1, 0, ta, tb);
		fputs(",\n", out);
		table(out, "top_inclusive_shrunk", incl, n, 0, 1, ta, tb);
		fputs(",\n", out);
		table(out, "top_self_shrunk", self, n, 1, 1, ta, tb);
		fputs("\n}\n", out);
		if (outfile_commit(o) < 0) {
			fprintf(stderr, "flame: write error on '%s': %s\n", f->summary, strerror(errno));
			rc = -1;
		}
	}
	if (f->top_functions)
		diff_text(f, self, n, ta, tb);
	if (rc == 0) {
		rc = gate(self, n, 1, f->fail_self, ta, tb);
		rc = gate(incl, n, 0, f->fail_total, ta, tb) || rc;
	}
	free(incl);
	free(self);
	free(fns);
	strtab_free(names);
	return rc;
}

/* Sorting one profile's functions by self (then inclusive) weight. */
static int fn_by_self(const void *a, const void *b)
{
	const struct stackdiff_fn *x = a, *y = b;

	if (x->self[1] != y->self[1])
		return x->self[1] < y->self[1] ? 1 : -1;
	if (x->incl[1] != y->incl[1])
		return x->incl[1] < y->incl[1] ? 1 : -1;
	return strcmp(x->name, y->name);
}

static int by_incl(const void *a, const void *b)
{
	const struct stackdiff_fn *x = a, *y = b;

	if (x->incl[1] != y->incl[1])
		return x->incl[1] < y->incl[1] ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* The first SUMMARY_TOP of fns as a JSON array of one profile's weights. */
static void one_table(FILE *o, const char *name, const struct stackdiff_fn *fns, size_t n,
		      int self, double total)
{
	size_t i;

	fprintf(o, "  \"%s\": [", name);
	for (i = 0; i < n && i < SUMMARY_TOP; i++) {
		double v = self ? fns[i].self[1] : fns[i].incl[1];

		fputs(i ? ",\n    {\"function\": " : "\n    {\"function\": ", o);
		json_string(o, fns[i].name);
		fprintf(o, ", \"self\": %.15g, \"total\": %.15g, \"pct\": %.4f}", fns[i].self[1],
			fns[i].incl[1], pct(v, total));
	}
	fputs(i ? "\n  ]" : "]", o);
}

static int profile_json(const char *path, struct stackdiff_fn *fns, size_t n, double total)
{
	struct outfile *o = outfile_open(path);
	FILE *out;

	if (!o) {
		fprintf(stderr, "flame: cannot write '%s': %s\n", path, strerror(errno));
		return -1;
	}
	out = outfile_stream(o);
	fprintf(out, "{\n  \"total\": %.15g,\n  \"functions\": %zu,\n", total, n);
	qsort(fns, n, sizeof(*fns), fn_by_self);
	one_table(out, "top_self", fns, n, 1, total);
	fputs(",\n", out);
	qsort(fns, n, sizeof(*fns), by_incl);
	one_table(out, "top_inclusive", fns, n, 0, total);
	fputs("\n}\n", out);
	if (outfile_commit(o) < 0) {
		fprintf(stderr, "flame: write error on '%s': %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

int flame_profile_summary(const struct flame_opts *f, const struct strtab *t)
{
	struct strtab *none = strtab_new(sizeof(struct fcount)), *names = strtab_new(0);
	struct strtab *u = stackdiff_union(none, t);
	double total = stackdiff_total(t);
	size_t n, i;
	struct stackdiff_fn *fns = stackdiff_functions(u, names, &n);
	int rc = f->summary ? profile_json(f->summary, fns, n, total) : 0;

	if (f->top_functions) {
		FILE *o = text_out(f);

		qsort(fns, n, sizeof(*fns), fn_by_self);
		fprintf(o, "%14s %7s %14s %7s  %s\n", "self", "self%", "total", "total%", "function");
		for (i = 0; i < n && i < f->top_functions; i++) {
			fprintf(o, "%14.15g %6.2f%% %14.15g %6.2f%%  ", fns[i].self[1],
				pct(fns[i].self[1], total), fns[i].incl[1], pct(fns[i].incl[1], total));
			put_name(o, fns[i].name);
		}
	}
	free(fns);
	strtab_free(names);
	strtab_free(u);
	strtab_free(none);
	return rc;
}
