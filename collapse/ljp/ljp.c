/* ljp: the collapser over linefmt, and its sniffer.  As the awk script
 * does, "(...)" (from a line's first '(' to its last ')') goes before
 * the line is split into whitespace-separated fields. */
#include "ljp.h"
#include "leafstack.h"

#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

struct ljp {
	struct linefmt_out o;	/* first: where stacks go */
	struct leafstack st;	/* the trace so far */
	uint64_t count;		/* its count */
	int done;		/* "Total" seen: the rest is not read */
	char *buf;		/* a line without its "(...)" */
	size_t cap;		/* buf's room */
};

static void init(void *st)
{
	leafstack_init(&((struct ljp *)st)->st);
}

static void release(void *st)
{
	struct ljp *l = st;

	leafstack_release(&l->st);
	free(l->buf);
}

static void finish(void *st)
{
	struct ljp *l = st;
	const char *text;
	size_t len;

	text = leafstack_text(&l->st, &len);
	if (l->st.nframes && l->count)
		linefmt_add(&l->o, text, len, l->count);
	leafstack_clear(&l->st);
	l->count = 0;
}

static int space(char c)
{
	return c == ' ' || c == '\t';
}

/* Splits s into up to 4 whitespace-separated fields; returns how many
 * (4: four or more). */
static int fields(const char *s, size_t n, const char **f, size_t *fl)
{
	size_t i = 0;
	int k = 0;

	while (k < 4) {
		while (i < n && space(s[i]))
			i++;
		if (i >= n)
			break;
		f[k] = s + i;
		while (i < n && !space(s[i]))
			i++;
		fl[k] = (size_t)(s + i - f[k]);
		k++;
	}
	return k;
}

/* s without its "(...)", in the scratch buffer when there is one. */
static const char *uncut(struct ljp *l, const char *s, size_t *n)
{
	const char *open = memchr(s, '(', *n), *close = memrchr(s, ')', *n);
	size_t a, b;

	if (!open || !close || close < open)
		return s;
	a = (size_t)(open - s);
	b = (size_t)(close - s) + 1;
	if (*n > l->cap) {
		free(l->buf);
		l->cap = *n;
		l->buf = xmalloc(l->cap);
	}
	memcpy(l->buf, s, a);
	memcpy(l->buf + a, s + b, *n - b);
	*n -= b - a;
	return l->buf;
}

static int line(void *st, const char *s, size_t n, unsigned long no)
{
	struct ljp *l = st;
	const char *f[4];
	size_t fl[4];
	int k;

	if (l->done)
		return -1;
	s = uncut(l, s, &n);
	k = fields(s, n, f, fl);
	if (k >= 1 && fl[0] == 5 && memcmp(f[0], "Total", 5) == 0) {
		finish(l);
		l->done = 1;
		return -1;
	}
	if (k == 3) {
		finish(l);
		if (linefmt_u64(f[0], fl[0], &l->count) < 0)
			linefmt_bad(&l->o, no);
		leafstack_push(&l->st, f[2], fl[2]);
	} else if (k == 1 && l->count) {
		leafstack_push(&l->st, f[0], fl[0]);
	}
	return 0;
}

const struct linefmt ljp_linefmt = {
	"no traces (\"COUNT NFRAMES frame\" lines): not lightweight-java-profiler output",
	sizeof(struct ljp), init, line, finish, release
};

/* "COUNT N frame(...)" then tab-indented frames. */
static int trace_like(const char *s, size_t n)
{
	const char *f[4];
	size_t fl[4];
	uint64_t v;

	const char *open = memchr(s, '(', n);

	if (open)
		n = (size_t)(open - s);
	return fields(s, n, f, fl) == 3 && linefmt_u64(f[0], fl[0], &v) == 0 &&
	       linefmt_u64(f[1], fl[1], &v) == 0 && memchr(f[2], '.', fl[2]);
}

int ljp_sniff(const char *head, size_t len)
{
	size_t hits, n;
	const char *s;

	/* its first line a trace's: above perf's 50, which its ':'s reach */
	if (!format_first_line(head, len, &s, &n) || !trace_like(s, n))
		return 0;
	return linefmt_count(head, len, trace_like, &hits) && hits ? 60 : 0;
}

int ljp_collect(const struct format_job *j)
{
	return linefmt_collect(j, &ljp_linefmt);
}
