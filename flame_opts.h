/* flame_opts: flame's command line: its own options, each format
 * family's (as their stackcollapse tools take them), and the renderer's
 * (flamegraph.pl's). */
#ifndef FLAME_FLAME_OPTS_H
#define FLAME_FLAME_OPTS_H

#include "collect.h"
#include "flame_export.h"
#include "options.h"
#include "split.h"

enum { FL_RUN, FL_HELP, FL_VERSION, FL_LIST, FL_USAGE };


struct flame_opts {
	struct fg_opts fg;		/* renderer options */
	struct collect_opts c;		/* collapser options */
	int collapsed;			/* write collapsed stacks, not SVG */
	const struct flame_export *to;	/* --to: a writer's format, NULL: SVG
					   or collapsed */
	int list_formats;		/* --list-formats */
	int diff;			/* BEFORE AFTER */
	int classic;			/* --classic-diff: as difffolded | flamegraph */
	int normalize;			/* --normalize: BEFORE scaled to AFTER's total */
	const char *summary;		/* --summary FILE */
	double fail_self;		/* --fail-if-self-grows PCT, -1: off */
	double fail_total;		/* --fail-if-total-grows PCT, -1: off */
	enum split_by split_by;		/* --split-by */
	size_t top;			/* --top N */
	size_t top_functions;		/* --top-functions N, 0: no table */
	void *ops;			/* the stack operators (a struct stackops) */
	void *fopts[32];		/* each format family's options, by its
					   index in format_families */
	long *pids, *tids;		/* owned --pid, --tid lists */
	char **procs;			/* owned --process names */
	char **argv;			/* what goes to fgopt_parse */
	const char *const *inputs;	/* input files ("-": stdin) */
	int ninputs;			/* how many */
	char title[512];		/* the default title */
	int stdin_title;		/* it names stdin: the input's kind will do */
	const struct format *first_format;	/* the first input's format */
	char unit[64];			/* what the weights count, if the input says */
	char subtitle[128];		/* the --diff legend */
};

/* Parses argv.  Returns FL_RUN, _HELP, FL_VERSION, or FL_USAGE with a
 * message in err.  Release with flame_opts_release either way. */
int flame_opts_parse(struct flame_opts *f, int argc, char **argv, char *err, size_t errlen);

/* For a result other than FL_RUN: prints help, the version or the
 * usage error; returns the exit status. */
int flame_opts_exit(struct flame_opts *f, int result, const char *prog, const char *err);

void flame_opts_release(struct flame_opts *f);

#endif
