/* perf_format: perf script text as a row of the format table. */
#ifndef FLAME_PERF_FORMAT_H
#define FLAME_PERF_FORMAT_H

#include "format.h"

int perf_sniff(const char *head, size_t len);
int perf_collect(const struct format_job *j);

#endif
