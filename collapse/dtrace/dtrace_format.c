/* dtrace_format: telling DTrace stack output, and collapsing it for
 * collect. */
#include "dtrace.h"
#include "collect.h"
#include "lblock.h"
#include "lread.h"

#include <string.h>

/* A frame line of a stack: "module`function..." or a bare "0xADDRESS". */
static int stack_line(const char *s, size_t n)
{
	size_t i;

	if (memchr(s, '`', n))
		return 1;
	if (n < 3 || s[0] != '0' || s[1] != 'x' || n > 18)
		return 0;
	for (i = 2; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || ((s[i] | 0x20) >= 'a' && (s[i] | 0x20) <= 'f')))
			return 0;
	return 1;
}

static int digits(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return n > 0;
}

/* After a blank line: frame lines, then a count, as inferno tells it. */
int dtrace_sniff(const char *head, size_t len)
{
	const char *p = head, *end = head + len, *s;
	size_t n;
	int blank = 0, frames = 0;

	while (format_next_line(&p, end, &s, &n)) {
		while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
			n--;
		while (n > 0 && (*s == ' ' || *s == '\t'))
			s++, n--;
		if (n == 0)
			blank = 1;
		else if (!blank)
			continue;
		else if (digits(s, n))
			return frames ? 85 : 0;
		else if (stack_line(s, n))
			frames = 1;
		else
			return 0;
	}
	return 0;
}

static int feed(void *d, const char *text, size_t len, unsigned long *lineno)
{
	return dtrace_text(d, text, len, lineno);
}

int dtrace_collect(const struct format_job *j)
{
	struct dtrace *d = dtrace_new(j->fopts, j->t, j->o->seq, j->warn, j->ctx, j->name);
	int rc = format_fault(j, lblock_feed(j->lr, feed, d, j->err, j->errlen) < 0);

	rc |= dtrace_end(d);
	dtrace_free(d);
	return rc;
}
