/* flame: one command from any supported profile to a flame graph.  Each
 * input's format is told from its content (or --format), collapsed in
 * process with the collapse modules, and drawn by the renderer; --diff
 * draws BEFORE against AFTER.  Exit 0 graph written (skipped rows are
 * warnings), 1 an input could not be read through or an I/O error (the
 * graph is still written from what could be read), 2 usage error or no
 * samples, 3 a --fail-if-*-grows threshold was passed. */
#include "collect.h"
#include "flame_opts.h"
#include "flame_record.h"
#include "flame_report.h"
#include "folded.h"
#include "outfile.h"
#include "progress.h"
#include "render.h"
#include "stackops.h"
#include "stacksink.h"
#include "stackset.h"
#include "stackdiff.h"
#include "strtab.h"
#include "xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "flame"

static void warn_line(void *ctx, const char *file, unsigned long line, const char *msg)
{
	(void)ctx;
	if (file && line)
		fprintf(stderr, PROG ": %s:%lu: %s\n", file, line, msg);
	else if (file)
		fprintf(stderr, PROG ": %s: %s\n", file, msg);
	else
		fprintf(stderr, PROG ": %s\n", msg);
}

/* Collapses inputs into t; returns 0, 1 (problems, reported) or -1. */
static int collect_all(struct flame_opts *f, const char *const *in, int n, struct strtab *t)
{
	char err[1024];
	int i, rc = 0;

	for (i = 0; i < n; i++) {
		const struct format *fmt;
		int r = collect(in[i], &f->c, t, &fmt, warn_line, NULL, err, sizeof(err));

		if (i == 0)
			f->first_format = fmt;
		if (r < 0) {
			fprintf(stderr, PROG ": %s\n", err);
			return -1;
		}
		rc |= r;
	}
	return rc;
}

static void say(void *ctx, const char *msg)
{
	(void)ctx;
	fprintf(stderr, PROG ": %s\n", msg);
}

/* Replaces *t by its stacks reshaped by the stack operators, if any. */
static void reshape(const struct flame_opts *f, struct strtab **t)
{
	struct strtab *out;

	if (!stackops_count(f->ops) || !strtab_count(*t))
		return;
	out = stackops_apply(f->ops, *t, say, NULL);
	strtab_free(*t);
	*t = out;
}

/* Only a graph to draw, with operators: the reshaped stacks then go
 * straight from the stack model to the renderer, in the model's sorted
 * order, as render_use would give them; a second table of whole lines
 * would cost more than the operators themselves. */
static int direct(const struct flame_opts *f)
{
	return stackops_count(f->ops) && !f->split_by && !f->collapsed && !f->to && !f->c.seq && !f->summary &&
	       !f->top_functions && strtab_count(f->c.before) == 0;
}

static int draw_reshaped(const struct flame_opts *f, const struct strtab *t)
{
	struct render *r = flame_renderer(&f->fg);
	struct stackset s;
	char *buf = NULL;
	size_t cap = 0, i, len;

	if (!r)
		return 1;
	stackset_init(&s, t);
	stackops_run(f->ops, &s, say, NULL);
	for (i = 0; i < s.n; i++) {
		if (s.st[i].dropped)
			continue;
		len = stackset_str(&s, i, &buf, &cap);
		render_add(r, buf, len, &s.st[i].c, NULL);
	}
	free(buf);
	stackset_release(&s);
	return flame_finish(r, f->fg.output);
}

/* Draws the stacks of t (or of the union u, two counts each) to path. */
static int draw(const struct fg_opts *o, const struct strtab *t, int two, const char *path)
{
	struct render *r = flame_renderer(o);

	if (!r)
		return 1;
	/* The stacks are drawn from t itself: no second copy. */
	render_use(r, t, two);
	return flame_finish(r, path);
}

/* A file's name without its folders; "stdin" for "-". */
static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return strcmp(path, "-") == 0 ? "stdin" : slash ? slash + 1 : path;
}

/* "Flame Graph: trace.csv": the default title names the input. */
static void default_title(struct flame_opts *f, const char *const *in, int n)
{
	const char *a = base_name(in[0]), *b = n > 1 ? base_name(in[1]) : "";
	/* flamegraph's own words for the kind of graph. */
	const char *kind = f->fg.flamechart ? "Flame Chart" : f->fg.inverted ? "Icicle Graph" : "Flame Graph";

	f->c.unit = f->unit;
	f->c.unitcap = sizeof(f->unit);
	if (f->fg.title)
		return;
	if (f->diff)
		snprintf(f->title, sizeof(f->title), "Differential %s: %s to %s", kind, a, b);
	else if (n > 1)
		snprintf(f->title, sizeof(f->title), "%s: %s and %d more", kind, a, n - 1);
	else
		snprintf(f->title, sizeof(f->title), "%s: %s", kind, a);
	f->fg.title = f->title;
	f->stdin_title = !f->diff && n == 1 && strcmp(in[0], "-") == 0;
}

/* What the input told once read: the unit of its weights for the
 * tooltips (412 million cpu-clock nanoseconds are not "samples"), unless
 * --countname says otherwise, and for piped input its kind in the title. */
static void input_labels(struct flame_opts *f)
{
	const char *kind = f->fg.flamechart ? "Flame Chart" : f->fg.inverted ? "Icicle Graph" : "Flame Graph";

	if (f->unit[0] && !f->fg.countname_given)
		f->fg.countname = f->unit;
	if (f->stdin_title && f->first_format && strcmp(f->first_format->name, "collapsed") != 0)
		snprintf(f->title, sizeof(f->title), "%s: %s from stdin", kind, f->first_format->what);
}

/* Beyond --classic-diff: BEFORE-only stacks drawn, per-frame tooltips,
 * and a legend as the subtitle unless one was given. */
static void diff_look(struct flame_opts *f)
{
	if (f->classic)
		return;
	f->fg.diff_detail = 1;
	if (f->fg.subtitle)
		return;
	snprintf(f->subtitle, sizeof(f->subtitle), "widths: AFTER; %s grew, %s shrank; "
		 "hatched: gone from AFTER (BEFORE width)", f->fg.negate ? "blue" : "red",
		 f->fg.negate ? "red" : "blue");
	f->fg.subtitle = f->subtitle;
}

static int run_diff(struct flame_opts *f, const char *const *in)
{
	struct strtab *a = strtab_new(sizeof(struct fcount)), *b = strtab_new(sizeof(struct fcount));
	struct strtab *u = NULL;
	int rc = collect_all(f, in, 1, a), r2, gate = 0;

	r2 = rc < 0 ? -1 : collect_all(f, in + 1, 1, b);
	if (rc < 0 || r2 < 0) {
		rc = 1;
		goto out;
	}
	rc |= r2;
	reshape(f, &a);
	reshape(f, &b);
	u = stackdiff_union(a, b);
	if (f->summary || f->top_functions || f->fail_self >= 0 || f->fail_total >= 0)
		gate = flame_summary(f, u, stackdiff_total(a), stackdiff_total(b));
	if (f->normalize)
		stackdiff_normalize(u, stackdiff_total(a), stackdiff_total(b), 0);
	diff_look(f);
	r2 = draw(&f->fg, u, 1, f->fg.output);
	rc = r2 ? r2 : gate < 0 ? 1 : gate ? 3 : rc;
out:
	strtab_free(u);
	strtab_free(a);
	strtab_free(b);
	return rc;
}

/* A flame chart: the runs of seq (stacks of t) in order, drawn, or as
 * collapsed lines with --collapsed. */
static int chart(struct flame_opts *f, const struct strtab *t, const struct fseq *seq)
{
	struct outfile *out;
	struct render *r;
	size_t i;

	if (!f->collapsed) {
		if (!(r = flame_renderer(&f->fg)))
			return 1;
		for (i = 0; i < seq->n; i++) {
			const struct fseq_run *x = &seq->run[i];
			size_t len;
			const char *s = strtab_str(t, x->id, &len);

			render_add(r, s, len, &x->c[0], x->two ? &x->c[1] : NULL);
		}
		return flame_finish(r, f->fg.output);
	}
	if (!(out = outfile_open(f->fg.output))) {
		fprintf(stderr, PROG ": cannot write '%s': %s\n", f->fg.output, strerror(errno));
		return 1;
	}
	for (i = 0; i < seq->n; i++) {
		const struct fseq_run *x = &seq->run[i];
		size_t len;
		const char *s = strtab_str(t, x->id, &len);
		char n1[32], n2[32];

		fcount_format(&x->c[0], n1);
		fcount_format(&x->c[1], n2);
		fprintf(outfile_stream(out), "%.*s %s%s%s\n", (int)len, s, n1, x->two ? " " : "",
			x->two ? n2 : "");
	}
	if (outfile_commit(out) < 0) {
		fprintf(stderr, PROG ": write error on '%s': %s\n", f->fg.output ? f->fg.output : "<stdout>",
			strerror(errno));
		return 1;
	}
	if (seq->n == 0) {
		fprintf(stderr, PROG ": no samples\n");
		return 2;
	}
	return 0;
}

/* --to FORMAT: t written by its format's writer. */
static int export(const struct flame_opts *f, const struct strtab *t)
{
	struct export_info x = { f->fg.countname, f->fg.title, f->fopts, NULL, NULL };
	char err[512];

	if (f->to->save(t, &x, f->fg.output, err, sizeof(err)) < 0) {
		fprintf(stderr, PROG ": %s\n", err);
		return 1;
	}
	if (strtab_count(t) == 0) {
		fprintf(stderr, PROG ": no samples\n");
		return 2;
	}
	return 0;
}

/* Writes t (one count per stack) or, for differential collapsed input,
 * the union of before and t: collapsed text or a graph. */
static int output(struct flame_opts *f, struct strtab *t, struct strtab *before)
{
	struct strtab *u = strtab_count(before) ? stackdiff_union(before, t) : NULL;
	char err[512];
	int r;

	if (f->to) {
		/* A profile has one count per stack: AFTER's. */
		r = export(f, t);
	} else if (f->split_by) {
		r = flame_split(f, t);
	} else if (f->c.seq) {
		r = chart(f, t, f->c.seq);
	} else if (f->collapsed) {
		r = (u ? folded_save_pairs(u, f->fg.output, err, sizeof(err))
		       : folded_save(t, f->fg.output, err, sizeof(err))) < 0;
		if (r)
			fprintf(stderr, PROG ": %s\n", err);
		else if (strtab_count(t) == 0) {
			/* As for a graph: nothing to write is not success. */
			fprintf(stderr, PROG ": no samples\n");
			r = 2;
		}
	} else {
		/* "stack N M" lines are drawn as flamegraph draws them. */
		r = draw(&f->fg, u ? u : t, u != NULL, f->fg.output);
	}
	strtab_free(u);
	return r;
}

/* Only a graph of the stacks as they are: nothing needs them in a table
 * first, so collapsed stacks can go straight into the renderer. */
static int streaming(const struct flame_opts *f)
{
	return !stackops_count(f->ops) && !f->split_by && !f->collapsed && !f->to && !f->fg.flamechart &&
	       !f->summary && !f->top_functions;
}

static int sink_line(void *r, const char *line, size_t len)
{
	return render_add_line(r, line, len);
}

static void sink_frame(void *r, uint32_t id, const char *name, size_t len)
{
	render_frame(r, id, name, len);
}

static void sink_stack(void *r, const uint32_t *ids, size_t n, const struct fcount *c)
{
	render_add_ids(r, ids, n, c);
}

/* Collapsed-stack inputs are drawn as flamegraph reads them, line by line
 * into the renderer's call tree (no table of whole lines: a tenth of the
 * memory and a third of the time on a big file); perf text's stacks go in
 * as frame ids, never spelled out; the other formats' stacks are added
 * from their table after. */
static int run_streaming(struct flame_opts *f, const char *const *in, int n)
{
	struct strtab *t = strtab_new(sizeof(struct fcount));
	struct render *r = flame_renderer(&f->fg);
	struct stack_sink ids = { sink_frame, sink_stack, NULL };
	int rc, r2;

	if (!r) {
		strtab_free(t);
		return 1;
	}
	f->c.folded_sink = sink_line;
	f->c.sink_ctx = r;
	ids.ctx = r;
	/* Tests: FLAME_TABLE=1 draws every input from the table instead. */
	f->c.stack_sink = getenv("FLAME_TABLE") && *getenv("FLAME_TABLE") ? NULL : &ids;
	rc = collect_all(f, in, n, t);
	input_labels(f);
	f->c.folded_sink = NULL;
	f->c.stack_sink = NULL;
	if (rc < 0) {
		render_free(r);
		strtab_free(t);
		return 1;
	}
	render_use(r, t, 0);
	strtab_free(t);
	r2 = flame_finish(r, f->fg.output);
	return r2 ? r2 : rc;
}

static void convert_warn(void *ctx, const char *file, const char *msg)
{
	(void)ctx;
	fprintf(stderr, PROG ": %s: %s\n", file, msg);
}

/* --to a format made from the recordings themselves (LNT's from
 * perf.data): no stacks are collected. */
static int convert(const struct flame_opts *f, const char *const *in, int n)
{
	struct export_info x = { f->fg.countname, f->fg.title, f->fopts, convert_warn, NULL };
	char err[1024];
	int rc = f->to->convert(in, n, &x, f->fg.output, err, sizeof(err));

	if (rc < 0)
		fprintf(stderr, PROG ": %s\n", err);
	return rc != 0;
}

static int run(struct flame_opts *f, const char *const *in, int n)
{
	struct strtab *t;
	struct fseq seq = { NULL, 0, 0 };
	int rc;

	if (f->to && f->to->convert)
		return convert(f, in, n);
	if (streaming(f))
		return run_streaming(f, in, n);
	t = strtab_new(sizeof(struct fcount));

	/* A flame chart keeps the samples' order: time, or input order. */
	if (f->fg.flamechart)
		f->c.seq = &seq;
	f->c.before = strtab_new(sizeof(struct fcount));
	rc = collect_all(f, in, n, t);
	input_labels(f);
	if (rc >= 0 && direct(f)) {
		int r = draw_reshaped(f, t);

		rc = r ? r : rc;
	} else if (rc >= 0) {
		reshape(f, &t);
		reshape(f, &f->c.before);
		int s = f->summary || f->top_functions ? flame_profile_summary(f, t) : 0;
		int r = output(f, t, f->c.before);

		rc = r ? r : s < 0 ? 1 : rc;
	} else {
		rc = 1;
	}
	strtab_free(f->c.before);
	f->c.before = NULL;
	f->c.seq = NULL;
	fseq_release(&seq);
	strtab_free(t);
	return rc;
}

/* flame record [options] -- COMMAND: the options are checked before the
 * command runs, and the graph goes to flame.svg unless -o says where
 * (the command's own output may be on stdout). */
static int record(int argc, char **argv)
{
	struct flame_record rec;
	struct flame_opts f;
	char err[1024];
	int rc;

	if (flame_record_parse(&rec, argc, argv, err, sizeof(err)) < 0) {
		flame_record_release(&rec);
		return cliopt_usage(PROG, err);
	}
	rc = flame_opts_parse(&f, rec.fargc, rec.fargv, err, sizeof(err));
	if (rc == FL_RUN && f.ninputs != 1) {
		snprintf(err, sizeof(err), "record takes no input files: the command makes one");
		rc = FL_USAGE;
	}
	if (rc != FL_RUN) {
		flame_record_release(&rec);
		return flame_opts_exit(&f, rc, PROG, err);
	}
	if (!f.fg.output)
		f.fg.output = "flame.svg";
	if (!f.fg.title)
		f.fg.title = rec.title;
	if (flame_record_run(&rec, err, sizeof(err)) < 0) {
		fprintf(stderr, PROG ": %s\n", err);
		rc = 1;
	} else {
		progress_install(PROG);
		rc = run(&f, f.inputs, f.ninputs);
		if (rc == 0)
			fprintf(stderr, PROG ": wrote %s\n", f.fg.output);
	}
	flame_opts_release(&f);
	flame_record_release(&rec);
	return rc;
}

int main(int argc, char **argv)
{
	struct flame_opts f;
	const char *const *in;
	char err[512];
	int n, rc;

	if (argc > 1 && strcmp(argv[1], "record") == 0)
		return record(argc - 1, argv + 1);
	rc = flame_opts_parse(&f, argc, argv, err, sizeof(err));
	if (rc != FL_RUN)
		return flame_opts_exit(&f, rc, PROG, err);
	progress_install(PROG);
	in = f.inputs;
	n = f.ninputs;
	default_title(&f, in, n);
	if (f.diff)
		rc = run_diff(&f, in);
	else
		rc = run(&f, in, n);
	flame_opts_release(&f);
	if (fflush(stdout) != 0 || ferror(stdout))
		rc = rc ? rc : 1;
	return rc;
}
