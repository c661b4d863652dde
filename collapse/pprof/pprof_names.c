/* pprof_names: frame names to ids (see the header). */
#include "pprof_names.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

/* Bytes of a block of names (a longer name gets one of its own). */
#define BLOCK ((size_t)256 << 10)

void pprof_names_init(struct pprof_names *m)
{
	memset(m, 0, sizeof(*m));
	nameix_init(&m->ix, 4096);
}

void pprof_names_release(struct pprof_names *m)
{
	while (m->nblks)
		free(m->blks[--m->nblks]);
	free(m->blks);
	free(m->name);
	free(m->len);
	nameix_release(&m->ix);
	memset(m, 0, sizeof(*m));
}

void pprof_names_reserve(struct pprof_names *m, size_t n)
{
	size_t slots = m->ix.mask + 1;

	while (slots / 2 < n + 1 && slots < ((size_t)1 << 31))
		slots *= 2;
	if (slots != m->ix.mask + 1)
		nameix_resize(&m->ix, slots, m->name, m->len, m->n);
	if (n > m->cap) {
		m->name = xrealloc(m->name, n * sizeof(*m->name));
		m->len = xrealloc(m->len, n * sizeof(*m->len));
		m->cap = n;
	}
}

/* Room for len bytes, a ';' and the pad in the block being filled. */
static void block_room(struct pprof_names *m, size_t len)
{
	size_t need = len + 1 + PPROF_NAMES_PAD;

	if (m->room - m->used >= need)
		return;
	xgrow(&m->blks, &m->blkcap, m->nblks + 1, sizeof(*m->blks));
	m->room = need > BLOCK ? need : BLOCK;
	m->blk = m->blks[m->nblks++] = xmalloc(m->room);
	m->used = 0;
}

uint32_t pprof_names_add(struct pprof_names *m, const char *name, size_t len, uint64_t h,
			 size_t j)
{
	char *d;

	if (m->n >= UINT32_MAX - 1)
		xalloc_fail(SIZE_MAX);
	if (m->n == m->cap) {
		xgrow(&m->name, &m->cap, m->n + 1, sizeof(*m->name));
		m->len = xrealloc(m->len, m->cap * sizeof(*m->len));
	}
	block_room(m, len);
	d = m->blk + m->used;
	memcpy(d, name, len);
	d[len] = ';';
	/* What a reader copying past the ';' may read: zeros until the next
	 * name writes over them. */
	memset(d + len + 1, 0, PPROF_NAMES_PAD);
	m->used += len + 1;
	m->name[m->n] = d;
	m->len[m->n] = len;
	m->n++;
	nameix_put(&m->ix, (uint32_t)(m->n - 1), h, j, m->name, m->len, m->n);
	return (uint32_t)(m->n - 1);
}
