/* lnt_format: telling LNT profiles, and collapsing them for collect. */
#include "lnt_format.h"
#include "collect.h"
#include "folded.h"
#include "lread.h"
#include "strtab.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int lnt_format_sniff(const char *head, size_t len)
{
	/* Both versions are told by structure, not by a byte or two: v2's
	 * section table must chain, v1's zlib data inflate to a pickle. */
	return lnt_sniff((const unsigned char *)head, len) ? 95 : 0;
}

struct lnt_prof *lnt_load(struct lread *lr, char *err, size_t errlen)
{
	char *buf = NULL;
	size_t len = 0, cap = 0;
	struct lnt_prof *p;
	ssize_t n = 1;

	while (n > 0) {
		if (len >= LNT_MAX_INFLATE) {
			snprintf(err, errlen, "larger than %zu bytes", LNT_MAX_INFLATE);
			free(buf);
			return NULL;
		}
		xgrow(&buf, &cap, len + 65536, 1);
		n = lread_read(lr, buf + len, cap - len);
		len += n > 0 ? (size_t)n : 0;
	}
	if (n < 0) {
		snprintf(err, errlen, "%s", lread_error(lr));
		free(buf);
		return NULL;
	}
	p = lnt_read((const unsigned char *)buf, len, err, errlen);
	free(buf);
	return p;
}

int lnt_pick(const struct lnt_prof *p, const struct lnt_opts *o, const char *file,
	     collect_warn_fn *warn, void *ctx, char *err, size_t errlen)
{
	char list[512], msg[700];
	size_t i, n = 0;
	int c = o && o->event ? lnt_counter(p, o->event) : lnt_default_counter(p);

	list[0] = '\0';
	for (i = 0; i < p->ncnt && n < sizeof(list); i++)
		n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s", i ? ", " : "", p->names[i]);
	if (c < 0 && p->ncnt == 0)
		snprintf(err, errlen, "the profile has no counters");
	else if (c < 0)
		snprintf(err, errlen, "no counter '%s' in the profile (it has: %s)", o->event, list);
	else if (p->ncnt > 1 && !(o && o->event)) {
		snprintf(msg, sizeof(msg), "drawing counter '%s' of %s; pick one with "
			 "--event-filter NAME", p->names[c], list);
		warn(ctx, file, 0, msg);
	}
	return c;
}

struct sink {
	struct strtab *t;		/* stacks go here */
	struct fseq *seq;		/* and here, in order, unless NULL */
};

static int add(void *ctx, const char *stack, size_t len, const char *count)
{
	struct sink *s = ctx;
	struct fcount c;

	if (folded_count(count, strlen(count), &c) < 0)
		return 0;
	if (s->seq)
		fseq_put(s->t, s->seq, stack, len, &c);
	else
		fcount_add(strtab_val(s->t, strtab_intern(s->t, stack, len, NULL)), &c);
	return 0;
}

/* The root frame's name for file: its base name less ".lntprof". */
static char *file_root(const char *file)
{
	const char *b = strrchr(file, '/');
	size_t n;

	b = b ? b + 1 : file;
	n = strlen(b);
	if (n > 8 && strcmp(b + n - 8, ".lntprof") == 0)
		n -= 8;
	return xstrndup(b, n);
}

void lnt_add_stacks(const struct lnt_prof *p, int c, const struct lnt_opts *o, const char *file,
		    struct strtab *t, struct fseq *seq)
{
	enum lnt_root r = o ? o->root : LNT_ROOT_COUNTER;
	struct sink s = { t, seq };
	char *root = r == LNT_ROOT_FILE ? file_root(file) : NULL;

	lnt_stacks(p, c, o && o->per_insn, r == LNT_ROOT_COUNTER ? p->names[c] : root, add, &s);
	free(root);
}

void lnt_report(const struct lnt_prof *p, const char *file, const char *fault,
		collect_warn_fn *warn, void *ctx)
{
	char msg[600];

	if (p->skipped) {
		snprintf(msg, sizeof(msg), "skipped %zu entr%s that could not be read (the first: %s)",
			 p->skipped, p->skipped == 1 ? "y" : "ies", p->first_skip);
		warn(ctx, file, 0, msg);
	}
	if (p->partial) {
		snprintf(msg, sizeof(msg), "%s; the functions before it are kept", fault);
		warn(ctx, file, 0, msg);
	}
}

/* Names the input in front of the message in j->err, as collect's
 * callers print it. */
static int fatal(const struct format_job *j)
{
	char *m = xstrndup(j->err, strlen(j->err));

	snprintf(j->err, j->errlen, "%s: %s", j->name, m);
	free(m);
	return -1;
}

int lnt_collect(const struct format_job *j)
{
	const struct lnt_cli *cli = j->fopts;
	const struct lnt_opts *o = cli ? &cli->opts : NULL;
	struct lnt_prof *p = lnt_load(j->lr, j->err, j->errlen);
	int c, rc;

	if (!p)
		return fatal(j);
	lnt_report(p, j->name, j->err, j->warn, j->ctx);
	rc = p->partial;
	if ((c = lnt_pick(p, o, j->name, j->warn, j->ctx, j->err, j->errlen)) >= 0)
		lnt_add_stacks(p, c, o, j->name, j->t, j->o->seq);
	else
		rc = fatal(j);
	lnt_free(p);
	return rc;
}
