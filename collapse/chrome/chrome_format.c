/* chrome_format: telling a .cpuprofile and trace-event JSON apart, and
 * reading them for collect. */
#include "chrome.h"
#include "bytes.h"
#include "collect.h"
#include "json.h"
#include "lread.h"

/* The first byte that is not white space, or 0. */
static char first(const char *head, size_t len)
{
	size_t i = 0;

	while (i < len && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t'))
		i++;
	return i < len ? head[i] : 0;
}

/* An object with nodes and their callFrames (or the old "head" tree),
 * and no trace events around them. */
int cpuprofile_sniff(const char *head, size_t len)
{
	if (first(head, len) != '{' || bytes_contains(head, len, "\"traceEvents\"") ||
	    bytes_contains(head, len, "\"ph\""))
		return 0;
	if (bytes_contains(head, len, "\"nodes\"") && bytes_contains(head, len, "\"callFrame\""))
		return 100;
	if (bytes_contains(head, len, "\"head\"") && bytes_contains(head, len, "\"functionName\""))
		return 100;
	return 0;
}

/* An array of events with a phase each, or an object holding them. */
int trace_sniff(const char *head, size_t len)
{
	char c = first(head, len);

	if (c == '[' && bytes_contains(head, len, "\"ph\""))
		return 100;
	if (c == '{' && bytes_contains(head, len, "\"traceEvents\""))
		return 100;
	return 0;
}

static int run(const struct format_job *j, int (*read)(struct json *, struct chrome_opts *))
{
	struct chrome_opts o = { 0 };
	struct json *js = json_new(lread_pull, j->lr);
	int rc;

	o.t = j->t;
	o.seq = j->o->seq;
	o.warn = j->warn;
	o.ctx = j->ctx;
	o.name = j->name;
	rc = read(js, &o);
	if (o.timed)
		collect_unit(j->o, "us");
	json_free(js);
	return rc;
}

int cpuprofile_collect(const struct format_job *j)
{
	return run(j, cpuprofile_read);
}

int trace_collect(const struct format_job *j)
{
	return run(j, trace_read);
}
