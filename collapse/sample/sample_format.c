/* sample_format: telling sample(1) reports, and collapsing them for
 * collect. */
#include "sample.h"
#include "collect.h"
#include "lblock.h"
#include "lread.h"
#include "sample_tree.h"

#include <string.h>

/* "Call graph:" and, below it, an indented node with a count. */
int sample_sniff(const char *head, size_t len)
{
	const char *p = head, *end = head + len, *s;
	size_t n, i;
	int graph = 0;

	while (format_next_line(&p, end, &s, &n)) {
		if (n >= 11 && memcmp(s, "Call graph:", 11) == 0) {
			graph = 1;
			continue;
		}
		if (!graph || n == 0)
			continue;
		if (n >= 21 && memcmp(s, "Total number in stack", 21) == 0)
			return 90;
		for (i = 0; i < n && s[i] == ' '; i++)
			;
		return i >= 4 && i < n && s[i] >= '0' && s[i] <= '9' ? 90 : 0;
	}
	return 0;
}

static int feed(void *s, const char *text, size_t len, unsigned long *lineno)
{
	/* 3-4% of the CPU time on a 97 MB report. */
	lread_bring_in(text, len);
	return sample_text(s, text, len, lineno);
}

int sample_collect(const struct format_job *j)
{
	struct sample_opts o = { 0 };
	struct sample_tree *own = NULL;
	struct sample *s;
	int rc;

	if (j->fopts)
		o = *(const struct sample_opts *)j->fopts;
	/* flame's graph: the stacks kept as the tree they come as and handed
	 * to the renderer as frame ids, as stackcollapse-sample writes them
	 * (not for a flame chart, which wants input order). */
	if (!o.tree && j->o->stack_sink && !j->o->seq)
		o.tree = own = sample_tree_new();
	s = sample_new(&o, j->t, j->o->seq, j->warn, j->ctx, j->name);
	rc = format_fault(j, lblock_feed(j->lr, feed, s, j->err, j->errlen) < 0);
	rc |= sample_end(s);
	sample_free(s);
	if (own) {
		sample_tree_emit(own, j->o->stack_sink);
		sample_tree_free(own);
	}
	return rc;
}
