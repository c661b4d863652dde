/* etl_img: which image holds an address.  The images sorted by (pid,
 * base, t0) and grouped by (pid, base): a lookup finds the greatest group
 * at or below the address by a binary search (or a hint: the group a
 * recent lookup of the same process and region found, checked to still
 * be the one the search would give), then the loads of that base by
 * their time. */
#include "etl_int.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

#define IMAGE_BASES 64			/* bases looked through */
#define HINTS 256			/* hints, by process and 1 MiB region */

/* One (pid, base): its loads are imgord[first, the next group's first). */
struct etl_imgrp {
	uint64_t base;
	uint32_t pid;
	uint32_t first;
};

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

/* The groups of the ordered images, and a last one at their end. */
static void group(struct etl *x)
{
	size_t i, n = 0;

	if (x->imgrpcap < x->nimg + 1)
		xgrow(&x->imgrp, &x->imgrpcap, x->nimg + 1, sizeof(*x->imgrp));
	for (i = 0; i < x->nimgord; i++) {
		const struct eimage *m = &x->img[x->imgord[i]];

		if (n && x->imgrp[n - 1].pid == m->pid && x->imgrp[n - 1].base == m->base)
			continue;
		x->imgrp[n].base = m->base;
		x->imgrp[n].pid = m->pid;
		x->imgrp[n++].first = (uint32_t)i;
	}
	x->imgrp[n].base = UINT64_MAX;
	x->imgrp[n].pid = UINT32_MAX;
	x->imgrp[n].first = (uint32_t)x->nimgord;
	x->nimgrp = n;
	if (!x->imghint)
		x->imghint = xmalloc(HINTS * sizeof(*x->imghint));
	memset(x->imghint, 0, HINTS * sizeof(*x->imghint));
}

/* The images in (pid, base, t0) order, again when some came since. */
void etl_images_ordered(struct etl *x)
{
	size_t i;

	if (x->nimgord == x->nimg && x->imghint)
		return;
	if (x->imgordcap < x->nimg)
		xgrow(&x->imgord, &x->imgordcap, x->nimg, sizeof(*x->imgord));
	for (i = 0; i < x->nimg; i++)
		x->imgord[i] = (uint32_t)i;
	sort_img = x->img;
	if (x->nimg > 1)
		qsort(x->imgord, x->nimg, sizeof(*x->imgord), by_pid_base);
	x->nimgord = x->nimg;
	group(x);
}

/* Whether group g is the greatest at or below (pid, a). */
static int holds(const struct etl *x, uint32_t g, uint32_t pid, uint64_t a)
{
	const struct etl_imgrp *p = &x->imgrp[g], *q = p + 1;

	return g < x->nimgrp && p->pid == pid && p->base <= a &&
	       (q->pid != pid || q->base > a);
}

/* The greatest group at or below (pid, a) + 1, or 0 when none is. */
static uint32_t group_at(const struct etl *x, uint32_t pid, uint64_t a)
{
	size_t lo = 0, hi = x->nimgrp;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct etl_imgrp *m = &x->imgrp[mid];

		if (m->pid < pid || (m->pid == pid && m->base <= a))
			lo = mid + 1;
		else
			hi = mid;
	}
	return (uint32_t)lo;
}

/* How many loads of group g began at or before ts, counted from its first. */
static uint32_t loads_by(const struct etl *x, uint32_t g, uint64_t ts)
{
	uint32_t lo = x->imgrp[g].first, hi = x->imgrp[g + 1].first;

	if (x->img[x->imgord[hi - 1]].t0 <= ts)
		return hi;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (x->img[x->imgord[mid]].t0 <= ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The image of pid holding a at ts: its index + 1, or 0.  The loads of
 * one base (an image loaded again and again) are searched by their time,
 * so IMAGE_BASES distinct bases below a are looked at, however many
 * loads each had; of each base, the latest few loads begun by ts. */
uint32_t etl_image_at(const struct etl *x, uint32_t pid, uint64_t a, uint64_t ts)
{
	uint32_t *hint = &x->imghint[(pid * 0x9e3779b1u ^ (uint32_t)(a >> 20)) % HINTS];
	uint32_t g = *hint - 1, n, k, i;

	if (!*hint || !holds(x, g, pid, a)) {
		if ((g = group_at(x, pid, a)) == 0)
			return 0;
		*hint = g--;
	}
	for (n = 0; n < IMAGE_BASES && x->imgrp[g].pid == pid; n++) {
		k = loads_by(x, g, ts);
		for (i = 0; k > x->imgrp[g].first && i < 4; k--, i++) {
			const struct eimage *m = &x->img[x->imgord[k - 1]];

			if (a - m->base < m->size && ts < m->t1)
				return x->imgord[k - 1] + 1;
		}
		if (g-- == 0)
			break;
	}
	return 0;
}
