/* etl_emit: joined samples to stacks: addresses to modules, roots. */
#include "etl_int.h"
#include "strtab.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


struct emit {
	struct etl *x;
	char *s;		/* the frames being built */
	size_t len, cap;
	uint32_t last;		/* the module of the frame before + 1, for merging */
	struct eimage *hit[2];		/* the last image found, user and kernel */
};

/* Appends n bytes to the frame being built. */
static void put_raw(struct emit *e, const char *s, size_t n)
{
	if (e->cap - e->len < n + 2)
		xgrow(&e->s, &e->cap, e->len + n + 2, 1);
	memcpy(e->s + e->len, s, n);
	e->len += n;
}

/* Appends a frame: ';' then s. */
static void put(struct emit *e, const char *s, size_t n)
{
	if (e->cap - e->len < n + 2)
		xgrow(&e->s, &e->cap, e->len + n + 2, 1);
	if (e->len)
		e->s[e->len++] = ';';
	memcpy(e->s + e->len, s, n);
	e->len += n;
}

/* The image of address a for sample s: most frames fall in the image of
 * the frame before. */
static struct eimage *image_of(struct emit *e, const struct esample *s, uint64_t a)
{
	int kernel = etl_kernel_addr(e->x, a);
	uint32_t pid = kernel ? 0 : s->pid;
	struct eimage *m = e->hit[kernel];
	uint32_t i;

	if (m && m->pid == pid && a - m->base < m->size && m->t0 <= s->ts && s->ts < m->t1)
		return m;
	if ((i = etl_image_at(e->x, pid, a, s->ts)) == 0)
		return NULL;
	return e->hit[kernel] = &e->x->img[i - 1];
}

/* A JIT method's frame: "Module!Namespace.Name(args)", its module by
 * the ModuleID its record kept ("?" when no module event named it). */
static void jit_name(struct etl *x, struct eimage *m)
{
	char buf[1400];
	const char *mod = "?", *meth;
	size_t mlen = 1, len;
	size_t c = 0;
	uint32_t id;
	int n;

	if (m->mod < x->nmodids && map64_next(&x->clrmods, x->modids[m->mod], &c, &id) == 0)
		mod = strtab_str(x->names, id, &mlen);
	meth = strtab_str(x->names, m->name, &len);
	n = snprintf(buf, sizeof(buf), "%.*s!%.*s", (int)mlen, mod, (int)len, meth);
	m->name = strtab_intern(x->names, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1,
				NULL);
	m->mod = UINT32_MAX;
}

/* With --symbols: the frame "module!NAME" when the symbols name a; returns
 * whether they did. */
static int sym_frame(struct emit *e, struct eimage *m, uint64_t a)
{
	struct etl *x = e->x;
	const char *mod, *name;
	size_t mlen, nlen;
	uint32_t id;
	char buf[1400];
	int len, k;

	mod = strtab_str(x->names, m->name, &mlen);
	if (m->sym == 0) {
		k = etl_sym_module(x, mod, mlen);
		m->sym = k < 0 ? -1 : k + 1;
	}
	if (m->sym < 0 || !etl_sym_name(x, m->sym - 1, a - m->base, &id))
		return 0;
	name = strtab_str(x->names, id, &nlen);
	len = snprintf(buf, sizeof(buf), "%.*s!%.*s", (int)mlen, mod, (int)nlen, name);
	e->last = 0;
	put(e, buf, (size_t)len < sizeof(buf) ? (size_t)len : sizeof(buf) - 1);
	return 1;
}

static void frame(struct emit *e, const struct esample *s, uint64_t a)
{
	struct etl *x = e->x;
	struct eimage *m = image_of(e, s, a);
	const char *name = "?";
	size_t n = 1;
	char buf[600];
	int len;

	if (m && m->jit && m->mod != UINT32_MAX)
		jit_name(x, m);
	if (m)
		name = strtab_str(x->names, m->name, &n);
	if (m && m->jit) {		/* a .NET method: named, never merged */
		e->last = 0;
		put(e, name, n);
		return;
	}
	if (m && x->syms && sym_frame(e, m, a))
		return;
	if (!x->o->addrs) {
		if (e->last == (m ? m->name + 1 : UINT32_MAX))
			return;		/* the same module: one frame */
		e->last = m ? m->name + 1 : UINT32_MAX;
		put(e, name, n);
		put_raw(e, "!?", 2);
		return;
	}
	len = snprintf(buf, sizeof(buf), "%.*s!0x%llx", (int)n, name,
		       (unsigned long long)(m ? a - m->base : a));
	put(e, buf, (size_t)len < sizeof(buf) ? (size_t)len : sizeof(buf) - 1);
}

/* A fragment's frames, root first; -1 when a key never got its stack. */
static int fragment(struct emit *e, const struct esample *s, uint32_t slot)
{
	const uint64_t *a;
	uint32_t n;

	if (!slot)
		return 0;
	if (slot & KEY_REF) {
		if ((slot = e->x->keyfrag[slot & ~KEY_REF]) == UINT32_MAX)
			return -1;
		slot++;
	}
	a = e->x->addr + e->x->fragat[slot - 1];
	for (n = e->x->fraglen[slot - 1]; n > 0; n--)
		frame(e, s, a[n - 1]);
	return 0;
}

static void one(struct emit *e, const struct esample *s)
{
	struct etl *x = e->x;
	const char *proc = s->pid == 0 ? "Idle" : "Unknown";
	size_t plen = strlen(proc);
	uint32_t k;
	int bad;

	if (s->proc)
		proc = strtab_str(x->names, s->proc - 1, &plen);
	e->len = 0;
	e->last = 0;
	bad = fragment(e, s, s->user) | fragment(e, s, s->kern);
	if (bad)
		x->st.unresolved += s->count;
	for (k = 0; k < s->count; k++)
		etw_emit(x->out, proc, plen, s->pid == 0xffffffff ? -1 : (long)s->pid, (long)s->tid,
			 x->have_t0 ? (double)(s->ts - x->t0) / x->freq : 0, e->s, e->len);
}

void etl_emit(struct etl *x)
{
	struct emit e;
	size_t i;

	memset(&e, 0, sizeof(e));
	e.x = x;
	etl_images_ordered(x);
	for (i = 0; i < x->nagg; i++)
		one(&e, &x->agg[i]);
	free(e.s);
}
