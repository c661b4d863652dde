/* perfdata_format: perf.data as a row of the format table, and for
 * stackcollapse-perf's own runs. */
#ifndef FLAME_PERFDATA_FORMAT_H
#define FLAME_PERFDATA_FORMAT_H

#include "format.h"
#include "perf.h"

int perfdata_fmt_sniff(const char *head, size_t len);
int perfdata_collect(const struct format_job *j);

/* Reads the perf.data on lr (from its start) into p's stacks (its
 * perf_end, perf_emit or perf_save writes them); messages through warn
 * (line 0).  Returns 0, 1 when it broke off part way (reported;
 * what came before is kept), -1 with a message in err. */
int perfdata_collapse(struct perf *p, const struct perf_opts *o, struct lread *lr,
		      const char *name, perf_warn_fn *warn, void *ctx, char *err, size_t errlen);

#endif
