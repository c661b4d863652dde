/* etl_agg: finished samples, those equal in everything the emit reads
 * kept once with a count: process, thread, fragments, DPC/ISR bits, and
 * which images their frames fell in at the sample's time (hashed), so
 * that one time stamp (the latest) stands for all of them.  An image event that comes
 * later in time cannot change that; the rundown's (there from the start,
 * logged at the end) apply to all samples alike.  The idle thread's
 * samples (unless in a DPC or ISR, or with --include-idle) and those
 * outside --begin/--end are only counted.  With a flame chart wanted
 * (o->seq) every sample stays apart, in order. */
#include "etl_int.h"
#include "hkey.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

#define SIGCACHE 4096			/* signatures cached (k >> 52: 12 bits) */

/* Mixes the images of one fragment's frames into h: what they are (name,
 * place), not which event loaded them, so an image loaded again where it
 * was is the same. */
static uint64_t slot_images(const struct etl *x, const struct esample *s, uint32_t slot,
			    uint64_t h)
{
	uint32_t n, last = UINT32_MAX, img, pid;
	const uint64_t *a;

	if (!slot)
		return h;
	a = x->addr + x->fragat[slot - 1];
	for (n = x->fraglen[slot - 1]; n > 0; n--) {
		pid = etl_kernel_addr(x, a[n - 1]) ? 0 : s->pid;
		if (last && last != UINT32_MAX) {	/* most frames: the image of the one before */
			const struct eimage *m = &x->img[last - 1];

			if (m->pid == pid && a[n - 1] - m->base < m->size)
				continue;
		}
		img = etl_image_at(x, pid, a[n - 1], s->ts);
		if (img == last)
			continue;
		last = img;
		h = (h ^ (img != 0)) * 0x100000001b3ULL;
		if (img) {
			const struct eimage *m = &x->img[img - 1];

			h = (h ^ (m->base + m->size * 31)) * 0x100000001b3ULL;
			h = (h ^ ((uint64_t)m->name << 1 | (uint64_t)m->jit)) * 0x100000001b3ULL;
			if (m->jit && m->mod < x->nmodids)
				h = (h ^ x->modids[m->mod]) * 0x100000001b3ULL;
		}
	}
	return h;
}

/* A slot as the aggregate keeps it: a stack key reference already
 * defined becomes its fragment. */
static uint32_t resolved(const struct etl *x, uint32_t slot)
{
	if ((slot & KEY_REF) && x->keyfrag[slot & ~KEY_REF] != UINT32_MAX)
		return x->keyfrag[slot & ~KEY_REF] + 1;
	return slot;
}

/* What makes two samples the same, as bytes to hash. */
static size_t key_of(const struct esample *s, uint32_t *k)
{
	k[0] = s->pid;
	k[1] = s->tid;
	k[2] = s->proc;
	k[3] = s->kern;
	k[4] = s->user;
	k[5] = (uint32_t)s->sig;
	k[6] = s->flags;
	return 7 * sizeof(*k);
}

static int same(const struct esample *a, const struct esample *b)
{
	return a->pid == b->pid && a->tid == b->tid && a->proc == b->proc && a->kern == b->kern &&
	       a->user == b->user && a->sig == b->sig && a->flags == b->flags;
}

/* The image signature of e's fragments: samples of one process with the
 * same fragments and no image event between them have the same, so a
 * small cache of recent ones saves most lookups. */
static uint64_t signature(struct etl *x, const struct esample *e)
{
	uint64_t k = ((uint64_t)e->kern * 0x9e3779b97f4a7c15ULL) ^ ((uint64_t)e->user << 32 | e->pid);
	struct esample *c;

	k = (k ^ e->epoch) * 0xff51afd7ed558ccdULL;
	if (!x->sigcache)
		x->sigcache = xcalloc(SIGCACHE, sizeof(*x->sigcache));
	c = &x->sigcache[k >> 52];
	if (c->count && c->kern == e->kern && c->user == e->user && c->pid == e->pid &&
	    c->epoch == e->epoch)
		return c->sig;
	etl_images_ordered(x);
	*c = *e;
	c->count = 1;
	c->sig = slot_images(x, e, e->kern, slot_images(x, e, e->user, 0xcbf29ce484222325ULL));
	return c->sig;
}

/* The entry equal to e (hash h) + 1, or 0. */
static uint32_t lookup(const struct etl *x, uint64_t h, const struct esample *e)
{
	size_t c = 0;
	uint32_t i;

	while (map64_next(&x->aggmap, h, &c, &i) == 0)
		if (same(&x->agg[i], e))
			return i + 1;
	return 0;
}

void etl_agg_add(struct etl *x, const struct esample *s)
{
	struct esample e = *s;
	uint32_t k[7], i;
	uint64_t h;

	if (s->tid == 0 && !s->flags && !x->o->include_idle) {
		x->st.idle++;
		return;
	}
	if (filter_has_time(&x->o->filter) &&
	    !filter_time(&x->o->filter, x->have_t0 ? (double)(s->ts - x->t0) / x->freq : 0))
		return;
	e.kern = resolved(x, s->kern);
	e.user = resolved(x, s->user);
	if ((e.kern | e.user) & KEY_REF)	/* defined later: this sample alone */
		e.sig = s->ts;
	else
		e.sig = signature(x, &e);
	h = hkey(k, key_of(&e, k));
	if (!x->o->seq) {
		if (!x->aggrecent)
			x->aggrecent = xcalloc(SIGCACHE, sizeof(*x->aggrecent));
		i = x->aggrecent[h >> 52];	/* before the map: most samples repeat lately */
		if (!i || !same(&x->agg[i - 1], &e))
			i = lookup(x, h, &e);
		if (i) {
			x->aggrecent[h >> 52] = i;
			x->agg[i - 1].count++;
			x->agg[i - 1].ts = s->ts;	/* the latest: its images are found first */
			return;
		}
	}
	if (x->nagg == x->aggcap)
		xgrow(&x->agg, &x->aggcap, x->nagg + 1, sizeof(*x->agg));
	e.count = 1;
	x->agg[x->nagg] = e;
	if (!x->o->seq) {
		map64_put(&x->aggmap, h, (uint32_t)x->nagg);
		x->aggrecent[h >> 52] = (uint32_t)x->nagg + 1;
	}
	x->nagg++;
}
