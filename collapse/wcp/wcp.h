/* wcp: the wall-clock profiler's report (wcp) to collapsed stacks, as
 * stackcollapse-wcp.pl does.  After "Full stacks", each
 * "42.00% ==== (21 samples)" line gives the weight of the stack whose
 * "N: func" lines (leaf first) follow, up to an empty line. */
#ifndef FLAME_WCP_H
#define FLAME_WCP_H

#include <stddef.h>

#include "format.h"
#include "linefmt.h"

extern const struct linefmt wcp_linefmt;

int wcp_sniff(const char *head, size_t len);
int wcp_collect(const struct format_job *j);

#endif
