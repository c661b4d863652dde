/* nameix: a names' index (see the header). */
#include "nameix.h"
#include "xalloc.h"

#include <stdlib.h>

void nameix_init(struct nameix *x, size_t slots)
{
	x->mask = slots - 1;
	x->secret = hkey_secret();
	x->slot = xcalloc(slots, sizeof(*x->slot));
}

void nameix_release(struct nameix *x)
{
	free(x->slot);
	x->slot = NULL;
}

void nameix_resize(struct nameix *x, size_t slots, const char *const *name, const size_t *lens,
		   size_t n)
{
	uint64_t *slot = xcalloc(slots, sizeof(*slot)), h;
	size_t i, j;

	for (i = 0; i < n; i++) {
		h = hkey_with(x->secret, name[i], lens[i]);
		for (j = (size_t)h & (slots - 1); slot[j]; j = (j + 1) & (slots - 1))
			;
		slot[j] = (h >> 32) << 32 | (i + 1);
	}
	free(x->slot);
	x->slot = slot;
	x->mask = slots - 1;
}

void nameix_put(struct nameix *x, uint32_t id, uint64_t h, size_t j, const char *const *name,
		const size_t *lens, size_t n)
{
	x->slot[j] = (h >> 32) << 32 | ((uint64_t)id + 1);
	if (n * 2 > x->mask + 1)
		nameix_resize(x, (x->mask + 1) * 2, name, lens, n);
}
