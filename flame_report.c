/* flame_report: --split-by graphs and the --diff summary. */
#include "flame_opts.h"
#include "bytes.h"
#include "folded.h"
#include "outfile.h"
#include "render.h"
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

/* A group's key: its first frame (process), or first two (thread). */
static size_t group_len(const char *s, size_t len, int frames)
{
	const char *semi = memchr(s, ';', len);

	if (!semi)
		return len;
	if (frames == 2 && (semi = memchr(semi + 1, ';', len - (size_t)(semi + 1 - s))) == NULL)
		return len;
	return (size_t)(semi - s);
}

/* Where a perf root "COMM-PID", "COMM-PID/TID" or "COMM-?/TID" puts its
 * '-' before the numbers, or len when s is not one. */
static size_t perf_dash(const char *s, size_t len)
{
	size_t i = len, dash;

	while (i && s[i - 1] != '-')
		i--;
	if (!i)
		return len;
	dash = i - 1;
	if (i < len && s[i] == '?')
		i++;
	else
		while (i < len && s[i] >= '0' && s[i] <= '9')
			i++;
	if (i == dash + 1)
		return len;
	if (i < len && s[i] == '/') {
		size_t t = ++i;

		while (i < len && s[i] >= '0' && s[i] <= '9')
			i++;
		if (i == t)
			return len;
	}
	return i == len ? dash : len;
}

/* UIforETW's PROCESS_PID_TID names: "chrome.exe (88);TID 12" and perf's
 * "chrome-88/12" -> "chrome.exe_88_12", "chrome_88_12"; a PID perf could
 * not tell ("-?") is left out. */
static void file_name(char *d, size_t cap, const char *s, size_t len)
{
	size_t o = 0, i, dash = perf_dash(s, len);

	for (i = 0; i < len && o + 2 < cap; i++) {
		char c = s[i];

		if (len - i > 4 && !memcmp(s + i, "TID ", 4)) {
			i += 3;
			continue;
		}
		if (i == dash || (i > dash && (c == '/' || c == '?')))
			c = '_';
		if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    c == '.' || c == '-')
			d[o++] = c;
		else if (o && d[o - 1] != '_')
			d[o++] = '_';
	}
	while (o && d[o - 1] == '_')
		o--;
	d[o] = 0;
	if (!o || !strcmp(d, ".") || !strcmp(d, ".."))
		snprintf(d, cap, "group");
}

/* Makes name unique among the names drawn so far ("x", "x-2", ...): two
 * groups may differ only in characters a file name cannot keep. */
static void unique_name(struct strtab *used, char *name, size_t cap)
{
	size_t base = strlen(name);
	unsigned k = 1;
	int added;

	for (;;) {
		strtab_intern(used, name, strlen(name), &added);
		if (added)
			return;
		snprintf(name + (base < cap - 12 ? base : cap - 12), 12, "-%u", ++k);
	}
}

struct root {
	double weight;		/* samples under this root */
	uint32_t group;		/* id in the group table */
};

struct group {
	double weight;		/* samples of its roots */
	uint32_t name;		/* the root it is named after */
	double name_weight;	/* that root's samples */
	int main_thread;	/* perf: the name root is the process's own thread */
	int rank;		/* among the busiest: its graph; else -1 */
};

/* The group key of a root.  perf roots ("COMM-PID/TID") are grouped by
 * their numbers, so a process whose threads carry other names, or a
 * thread renamed while it ran, stays one graph; a PID perf could not tell
 * ('?') falls back to the name.  Other formats: the root itself. */
static size_t group_key(const struct flame_opts *f, const char *s, size_t len, int perf,
			const char **key, int *main_thread)
{
	size_t dash = perf ? perf_dash(s, len) : len;
	const char *slash;

	*key = s;
	*main_thread = 0;
	if (dash == len)
		return len;
	slash = memchr(s + dash, '/', len - dash);
	if (slash) {
		size_t plen = (size_t)(slash - (s + dash + 1));

		*main_thread = (size_t)(s + len - slash - 1) == plen && !memcmp(s + dash + 1, slash + 1, plen);
	}
	if (s[dash + 1] == '?')		/* "comm-?/TID": process by name */
		return f->split_by == SPLIT_PROCESS ? dash + 2 : len;
	*key = s + dash + 1;
	if (f->split_by == SPLIT_PROCESS && slash)
		return (size_t)(slash - *key);
	return (size_t)(s + len - *key);
}

static int heavier(const void *a, const void *b, void *ctx)
{
	const struct group *g = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	if (g[x].weight != g[y].weight)
		return g[x].weight < g[y].weight ? 1 : -1;
	return (x > y) - (x < y);
}

/* One graph being drawn: its options point at its own title. */
struct graph {
	struct fg_opts o;	/* the options, with this title */
	char name[200];		/* file name without .svg */
	char title[300];	/* CPU Usage flame graph of NAME */
	struct render *r;	/* the graph */
};

/* Fills roots (root -> struct root) and groups (key -> struct group) from
 * t's stacks; rootof[i] is stack i's root. */
static void group_stacks(const struct flame_opts *f, const struct strtab *t, int frames, int perf,
			 struct strtab *roots, struct strtab *groups, uint32_t *rootof)
{
	size_t i, n = strtab_count(t);

	for (i = 0; i < n; i++) {
		size_t len;
		const char *s = strtab_str(t, (uint32_t)i, &len);

		rootof[i] = strtab_intern(roots, s, group_len(s, len, frames), NULL);
		((struct root *)strtab_val(roots, rootof[i]))->weight += fcount_value(strtab_val(t, (uint32_t)i));
	}
	for (i = 0; i < strtab_count(roots); i++) {
		struct root *r = strtab_val(roots, (uint32_t)i);
		size_t len, klen;
		const char *s = strtab_str(roots, (uint32_t)i, &len), *key;
		int main_thread, added;
		struct group *g;

		klen = group_key(f, s, len, perf, &key, &main_thread);
		r->group = strtab_intern(groups, key, klen, &added);
		g = strtab_val(groups, r->group);
		g->weight += r->weight;
		/* Named after the process's own thread, else its busiest. */
		if (added || (main_thread && !g->main_thread) ||
		    (main_thread == g->main_thread && r->weight > g->name_weight)) {
			g->name = (uint32_t)i;
			g->name_weight = r->weight;
			g->main_thread = main_thread;
		}
	}
}

int flame_split(const struct flame_opts *f, const struct strtab *t)
{
	struct strtab *roots = strtab_new(sizeof(struct root)), *groups = strtab_new(sizeof(struct group));
	struct strtab *used = strtab_new(0);
	size_t i, n = strtab_count(t), ng, top = 0, len0;
	uint32_t *rootof = xcalloc(n ? n : 1, sizeof(*rootof)), *order = NULL;
	struct group *g = NULL;
	struct graph *gr = NULL;
	const char *s0;
	int frames, perf, rc = 0;

	if (n == 0) {
		fprintf(stderr, "flame: no samples to draw\n");
		rc = 2;
		goto out;
	}
	/* perf roots are "COMM-PID/TID" (one frame); ETW's "PROCESS (PID);TID N". */
	s0 = strtab_str(t, 0, &len0);
	len0 = group_len(s0, len0, 1);
	perf = perf_dash(s0, len0) != len0 && memchr(s0, '/', len0);
	frames = f->split_by == SPLIT_THREAD && !perf ? 2 : 1;
	if (mkdir(f->fg.output, 0777) < 0 && errno != EEXIST) {
		fprintf(stderr, "flame: cannot create '%s': %s\n", f->fg.output, strerror(errno));
		rc = 1;
		goto out;
	}
	group_stacks(f, t, frames, perf, roots, groups, rootof);
	/* The groups as one array (strtab values are not), busiest first. */
	ng = strtab_count(groups);
	g = xcalloc(ng, sizeof(*g));
	order = xcalloc(ng, sizeof(*order));
	for (i = 0; i < ng; i++) {
		g[i] = *(struct group *)strtab_val(groups, (uint32_t)i);
		g[i].rank = -1;
		order[i] = (uint32_t)i;
	}
	qsort_r(order, ng, sizeof(*order), heavier, g);
	top = ng < f->top ? ng : f->top;
	gr = xcalloc(top ? top : 1, sizeof(*gr));
	for (i = 0; i < top && rc == 0; i++) {
		struct graph *x = &gr[i];
		size_t len;
		const char *s = strtab_str(roots, g[order[i]].name, &len), *slash = memchr(s, '/', len);

		/* A perf process is named COMM_PID, without a thread's number. */
		if (perf && f->split_by == SPLIT_PROCESS && slash)
			len = (size_t)(slash - s);
		file_name(x->name, sizeof(x->name), s, len);
		unique_name(used, x->name, sizeof(x->name));
		snprintf(x->title, sizeof(x->title), "CPU Usage flame graph of %s", x->name);
		x->o = f->fg;
		if (!f->fg.title || f->fg.title == f->title)
			x->o.title = x->title;
		if (!(x->r = flame_renderer(&x->o)))
			rc = 1;
		g[order[i]].rank = (int)i;
	}
	/* One pass feeds every graph: the stacks in table order (the renderer
	 * sorts a flame graph itself), or a chart's runs in time order. */
	for (i = 0; i < (f->c.seq ? f->c.seq->n : n) && rc == 0; i++) {
		const struct fseq_run *x = f->c.seq ? &f->c.seq->run[i] : NULL;
		uint32_t id = x ? x->id : (uint32_t)i;
		int rank = g[((const struct root *)strtab_val(roots, rootof[id]))->group].rank;
		size_t len;
		const char *s;

		if (rank < 0)
			continue;
		s = strtab_str(t, id, &len);
		if (x)
			render_add(gr[rank].r, s, len, &x->c[0], x->two ? &x->c[1] : NULL);
		else
			render_add(gr[rank].r, s, len, strtab_val(t, id), NULL);
	}
	/* Each graph is written and listed, busiest first. */
	for (i = 0; i < top && rc == 0; i++) {
		char path[4096];

		snprintf(path, sizeof(path), "%s/%s.svg", f->fg.output, gr[i].name);
		rc = flame_finish(gr[i].r, path);
		gr[i].r = NULL;
		if (rc == 0)
			printf("%s\n", path);
	}
out:
	for (i = 0; i < top; i++)
		render_free(gr[i].r);
	free(gr);
	free(g);
	free(order);
	free(rootof);
	strtab_free(roots);
	strtab_free(groups);
	strtab_free(used);
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
