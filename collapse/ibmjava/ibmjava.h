/* ibmjava: IBM Java javacore thread dumps to collapsed stacks, as
 * stackcollapse-ibmjava.pl does.  A thread's "4XESTACKTRACE at ..." frames
 * (leaf first) are one sample when its "3XMTHREADINFO3 Native callstack:"
 * line comes, under the thread's name from its "3XMTHREADINFO" line. */
#ifndef FLAME_IBMJAVA_H
#define FLAME_IBMJAVA_H

#include <stddef.h>

#include "format.h"
#include "linefmt.h"

/* Options: jstack's (struct jstack_opts, jstack_cli_family), which mean
 * the same here: --no-include-tname, --include-tid ("name-0x2A03"),
 * --shorten-pkgs. */
extern const struct linefmt ibmjava_linefmt;

int ibmjava_sniff(const char *head, size_t len);
int ibmjava_collect(const struct format_job *j);

#endif
