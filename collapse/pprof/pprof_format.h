/* pprof_format: pprof profiles as a row of the format table. */
#ifndef FLAME_PPROF_FORMAT_H
#define FLAME_PPROF_FORMAT_H

#include "format.h"

/* How sure it is that head (inflated) starts a profile.proto: its first
 * fields must be Profile's, with the wire types profile.proto gives them,
 * and its first message (a sample type or a sample) must read as one. */
int pprof_fmt_sniff(const char *head, size_t len);

/* Collapses one profile (collect's run). */
int pprof_collect(const struct format_job *j);

#endif
