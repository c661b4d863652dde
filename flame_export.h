/* flame_export: what `flame --to NAME` writes.  One row per output
 * format: the SVG (the renderer), collapsed stacks, and the profile
 * formats other tools read, each written from the collapsed stacks by the
 * writer that lives beside its reader in collapse/. */
#ifndef FLAME_FLAME_EXPORT_H
#define FLAME_FLAME_EXPORT_H

#include "strtab.h"

#include <stddef.h>

/* What a writer may want to say besides the stacks. */
struct export_info {
	const char *unit;	/* what the counts are ("samples", "ns", ...) */
	const char *title;	/* the graph's title, a name for the profile */
	void *const *fopts;	/* each format family's options (collect.h) */
	/* Messages about an input (convert only): file, what. */
	void (*warn)(void *ctx, const char *file, const char *msg);
	void *ctx;		/* for warn */
};

struct flame_export {
	const char *name;	/* --to NAME */
	const char *what;	/* one line for --help and --list-formats */
	/* Writes the stacks of t (struct fcount values) to path ("-" or
	 * NULL: stdout), atomically.  Returns 0, or -1 with a message in
	 * err.  NULL for the SVG, which the renderer draws. */
	int (*save)(const struct strtab *t, const struct export_info *x, const char *path, char *err,
		    size_t errlen);
	/* For a format made from the recordings themselves, not from
	 * stacks (LNT's, from perf.data): writes the inputs in[0, n) to
	 * path.  Returns 0, 1 when an input broke off (the rest written),
	 * or -1 with a message in err.  NULL for the others; flame calls it
	 * instead of collecting stacks. */
	int (*convert)(const char *const *in, int n, const struct export_info *x, const char *path,
		       char *err, size_t errlen);
};

/* The rows, ending with a NULL name; the first is the SVG. */
extern const struct flame_export flame_exports[];

/* The row named name, or NULL. */
const struct flame_export *flame_export_find(const char *name);

/* "svg, collapsed, ..." into buf (cut to fit). */
void flame_export_names(char *buf, size_t len);

#endif
