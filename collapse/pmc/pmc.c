/* pmc: the collapser over linefmt, and its sniffer.  Each depth keeps
 * its latest node's name (as the script's array does: a jump of two
 * levels shows what an earlier path left there, or an empty frame). */
#include "pmc.h"
#include "leafstack.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

#define PMC_MAX_DEPTH 65536	/* deeper lines are skipped */

struct pmc {
	struct linefmt_out o;	/* first: where stacks go */
	char **name;		/* each depth's latest node */
	size_t *len;		/* their lengths */
	size_t cap;		/* room in both */
	long prev;		/* the last node's depth, -1: none */
	uint64_t count;		/* its count */
	struct leafstack st;	/* a path being written */
};

static void init(void *st)
{
	struct pmc *p = st;

	p->prev = -1;
	leafstack_init(&p->st);
}

static void release(void *st)
{
	struct pmc *p = st;
	size_t i;

	for (i = 0; i < p->cap; i++)
		free(p->name[i]);
	free(p->name);
	free(p->len);
	leafstack_release(&p->st);
}

/* The path from depth 0 to the last node is a stack, depth 0 its leaf. */
static void finish(void *st)
{
	struct pmc *p = st;
	const char *text;
	size_t len;
	long d;

	if (p->prev < 0)
		return;
	leafstack_clear(&p->st);
	for (d = 0; d <= p->prev; d++)
		leafstack_push(&p->st, p->name[d] ? p->name[d] : "", p->name[d] ? p->len[d] : 0);
	text = leafstack_text(&p->st, &len);
	linefmt_add(&p->o, text, len, p->count);
}

/* "  12.50%  [42]   func @ lib": the indent, the count and the name (the
 * first word after the brackets).  Returns 0 when the line is no node. */
static int node(const char *s, size_t n, size_t *indent, uint64_t *count, const char **f,
		size_t *fl)
{
	size_t i = 0, j;

	while (i < n && s[i] == ' ')
		i++;
	*indent = i;
	for (j = i; j < n && ((s[j] >= '0' && s[j] <= '9') || s[j] == '.'); j++)
		;
	if (j == i || n - j < 4 || memcmp(s + j, "%  [", 4) != 0)
		return 0;
	for (i = j += 4; j < n && s[j] >= '0' && s[j] <= '9'; j++)
		;
	if (j == n || s[j] != ']' || linefmt_u64(s + i, j - i, count) < 0)
		return 0;
	for (j++; j < n && (s[j] == ' ' || s[j] == '\t'); j++)
		;
	for (i = j; j < n && s[j] != ' ' && s[j] != '\t'; j++)
		;
	*f = s + i;
	*fl = j - i;
	return j > i;
}

static int line(void *st, const char *s, size_t n, unsigned long no)
{
	struct pmc *p = st;
	size_t d, fl, old;
	uint64_t c;
	const char *f;

	if (!node(s, n, &d, &c, &f, &fl))
		return 0;
	if (d >= PMC_MAX_DEPTH) {
		linefmt_bad(&p->o, no);
		return 0;
	}
	if ((long)d <= p->prev)
		finish(p);
	if (d >= p->cap) {
		old = p->cap;
		p->cap = d + 64;
		p->name = xrealloc(p->name, p->cap * sizeof(*p->name));
		p->len = xrealloc(p->len, p->cap * sizeof(*p->len));
		memset(p->name + old, 0, (p->cap - old) * sizeof(*p->name));
	}
	free(p->name[d]);
	p->name[d] = xstrndup(f, fl);
	p->len[d] = fl;
	p->count = c;
	p->prev = (long)d;
	return 0;
}

const struct linefmt pmc_linefmt = {
	"no callgraph lines (\"  12.5%  [42]  func\"): not pmcstat -G output", sizeof(struct pmc),
	init, line, finish, release
};

static int node_like(const char *s, size_t n)
{
	size_t d, fl;
	uint64_t c;
	const char *f;

	return node(s, n, &d, &c, &f, &fl);
}

int pmc_sniff(const char *head, size_t len)
{
	size_t hits, lines = linefmt_count(head, len, node_like, &hits);

	return lines && hits * 2 >= lines ? 75 : 0;
}

int pmc_collect(const struct format_job *j)
{
	return linefmt_collect(j, &pmc_linefmt);
}
