/* filter: one set of sample filters for every reader. */
#include "filter.h"

#include <string.h>
#include <strings.h>

int filter_has_ids(const struct filter *f)
{
	return f && (f->npid || f->ntid || f->nprocess);
}

int filter_has_time(const struct filter *f)
{
	return f && (f->has_begin || f->has_end);
}

static int in_list(long v, const long *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (list[i] == v)
			return 1;
	return n == 0;
}

int filter_pid(const struct filter *f, long pid)
{
	return !f || in_list(pid, f->pid, f->npid);
}

int filter_tid(const struct filter *f, long tid)
{
	return !f || in_list(tid, f->tid, f->ntid);
}

int filter_time(const struct filter *f, double t)
{
	return !f || !((f->has_begin && t < f->begin) || (f->has_end && t >= f->end));
}

/* n without a final ".exe" in any case. */
static size_t exe_less(const char *s, size_t n)
{
	return n >= 4 && strncasecmp(s + n - 4, ".exe", 4) == 0 ? n - 4 : n;
}

int filter_process(const struct filter *f, const char *s, size_t n, int windows)
{
	size_t i, k;

	if (!f || !f->nprocess)
		return 1;
	if (windows)
		n = exe_less(s, n);
	for (i = 0; i < f->nprocess; i++) {
		const char *p = f->process[i];

		k = windows ? exe_less(p, strlen(p)) : strlen(p);
		if (k == n && (windows ? strncasecmp(p, s, n) : memcmp(p, s, n)) == 0)
			return 1;
	}
	return 0;
}
