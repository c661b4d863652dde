/* bpftrace: maps of stacks printed by bpftrace ("@[kstack] = count()" or
 * "@[ustack, comm] = count()") to collapsed stacks, as
 * stackcollapse-bpftrace.pl does.  A key is "@[" on a line of its own,
 * the frames leaf first, one a line, and "]: COUNT" (", comm]: COUNT" with
 * a second key, which becomes the root frame). */
#ifndef FLAME_BPFTRACE_H
#define FLAME_BPFTRACE_H

#include <stddef.h>
#include <stdint.h>

#include "format.h"

struct fseq;
struct strtab;
struct bpftrace;

/* Returns a reader adding to t (values: struct fcount), and to seq in
 * input order when not NULL; messages go to warn, about name.  Free with
 * bpftrace_free. */
struct bpftrace *bpftrace_new(struct strtab *t, struct fseq *seq, collect_warn_fn *warn,
			      void *ctx, const char *name);

/* Frees b.  bpftrace_free(NULL) does nothing. */
void bpftrace_free(struct bpftrace *b);

/* Reads one line (no line end).  Always returns 0. */
int bpftrace_line(struct bpftrace *b, const char *line, size_t n, unsigned long lineno);

/* Ends the input: returns 0, or 1 when it ended inside a key or had no
 * stacks (said through warn). */
int bpftrace_end(struct bpftrace *b);

int bpftrace_sniff(const char *head, size_t len);
int bpftrace_collect(const struct format_job *j);

#endif
