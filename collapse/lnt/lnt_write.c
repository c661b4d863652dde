/* lnt_write: the model as an LNT v2 profile, the layout lnt_v2.c reads
 * (and LNT's ProfileV2 reads): functions sorted by name, each with every
 * counter of the profile, instructions' addresses as deltas (never
 * negative, as LNT writes them), their text pooled once each. */
#include "bzip.h"
#include "lnt.h"
#include "strtab.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

struct buf {
	unsigned char *b;	/* bytes */
	size_t len, cap;	/* written, room */
};

static void bytes(struct buf *o, const void *s, size_t n)
{
	xappend((char **)(void *)&o->b, &o->len, &o->cap, s, n);
}

static void num(struct buf *o, uint64_t v)
{
	unsigned char c;

	do {
		c = v & 0x7f;
		v >>= 7;
		c |= v ? 0x80 : 0;
		bytes(o, &c, 1);
	} while (v);
}

/* A string ends at its newline: one inside would end it early. */
static void str(struct buf *o, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		bytes(o, s[i] == '\n' ? " " : s + i, 1);
	bytes(o, "\n", 1);
}

static void flt(struct buf *o, double v)
{
	float f = (float)v;
	uint32_t bits;

	memcpy(&bits, &f, sizeof(bits));
	num(o, bits);
}

static int by_name(const void *a, const void *b, void *ctx)
{
	const struct lnt_prof *p = ctx;
	const struct lnt_fn *x = &p->fn[*(const size_t *)a];
	const struct lnt_fn *y = &p->fn[*(const size_t *)b];
	int d = memcmp(x->name, y->name, x->len < y->len ? x->len : y->len);

	return d ? d : x->len < y->len ? -1 : x->len > y->len;
}

/* The sections, uncompressed: LineCounters, LineAddresses, LineText,
 * TextPool (0 to 3), and the Functions table. */
struct sections {
	struct buf s[4];	/* the per-instruction ones */
	struct buf fns;		/* the function table */
	struct strtab *pool;	/* texts: offset in the pool */
};

static void fn_rows(struct sections *w, const struct lnt_prof *p, const struct lnt_fn *f)
{
	uint64_t prev = 0;
	size_t k, c;

	str(&w->fns, f->name, f->len);
	num(&w->fns, f->nins);
	for (k = 0; k < 3; k++)
		num(&w->fns, w->s[k].len);
	num(&w->fns, p->ncnt);
	for (c = 0; c < p->ncnt; c++) {
		num(&w->fns, c);
		flt(&w->fns, f->c[c]);
	}
	for (k = 0; k < f->nins; k++) {
		const struct lnt_insn *in = &f->ins[k];
		size_t tl = strlen(in->text);
		int added;
		uint32_t id = strtab_intern(w->pool, in->text, tl, &added);
		uint64_t *at = strtab_val(w->pool, id);

		for (c = 0; c < p->ncnt; c++)
			flt(&w->s[0], in->c[c]);
		num(&w->s[1], in->addr > prev ? in->addr - prev : 0);
		prev = in->addr;
		if (added) {
			*at = w->s[3].len;
			str(&w->s[3], in->text, tl);
		}
		num(&w->s[2], *at);
	}
	num(&w->s[2], 0);	/* each function's texts end with 0 */
}

unsigned char *lnt_write_v2(const struct lnt_prof *p, size_t *len)
{
	struct sections w;
	struct buf sect[8], out = { NULL, 0, 0 };
	size_t *order = xcalloc(p->nfn ? p->nfn : 1, sizeof(*order)), i, at = 0;

	memset(&w, 0, sizeof(w));
	memset(sect, 0, sizeof(sect));
	w.pool = strtab_new(sizeof(uint64_t));
	bytes(&w.s[3], "\n", 1);	/* offset 0 is never a text */
	for (i = 0; i < p->nfn; i++)
		order[i] = i;
	qsort_r(order, p->nfn, sizeof(*order), by_name, (void *)(uintptr_t)p);
	num(&w.fns, p->nfn);
	for (i = 0; i < p->nfn; i++)
		fn_rows(&w, p, &p->fn[order[i]]);
	str(&sect[0], "raw", 3);
	num(&sect[1], p->ncnt);
	for (i = 0; i < p->ncnt; i++)
		str(&sect[1], p->names[i], strlen(p->names[i]));
	num(&sect[2], p->ncnt);
	for (i = 0; i < p->ncnt; i++) {
		num(&sect[2], i);
		num(&sect[2], p->total[i] > 0 && p->total[i] < 1.8e19 ? (uint64_t)p->total[i] : 0);
	}
	for (i = 0; i < 4; i++) {
		sect[3 + i].b = bzip(w.s[i].b, w.s[i].len, &sect[3 + i].len);
		free(w.s[i].b);
	}
	sect[7] = w.fns;
	num(&out, 2);
	for (i = 0; i < 8; i++) {
		num(&out, at);
		num(&out, sect[i].len);
		if (i == 6)
			bytes(&out, "\n", 1);	/* the pool is in this file */
		at += sect[i].len;
	}
	for (i = 0; i < 8; i++) {
		bytes(&out, sect[i].b, sect[i].len);
		free(sect[i].b);
	}
	strtab_free(w.pool);
	free(order);
	*len = out.len;
	return out.b;
}
