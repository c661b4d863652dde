/* perfsched_cli: telling scheduler-event perf script text, collapsing it
 * for collect, and the options (the awk script's variables). */
#include "perfsched.h"
#include "bytes.h"

enum { O_WAKE = 1550, O_RECURSE, O_TID };

static const struct cliopt format_opts[] = {
	{ "record-wake-stack", O_WAKE, NULL, "the waker's stack and name above the sleeper's" },
	{ "recurse", O_RECURSE, NULL, "that, and the waker's own last sleep above it" },
	{ "record-tid", O_TID, NULL, "tasks named \"comm-pid\", not \"comm\"" },
	{ NULL, 0, NULL, NULL }
};

static int set(void *ctx, int key, const char *arg, char *err, size_t errlen)
{
	struct perfsched_opts *o = ctx;

	(void)err, (void)errlen;
	switch (key) {
	case O_WAKE: o->wake_stack = 1; return 0;
	case O_RECURSE: o->recurse = 1; return 0;
	case O_TID: o->tid = 1; return 0;
	default: return ctool_set(&o->common, key, arg);
	}
}

const struct cliopt_family perfsched_cli_family = {
	"perf sched events, off-CPU time (as stackcollapse-perf-sched)", format_opts, set,
	sizeof(struct perfsched_opts), NULL, NULL, NULL
};

/* sched_switch and sched_stat_sleep or _blocked events: above perf (50),
 * which reads the same text as plain samples. */
int perfsched_sniff(const char *head, size_t len)
{
	return bytes_contains(head, len, "sched:sched_switch") &&
	       (bytes_contains(head, len, "sched:sched_stat_sleep") ||
		bytes_contains(head, len, "sched:sched_stat_blocked")) ? 70 : 0;
}

int perfsched_collect(const struct format_job *j)
{
	return linefmt_collect(j, &perfsched_linefmt);
}
