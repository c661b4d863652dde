/* xdebug: the collapser over linefmt, its sniffer and its options.  The
 * stack is kept root first in one buffer with each frame's start, so a
 * push or a pop is one step. */
#include "xdebug.h"
#include "bytes.h"
#include "folded.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

#define XD_MAX_DEPTH 100000	/* deeper calls are skipped */

enum { BEFORE, IN, AFTER };

struct xd {
	struct linefmt_out o;	/* first: where stacks go */
	int state;		/* before TRACE START, in the trace, after it */
	char *buf;		/* the stack, root first, ';' between frames */
	size_t len, cap;	/* its length and room */
	size_t *starts;		/* where each frame starts */
	size_t depth, scap;	/* frames, and room for their starts */
	int64_t prev_ns;	/* the last line's time */
	int was_exit;		/* --count: the last line was an exit */
	int warned;		/* an exit with no call was named */
};

static void release(void *st)
{
	struct xd *x = st;

	free(x->buf);
	free(x->starts);
}

static void push(struct xd *x, const char *f, size_t n)
{
	if (x->depth == x->scap) {
		x->scap = x->scap ? 2 * x->scap : 64;
		x->starts = xrealloc(x->starts, x->scap * sizeof(*x->starts));
	}
	if (x->len + n + 1 > x->cap) {
		x->cap = 2 * (x->len + n + 1);
		x->buf = xrealloc(x->buf, x->cap);
	}
	if (x->depth)
		x->buf[x->len++] = ';';
	x->starts[x->depth++] = x->len;
	memcpy(x->buf + x->len, f, n);
	x->len += n;
}

static void pop(struct xd *x)
{
	x->depth--;
	x->len = x->depth ? x->starts[x->depth] - 1 : 0;
}

/* "12.345678": seconds, into nanoseconds (digits past the ninth are
 * dropped).  Returns 0, or -1 when it is no time. */
static int time_ns(const char *s, size_t n, int64_t *ns)
{
	size_t i = 0, d = 0;
	int64_t v = 0;

	while (i < n && s[i] >= '0' && s[i] <= '9' && i < 10)
		v = v * 10 + (s[i++] - '0');
	if (i == 0 || (i < n && s[i] != '.'))
		return -1;
	for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++)
		if (d < 9)
			v = v * 10 + (s[i] - '0'), d++;
	if (i < n)
		return -1;
	for (; d < 9; d++)
		v *= 10;
	*ns = v;
	return 0;
}

/* The stack on top weighed the time since the last line. */
static void add_time(struct xd *x, int64_t now)
{
	int64_t d = now - x->prev_ns;
	struct fcount c;

	if (d < 0)
		d = 0;
	c.n = (uint64_t)(d / 1000);
	c.frac = (double)(d % 1000) / 1000.0;
	if (x->depth)
		linefmt_addc(&x->o, x->buf, x->len, &c);
}

/* Splits the line at runs of tabs: up to 6 fields. */
static int fields(const char *s, size_t n, const char **f, size_t *fl)
{
	size_t i = 0;
	int k = 0;

	while (k < 6 && i <= n) {
		f[k] = s + i;
		while (i < n && s[i] != '\t')
			i++;
		fl[k] = (size_t)(s + i - f[k]);
		k++;
		while (i < n && s[i] == '\t')
			i++;
		if (i == n)
			break;
	}
	return k;
}

/* One line of the trace; -1 when it cannot be read. */
static int trace_line(struct xd *x, const char *s, size_t n, int count)
{
	const char *f[6];
	size_t fl[6];
	int k = fields(s, n, f, fl);
	int64_t t = 0;
	int exit = k >= 3 && fl[2] == 1 && f[2][0] == '1';

	if (k < 3 || (!count && (k < 4 || time_ns(f[3], fl[3], &t) < 0)) ||
	    (!exit && (k < 6 || !(fl[2] == 1 && f[2][0] == '0'))))
		return fl[2] == 1 && f[2][0] == 'R' ? 0 : -1;
	if (exit && x->depth == 0)
		return -1;
	if (exit) {
		if (count && !x->was_exit)
			linefmt_add(&x->o, x->buf, x->len, 1);
		else if (!count)
			add_time(x, t);
		pop(x);
	} else {
		if (x->depth >= XD_MAX_DEPTH)
			return -1;
		if (!count)
			add_time(x, t);
		push(x, f[5], fl[5]);
	}
	x->was_exit = exit;
	x->prev_ns = t;
	return 0;
}

static int line(void *st, const char *s, size_t n, unsigned long no)
{
	struct xd *x = st;
	const struct xdebug_opts *op = x->o.fopts;

	if (x->state == BEFORE) {
		if (n >= 11 && memcmp(s, "TRACE START", 11) == 0)
			x->state = IN;
		return 0;
	}
	if ((n && s[0] == '\t') || (n >= 9 && memcmp(s, "TRACE END", 9) == 0)) {
		x->state = BEFORE;	/* a file may hold more traces */
		x->depth = x->len = 0;
		return 0;
	}
	if (trace_line(x, s, n, op && op->count) < 0)
		linefmt_bad(&x->o, no);
	return 0;
}

const struct linefmt xdebug_linefmt = {
	"no calls between \"TRACE START\" and \"TRACE END\": not an Xdebug trace (format 1)",
	sizeof(struct xd), NULL, line, NULL, release
};

int xdebug_sniff(const char *head, size_t len)
{
	return bytes_contains(head, len, "TRACE START [") ? 90 : 0;
}

int xdebug_collect(const struct format_job *j)
{
	return linefmt_collect(j, &xdebug_linefmt);
}

enum { O_TIME = 1540, O_COUNT };

static const struct cliopt format_opts[] = {
	{ "time", O_TIME, NULL, "weigh stacks by microseconds on top (the default; -t)" },
	{ "count", O_COUNT, NULL, "weigh stacks by calls that returned without calling (-c)" },
	{ NULL, 0, NULL, NULL }
};

static int set(void *ctx, int key, const char *arg, char *err, size_t errlen)
{
	struct xdebug_opts *o = ctx;

	(void)err, (void)errlen;
	switch (key) {
	case O_TIME: o->count = 0; return 0;
	case O_COUNT: o->count = 1; return 0;
	default: return ctool_set(&o->common, key, arg);
	}
}

const struct cliopt_family xdebug_cli_family = {
	"Xdebug function traces (as stackcollapse-xdebug)", format_opts, set,
	sizeof(struct xdebug_opts), NULL, NULL, NULL
};
