/* perfsched: perf script text of scheduler events to collapsed stacks of
 * off-CPU time, as stackcollapse-perf-sched.awk does.  Record with
 *   perf record -e sched:sched_switch -e sched:sched_stat_sleep \
 *     -e sched:sched_stat_blocked -g ...; perf script > out.txt
 * A task's sched_switch stack (where it went to sleep) is charged the
 * delay of the sched_stat_sleep or _blocked event that later wakes it,
 * under its command's name; stacks weigh microseconds.  With
 * --record-wake-stack the waker's stack and name follow the sleeper's;
 * with --recurse, also the waker's own last sleep; --record-tid names
 * tasks "comm-pid". */
#ifndef FLAME_PERFSCHED_H
#define FLAME_PERFSCHED_H

#include <stddef.h>

#include "ctool.h"
#include "format.h"
#include "linefmt.h"

struct perfsched_opts {
	struct ctool_common common;	/* -q */
	int wake_stack;			/* --record-wake-stack */
	int recurse;			/* --recurse */
	int tid;			/* --record-tid */
};

extern const struct linefmt perfsched_linefmt;
extern const struct cliopt_family perfsched_cli_family;

int perfsched_sniff(const char *head, size_t len);
int perfsched_collect(const struct format_job *j);

#endif
