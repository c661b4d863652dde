/* perfsym_tab: sorted symbol tables with perf's end and duplicate rules. */
#include "perfsym_tab.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

void perfsym_tab_init(struct perfsym_tab *t)
{
	memset(t, 0, sizeof(*t));
}

void perfsym_tab_release(struct perfsym_tab *t)
{
	free(t->v);
	free(t->blob);
	memset(t, 0, sizeof(*t));
}

int perfsym_tab_add(struct perfsym_tab *t, uint64_t start, uint64_t size, const char *name,
		    size_t len, unsigned flags)
{
	const char *nul = memchr(name, '\0', len);
	struct perfsym_sym *s;

	if (nul)
		len = (size_t)(nul - name);
	if (t->blen + len + 1 > UINT32_MAX || t->n >= UINT32_MAX)
		return -1;
	xgrow(&t->v, &t->cap, t->n + 1, sizeof(*t->v));
	s = &t->v[t->n];
	s->start = start;
	/* A size that wraps is a lie: treat the symbol as unsized. */
	s->end = start + size >= start ? start + size : start;
	s->raw = (uint32_t)t->blen;
	s->name = PERFSYM_NONAME;
	s->seq = (uint32_t)t->n;
	s->flags = (uint8_t)flags;
	t->n++;
	xappend(&t->blob, &t->blen, &t->bcap, name, len);
	xappend(&t->blob, &t->blen, &t->bcap, "", 1);
	return 0;
}

static int by_start(const void *a, const void *b)
{
	const struct perfsym_sym *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The page after start's page, as perf ends a last unsized symbol. */
static uint64_t page_after(uint64_t start)
{
	uint64_t up = (start + 4095) & ~(uint64_t)4095;

	return up + 4096 > up ? up + 4096 : UINT64_MAX;
}

static void fixup_end(struct perfsym_tab *t, int kallsyms)
{
	size_t i;

	for (i = 1; i < t->n; i++) {
		struct perfsym_sym *prev = &t->v[i - 1];
		const struct perfsym_sym *curr = &t->v[i];

		if (prev->end != prev->start)
			continue;
		prev->flags |= PERFSYM_UNSIZED;
		/* The gap between the kernel's text and the modules' is not
		 * the last symbol's to cover. */
		if (kallsyms && !(prev->flags & PERFSYM_MODULE) != !(curr->flags & PERFSYM_MODULE))
			prev->end = page_after(prev->start);
		else
			prev->end = curr->start;
	}
	if (t->n && t->v[t->n - 1].end == t->v[t->n - 1].start) {
		t->v[t->n - 1].end = page_after(t->v[t->n - 1].start);
		t->v[t->n - 1].flags |= PERFSYM_UNSIZED;
	}
}

static size_t underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/* A name as perf holds it when it picks among aliases: demangled (perf
 * demangles as it reads a symbol table), so "_ZdaPv" counts as
 * "operator delete[]", with no leading underscore.  The caller frees
 * *own. */
static const char *held(const struct perfsym_tab *t, const struct perfsym_sym *s,
			char *(*shown)(void *, const char *), void *ctx, char **own)
{
	const char *raw = perfsym_tab_raw(t, s);

	*own = shown ? shown(ctx, raw) : NULL;
	return *own ? *own : raw;
}

/* 1 when a is to be kept over b (same start): perf's choose_best_symbol. */
static int better(const struct perfsym_tab *t, const struct perfsym_sym *a,
		  const struct perfsym_sym *b, char *(*shown)(void *, const char *), void *ctx)
{
	int wa = !!(a->flags & PERFSYM_WEAK), wb = !!(b->flags & PERFSYM_WEAK);
	int ga = !!(a->flags & PERFSYM_GLOBAL), gb = !!(b->flags & PERFSYM_GLOBAL);
	char *oa, *ob;
	const char *na, *nb;
	size_t ua, ub;
	int r;

	if ((a->end > a->start) != (b->end > b->start))
		return a->end > a->start;
	if (wa != wb)
		return wb;
	if (ga != gb)
		return ga;
	na = held(t, a, shown, ctx, &oa);
	nb = held(t, b, shown, ctx, &ob);
	ua = underscores(na), ub = underscores(nb);
	r = ua != ub ? ua < ub : strlen(na) >= strlen(nb);
	free(oa);
	free(ob);
	return r;
}

static void drop_duplicates(struct perfsym_tab *t, char *(*shown)(void *, const char *), void *ctx)
{
	size_t i, k = 0;

	for (i = 0; i < t->n; i++) {
		if (k && t->v[k - 1].start == t->v[i].start) {
			if (!better(t, &t->v[k - 1], &t->v[i], shown, ctx))
				t->v[k - 1] = t->v[i];
			continue;
		}
		t->v[k++] = t->v[i];
	}
	t->n = k;
}

void perfsym_tab_finish(struct perfsym_tab *t, enum perfsym_tab_kind kind,
			char *(*shown)(void *ctx, const char *raw), void *ctx)
{
	if (t->n)
		qsort(t->v, t->n, sizeof(*t->v), by_start);
	if (kind == PERFSYM_TAB_JIT)
		return;
	fixup_end(t, kind == PERFSYM_TAB_KALLSYMS);
	drop_duplicates(t, shown, ctx);
}

struct perfsym_sym *perfsym_tab_find(const struct perfsym_tab *t, uint64_t addr)
{
	size_t lo = 0, hi = t->n;

	/* The last symbol starting at or before addr... */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->v[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* ...unless it is an unsized label inside a sized function that
	 * holds addr too (as perf's search meets the function first)... */
	if (lo > 1 && (t->v[lo - 1].flags & PERFSYM_UNSIZED) && !(t->v[lo - 2].flags & PERFSYM_UNSIZED) &&
	    addr < t->v[lo - 2].end)
		return &t->v[lo - 2];
	/* ...or, when a sized symbol nests in a larger one and addr is past
	 * the small one, the larger one just before it. */
	if (lo && addr < t->v[lo - 1].end)
		return &t->v[lo - 1];
	if (lo > 1 && addr < t->v[lo - 2].end)
		return &t->v[lo - 2];
	return NULL;
}
