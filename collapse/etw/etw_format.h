/* etw_format: wpaexporter CSV and xperf dumper text as rows of the
 * format table. */
#ifndef FLAME_ETW_FORMAT_H
#define FLAME_ETW_FORMAT_H

#include "format.h"

/* stackcollapse-etw's options that flame takes too (a struct etw_cli). */
extern const struct format_family etw_family;

int wpa_sniff(const char *head, size_t len);
int dumper_sniff(const char *head, size_t len);
int etw_collect(const struct format_job *j);

#endif
