/* instruments: the collapser.  The path from the root to the current row
 * is kept joined with where each frame ends. */
#include "instruments.h"
#include "folded.h"
#include "strtab.h"
#include "xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WARN 10	/* bad rows named one by one; the rest counted */
#define MISSING "[missing]"	/* a level the indent skipped */

struct instruments {
	struct strtab *t;		/* stacks out */
	struct fseq *seq;		/* input order, or NULL */
	collect_warn_fn *warn;		/* messages */
	void *ctx;			/* for warn */
	const char *name;		/* the input */
	char *path;			/* the current row's stack, joined */
	size_t len, cap;		/* its length and room */
	size_t *ends;			/* where each of its frames ends */
	size_t depth, ecap;		/* how many frames, and room */
	uint64_t rows, bad;		/* rows read, and skipped */
};

struct instruments *instruments_new(struct strtab *t, struct fseq *seq, collect_warn_fn *warn,
				    void *ctx, const char *name)
{
	struct instruments *s = xcalloc(1, sizeof(*s));

	s->t = t;
	s->seq = seq;
	s->warn = warn;
	s->ctx = ctx;
	s->name = name;
	return s;
}

void instruments_free(struct instruments *s)
{
	if (!s)
		return;
	free(s->path);
	free(s->ends);
	free(s);
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

/* Steps over digits; returns how many. */
static size_t digits(const char *s, size_t n, size_t *i)
{
	size_t from = *i;

	while (*i < n && is_digit(s[*i]))
		(*i)++;
	return *i - from;
}

/* "12.5 ms", "1 s", "0.5 min" at s[*i]: the time in milliseconds; needs
 * a fraction when frac.  Returns -1 when it is not one. */
static double duration(const char *s, size_t n, size_t *i, int frac)
{
	size_t from = *i;
	double v;

	if (!digits(s, n, i))
		return -1;
	if (*i < n && s[*i] == '.') {
		(*i)++;
		if (!digits(s, n, i))
			return -1;
	} else if (frac) {
		return -1;
	}
	v = strtod(s + from, NULL);
	if (*i + 4 <= n && memcmp(s + *i, " min", 4) == 0) {
		*i += 4;
		return v * 60 * 1000;
	}
	if (*i + 3 <= n && memcmp(s + *i, " ms", 3) == 0) {
		*i += 3;
		return v;
	}
	if (*i + 2 <= n && memcmp(s + *i, " s", 2) == 0) {
		*i += 2;
		return v * 1000;
	}
	return -1;
}

/* Parses a row: its self time (ms), depth and function. */
static int row(const char *s, size_t n, double *self, size_t *depth, size_t *fn)
{
	size_t i = 0, w;

	while (i < n && is_ws(s[i]))
		i++;
	if (duration(s, n, &i, 1) < 0 || i >= n || !is_ws(s[i]))
		return -1;
	while (i < n && is_ws(s[i]))
		i++;
	if (!digits(s, n, &i) || i >= n || s[i++] != '.' || !digits(s, n, &i) || i >= n || s[i++] != '%')
		return -1;
	if (i >= n || !is_ws(s[i]))
		return -1;
	while (i < n && is_ws(s[i]))
		i++;
	if ((*self = duration(s, n, &i, 0)) < 0 || i + 3 > n || memcmp(s + i, "\t \t", 3) != 0)
		return -1;
	for (i += 3, w = i; i < n && is_ws(s[i]); i++)
		;
	*depth = i - w;
	*fn = i;
	return i < n ? 0 : -1;
}

static void push(struct instruments *s, const char *f, size_t fl)
{
	xgrow(&s->path, &s->cap, s->len + fl + 2, 1);
	if (s->depth > 0)
		s->path[s->len++] = ';';
	memcpy(s->path + s->len, f, fl);
	s->len += fl;
	xgrow(&s->ends, &s->ecap, s->depth + 1, sizeof(*s->ends));
	s->ends[s->depth++] = s->len;
}

static void emit(struct instruments *s, double ms)
{
	/* Rounded as printf's %.0f rounds (ties to even), as the script does. */
	double r = nearbyint(ms);
	struct fcount c = { r >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)r, 0 };

	fseq_put(s->t, s->seq, s->path, s->len, &c);
}

int instruments_line(struct instruments *s, const char *line, size_t n, unsigned long lineno)
{
	size_t depth, fn;
	double self;

	if (lineno == 1 || n == 0)	/* the header */
		return 0;
	if (row(line, n, &self, &depth, &fn) < 0) {
		if (s->bad++ < MAX_WARN)
			s->warn(s->ctx, s->name, lineno, "not a call tree row (skipped)");
		return 0;
	}
	if (depth < s->depth) {
		s->depth = depth;
		s->len = depth ? s->ends[depth - 1] : 0;
	} else if (depth > s->depth) {
		if (s->bad++ < MAX_WARN)
			s->warn(s->ctx, s->name, lineno, "the indent skips a level (filled with \""
				MISSING "\")");
		while (s->depth < depth)
			push(s, MISSING, sizeof(MISSING) - 1);
	}
	push(s, line + fn, n - fn);
	emit(s, self);
	s->rows++;
	return 0;
}

int instruments_end(struct instruments *s)
{
	char msg[128];

	if (s->bad > MAX_WARN) {
		snprintf(msg, sizeof(msg), "skipped %llu rows that could not be read",
			 (unsigned long long)s->bad);
		s->warn(s->ctx, s->name, 0, msg);
	}
	if (s->rows == 0) {
		s->warn(s->ctx, s->name, 0, "no call tree rows: not an Instruments call tree export");
		return 1;
	}
	return 0;
}
