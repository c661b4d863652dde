/* leafstack: frames put in front, in a buffer filled from its end. */
#include "leafstack.h"
#include "xalloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void leafstack_init(struct leafstack *s)
{
	s->cap = 4096;
	s->buf = xmalloc(s->cap);
	s->at = s->cap;
	s->nframes = 0;
}

void leafstack_release(struct leafstack *s)
{
	free(s->buf);
	s->buf = NULL;
}

char *leafstack_room(struct leafstack *s, size_t n)
{
	size_t need = n + 1, used = s->cap - s->at, cap;
	char *nb;

	if (s->at < need) {
		if (need > SIZE_MAX / 2 - s->cap)
			xalloc_fail(SIZE_MAX);
		cap = 2 * s->cap + need;
		nb = xmalloc(cap);
		memcpy(nb + cap - used, s->buf + s->at, used);
		free(s->buf);
		s->buf = nb;
		s->at = cap - used;
		s->cap = cap;
	}
	if (s->nframes++ > 0)
		s->buf[--s->at] = ';';
	s->at -= n;
	return s->buf + s->at;
}

void leafstack_push(struct leafstack *s, const char *f, size_t n)
{
	memcpy(leafstack_room(s, n), f, n);
}

const char *leafstack_text(const struct leafstack *s, size_t *len)
{
	*len = s->cap - s->at;
	return s->buf + s->at;
}

void leafstack_clear(struct leafstack *s)
{
	s->at = s->cap;
	s->nframes = 0;
}
