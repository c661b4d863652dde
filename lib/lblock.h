/* lblock: the text of an lread handed over in blocks of whole lines, for
 * readers that split lines themselves (a call per line costs more than
 * the work on a short line).  A regular file is mapped and handed over a
 * chunk at a time with no copy; any other input is read (inflated,
 * decoded: lread_read) into a buffer whose last, partial line is carried
 * over to the next block. */
#ifndef FLAME_LBLOCK_H
#define FLAME_LBLOCK_H

#include <stddef.h>

struct lread;

/* A block handler.  text holds len bytes of whole lines, each ending in
 * '\n' except the input's last line, which may lack it; a "\r\n" end
 * keeps its '\r'.  *lineno is the number of lines before text: the
 * handler adds the ones it reads (lblock adds the skipped ones).
 * Returns 0 to go on, -1 to stop reading. */
typedef int lblock_fn(void *ctx, const char *text, size_t len, unsigned long *lineno);

/* Calls fn for each block of lr's text; nothing may have been read from
 * lr before.  Lines over 256 MiB are skipped, as lread_next skips them
 * (memory stays bounded).  Returns 0 (also when fn stopped), or -1 with a
 * message in err ("x: truncated gzip input at byte 4096") when the input
 * could not be read to the end: the whole lines before the fault are
 * handed over first, a line it cut is dropped. */
int lblock_feed(struct lread *lr, lblock_fn *fn, void *ctx, char *err, size_t errlen);

#endif
