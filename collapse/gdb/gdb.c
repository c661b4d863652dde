/* gdb: the collapser.  Frames come leaf first: each is written right to
 * left into one buffer, so the finished stack is in order. */
#include "gdb.h"
#include "leafstack.h"
#include "folded.h"
#include "strtab.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct gdb {
	struct strtab *t;		/* stacks out */
	struct fseq *seq;		/* input order, or NULL */
	collect_warn_fn *warn;		/* messages */
	void *ctx;			/* for warn */
	const char *name;		/* the input */
	struct leafstack st;		/* the stack so far */
	uint64_t stacks;		/* stacks added */
};

struct gdb *gdb_new(struct strtab *t, struct fseq *seq, collect_warn_fn *warn, void *ctx,
		    const char *name)
{
	struct gdb *g = xcalloc(1, sizeof(*g));

	g->t = t;
	g->seq = seq;
	g->warn = warn;
	g->ctx = ctx;
	g->name = name;
	leafstack_init(&g->st);
	return g;
}

void gdb_free(struct gdb *g)
{
	if (!g)
		return;
	leafstack_release(&g->st);
	free(g);
}

/* The stack so far is a sample (count: whether it is one, not dropped). */
static void finish(struct gdb *g, int count)
{
	struct fcount c = { 1, 0 };
	size_t len;
	const char *text = leafstack_text(&g->st, &len);

	if (count && g->st.nframes) {
		fseq_put(g->t, g->seq, text, len, &c);
		g->stacks++;
	}
	leafstack_clear(&g->st);
}

/* "#3  0x00007f in func (a=1) at f.c:9" or "#0  func (a=1) at f.c:9": the
 * third space-separated word after the number when the first is an
 * address, else the first; 0 when there are not four words. */
static int frame_of(const char *s, size_t n, const char **f, size_t *fl)
{
	const char *w[4], *e = s + n, *p;
	size_t i = 1, k, len[4];

	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	while (i < n && s[i] == ' ')
		i++;
	for (p = s + i, k = 0; k < 4; k++) {
		const char *sp = memchr(p, ' ', (size_t)(e - p));

		w[k] = p;
		if (!sp && k < 3)
			return 0;
		len[k] = (size_t)((sp ? sp : e) - p);
		p = sp ? sp + 1 : e;
	}
	k = len[0] >= 2 && memmem(w[0], len[0], "0x", 2) ? 2 : 0;
	*f = w[k];
	*fl = len[k];
	return 1;
}

int gdb_line(struct gdb *g, const char *s, size_t n, unsigned long lineno)
{
	const char *f;
	size_t fl;

	(void)lineno;
	if (n >= 6 && memcmp(s, "Thread", 6) == 0)
		finish(g, 0);	/* as the script: a "Thread" line drops what came before */
	else if (n > 0 && s[0] == '#' && frame_of(s, n, &f, &fl))
		leafstack_push(&g->st, f, fl);
	else
		finish(g, 1);
	return 0;
}

int gdb_end(struct gdb *g)
{
	finish(g, 1);
	if (g->stacks == 0) {
		g->warn(g->ctx, g->name, 0, "no backtraces (\"#0 ...\" lines): not gdb output");
		return 1;
	}
	return 0;
}
