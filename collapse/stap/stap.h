/* stap: SystemTap stack aggregations to collapsed stacks, as
 * stackcollapse-stap.pl does.  A stack is printed leaf first, a frame a
 * line (" 0xffffffff81 : func+0x1c/0x30 [kernel]"), and ends with a line
 * holding only its count. */
#ifndef FLAME_STAP_H
#define FLAME_STAP_H

#include <stddef.h>

#include "format.h"
#include "linefmt.h"

extern const struct linefmt stap_linefmt;

int stap_sniff(const char *head, size_t len);
int stap_collect(const struct format_job *j);

#endif
