/* jfr_format: Java Flight Recorder recordings, a row of the format table
 * (flame only: no peer ships a collapser for them). */
#ifndef FLAME_JFR_FORMAT_H
#define FLAME_JFR_FORMAT_H

#include "format.h"

int jfr_fmt_sniff(const char *head, size_t len);
int jfr_collect(const struct format_job *j);

#endif
