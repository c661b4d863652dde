/* folded_format: collapsed stacks as a row of the format table. */
#ifndef FLAME_FOLDED_FORMAT_H
#define FLAME_FOLDED_FORMAT_H

#include "format.h"

int folded_sniff(const char *head, size_t len);
int folded_collect(const struct format_job *j);

#endif
