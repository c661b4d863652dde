/* perfsym_tab: sorted symbol tables with perf's end and duplicate rules. */
#include "perfsym_tab.h"
#include "perfsym_rb.h"
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
	free(t->kids);
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

/* Whether x goes before y: by start, then order of addition (seq is
 * unique, so the order is total and any sort gives the same table). */
static int before(const struct perfsym_sym *x, const struct perfsym_sym *y)
{
	return x->start != y->start ? x->start < y->start : x->seq < y->seq;
}

/* Merges the sorted v[0, mid) and v[mid, n) through tmp. */
static void merge(struct perfsym_sym *v, size_t mid, size_t n, struct perfsym_sym *tmp)
{
	size_t i = 0, j = mid, o = 0;

	if (!before(&v[mid], &v[mid - 1]))
		return;
	while (i < mid && j < n)
		tmp[o++] = before(&v[j], &v[i]) ? v[j++] : v[i++];
	while (i < mid)
		tmp[o++] = v[i++];
	memcpy(v, tmp, o * sizeof(*v));	/* v[j, n) is in place */
}

/* Sorts t's symbols by start: the runs already in order (kallsyms is
 * nearly sorted, a symbol table's come in runs) are found and merged
 * pairwise, bottom up, with the comparison inline. */
static void sort_syms(struct perfsym_tab *t)
{
	size_t *runs = xmalloc((t->n + 1) * sizeof(*runs)), nruns = 0, i, r;
	struct perfsym_sym *tmp = NULL;

	runs[nruns++] = 0;
	for (i = 1; i < t->n; i++)
		if (before(&t->v[i], &t->v[i - 1]))
			runs[nruns++] = i;
	runs[nruns] = t->n;
	if (nruns > 1)
		tmp = xmalloc(t->n * sizeof(*tmp));
	while (nruns > 1) {
		for (r = 0; r + 1 < nruns; r += 2)
			merge(t->v + runs[r], runs[r + 1] - runs[r], runs[r + 2] - runs[r], tmp);
		for (r = 0, i = 0; r <= nruns; r += 2)
			runs[i++] = runs[r];
		if (nruns % 2)	/* the last run had no pair: it still ends at n */
			runs[i++] = t->n;
		nruns = i - 1;
	}
	free(tmp);
	free(runs);
}

/* The page after start's page, as perf ends a last unsized symbol. */
static uint64_t page_after(uint64_t start)
{
	uint64_t up = (start + 4095) & ~(uint64_t)4095;

	return up + 4096 > up ? up + 4096 : UINT64_MAX;
}

/* perf gives each unsized symbol the start of the next as its end, in
 * the tree it reads the file into; PLT entries, added after, are not in
 * it yet and neither give nor get an end. */
static void fixup_end(struct perfsym_tab *t, int kallsyms)
{
	size_t i, last = SIZE_MAX;

	for (i = 0; i < t->n; i++) {
		struct perfsym_sym *prev = last != SIZE_MAX ? &t->v[last] : NULL;
		const struct perfsym_sym *curr = &t->v[i];

		if (curr->flags & PERFSYM_PLT)
			continue;
		last = i;
		if (!prev || prev->end != prev->start)
			continue;
		prev->flags |= PERFSYM_UNSIZED;
		/* The gap between the kernel's text and the modules' is not
		 * the last symbol's to cover. */
		if (kallsyms && !(prev->flags & PERFSYM_MODULE) != !(curr->flags & PERFSYM_MODULE))
			prev->end = page_after(prev->start);
		else
			prev->end = curr->start;
	}
	if (last != SIZE_MAX && t->v[last].end == t->v[last].start) {
		t->v[last].end = page_after(t->v[last].start);
		t->v[last].flags |= PERFSYM_UNSIZED;
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

/* Of the symbols (PLT entries aside) at one start, erases from the tree
 * all but the one perf keeps, as perf's symbols__fixup_duplicate does,
 * marking them PERFSYM_DEAD. */
static void erase_duplicates(struct perfsym_tab *t, struct perfsym_rb *rb,
			     char *(*shown)(void *, const char *), void *ctx)
{
	size_t i, k = SIZE_MAX;

	for (i = 0; i < t->n; i++) {
		size_t lose;

		if (t->v[i].flags & PERFSYM_PLT)
			continue;
		if (k == SIZE_MAX || t->v[k].start != t->v[i].start) {
			k = i;
			continue;
		}
		lose = better(t, &t->v[k], &t->v[i], shown, ctx) ? i : k;
		perfsym_rb_erase(rb, (uint32_t)lose);
		t->v[lose].flags |= PERFSYM_DEAD;
		k = lose == k ? i : k;
	}
}

/* Drops the dead symbols and keeps the tree's links in t->kids. */
static void keep_tree(struct perfsym_tab *t, const struct perfsym_rb *rb)
{
	uint32_t *to = xmalloc((t->n ? t->n : 1) * sizeof(*to));
	size_t i, k = 0;

	for (i = 0; i < t->n; i++)
		to[i] = t->v[i].flags & PERFSYM_DEAD ? PERFSYM_RB_NIL : (uint32_t)k++;
	t->kids = xmalloc((k ? k : 1) * 2 * sizeof(*t->kids));
	for (i = 0; i < t->n; i++) {
		if (to[i] == PERFSYM_RB_NIL)
			continue;
		t->kids[2 * to[i]] = rb->v[i].left != PERFSYM_RB_NIL ? to[rb->v[i].left] : PERFSYM_RB_NIL;
		t->kids[2 * to[i] + 1] =
			rb->v[i].right != PERFSYM_RB_NIL ? to[rb->v[i].right] : PERFSYM_RB_NIL;
		t->v[to[i]] = t->v[i];
	}
	t->root = rb->root != PERFSYM_RB_NIL ? to[rb->root] : PERFSYM_RB_NIL;
	t->n = k;
	free(to);
}

/* A table as perf builds it: an ELF file's symbols inserted in the
 * file's order, ends fixed, duplicates erased, then the PLT entries
 * inserted; a perf-PID.map's lines inserted in order, nothing fixed or
 * erased (elf 0).  Lookups then walk that tree. */
static void finish_tree(struct perfsym_tab *t, int elf, char *(*shown)(void *, const char *),
			void *ctx)
{
	uint64_t *key = xmalloc((t->n ? t->n : 1) * sizeof(*key));
	uint32_t *byseq = xmalloc((t->n ? t->n : 1) * sizeof(*byseq));
	struct perfsym_rb rb;
	size_t i;
	int plt;

	if (elf)
		fixup_end(t, 0);
	for (i = 0; i < t->n; i++) {
		key[i] = t->v[i].start;
		byseq[t->v[i].seq] = (uint32_t)i;
	}
	perfsym_rb_init(&rb, t->n);
	for (plt = 0; plt < 2; plt++) {
		for (i = 0; i < t->n; i++)
			if (!(t->v[byseq[i]].flags & PERFSYM_PLT) == !plt)
				perfsym_rb_insert(&rb, byseq[i], key);
		if (!plt && elf)
			erase_duplicates(t, &rb, shown, ctx);
	}
	keep_tree(t, &rb);
	perfsym_rb_release(&rb);
	free(key);
	free(byseq);
}

void perfsym_tab_finish(struct perfsym_tab *t, enum perfsym_tab_kind kind,
			char *(*shown)(void *ctx, const char *raw), void *ctx)
{
	if (t->n)
		sort_syms(t);
	if (kind != PERFSYM_TAB_KALLSYMS) {
		finish_tree(t, kind == PERFSYM_TAB_ELF, shown, ctx);
		return;
	}
	fixup_end(t, 1);
	drop_duplicates(t, shown, ctx);
}

/* perf's symbols__find: down from the root, the first symbol holding
 * addr (a zero-sized one holds its start). */
static struct perfsym_sym *walk(const struct perfsym_tab *t, uint64_t addr)
{
	uint32_t i = t->root;

	while (i != PERFSYM_RB_NIL) {
		struct perfsym_sym *s = &t->v[i];

		if (addr < s->start)
			i = t->kids[2 * i];
		else if (addr >= s->end && !(addr == s->start && s->end == s->start))
			i = t->kids[2 * i + 1];
		else
			return s;
	}
	return NULL;
}

struct perfsym_sym *perfsym_tab_find(const struct perfsym_tab *t, uint64_t addr)
{
	size_t lo = 0, hi = t->n;

	if (t->kids)
		return walk(t, addr);
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
