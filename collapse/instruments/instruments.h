/* instruments: the call tree Xcode Instruments' Time Profiler exports as
 * text (Edit > Deep Copy, or File > Export, of the Call Tree), to collapsed
 * stacks, as stackcollapse-instruments.pl does.  After one header line,
 * each row is "TOTAL UNIT  PERCENT%  SELF UNIT\t \tINDENT FUNCTION", the
 * indent its depth; each row is a stack weighing its self time in
 * milliseconds (rounded). */
#ifndef FLAME_INSTRUMENTS_H
#define FLAME_INSTRUMENTS_H

#include <stddef.h>
#include <stdint.h>

#include "format.h"

struct fseq;
struct strtab;
struct instruments;

/* Returns a reader adding to t (values: struct fcount), and to seq in
 * row order when not NULL; messages go to warn, about name.  Free with
 * instruments_free. */
struct instruments *instruments_new(struct strtab *t, struct fseq *seq, collect_warn_fn *warn,
				    void *ctx, const char *name);

/* Frees s.  instruments_free(NULL) does nothing. */
void instruments_free(struct instruments *s);

/* Reads one line (no line end).  Always returns 0. */
int instruments_line(struct instruments *s, const char *line, size_t n, unsigned long lineno);

/* Ends the input: returns 0, or 1 when no row could be read. */
int instruments_end(struct instruments *s);

int instruments_sniff(const char *head, size_t len);
int instruments_collect(const struct format_job *j);

#endif
