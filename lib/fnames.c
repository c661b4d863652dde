/* fnames: frame names to ids (see the header). */
#include "fnames.h"
#include "strtab.h"
#include "xalloc.h"

#include <stdlib.h>

void fnames_init(struct fnames *f, size_t slots)
{
	memset(f, 0, sizeof(*f));
	f->tab = strtab_new(0);
	f->mask = slots - 1;
	f->secret = hkey_secret();
	f->slot = xcalloc(slots, sizeof(*f->slot));
}

void fnames_release(struct fnames *f)
{
	strtab_free(f->tab);
	free(f->name);
	free(f->len);
	free(f->slot);
	memset(f, 0, sizeof(*f));
}

/* The index again, twice as large. */
static void rehash(struct fnames *f)
{
	size_t mask = f->mask * 2 + 1, i, j, n = strtab_count(f->tab);
	uint64_t *slot = xcalloc(mask + 1, sizeof(*slot));

	for (i = 0; i < n; i++) {
		uint64_t h = hkey_with(f->secret, f->name[i], f->len[i]);

		for (j = (size_t)h & mask; slot[j]; j = (j + 1) & mask)
			;
		slot[j] = (h >> 32) << 32 | (i + 1);
	}
	free(f->slot);
	f->slot = slot;
	f->mask = mask;
}

uint32_t fnames_add(struct fnames *f, const char *name, size_t len, uint64_t h, size_t j)
{
	uint32_t id = strtab_intern(f->tab, name, len, NULL);

	if (id >= f->cap) {
		xgrow(&f->name, &f->cap, (size_t)id + 1, sizeof(*f->name));
		f->len = xrealloc(f->len, f->cap * sizeof(*f->len));
	}
	f->name[id] = strtab_str(f->tab, id, &f->len[id]);
	f->slot[j] = (h >> 32) << 32 | ((uint64_t)id + 1);
	if ((size_t)id * 2 + 2 > f->mask + 1)
		rehash(f);
	return id;
}

size_t fnames_count(const struct fnames *f)
{
	return strtab_count(f->tab);
}

size_t fnames_bytes(const struct fnames *f)
{
	return strtab_bytes(f->tab) + f->cap * (sizeof(*f->name) + sizeof(*f->len)) +
	       (f->mask + 1) * sizeof(*f->slot);
}
