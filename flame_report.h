/* flame_report: what flame writes from its stacks: graphs (one, or one
 * per busiest thread or process with --split-by) and the summaries
 * (--summary, --top-functions, the --fail-if-* gates). */
#ifndef FLAME_FLAME_REPORT_H
#define FLAME_FLAME_REPORT_H

#include "flame_opts.h"

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
