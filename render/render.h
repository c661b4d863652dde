/* render: collapsed stacks in, flame graph SVG out.  Collect stacks with
 * render_add_line (folded text) or render_add (already parsed, for the
 * collapsers), then call render_write once. */
#ifndef FLAME_RENDER_H
#define FLAME_RENDER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "folded.h"
#include "options.h"

struct render;
struct strtab;

/* The frame that ends a stack cut by --max-depth. */
#define RENDER_CUT "[truncated]"

/* A warning sink: msg is one line without the program name or newline. */
typedef void render_warn_fn(void *ctx, const char *msg);

/* Returns a renderer for the options (which must outlive it).  Warnings
 * go to warn.  Free with render_free. */
struct render *render_new(const struct fg_opts *o, render_warn_fn *warn, void *ctx);

/* Frees r.  render_free(NULL) does nothing. */
void render_free(struct render *r);

/* Loads the files the options name (--nameattr, --cp's palette.map).
 * Returns 0, or -1 with a message in err. */
int render_load(struct render *r, char *err, size_t errlen);

/* Adds one line of folded text.  Returns 0, or -1 when the line is not a
 * folded line (it is counted as ignored). */
int render_add_line(struct render *r, const char *line, size_t len);

/* render_add_line as an lread_each handler (ctx: the render); never stops. */
int render_line_cb(void *r, const char *line, size_t len, unsigned long lineno);

/* Adds a stack with its count; c2 is the second count of a differential
 * input, or NULL. */
void render_add(struct render *r, const char *stack, size_t len,
		const struct fcount *c1, const struct fcount *c2);

/* Adds the stacks of t (values: struct fcount, or two of them for a
 * differential table) as if each were given to render_add; with
 * --flamechart in bytewise order, the input order being lost.  Only
 * frame names are copied: t may be freed after. */
void render_use(struct render *r, const struct strtab *t, int two);

/* Stacks as frame ids, for a collapser whose frames are interned already
 * (a struct stack_sink's calls, see stacksink.h): render_frame names id
 * (len bytes, no ';'; naming it again replaces the name), render_add_ids
 * adds the stack of frames ids[0..n), root first, named before, as
 * render_add would add them joined with ';' and count c.  In line order
 * no stack is spelled out and no name hashed again. */
void render_frame(struct render *r, uint32_t id, const char *name, size_t len);
void render_add_ids(struct render *r, const uint32_t *ids, size_t n, const struct fcount *c);

/* Lines render_add_line ignored. */
unsigned long render_ignored(const struct render *r);

/* Writes the SVG to f.  Returns 0 when a graph was drawn, 1 when there
 * were no samples (an SVG saying so is written).  Write errors are left
 * in f's error flag. */
int render_write(struct render *r, FILE *f);

/* Saves palette.map when --cp is on.  Returns 0, or -1 with a message. */
int render_finish(struct render *r, char *err, size_t errlen);

/* A renderer for o with its files loaded: render_new, then render_load.
 * Returns NULL with a message in err when a file could not be loaded. */
struct render *render_open(const struct fg_opts *o, render_warn_fn *warn, void *ctx, char *err,
			   size_t errlen);

/* Writes r's graph to path (NULL: stdout) atomically, then what the
 * options keep (render_finish).  Returns 0; 1 when there was nothing to
 * draw (the SVG that says so is still written); -1 with a message in err
 * when a file could not be written. */
int render_save(struct render *r, const char *path, char *err, size_t errlen);

#endif
