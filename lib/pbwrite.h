/* pbwrite: the protocol buffers wire format, written into a growing
 * buffer.  A nested message is written into a buffer of its own and
 * added whole with pbw_bytes, so its length is known. */
#ifndef FLAME_PBWRITE_H
#define FLAME_PBWRITE_H

#include <stddef.h>
#include <stdint.h>

struct pbw {
	unsigned char *b;	/* the bytes written, owned */
	size_t len;		/* how many */
	size_t cap;		/* room */
};

/* An empty buffer (no allocation until the first write). */
void pbw_init(struct pbw *w);

/* Frees the bytes; w is empty again. */
void pbw_release(struct pbw *w);

/* Appends a bare varint (an element of a packed run). */
void pbw_varint(struct pbw *w, uint64_t v);

/* Appends field num as a varint. */
void pbw_uint(struct pbw *w, uint32_t num, uint64_t v);

/* Appends field num as n bytes at p (a string, a message, a packed run). */
void pbw_bytes(struct pbw *w, uint32_t num, const void *p, size_t n);

#endif
