/* decode: telling gzip, zip and byte-order marks from the first bytes;
 * the UTF-16 to UTF-8 filter. */
#include "decode.h"
#include "bsrc.h"
#include "bytes.h"
#include "xalloc.h"
#include "zsrc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OUT_SIZE ((size_t)1 << 20)	/* UTF-8 bytes per refill, at most */

struct bsrc *decode_inflate(struct bsrc *raw, uint64_t max_inflate)
{
	const unsigned char *h;
	ssize_t n = bsrc_peek(raw, 4, &h);

	/* Compressed bytes are all copied into the inflater: read, not mapped. */
	if (n >= 2 && h[0] == 0x1f && h[1] == 0x8b) {
		bsrc_unmap(raw);
		return zsrc_gzip(raw);
	}
	if (n >= 4 && memcmp(h, "PK\3\4", 4) == 0) {
		bsrc_unmap(raw);
		return zsrc_zip(raw, max_inflate);
	}
	return raw;
}

struct u16 {
	struct bsrc *in;	/* the UTF-16 bytes, owned */
	int be;			/* big-endian */
	unsigned char *out;	/* UTF-8 handed out */
};

static unsigned get16(const unsigned char *s, int be)
{
	return be ? (unsigned)(s[0] << 8 | s[1]) : (unsigned)(s[1] << 8 | s[0]);
}

/* Decodes the unit at s (n bytes there; at_end: no more after them) into
 * *cp.  Returns the bytes it takes, or 0 when more are needed: half a
 * unit, or a high surrogate whose pair may follow. */
static size_t unit(const unsigned char *s, size_t n, int be, int at_end, unsigned long *cp)
{
	unsigned u, v;

	if (n < 2) {
		*cp = 0xfffd;
		return at_end ? n : 0;
	}
	u = get16(s, be);
	if (u >= 0xd800 && u < 0xdc00) {
		if (n < 4 && !at_end)
			return 0;
		v = n >= 4 ? get16(s + 2, be) : 0;
		if (v >= 0xdc00 && v < 0xe000) {
			*cp = 0x10000 + ((unsigned long)(u - 0xd800) << 10) + (v - 0xdc00);
			return 4;
		}
		u = 0xfffd;
	} else if (u >= 0xdc00 && u < 0xe000) {
		u = 0xfffd;
	}
	*cp = u;
	return 2;
}

/* Transcodes what the source below has, a window at a time; a unit cut
 * by a window's end is joined by asking for 4 bytes in a row (fewer come
 * only at the end of the input). */
static ssize_t u16_fill(void *ctx, const unsigned char **p, char *err, size_t errlen)
{
	struct u16 *u = ctx;
	size_t o = 0;

	*p = u->out;
	while (o + 4 <= OUT_SIZE) {
		const unsigned char *s;
		ssize_t n = bsrc_peek(u->in, 4, &s);
		size_t i = 0, k;
		unsigned long cp;

		if (n <= 0) {
			if (n < 0 && o == 0) {
				snprintf(err, errlen, "%s", bsrc_error(u->in));
				return -1;
			}
			break;
		}
		while (o + 4 <= OUT_SIZE && (k = unit(s + i, (size_t)n - i, u->be, n < 4, &cp)) > 0) {
			o += bytes_utf8((char *)u->out + o, cp);
			i += k;
		}
		bsrc_skip(u->in, i);
	}
	return (ssize_t)o;
}

static void u16_free(void *ctx)
{
	struct u16 *u = ctx;

	bsrc_free(u->in);
	free(u->out);
	free(u);
}

static const struct bsrc_ops u16_ops = { u16_fill, NULL, u16_free };

struct bsrc *decode_text(struct bsrc *src, int *bom)
{
	const unsigned char *h;
	ssize_t n = bsrc_peek(src, 3, &h);
	struct u16 *u;

	*bom = 0;
	if (n >= 3 && h[0] == 0xef && h[1] == 0xbb && h[2] == 0xbf) {
		bsrc_skip(src, 3);
		*bom = 1;
		return src;
	}
	if (n < 2 || (h[0] != 0xff && h[0] != 0xfe) || h[1] != (h[0] ^ 1))
		return src;
	u = xmalloc(sizeof(*u));
	u->in = src;
	u->be = h[0] == 0xfe;
	bsrc_skip(src, 2);
	*bom = 1;
	u->out = xmalloc(OUT_SIZE);
	return bsrc_filter(&u16_ops, u, bsrc_name(src));
}
