/* xcxml: the little XML xctrace writes, as a stream of tags: text,
 * comments, declarations and CDATA are stepped over; a tag is handed on
 * with its name and its attributes' text.  Bytes come in pieces of any
 * size; a tag over XCXML_MAX_TAG bytes is an error, so memory stays
 * bounded. */
#ifndef FLAME_XCXML_H
#define FLAME_XCXML_H

#include <stddef.h>

#define XCXML_MAX_TAG (1u << 20)

enum xcxml_kind { XCXML_START, XCXML_END, XCXML_EMPTY };

/* A tag: returns 0 to go on, -1 to stop. */
typedef int xcxml_tag_fn(void *ctx, enum xcxml_kind kind, const char *name, size_t nlen,
			 const char *attrs, size_t alen);

struct xcxml {
	char *buf;		/* bytes of a construct not yet whole */
	size_t len, cap;	/* how many, and room */
	unsigned long long at;	/* bytes of the document before buf */
	xcxml_tag_fn *tag;	/* where tags go */
	void *ctx;		/* for tag */
};

void xcxml_init(struct xcxml *x, xcxml_tag_fn *tag, void *ctx);
void xcxml_release(struct xcxml *x);

/* Reads n more bytes.  Returns 0; -1 when tag stopped; -2 when a tag was
 * longer than XCXML_MAX_TAG (at its byte offset in *where). */
int xcxml_feed(struct xcxml *x, const char *s, size_t n, unsigned long long *where);

/* Non-zero when bytes of an unfinished construct are left. */
int xcxml_pending(const struct xcxml *x);

/* Finds attribute key in attrs: 1 and its raw value in *v, *vlen; else 0. */
int xcxml_attr(const char *attrs, size_t alen, const char *key, const char **v, size_t *vlen);

/* Decodes the entities of the n bytes at s (&amp; &lt; &gt; &quot; &apos;
 * &#N; &#xH;) into out (room for n bytes; unknown ones stay as they are);
 * returns the length. */
size_t xcxml_unescape(const char *s, size_t n, char *out);

#endif
