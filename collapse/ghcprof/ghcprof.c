/* ghcprof: the collapser.  Every line of the tree is a stack (inner cost
 * centres keep their own cost), so the path is kept joined ("a;b;c") with
 * where each frame ends. */
#include "ghcprof.h"
#include "folded.h"
#include "strtab.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WARN 10	/* bad lines named one by one; the rest counted */
#define MISSING "[missing]"	/* a level the indent skipped */

enum { BEFORE, BLANK, TREE, AFTER, NOCOLUMN };

struct ghcprof {
	struct ghcprof_opts o;		/* options */
	struct strtab *t;		/* stacks out */
	struct fseq *seq;		/* input order, or NULL */
	collect_warn_fn *warn;		/* messages */
	void *ctx;			/* for warn */
	const char *name;		/* the input */
	int state;			/* where in the report */
	size_t module_col;		/* where MODULE starts */
	size_t cost_col;		/* where the cost's column starts */
	char *path;			/* the current line's stack, joined */
	size_t len, cap;		/* its length and room */
	size_t *ends;			/* where each of its frames ends */
	size_t depth, ecap;		/* how many frames, and room */
	char num[64];			/* a number being read */
	struct ghcprof_stats st;	/* counters */
};

static const char *const heads[] = {
	"COST", "CENTRE", "MODULE", "SRC", "no.", "entries", "%time", "%alloc", "%time", "%alloc",
};

static int is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

int ghcprof_header(const char *s, size_t n)
{
	size_t i = 0, k, w, len;

	for (k = 0; k < sizeof(heads) / sizeof(heads[0]); k++) {
		while (i < n && is_ws(s[i]))
			i++;
		for (w = i; w < n && !is_ws(s[w]); w++)
			;
		len = strlen(heads[k]);
		if (w - i != len || memcmp(s + i, heads[k], len) != 0)
			return 0;
		i = w;
	}
	return 1;
}

struct ghcprof *ghcprof_new(const struct ghcprof_opts *o, struct strtab *t, struct fseq *seq,
			    collect_warn_fn *warn, void *ctx, const char *name)
{
	struct ghcprof *g = xcalloc(1, sizeof(*g));

	if (o)
		g->o = *o;
	g->t = t;
	g->seq = seq;
	g->warn = warn;
	g->ctx = ctx;
	g->name = name;
	return g;
}

void ghcprof_free(struct ghcprof *g)
{
	if (!g)
		return;
	free(g->path);
	free(g->ends);
	free(g);
}

const struct ghcprof_stats *ghcprof_stats(const struct ghcprof *g)
{
	return &g->st;
}

static void bad(struct ghcprof *g, unsigned long lineno, const char *why)
{
	if (g->st.bad++ < MAX_WARN)
		g->warn(g->ctx, g->name, lineno, why);
}

/* Where word w starts in s, or n. */
static size_t find(const char *s, size_t n, const char *w)
{
	const char *p = memmem(s, n, w, strlen(w));

	return p ? (size_t)(p - s) : n;
}

/* The columns, from the header: ticks and bytes are right-aligned under
 * their headings, so their column starts just after the one before. */
static int columns(struct ghcprof *g, const char *s, size_t n)
{
	const char *col = g->o.source == GHCPROF_TICKS ? "ticks" : "bytes";
	size_t at;

	g->module_col = find(s, n, "MODULE");
	if (g->o.source == GHCPROF_TIME) {
		g->cost_col = find(s, n, "%time");
		return 0;
	}
	if ((at = find(s, n, col)) == n)
		return -1;
	while (at > 0 && is_ws(s[at - 1]))
		at--;
	g->cost_col = at;
	return at > 0 ? 0 : -1;
}

/* The word of s that starts at or after byte col. */
static const char *word(const char *s, size_t n, size_t col, size_t *len)
{
	size_t i = col < n ? col : n, w;

	while (i < n && is_ws(s[i]))
		i++;
	for (w = i; w < n && !is_ws(s[w]); w++)
		;
	*len = w - i;
	return s + i;
}

/* A cost: %time in tenths of a percent, ticks or bytes, truncated as
 * inferno does.  Returns -1 when s is not a number. */
static int cost_of(struct ghcprof *g, const char *s, size_t n, uint64_t *v)
{
	char *end;
	double d;

	if (n == 0 || n >= sizeof(g->num) || memchr(s, 'x', n) || memchr(s, 'X', n))
		return -1;
	memcpy(g->num, s, n);
	g->num[n] = '\0';
	d = strtod(g->num, &end);
	if (end != g->num + n)
		return -1;
	if (g->o.source == GHCPROF_TIME)
		d *= 10.0;
	*v = !(d > 0) ? 0 : d >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)d;
	return 0;
}

/* Appends a frame "m.f" (inferno's, even when m is empty), or f alone
 * when m is NULL. */
static void push(struct ghcprof *g, const char *m, size_t ml, const char *f, size_t fl)
{
	xgrow(&g->path, &g->cap, g->len + ml + fl + 3, 1);
	if (g->depth > 0)
		g->path[g->len++] = ';';
	if (m) {
		memcpy(g->path + g->len, m, ml);
		g->len += ml;
		g->path[g->len++] = '.';
	}
	memcpy(g->path + g->len, f, fl);
	g->len += fl;
	xgrow(&g->ends, &g->ecap, g->depth + 1, sizeof(*g->ends));
	g->ends[g->depth++] = g->len;
}

static void emit(struct ghcprof *g, uint64_t cost)
{
	struct fcount c = { cost, 0 };

	fseq_put(g->t, g->seq, g->path, g->len, &c);
	g->st.stacks++;
}

/* A line of the tree: "  centre  Module  src  no. entries %time ...". */
static void tree_line(struct ghcprof *g, const char *s, size_t n, unsigned long lineno)
{
	size_t depth = 0, fl, ml, cl;
	const char *f, *m, *c;
	uint64_t cost;

	while (depth < n && s[depth] == ' ')
		depth++;
	if (depth < g->depth) {
		g->depth = depth;
		g->len = depth ? g->ends[depth - 1] : 0;
	} else if (depth > g->depth) {
		/* The lines below keep their place under the missing levels. */
		bad(g, lineno, "the indent skips a level (filled with \"" MISSING "\")");
		while (g->depth < depth)
			push(g, NULL, 0, MISSING, sizeof(MISSING) - 1);
	}
	c = word(s, n, g->cost_col, &cl);
	if (cost_of(g, c, cl, &cost) < 0) {
		bad(g, lineno, "the cost is not a number (read as 0)");
		cost = 0;
	}
	f = word(s, n, 0, &fl);
	m = word(s, n, g->module_col, &ml);
	push(g, m, ml, f, fl);
	emit(g, cost);
}

int ghcprof_line(struct ghcprof *g, const char *s, size_t n, unsigned long lineno)
{
	switch (g->state) {
	case BEFORE:
		if (!ghcprof_header(s, n))
			return 0;
		if (columns(g, s, n) < 0) {
			g->state = NOCOLUMN;
			return -1;
		}
		g->state = BLANK;
		return 0;
	case BLANK:		/* the line under the header */
		g->state = TREE;
		return 0;
	case TREE:
		while (n > 0 && is_ws(s[n - 1]))
			n--;
		if (n == 0) {
			g->state = AFTER;
			return -1;
		}
		tree_line(g, s, n, lineno);
		return 0;
	default:
		return -1;
	}
}

int ghcprof_end(struct ghcprof *g)
{
	char msg[160];

	if (g->st.bad > MAX_WARN) {
		snprintf(msg, sizeof(msg), "skipped %llu lines that could not be read",
			 (unsigned long long)g->st.bad);
		g->warn(g->ctx, g->name, 0, msg);
	}
	if (g->state == BEFORE) {
		g->warn(g->ctx, g->name, 0, "no cost-centre tree (a \"COST CENTRE MODULE SRC no. "
			"entries ...\" header): not a GHC .prof report");
		return 1;
	}
	if (g->state == NOCOLUMN) {
		snprintf(msg, sizeof(msg), "the report has no '%s' column (profile with +RTS -P, or "
			 "use --time)", g->o.source == GHCPROF_TICKS ? "ticks" : "bytes");
		g->warn(g->ctx, g->name, 0, msg);
		return 1;
	}
	return 0;
}
