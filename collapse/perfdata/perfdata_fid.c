/* perfdata_fid: ids for the files maps show, so that the frame cache
 * (perfdata_emit.c) names an offset into a file once for every process
 * that maps it (a system-wide recording maps libc anew in each of its
 * thousands of processes, each time at another address).
 *
 * A file here is (path, build id, pgoff): the same three give the same
 * names at the same offset into the map (perfsym_varies says for which
 * paths).  Paths are compared by address: they are interned in d->names,
 * so one string has one address (and two addresses only cost sharing). */
#include "perfdata_int.h"
#include "hkey.h"
#include "perfsym.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

struct pd_fid {
	const char *path;		/* interned: compared by address */
	uint64_t pgoff;			/* where in the file the map starts */
	uint8_t build_id[20];		/* the map's own build id... */
	uint8_t bid_len;		/* ...of these bytes (0: none) */
	uint32_t id;			/* its id, PD_FILE_KEY set */
};

/* The hash of what tells m's file: its path (interned: the pointer),
 * offset and build id's first bytes, all but the pointer the
 * recording's, so hashed with the process's secret (hkey): a mix of
 * fixed steps could be met by offsets and ids chosen to collide. */
static uint64_t fid_hash(const struct pd_map *m)
{
	uint64_t w[3] = { (uint64_t)(uintptr_t)m->sympath, m->pgoff, 0 };

	if (m->bid_len >= 8)
		memcpy(&w[2], m->build_id, 8);
	return hkey(w, sizeof(w));
}

static int fid_same(const struct pd_fid *f, const struct pd_map *m)
{
	return f->path == m->sympath && f->pgoff == m->pgoff && f->bid_len == m->bid_len &&
	       memcmp(f->build_id, m->build_id, m->bid_len) == 0;
}

static struct pd_fid *fid_slot(struct pd_fid *tab, size_t cap, const struct pd_map *m)
{
	size_t i = (size_t)fid_hash(m) & (cap - 1);

	while (tab[i].id && !fid_same(&tab[i], m))
		i = (i + 1) & (cap - 1);
	return &tab[i];
}

static void fid_grow(struct pd *d)
{
	struct pd_fid *old = d->fids;
	size_t oldcap = d->fidcap, i;

	d->fidcap = oldcap ? 2 * oldcap : 256;
	d->fids = xcalloc(d->fidcap, sizeof(*d->fids));
	for (i = 0; i < oldcap; i++)
		if (old[i].id) {
			struct pd_map k;

			k.sympath = old[i].path;
			k.pgoff = old[i].pgoff;
			k.bid_len = old[i].bid_len;
			memcpy(k.build_id, old[i].build_id, sizeof(k.build_id));
			*fid_slot(d->fids, d->fidcap, &k) = old[i];
		}
	free(old);
}

/* The id of m's file, made on first sight; 0 past PD_FILE_KEY of them. */
static uint32_t fid_of(struct pd *d, const struct pd_map *m)
{
	struct pd_fid *f;

	if (2 * (d->nfids + 1) > d->fidcap)
		fid_grow(d);
	f = fid_slot(d->fids, d->fidcap, m);
	if (f->id)
		return f->id;
	if (d->nfids + 1 >= PD_FILE_KEY)
		return 0;
	f->path = m->sympath;
	f->pgoff = m->pgoff;
	f->bid_len = m->bid_len > 20 ? 20 : m->bid_len;
	memcpy(f->build_id, m->build_id, f->bid_len);
	f->id = PD_FILE_KEY | (uint32_t)++d->nfids;
	return f->id;
}

void pd_map_key(struct pd *d, struct pd_map *m, int kernel)
{
	int how = kernel || !m->sympath ? PERFSYM_BY_ADDR : perfsym_varies(m->sympath);

	m->by_pid = how == PERFSYM_BY_PID;
	/* Addresses printed as they are (anonymous memory) differ by map. */
	m->file = how == PERFSYM_BY_OFFSET && !m->ident ? fid_of(d, m) : 0;
}

void pd_fid_free(struct pd *d)
{
	free(d->fids);
	d->fids = NULL;
	d->nfids = d->fidcap = 0;
}
