/* ljp: lightweight-java-profiler's traces.txt to collapsed stacks, as
 * stackcollapse-ljp.awk does.  "COUNT NFRAMES frame(args)" starts a trace
 * (its leaf), one frame a line follows towards the root, and "Total ..."
 * ends the traces. */
#ifndef FLAME_LJP_H
#define FLAME_LJP_H

#include <stddef.h>

#include "format.h"
#include "linefmt.h"

extern const struct linefmt ljp_linefmt;

int ljp_sniff(const char *head, size_t len);
int ljp_collect(const struct format_job *j);

#endif
