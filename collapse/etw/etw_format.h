/* etw_format: wpaexporter CSV and xperf dumper text as rows of the
 * format table. */
#ifndef FLAME_ETW_FORMAT_H
#define FLAME_ETW_FORMAT_H

#include "format.h"

int wpa_sniff(const char *head, size_t len);
int dumper_sniff(const char *head, size_t len);
int etw_collect(const struct format_job *j);

#endif
