/* flame_report: --split-by graphs and the --diff summary. */
#include "flame_opts.h"
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

/* "chrome.exe (88);TID 12" -> "chrome.exe_88_12": UIforETW's file names. */
static void file_name(char *d, size_t cap, const char *s, size_t len)
{
	size_t o = 0, i;

	for (i = 0; i < len && o + 2 < cap; i++) {
		char c = s[i];

		if (len - i > 4 && !memcmp(s + i, "TID ", 4)) {
			i += 3;
			continue;
		}
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

static void quiet(void *ctx, const char *msg)
{
	(void)ctx;
	fprintf(stderr, "flame: %s\n", msg);
}

struct group {
	uint32_t key;		/* id in the group table */
	double weight;		/* its samples */
};

static int heavier(const void *a, const void *b)
{
	const struct group *x = a, *y = b;

	return x->weight != y->weight ? (x->weight < y->weight ? 1 : -1) : (x->key > y->key) - (x->key < y->key);
}

/* Draws one group's stacks to dir/NAME.svg; returns an exit status. */
static int draw_group(const struct flame_opts *f, const struct strtab *t, const char *key, size_t klen,
		      int frames)
{
	struct fg_opts o = f->fg;
	struct render *r = render_new(&o, quiet, NULL);
	char name[200], path[4096], title[300];
	uint32_t *ids = strtab_sorted(t);
	struct outfile *out;
	size_t i;
	int rc = 0;

	file_name(name, sizeof(name), key, klen);
	snprintf(path, sizeof(path), "%s/%s.svg", f->fg.output, name);
	snprintf(title, sizeof(title), "CPU Usage flame graph of %s", name);
	if (!f->fg.title || f->fg.title == f->title)
		o.title = title;
	for (i = 0; i < strtab_count(t); i++) {
		size_t len;
		const char *s = strtab_str(t, ids[i], &len);

		if (group_len(s, len, frames) == klen && !memcmp(s, key, klen))
			render_add(r, s, len, strtab_val(t, ids[i]), NULL);
	}
	free(ids);
	if (!(out = outfile_open(path))) {
		fprintf(stderr, "flame: cannot write '%s': %s\n", path, strerror(errno));
		rc = 1;
	} else {
		render_write(r, outfile_stream(out));
		if (outfile_commit(out) < 0) {
			fprintf(stderr, "flame: write error on '%s': %s\n", path, strerror(errno));
			rc = 1;
		} else {
			printf("%s\n", path);
		}
	}
	render_free(r);
	return rc;
}

int flame_split(const struct flame_opts *f, const struct strtab *t)
{
	struct strtab *keys = strtab_new(sizeof(double));
	int frames = 1;
	struct group *g;
	size_t i, n;
	int rc = 0;

	/* perf roots are "comm-PID/TID" (one frame); ETW's "PROCESS (PID);TID N". */
	if (f->split_by == SPLIT_THREAD && strtab_count(t)) {
		size_t len;
		const char *s = strtab_str(t, 0, &len);

		frames = memchr(s, '/', group_len(s, len, 1)) ? 1 : 2;
	}
	if (mkdir(f->fg.output, 0777) < 0 && errno != EEXIST) {
		fprintf(stderr, "flame: cannot create '%s': %s\n", f->fg.output, strerror(errno));
		strtab_free(keys);
		return 1;
	}
	for (i = 0; i < strtab_count(t); i++) {
		size_t len;
		const char *s = strtab_str(t, (uint32_t)i, &len);

		*(double *)strtab_val(keys, strtab_intern(keys, s, group_len(s, len, frames), NULL)) +=
			fcount_value(strtab_val(t, (uint32_t)i));
	}
	n = strtab_count(keys);
	g = xcalloc(n ? n : 1, sizeof(*g));
	for (i = 0; i < n; i++) {
		g[i].key = (uint32_t)i;
		g[i].weight = *(double *)strtab_val(keys, (uint32_t)i);
	}
	qsort(g, n, sizeof(*g), heavier);
	for (i = 0; i < n && i < f->top; i++) {
		size_t klen;
		const char *k = strtab_str(keys, g[i].key, &klen);

		rc |= draw_group(f, t, k, klen, frames);
	}
	if (n == 0) {
		fprintf(stderr, "flame: no samples to draw\n");
		rc = 2;
	}
	free(g);
	strtab_free(keys);
	return rc;
}

static void json_string(FILE *o, const char *s)
{
	putc('"', o);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(o, "\\%c", c);
		else if (c < 0x20)
			fprintf(o, "\\u%04x", c);
		else
			putc(c, o);
	}
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

static void table(FILE *o, const char *name, const struct ranked *r, size_t n, int self,
		  double ta, double tb)
{
	size_t i;

	fprintf(o, "  \"%s\": [", name);
	for (i = 0; i < n && i < SUMMARY_TOP; i++) {
		const double *v = self ? r[i].fn->self : r[i].fn->incl;

		fputs(i ? ",\n    {\"function\": " : "\n    {\"function\": ", o);
		json_string(o, r[i].fn->name);
		fprintf(o, ", \"before\": %.15g, \"after\": %.15g, \"delta\": %.15g, \"before_pct\": %.4f, "
			"\"after_pct\": %.4f, \"delta_pct\": %.4f}", v[0], v[1], v[1] - v[0],
			pct(v[0], ta), pct(v[1], tb), r[i].delta);
	}
	fputs("\n  ]", o);
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
		table(out, "top_inclusive", incl, n, 0, ta, tb);
		fputs(",\n", out);
		table(out, "top_self", self, n, 1, ta, tb);
		fputs("\n}\n", out);
		if (outfile_commit(o) < 0) {
			fprintf(stderr, "flame: write error on '%s': %s\n", f->summary, strerror(errno));
			rc = -1;
		}
	}
	if (rc == 0)
		rc = gate(self, n, 1, f->fail_self, ta, tb) | gate(incl, n, 0, f->fail_total, ta, tb);
	free(incl);
	free(self);
	free(fns);
	strtab_free(names);
	return rc;
}
