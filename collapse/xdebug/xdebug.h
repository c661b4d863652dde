/* xdebug: PHP Xdebug function traces (xdebug.trace_format=1, tab
 * separated) to collapsed stacks, as stackcollapse-xdebug.php does.
 * Between "TRACE START" and "TRACE END", an entry line
 * "LEVEL FN 0 TIME MEM NAME ..." pushes NAME and an exit line
 * "LEVEL FN 1 TIME MEM" pops it.  By default each stack weighs the
 * microseconds it was on top (the time between one line and the next);
 * with --count each call that returned without calling weighs 1. */
#ifndef FLAME_XDEBUG_H
#define FLAME_XDEBUG_H

#include <stddef.h>

#include "ctool.h"
#include "format.h"
#include "linefmt.h"

struct xdebug_opts {
	struct ctool_common common;	/* -q */
	int count;			/* --count (-c): calls, not durations */
};

extern const struct linefmt xdebug_linefmt;
extern const struct cliopt_family xdebug_cli_family;

int xdebug_sniff(const char *head, size_t len);
int xdebug_collect(const struct format_job *j);

#endif
