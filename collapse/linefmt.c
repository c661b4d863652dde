/* linefmt: the run of a line-by-line collapser, and its helpers. */
#include "linefmt.h"
#include "collect.h"
#include "folded.h"
#include "lread.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *linefmt_new(const struct linefmt *f, const void *fopts, struct strtab *t, struct fseq *seq,
		  collect_warn_fn *warn, void *ctx, const char *name)
{
	struct linefmt_out *o = xcalloc(1, f->size);

	o->t = t;
	o->seq = seq;
	o->warn = warn;
	o->ctx = ctx;
	o->name = name;
	o->fopts = fopts;
	if (f->init)
		f->init(o);
	return o;
}

void linefmt_free(const struct linefmt *f, void *st)
{
	if (!st)
		return;
	if (f->release)
		f->release(st);
	free(st);
}

int linefmt_end(const struct linefmt *f, void *st)
{
	struct linefmt_out *o = st;
	char msg[160];

	if (f->end)
		f->end(st);
	if (o->bad) {
		snprintf(msg, sizeof(msg), "%llu lines could not be read and were skipped",
			 (unsigned long long)o->bad);
		o->warn(o->ctx, o->name, o->first_bad, msg);
	}
	if (o->stacks == 0) {
		o->warn(o->ctx, o->name, 0, f->lacks);
		return 1;
	}
	return 0;
}

struct feed {
	const struct linefmt *f;	/* the format */
	void *st;			/* its state */
};

static int feed(void *ctx, const char *line, size_t n, unsigned long no)
{
	struct feed *d = ctx;

	return d->f->line(d->st, line, n, no);
}

int linefmt_collect(const struct format_job *j, const struct linefmt *f)
{
	struct feed d = { f, linefmt_new(f, j->fopts, j->t, j->o->seq, j->warn, j->ctx, j->name) };
	int rc = format_fault(j, lread_feed(j->lr, feed, &d, j->err, j->errlen) < 0);

	rc |= linefmt_end(f, d.st);
	linefmt_free(f, d.st);
	return rc;
}

void linefmt_add(struct linefmt_out *o, const char *s, size_t n, uint64_t w)
{
	struct fcount c = { w, 0 };

	if (n == 0)
		return;
	fseq_put(o->t, o->seq, s, n, &c);
	o->stacks++;
}

void linefmt_addc(struct linefmt_out *o, const char *s, size_t n, const struct fcount *c)
{
	if (n == 0)
		return;
	fseq_put(o->t, o->seq, s, n, c);
	o->stacks++;
}

void linefmt_bad(struct linefmt_out *o, unsigned long lineno)
{
	if (o->bad++ == 0)
		o->first_bad = lineno;
}

size_t linefmt_count(const char *head, size_t len, int (*fn)(const char *s, size_t n),
		     size_t *hits)
{
	const char *p = head, *end = head + len, *s;
	size_t n, lines = 0;

	*hits = 0;
	while (lines < 400 && format_next_line(&p, end, &s, &n)) {
		lines++;
		*hits += fn(s, n) != 0;
	}
	return lines;
}

int linefmt_u64(const char *s, size_t n, uint64_t *v)
{
	size_t i;

	if (n == 0 || n > 19)
		return -1;
	for (*v = 0, i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		*v = *v * 10 + (uint64_t)(s[i] - '0');
	}
	return 0;
}

static int word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

size_t linefmt_java_short(const char *f, size_t n, char *out, int no_pkgs)
{
	size_t cut = n, dots = 0, i, o = 0;

	if (n == 0)
		return 0;	/* out may be NULL then */
	while (cut > 0 && dots < 2)
		if (f[--cut] == '.')
			dots++;
	if (dots < 2) {
		memcpy(out, f, n);
		return n;
	}
	cut++;		/* the package ends after this dot */
	for (i = 0; i < cut && !no_pkgs; i++)
		if (!word_char(f[i]) || i == 0 || !word_char(f[i - 1]))
			out[o++] = f[i];
	memcpy(out + o, f + cut, n - cut);
	return o + n - cut;
}

static int space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

void linefmt_trim(const char **s, size_t *n)
{
	while (*n && space((*s)[0]))
		(*s)++, (*n)--;
	while (*n && space((*s)[*n - 1]))
		(*n)--;
}
