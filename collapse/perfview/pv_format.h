/* pv_format: PerfView's stack files as rows of the format table. */
#ifndef FLAME_PV_FORMAT_H
#define FLAME_PV_FORMAT_H

#include "format.h"

enum { PV_KIND_JSON, PV_KIND_XML };	/* format kinds, for pv_collect */

int pv_json_sniff(const char *head, size_t len);
int pv_xml_sniff(const char *head, size_t len);
int pv_collect(const struct format_job *j);

#endif
