/* fuzzjson.h: what the JSON fuzz targets share: the input handed to the
 * tokenizer in chunks whose size the first byte picks, so every token
 * straddles refills somewhere. */
#ifndef FLAME_FUZZJSON_H
#define FLAME_FUZZJSON_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

#include "json.h"

struct fuzz_chunks {
	const uint8_t *data;	/* the input */
	size_t size, pos;	/* its length, bytes handed out */
	size_t chunk;		/* bytes a call */
};

static inline ssize_t fuzz_chunk_read(void *ctx, char *dst, size_t cap)
{
	struct fuzz_chunks *c = ctx;
	size_t n = c->size - c->pos;

	n = n < c->chunk ? n : c->chunk;
	n = n < cap ? n : cap;
	memcpy(dst, c->data + c->pos, n);
	c->pos += n;
	return (ssize_t)n;
}

/* A tokenizer over data after its first byte. */
static inline struct json *fuzz_json(struct fuzz_chunks *c, const uint8_t *data, size_t size)
{
	c->data = data + (size > 0);
	c->size = size - (size > 0);
	c->pos = 0;
	c->chunk = size ? (size_t)(data[0] % 64) + 1 : 1;
	return json_new(fuzz_chunk_read, c);
}

#endif
