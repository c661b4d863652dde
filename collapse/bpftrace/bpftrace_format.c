/* bpftrace_format: telling bpftrace's printed maps of stacks, and
 * collapsing them for collect. */
#include "bpftrace.h"
#include "bytes.h"
#include "collect.h"
#include "lread.h"

/* "@[" on a line of its own, and later "]: COUNT". */
int bpftrace_sniff(const char *head, size_t len)
{
	const char *p = head, *end = head + len, *s;
	size_t n;
	int key = 0;

	while (format_next_line(&p, end, &s, &n)) {
		if (n == 2 && s[0] == '@' && s[1] == '[')
			key = 1;
		else if (key && bytes_contains(s, n, "]: "))
			return 80;
	}
	return 0;
}

static int feed(void *b, const char *line, size_t n, unsigned long no)
{
	return bpftrace_line(b, line, n, no);
}

int bpftrace_collect(const struct format_job *j)
{
	struct bpftrace *b = bpftrace_new(j->t, j->o->seq, j->warn, j->ctx, j->name);
	int rc = format_fault(j, lread_feed(j->lr, feed, b, j->err, j->errlen) < 0);

	rc |= bpftrace_end(b);
	bpftrace_free(b);
	return rc;
}
