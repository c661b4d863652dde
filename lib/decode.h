/* decode: from the bytes of an input to its content and its text.  What
 * the input is, is told from its first bytes: gzip and zip are inflated
 * (zsrc.h); a UTF-8 byte-order mark is dropped; UTF-16LE/BE with a
 * byte-order mark becomes UTF-8.  Each step is a bsrc over the one
 * before, so a binary reader takes the inflated bytes and a text reader
 * the text, both through bsrc's calls. */
#ifndef FLAME_DECODE_H
#define FLAME_DECODE_H

#include <stdint.h>

struct bsrc;

/* Returns a source of raw's bytes inflated when raw is gzip or a zip
 * archive (a member inflates to at most max_inflate bytes), else raw
 * itself.  Owns raw from here on.  Never fails: a read error, or an
 * archive that cannot be read, fails the first read of the result. */
struct bsrc *decode_inflate(struct bsrc *raw, uint64_t max_inflate);

/* Returns a source of src's bytes as UTF-8 text: a UTF-8 byte-order mark
 * dropped, UTF-16 with one transcoded (unpaired surrogates and a last odd
 * byte become U+FFFD); else src itself.  Owns src from here on.  *bom is
 * set to 1 when a byte-order mark was dropped, else 0. */
struct bsrc *decode_text(struct bsrc *src, int *bom);

#endif
