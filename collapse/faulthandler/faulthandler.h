/* faulthandler: Python's faulthandler dumps (dump_traceback_later with
 * repeat, or a signal's dump) to collapsed stacks, as
 * stackcollapse-faulthandler.pl does.  Each thread's '  File "f.py", line
 * 3 in func' lines, most recent call first, are one sample, its frames
 * "f.py:3:func". */
#ifndef FLAME_FAULTHANDLER_H
#define FLAME_FAULTHANDLER_H

#include <stddef.h>

#include "format.h"
#include "linefmt.h"

extern const struct linefmt faulthandler_linefmt;

int faulthandler_sniff(const char *head, size_t len);
int faulthandler_collect(const struct format_job *j);

#endif
