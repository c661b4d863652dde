/* elfutils: eu-stack output to collapsed stacks, as
 * stackcollapse-elfutils.pl does.  "PID N - name" and "TID N:" lines
 * start a thread's backtrace, whose "#N  0xADDR func" frames come leaf
 * first; each backtrace is one sample.  --pid and --tid put "PID=N" and
 * "TID=N" frames at the root. */
#ifndef FLAME_ELFUTILS_H
#define FLAME_ELFUTILS_H

#include <stddef.h>

#include "ctool.h"
#include "format.h"
#include "linefmt.h"

struct elfutils_opts {
	struct ctool_common common;	/* -q */
	int pid, tid;			/* --pid, --tid */
};

extern const struct linefmt elfutils_linefmt;
extern const struct cliopt_family elfutils_cli_family;

int elfutils_sniff(const char *head, size_t len);
int elfutils_collect(const struct format_job *j);

#endif
