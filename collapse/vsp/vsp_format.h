/* vsp_format: Visual Studio profiler reports as rows of the format table. */
#ifndef FLAME_VSP_FORMAT_H
#define FLAME_VSP_FORMAT_H

#include "format.h"

int vsp_tree_sniff(const char *head, size_t len);
int vsp_caller_sniff(const char *head, size_t len);
int vsp_collect(const struct format_job *j);

#endif
