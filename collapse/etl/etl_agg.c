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
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

static const struct eimage *sort_img;	/* qsort's context */

static int by_pid_base(const void *a, const void *b)
{
	const struct eimage *p = &sort_img[*(const uint32_t *)a], *q = &sort_img[*(const uint32_t *)b];

	if (p->pid != q->pid)
		return p->pid < q->pid ? -1 : 1;
	if (p->base != q->base)
		return p->base < q->base ? -1 : 1;
	return p->t0 < q->t0 ? -1 : p->t0 > q->t0;
}

/* The images in (pid, base) order, again when some came since. */
static void order_images(struct etl *x)
{
	size_t i;

	if (x->nimgord == x->nimg)
		return;
	if (x->imgordcap < x->nimg)
		xgrow(&x->imgord, &x->imgordcap, x->nimg, sizeof(*x->imgord));
	for (i = 0; i < x->nimg; i++)
		x->imgord[i] = (uint32_t)i;
	sort_img = x->img;
	qsort(x->imgord, x->nimg, sizeof(*x->imgord), by_pid_base);
	x->nimgord = x->nimg;
}

/* The image of pid holding a at ts + 1, or 0 (as etl_emit finds it). */
static uint32_t image_at(const struct etl *x, uint32_t pid, uint64_t a, uint64_t ts)
{
	size_t lo = 0, hi = x->nimgord, n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct eimage *m = &x->img[x->imgord[mid]];

		if (m->pid < pid || (m->pid == pid && m->base <= a))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (n = 0; lo > 0 && n < 64; lo--, n++) {
		const struct eimage *m = &x->img[x->imgord[lo - 1]];

		if (m->pid != pid)
			break;
		if (a - m->base < m->size && m->t0 <= ts && ts < m->t1)
			return x->imgord[lo - 1] + 1;	/* the index, not the identity */
	}
	return 0;
}

/* Mixes the images of one fragment's frames into h: what they are (name,
 * place), not which event loaded them, so an image loaded again where it
 * was is the same. */
static uint64_t slot_images(const struct etl *x, const struct esample *s, uint32_t slot,
			    uint64_t h)
{
	uint32_t n, last = UINT32_MAX, img;
	const uint64_t *a;

	if (!slot)
		return h;
	a = x->addr + x->fragat[slot - 1];
	for (n = x->fraglen[slot - 1]; n > 0; n--) {
		img = image_at(x, etl_kernel_addr(x, a[n - 1]) ? 0 : s->pid, a[n - 1], s->ts);
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

void etl_agg_add(struct etl *x, const struct esample *s)
{
	double t = x->have_t0 ? (double)(s->ts - x->t0) / x->freq : 0;
	struct esample e = *s;
	uint32_t k[7], i;
	uint64_t h;
	size_t c = 0;

	if (s->tid == 0 && !s->flags && !x->o->include_idle) {
		x->st.idle++;
		return;
	}
	if (!filter_time(&x->o->filter, t))
		return;
	order_images(x);
	e.kern = resolved(x, s->kern);
	e.user = resolved(x, s->user);
	if ((e.kern | e.user) & KEY_REF)	/* defined later: this sample alone */
		e.sig = s->ts;
	else
		e.sig = slot_images(x, s, e.kern, slot_images(x, s, e.user, 0xcbf29ce484222325ULL));
	h = XXH3_64bits(k, key_of(&e, k));
	if (!x->o->seq) {
		while (map64_next(&x->aggmap, h, &c, &i) == 0) {
			if (same(&x->agg[i], &e)) {
				x->agg[i].count++;
				x->agg[i].ts = s->ts;	/* the latest: its images are found first */
				return;
			}
		}
	}
	if (x->nagg == x->aggcap)
		xgrow(&x->agg, &x->aggcap, x->nagg + 1, sizeof(*x->agg));
	e.count = 1;
	x->agg[x->nagg] = e;
	if (!x->o->seq)
		map64_put(&x->aggmap, h, (uint32_t)x->nagg);
	x->nagg++;
}
