/* pbwrite: varints and length-delimited fields into a buffer. */
#include "pbwrite.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

void pbw_init(struct pbw *w)
{
	w->b = NULL;
	w->len = w->cap = 0;
}

void pbw_release(struct pbw *w)
{
	free(w->b);
	pbw_init(w);
}

void pbw_varint(struct pbw *w, uint64_t v)
{
	xgrow(&w->b, &w->cap, w->len + 10, 1);
	while (v >= 0x80) {
		w->b[w->len++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	w->b[w->len++] = (unsigned char)v;
}

void pbw_uint(struct pbw *w, uint32_t num, uint64_t v)
{
	pbw_varint(w, (uint64_t)num << 3);
	pbw_varint(w, v);
}

void pbw_bytes(struct pbw *w, uint32_t num, const void *p, size_t n)
{
	pbw_varint(w, (uint64_t)num << 3 | 2);
	pbw_varint(w, n);
	xgrow(&w->b, &w->cap, w->len + n, 1);
	if (n)
		memcpy(w->b + w->len, p, n);
	w->len += n;
}
