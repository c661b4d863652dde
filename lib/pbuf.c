/* pbuf: protocol buffers fields, each length checked before use. */
#include "pbuf.h"

#include <stdio.h>
#include <string.h>

void pb_init(struct pb *r, const void *buf, size_t len)
{
	static const unsigned char none[1];

	/* An empty buffer may be NULL: no pointer arithmetic on that. */
	r->base = buf ? buf : none;
	r->p = r->base;
	r->end = r->base + len;
}

void pb_sub(struct pb *sub, const struct pb *r, const struct pb_field *f)
{
	sub->base = r->base;
	sub->p = f->data;
	sub->end = f->data + f->len;
}

size_t pb_offset(const struct pb *r)
{
	return (size_t)(r->p - r->base);
}

/* The varint at r->p, at most 10 bytes, the tenth holding only bit 63. */
static int get_varint(struct pb *r, uint64_t *v, char *err, size_t errlen)
{
	const unsigned char *p = r->p;
	uint64_t x = 0;
	unsigned shift = 0;

	/* The common case first: one byte. */
	if (p < r->end && *p < 0x80) {
		*v = *p;
		r->p = p + 1;
		return 1;
	}
	for (; p < r->end; p++, shift += 7) {
		if (shift == 63 && *p > 1) {
			snprintf(err, errlen, "varint longer than 64 bits at byte %zu", pb_offset(r));
			return -1;
		}
		x |= (uint64_t)(*p & 0x7f) << shift;
		if (*p < 0x80) {
			*v = x;
			r->p = p + 1;
			return 1;
		}
	}
	snprintf(err, errlen, "truncated varint at byte %zu (the input ends at byte %zu)",
		 pb_offset(r), (size_t)(r->end - r->base));
	return -1;
}

int pb_varint(struct pb *r, uint64_t *v, char *err, size_t errlen)
{
	if (r->p >= r->end)
		return 0;
	return get_varint(r, v, err, errlen);
}

/* A fixed field of n bytes, little-endian. */
static int get_fixed(struct pb *r, struct pb_field *f, size_t n, char *err, size_t errlen)
{
	size_t i;

	if ((size_t)(r->end - r->p) < n) {
		snprintf(err, errlen, "field %u at byte %zu: %zu-byte value runs past the end "
			 "(%zu bytes left)", f->num, f->off, n, (size_t)(r->end - r->p));
		return -1;
	}
	f->v = 0;
	for (i = 0; i < n; i++)
		f->v |= (uint64_t)r->p[i] << (8 * i);
	r->p += n;
	return 1;
}

static int get_len(struct pb *r, struct pb_field *f, char *err, size_t errlen)
{
	uint64_t n;
	size_t left;

	if (get_varint(r, &n, err, errlen) < 0)
		return -1;
	left = (size_t)(r->end - r->p);
	if (n > left) {
		snprintf(err, errlen, "field %u at byte %zu: length %llu runs past the end "
			 "(%zu bytes left)", f->num, f->off, (unsigned long long)n, left);
		return -1;
	}
	f->data = r->p;
	f->len = (size_t)n;
	r->p += n;
	return 1;
}

int pb_next(struct pb *r, struct pb_field *f, char *err, size_t errlen)
{
	uint64_t tag;

	if (r->p >= r->end)
		return 0;
	f->off = pb_offset(r);
	if (get_varint(r, &tag, err, errlen) < 0)
		return -1;
	if (tag >> 3 == 0 || tag >> 3 > 0x1fffffff) {
		snprintf(err, errlen, "bad field number %llu at byte %zu",
			 (unsigned long long)(tag >> 3), f->off);
		return -1;
	}
	f->num = (uint32_t)(tag >> 3);
	f->wire = (int)(tag & 7);
	f->data = NULL;
	f->len = 0;
	switch (f->wire) {
	case PB_VARINT: return get_varint(r, &f->v, err, errlen);
	case PB_I64: return get_fixed(r, f, 8, err, errlen);
	case PB_I32: return get_fixed(r, f, 4, err, errlen);
	case PB_LEN: return get_len(r, f, err, errlen);
	default:
		snprintf(err, errlen, "field %u at byte %zu: unsupported wire type %d", f->num, f->off,
			 f->wire);
		return -1;
	}
}

size_t pb_count_varints(const unsigned char *data, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++)
		n += data[i] < 0x80;
	return n;
}
