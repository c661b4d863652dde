/* fnames: frame names to ids (see the header). */
#include "fnames.h"
#include "strtab.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

void fnames_init(struct fnames *f, size_t slots)
{
	memset(f, 0, sizeof(*f));
	f->tab = strtab_new(0);
	nameix_init(&f->ix, slots);
}

void fnames_release(struct fnames *f)
{
	strtab_free(f->tab);
	free(f->name);
	free(f->len);
	nameix_release(&f->ix);
	memset(f, 0, sizeof(*f));
}

uint32_t fnames_add(struct fnames *f, const char *name, size_t len, uint64_t h, size_t j)
{
	uint32_t id = strtab_intern(f->tab, name, len, NULL);

	if (id >= f->cap) {
		xgrow(&f->name, &f->cap, (size_t)id + 1, sizeof(*f->name));
		f->len = xrealloc(f->len, f->cap * sizeof(*f->len));
	}
	f->name[id] = strtab_str(f->tab, id, &f->len[id]);
	nameix_put(&f->ix, id, h, j, f->name, f->len, (size_t)id + 1);
	return id;
}

size_t fnames_count(const struct fnames *f)
{
	return strtab_count(f->tab);
}

size_t fnames_bytes(const struct fnames *f)
{
	return strtab_bytes(f->tab) + f->cap * (sizeof(*f->name) + sizeof(*f->len)) +
	       (f->ix.mask + 1) * sizeof(*f->ix.slot);
}
