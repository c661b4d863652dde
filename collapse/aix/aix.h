/* aix: AIX procstack output to collapsed stacks, as stackcollapse-aix.pl
 * does.  "PID: /path/prog" names the process; each thread's frames
 * ("0xADDR  func(args) + 0x10", leaf first) after its "---------- tid#"
 * line are one sample, under the process's name. */
#ifndef FLAME_AIX_H
#define FLAME_AIX_H

#include <stddef.h>

#include "format.h"
#include "linefmt.h"

extern const struct linefmt aix_linefmt;

int aix_sniff(const char *head, size_t len);
int aix_collect(const struct format_job *j);

#endif
