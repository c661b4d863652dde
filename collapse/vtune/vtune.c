/* vtune: the collapser.  The path from the root to the current row is
 * kept joined ("a;b;c") with where each frame ends. */
#include "vtune.h"
#include "folded.h"
#include "strtab.h"
#include "xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEADER "Function Stack,CPU Time:Self,Module"
#define MAX_WARN 10	/* bad rows named one by one; the rest counted */
/* Frames standing for a row that could not be read and for a level the
 * indent skipped: the rows below them keep their samples. */
#define UNREADABLE "[unreadable]"
#define MISSING "[missing]"

struct vtune {
	struct vtune_opts o;		/* options */
	struct strtab *t;		/* stacks out */
	struct fseq *seq;		/* input order, or NULL */
	collect_warn_fn *warn;		/* messages */
	void *ctx;			/* for warn */
	const char *name;		/* the input */
	int in_table;			/* the header was read */
	char *path;			/* the current row's stack, joined */
	size_t len, cap;		/* its length and room */
	size_t *ends;			/* where each of its frames ends */
	size_t depth, ecap;		/* how many frames, and room */
	char num[64];			/* a number being read */
	struct vtune_stats st;		/* counters */
};

struct vtune *vtune_new(const struct vtune_opts *o, struct strtab *t, struct fseq *seq,
			collect_warn_fn *warn, void *ctx, const char *name)
{
	struct vtune *v = xcalloc(1, sizeof(*v));

	if (o)
		v->o = *o;
	v->t = t;
	v->seq = seq;
	v->warn = warn;
	v->ctx = ctx;
	v->name = name;
	return v;
}

void vtune_free(struct vtune *v)
{
	if (!v)
		return;
	free(v->path);
	free(v->ends);
	free(v);
}

const struct vtune_stats *vtune_stats(const struct vtune *v)
{
	return &v->st;
}

static void bad(struct vtune *v, unsigned long lineno, const char *why)
{
	if (v->st.bad++ < MAX_WARN)
		v->warn(v->ctx, v->name, lineno, why);
}

/* "1.25" seconds -> 1250 ms, rounded half away from zero; negative and
 * not-a-number give 0.  Returns -1 when s is not a number. */
static int millis(struct vtune *v, const char *s, size_t n, uint64_t *ms)
{
	char *end;
	double d;

	if (n == 0 || n >= sizeof(v->num) || s[0] == ' ' || s[0] == '\t' ||
	    memchr(s, 'x', n) || memchr(s, 'X', n))
		return -1;
	memcpy(v->num, s, n);
	v->num[n] = '\0';
	d = strtod(v->num, &end);
	if (end != v->num + n)
		return -1;
	d = round(d * 1000.0);
	*ms = !(d > 0) ? 0 : d >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)d;
	return 0;
}

/* Appends a frame "module`function" (or the function alone). */
static void push(struct vtune *v, const char *mod, size_t mlen, const char *fn, size_t flen)
{
	xgrow(&v->path, &v->cap, v->len + mlen + flen + 3, 1);
	if (v->depth > 0)
		v->path[v->len++] = ';';
	if (mlen) {
		memcpy(v->path + v->len, mod, mlen);
		v->len += mlen;
		v->path[v->len++] = '`';
	}
	memcpy(v->path + v->len, fn, flen);
	v->len += flen;
	xgrow(&v->ends, &v->ecap, v->depth + 1, sizeof(*v->ends));
	v->ends[v->depth++] = v->len;
}

static void emit(struct vtune *v, uint64_t ms)
{
	struct fcount c = { ms, 0 };

	fseq_put(v->t, v->seq, v->path, v->len, &c);
	v->st.stacks++;
}

/* A row after its indent: function (quoted when it has commas), self
 * time in seconds, module. */
static void row(struct vtune *v, const char *p, size_t n, unsigned long lineno)
{
	const char *end = p + n, *fn = p, *q, *time, *mod = NULL, *comma;
	size_t flen, tlen, mlen = 0;
	uint64_t ms;

	if (*p == '"') {
		fn = p + 1;
		q = memmem(fn, (size_t)(end - fn), "\",", 2);
		time = q ? q + 2 : NULL;
	} else {
		q = memchr(p, ',', n);
		time = q ? q + 1 : NULL;
	}
	comma = time ? memchr(time, ',', (size_t)(end - time)) : NULL;
	if (!time || (!comma && !v->o.no_modules)) {
		bad(v, lineno, "a row without a function, a time and a module (read as \"" UNREADABLE "\")");
		push(v, NULL, 0, UNREADABLE, sizeof(UNREADABLE) - 1);
		return;
	}
	flen = (size_t)(q - fn);
	tlen = (size_t)((comma ? comma : end) - time);
	if (!v->o.no_modules) {
		mod = comma + 1;
		mlen = (size_t)(end - mod);
	}
	if (millis(v, time, tlen, &ms) < 0) {
		bad(v, lineno, "the CPU Time:Self field is not a number (read as 0)");
		ms = 0;
	}
	push(v, mod, mlen, fn, flen);
	if (ms > 0)
		emit(v, ms);
}

int vtune_line(struct vtune *v, const char *line, size_t n, unsigned long lineno)
{
	size_t sp = 0, depth;

	if (!v->in_table) {
		v->in_table = n >= sizeof(HEADER) - 1 && memcmp(line, HEADER, sizeof(HEADER) - 1) == 0;
		return 0;
	}
	while (n > 0 && (line[n - 1] == ' ' || line[n - 1] == '\t' || line[n - 1] == '\r'))
		n--;
	while (sp < n && line[sp] == ' ')
		sp++;
	if (sp == n)
		return 0;
	depth = sp + 1;
	if (depth <= v->depth) {
		v->depth = depth - 1;
		v->len = depth > 1 ? v->ends[depth - 2] : 0;
	} else if (depth > v->depth + 1) {
		/* Its rows below keep their place under the missing levels. */
		bad(v, lineno, "the indent skips a level (filled with \"" MISSING "\")");
		while (v->depth < depth - 1)
			push(v, NULL, 0, MISSING, sizeof(MISSING) - 1);
	}
	row(v, line + sp, n - sp, lineno);
	return 0;
}

int vtune_end(struct vtune *v)
{
	char msg[128];

	if (v->st.bad > MAX_WARN) {
		snprintf(msg, sizeof(msg), "skipped %llu rows that could not be read",
			 (unsigned long long)v->st.bad);
		v->warn(v->ctx, v->name, 0, msg);
	}
	if (!v->in_table) {
		v->warn(v->ctx, v->name, 0, "no \"" HEADER "\" header: not a VTune top-down CSV");
		return 1;
	}
	return 0;
}
