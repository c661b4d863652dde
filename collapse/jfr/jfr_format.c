/* jfr_format: a recording read whole (mapped when it is a plain file),
 * its samples added to the job's stacks, what was left out said. */
#include "jfr_format.h"
#include "collect.h"
#include "folded.h"
#include "jfr.h"
#include "lread.h"

#include <stdio.h>
#include <stdlib.h>

#define JFR_MAX_INPUT ((uint64_t)4 << 30)

int jfr_fmt_sniff(const char *head, size_t len)
{
	return jfr_sniff(head, len) ? 100 : 0;
}

struct put {
	const struct format_job *j;
	struct fcount one;
};

static void put(void *ctx, const char *stack, size_t len)
{
	struct put *p = ctx;

	fseq_put(p->j->t, p->j->o->seq, stack, len, &p->one);
}

/* Says what was not drawn, and why. */
static void report(const struct format_job *j, const struct jfr_stats *st)
{
	char msg[400];

	if (st->unresolved) {
		snprintf(msg, sizeof(msg), "%lu sample%s name a stack trace the recording does not hold; "
			 "skipped", st->unresolved, st->unresolved == 1 ? "" : "s");
		j->warn(j->ctx, j->name, 0, msg);
	}
	if (st->truncated) {
		snprintf(msg, sizeof(msg), "%lu sample%s stacks were cut short by the JVM's stack depth "
			 "(record with -XX:FlightRecorderOptions:stackdepth=N for deeper ones)",
			 st->truncated, st->truncated == 1 ? "'s" : "s'");
		j->warn(j->ctx, j->name, 0, msg);
	}
	if (st->native) {
		snprintf(msg, sizeof(msg), "%lu jdk.NativeMethodSample event%s (threads in native code) "
			 "are not drawn", st->native, st->native == 1 ? "" : "s");
		j->warn(j->ctx, j->name, 0, msg);
	}
	if (!st->samples && !st->fault)
		j->warn(j->ctx, j->name, 0, "no jdk.ExecutionSample events: record with settings=profile "
			"or with jdk.ExecutionSample enabled");
	if (st->fault) {
		snprintf(msg, sizeof(msg), "%s; what could be read is kept", st->first);
		j->warn(j->ctx, j->name, 0, msg);
	}
}

int jfr_collect(const struct format_job *j)
{
	struct put p = { j, { 1, 0 } };
	struct jfr_stats st;
	char rerr[240];
	size_t len;
	const char *whole = lread_whole(j->lr, &len);
	char *buf = NULL;

	rerr[0] = '\0';
	if (!whole) {
		if (!(buf = lread_slurp(j->lr, JFR_MAX_INPUT, &len, rerr, sizeof(rerr)))) {
			snprintf(j->err, j->errlen, "%s: %s", j->name, rerr);
			return -1;
		}
		whole = buf;
	}
	jfr_read((const unsigned char *)whole, len, put, &p, &st);
	free(buf);
	report(j, &st);
	if (rerr[0])
		j->warn(j->ctx, j->name, 0, rerr);
	return st.fault || rerr[0];
}
