/* etl_msg: what the reader says about a trace it cannot read: the first
 * few faults named, the rest counted. */
#include "etl_int.h"

#include <stdarg.h>
#include <stdio.h>

#define REPORT_MAX 5			/* messages named per input */

void etl_warn(struct etl *x, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	x->st.messages++;
	if (x->reported >= REPORT_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	x->warn(x->ctx, x->name, 0, msg);
	if (++x->reported == REPORT_MAX)
		x->warn(x->ctx, x->name, 0, "further faults are only counted");
}
