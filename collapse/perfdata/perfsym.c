/* perfsym: a first stand-in that names nothing; the ELF resolver replaces
 * it. */
#include "perfsym.h"
#include "xalloc.h"

#include <stdlib.h>

struct perfsym {
	struct perfsym_opts o;
	struct perfsym_stats st;
};

struct perfsym *perfsym_new(const struct perfsym_opts *o)
{
	struct perfsym *s = xcalloc(1, sizeof(*s));

	if (o)
		s->o = *o;
	return s;
}

void perfsym_free(struct perfsym *s)
{
	free(s);
}

void perfsym_note_build_id(struct perfsym *s, const char *path, const uint8_t *id, size_t len)
{
	(void)s, (void)path, (void)id, (void)len;
}

const char *perfsym_lookup(struct perfsym *s, const struct perfsym_map *m, uint64_t ip,
			   uint64_t *off)
{
	(void)m, (void)ip;
	s->st.lookups++;
	s->st.unknown++;
	*off = 0;
	return NULL;
}

const struct perfsym_stats *perfsym_stats(const struct perfsym *s)
{
	return &s->st;
}
