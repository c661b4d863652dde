/* perfdata_msg: what the reader says about the input it cannot read. */
#include "perfdata_int.h"

#include <stdarg.h>
#include <stdio.h>

#define REPORT_MAX 10			/* messages shown per input */

void pd_bad(struct pd *d, uint64_t off, const char *fmt, ...)
{
	char msg[300];
	size_t n = 0;
	va_list ap;

	d->st->bad++;
	if (d->reported++ >= REPORT_MAX)
		return;
	if (off != UINT64_MAX)
		n = (size_t)snprintf(msg, sizeof(msg), "byte %llu: ", (unsigned long long)off);
	va_start(ap, fmt);
	vsnprintf(msg + n, sizeof(msg) - n, fmt, ap);
	va_end(ap);
	d->warn(d->ctx, d->name, msg);
}
