/* gdb: backtraces printed by gdb ("thread apply all bt", taken again and
 * again: the poor man's profiler) to collapsed stacks, as
 * stackcollapse-gdb.pl does.  Each run of "#N  0xADDR in func (args) at
 * file:line" lines (leaf first) is one sample of its thread; a "Thread"
 * line starts a new one. */
#ifndef FLAME_GDB_H
#define FLAME_GDB_H

#include <stddef.h>
#include <stdint.h>

#include "format.h"

struct fseq;
struct strtab;
struct gdb;

/* Returns a reader adding to t (values: struct fcount), and to seq in
 * input order when not NULL; messages go to warn, about name.  Free with
 * gdb_free. */
struct gdb *gdb_new(struct strtab *t, struct fseq *seq, collect_warn_fn *warn, void *ctx,
		    const char *name);

/* Frees g.  gdb_free(NULL) does nothing. */
void gdb_free(struct gdb *g);

/* Reads one line (no line end).  Always returns 0. */
int gdb_line(struct gdb *g, const char *line, size_t n, unsigned long lineno);

/* Ends the input (its last backtrace counts): returns 0, or 1 when it
 * held no backtrace. */
int gdb_end(struct gdb *g);

int gdb_sniff(const char *head, size_t len);
int gdb_collect(const struct format_job *j);

#endif
