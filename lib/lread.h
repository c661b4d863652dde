/* lread: a fast line reader over a file, stdin or memory: a thin layer
 * over bsrc.h (the bytes) and decode.h (their text).  Inflates gzip
 * transparently (also concatenated members) and reads the .json/.xml (or
 * only) member of a zip archive, strips a UTF-8 BOM, converts
 * UTF-16LE/BE (with BOM) to UTF-8, and returns lines without their "\n" or
 * "\r\n"; a missing final newline is fine.  Lines may hold any byte,
 * NUL included: always use the returned length.  When the input breaks
 * off (cut short, corrupt, a read error), every complete line before the
 * fault is returned first; a line the fault cut is dropped. */
#ifndef FLAME_LREAD_H
#define FLAME_LREAD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct lread;

enum {
	LREAD_EOF = 0,		/* no more lines */
	LREAD_LINE = 1,		/* *line, *len hold the next line */
	LREAD_ERROR = -1,	/* read or decompression error: see lread_error */
	LREAD_TOOLONG = -2	/* a line over the limit was skipped; go on */
};

/* Opens path for reading; NULL or "-" means stdin.  Returns NULL with errno
 * set when the file cannot be opened.  Free with lread_free. */
struct lread *lread_open(const char *path);

/* Reads the len bytes at data (which must outlive the reader); name is used
 * in messages.  Never fails.  Free with lread_free. */
struct lread *lread_from_mem(const void *data, size_t len, const char *name);

/* A reader over raw (see bsrc.h), which it owns from here on: for
 * sources lread_open cannot make.  Never fails.  Free with lread_free. */
struct bsrc;
struct lread *lread_from(struct bsrc *raw);

/* Reading stdin twice without holding all of it: lread_stdin_tee reads
 * stdin and keeps every byte it takes from it; lread_take_record hands
 * those bytes over (the caller owns them; the tee reader is then freed);
 * lread_resume_stdin reads them again and then the rest of stdin, taking
 * ownership of prefix.  For a pipe: a regular file can just be rewound. */
struct lread *lread_stdin_tee(void);
unsigned char *lread_take_record(struct lread *lr, size_t *len);
struct lread *lread_resume_stdin(unsigned char *prefix, size_t len);

/* Closes the input (not stdin) and frees lr.  lread_free(NULL) does nothing. */
void lread_free(struct lread *lr);

/* Reads the next line.  Returns LREAD_LINE and points *line at len bytes
 * inside the reader's buffer, valid until the next call; or LREAD_EOF,
 * LREAD_ERROR (the input is unusable from here on) or LREAD_TOOLONG. */
int lread_next(struct lread *lr, const char **line, size_t *len);

/* Lines longer than max bytes are skipped with LREAD_TOOLONG (default
 * 256 MiB, so memory stays bounded on garbage without newlines). */
void lread_set_max_line(struct lread *lr, size_t max);

/* A zip member may inflate to at most max bytes (default 4 GiB); past
 * that, or past the size its directory entry gives, reading fails with a
 * message saying so: a zip bomb costs no more than max.  Call it before
 * the first read. */
void lread_set_max_inflate(struct lread *lr, uint64_t max);

/* Non-zero when the text began with a byte-order mark (now dropped);
 * known once reading has begun. */
int lread_bom(const struct lread *lr);

/* The 1-based number of the line last returned (or skipped). */
unsigned long lread_lineno(const struct lread *lr);

/* The input's name for messages: the path, or "<stdin>". */
const char *lread_name(const struct lread *lr);

/* After LREAD_ERROR: what went wrong and where in the input ("read error
 * at byte 0: ...", "truncated gzip input at byte 4096"), owned by the
 * reader. */
const char *lread_error(const struct lread *lr);

/* A line handler: returns 0 to go on, -1 to stop reading this input. */
typedef int lread_line_fn(void *ctx, const char *line, size_t len, unsigned long lineno);

/* Calls fn for each line of path (NULL or "-": stdin) with its number;
 * over-long lines are skipped.  Returns 0 (also when fn stopped early),
 * or -1 with a message in err ("cannot open 'x': ...", "x: truncated gzip
 * input at byte 4096") when the file cannot be opened or read to the end;
 * the lines before a read error are given to fn all the same.  *lines
 * gets the number of lines seen (may be NULL). */
int lread_each(const char *path, lread_line_fn *fn, void *ctx, unsigned long *lines,
	       char *err, size_t errlen);

/* lread_each over an open reader (which the caller still frees). */
int lread_feed(struct lread *lr, lread_line_fn *fn, void *ctx, char *err, size_t errlen);

/* The whole text of lr, mapped, when lr is a regular file (lread_open
 * with a path) whose text is its bytes as they are (not inflated, no
 * byte-order mark) and nothing was read yet: for callers that split text
 * themselves, with no copy.  Its len bytes stay valid until lread_free,
 * and lr is not to be read from then on.  NULL otherwise (or when it
 * cannot be mapped): read as usual. */
const char *lread_whole(struct lread *lr, size_t *len);

/* Gives back to the system the pages of lread_whole's text inside
 * [p, p + len), done with (any thread may call it). */
void lread_give_back(const char *p, size_t len);

/* Has the pages of lread_whole's text inside [p, p + len) mapped in one
 * call, ahead of reading them (else each fault maps a few); nothing
 * where the system cannot.  Any thread may call it. */
void lread_bring_in(const char *p, size_t len);

/* Reads up to cap (>= 16) bytes of decoded text (inflated, UTF-8, BOM
 * dropped) into dst, for callers that split text themselves; do not mix
 * with lread_next.  Returns the count (fewer than cap only at the end or
 * before an error), 0 at the end, -1 on error (see lread_error); the text
 * before an error is all returned first. */
ssize_t lread_read(struct lread *lr, char *dst, size_t cap);

/* All of lr's decoded bytes read into memory (*len bytes, one more kept
 * for a NUL; the caller frees), for binary formats read whole.  NULL with
 * a message in err when there are more than max bytes.  When reading
 * breaks off, what came before is returned and err holds the fault;
 * else err is "". */
char *lread_slurp(struct lread *lr, uint64_t max, size_t *len, char *err, size_t errlen);

/* lread_read for readers that take a callback and a void * context. */
ssize_t lread_pull(void *lr, char *dst, size_t cap);

#endif
