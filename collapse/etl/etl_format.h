/* etl_format: ETW trace files (.etl) as a row of the format table, with
 * the ETW exports' options (etw_cli_family). */
#ifndef FLAME_ETL_FORMAT_H
#define FLAME_ETL_FORMAT_H

#include "format.h"

int etl_format_sniff(const char *head, size_t len);
int etl_collect(const struct format_job *j);

#endif
