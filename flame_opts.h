/* flame_opts: flame's command line (its own options; the rest are the
 * renderer's, flamegraph.pl's), and the reports it writes besides graphs:
 * --split-by files and the --diff summary. */
#ifndef FLAME_FLAME_OPTS_H
#define FLAME_FLAME_OPTS_H

#include "collect.h"
#include "options.h"
#include "split.h"

enum { FL_RUN, FL_HELP, FL_VERSION, FL_USAGE };


struct flame_opts {
	struct fg_opts fg;		/* renderer options */
	struct collect_opts c;		/* collapser options */
	int collapsed;			/* write collapsed stacks, not SVG */
	int diff;			/* BEFORE AFTER */
	int classic;			/* --classic-diff: as difffolded | flamegraph */
	int normalize;			/* --normalize: BEFORE scaled to AFTER's total */
	const char *summary;		/* --summary FILE */
	double fail_self;		/* --fail-if-self-grows PCT, -1: off */
	double fail_total;		/* --fail-if-total-grows PCT, -1: off */
	enum split_by split_by;		/* --split-by */
	size_t top;			/* --top N */
	size_t top_functions;		/* --top-functions N, 0: no table */
	void *fopts[8];			/* each format family's options, by its
					   index in format_families */
	long *pids, *tids;		/* owned --pid, --tid lists */
	char **procs;			/* owned --process names */
	char **argv;			/* what goes to fgopt_parse */
	const char *const *inputs;	/* input files ("-": stdin) */
	int ninputs;			/* how many */
	char title[512];		/* the default title */
	char subtitle[128];		/* the --diff legend */
};

/* Parses argv.  Returns FL_RUN, _HELP, FL_VERSION, or FL_USAGE with a
 * message in err.  Release with flame_opts_release either way. */
int flame_opts_parse(struct flame_opts *f, int argc, char **argv, char *err, size_t errlen);

/* For a result other than FL_RUN: prints help, the version or the
 * usage error; returns the exit status. */
int flame_opts_exit(struct flame_opts *f, int result, const char *prog, const char *err);

void flame_opts_release(struct flame_opts *f);

struct render;

/* A renderer for o with its files loaded (--nameattr, --cp), or NULL
 * (said on stderr). */
struct render *flame_renderer(const struct fg_opts *o);

/* Writes r's graph to path (NULL: stdout) atomically and frees r; returns
 * the exit status: 0, 1 on a write error, 2 when there was nothing to
 * draw (each said on stderr). */
int flame_finish(struct render *r, const char *path);

/* --split-by: one SVG per thread or process group of t for the top N, in
 * the output directory, a line per file on stdout.  Returns an exit status. */
int flame_split(const struct flame_opts *f, const struct strtab *t);

/* --summary, --top-functions and --fail-if-*: u is the union of BEFORE and AFTER (two
 * counts per stack) with totals ta and tb.  Returns 0, 1 when a threshold
 * was passed (named on stderr), -1 on a write error. */
int flame_summary(const struct flame_opts *f, const struct strtab *u, double ta, double tb);

/* --summary and --top-functions for one profile t (one count per
 * stack).  Returns 0, or -1 on a write error (said on stderr). */
int flame_profile_summary(const struct flame_opts *f, const struct strtab *t);

#endif
