/* ibmjava: IBM Java javacore thread dumps to collapsed stacks, as
 * stackcollapse-ibmjava.pl does.  A thread's "4XESTACKTRACE at ..." frames
 * (leaf first) are one sample when its "3XMTHREADINFO3 Native callstack:"
 * line comes, under the thread's name from its "3XMTHREADINFO" line. */
#ifndef FLAME_IBMJAVA_H
#define FLAME_IBMJAVA_H

#include <stddef.h>

#include "ctool.h"
#include "format.h"
#include "linefmt.h"

struct ibmjava_opts {
	struct ctool_common common;	/* -q */
	int no_tname;			/* --no-include-tname */
	int tid;			/* --include-tid: "name-0x1234" */
	int shorten;			/* --shorten-pkgs */
};

extern const struct linefmt ibmjava_linefmt;
extern const struct cliopt_family ibmjava_cli_family;

int ibmjava_sniff(const char *head, size_t len);
int ibmjava_collect(const struct format_job *j);

#endif
