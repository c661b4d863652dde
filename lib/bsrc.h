/* bsrc: a byte source read as a run of windows, the shape of Lua's lzio:
 * a refill hands out the next bytes, a small reader on top consumes them.
 * Sources: a file (mapped when it is a regular file, else read), stdin
 * (recorded to be read again when it is a pipe), memory, or a filter
 * over another source (decode.h stacks inflaters and transcoders so).
 * Knows nothing of compression, text or lines. */
#ifndef FLAME_BSRC_H
#define FLAME_BSRC_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct bsrc;

/* Regular files at least this big are mapped rather than read (a build
 * with -DBSRC_MAP_MIN=SIZE_MAX never maps, to compare the two). */
#ifndef BSRC_MAP_MIN
#define BSRC_MAP_MIN ((size_t)64 * 1024)
#endif

/* A filter's refill: points *p at the next bytes of its output (valid
 * until the next call) and returns how many (> 0), 0 at the end, or -1
 * with a message in err.  Called again after 0 or -1 it must return the
 * same. */
typedef ssize_t bsrc_fill_fn(void *ctx, const unsigned char **p, char *err, size_t errlen);

/* A filter's way to save bsrc_read a copy: makes up to cap bytes at dst
 * rather than in a window of its own; returns as bsrc_fill_fn does. */
typedef ssize_t bsrc_into_fn(void *ctx, unsigned char *dst, size_t cap, char *err, size_t errlen);

/* Frees a filter's ctx (and the source under it). */
typedef void bsrc_free_fn(void *ctx);

/* A filter's calls. */
struct bsrc_ops {
	bsrc_fill_fn *fill;	/* the refill */
	bsrc_into_fn *into;	/* straight into the reader's buffer, or NULL */
	bsrc_free_fn *release;	/* frees ctx, or NULL */
};

/* Opens path; NULL or "-" means stdin (read, never mapped, never
 * closed).  A regular file of at least map_min bytes is mapped and the
 * pages behind the read position are given back as it goes, so memory
 * does not follow the file's size (SIZE_MAX: always read).  A mapped
 * file must not shrink while it is read.  Returns NULL with errno set
 * when the file cannot be opened.  Free with bsrc_free. */
struct bsrc *bsrc_open(const char *path, size_t map_min);

/* The len bytes at data, which must outlive the source; name is for
 * messages.  Never fails. */
struct bsrc *bsrc_from_mem(const void *data, size_t len, const char *name);

/* Reading a pipe twice without holding all of it: bsrc_stdin_tee reads
 * stdin and keeps every byte it takes; bsrc_take_record hands those
 * bytes over (the caller frees them) and stops recording;
 * bsrc_resume_stdin reads them again, then the rest of stdin, and owns
 * prefix. */
struct bsrc *bsrc_stdin_tee(void);
unsigned char *bsrc_take_record(struct bsrc *s, size_t *len);
struct bsrc *bsrc_resume_stdin(unsigned char *prefix, size_t len);

/* A source whose bytes come from ops (which must outlive it) called on
 * ctx; bsrc_free calls ops->release(ctx).  name is copied, for messages. */
struct bsrc *bsrc_filter(const struct bsrc_ops *ops, void *ctx, const char *name);

/* Frees s, its filter's ctx, and closes its file (not stdin).
 * bsrc_free(NULL) does nothing. */
void bsrc_free(struct bsrc *s);

/* Takes the next window: points *p at bytes now consumed, valid until the
 * next call on s, and returns how many (> 0); 0 at the end; -1 on error
 * (see bsrc_error; every later call fails too). */
ssize_t bsrc_next(struct bsrc *s, const unsigned char **p);

/* Looks at the next bytes without consuming them: at least want of them
 * in a row at *p unless the input ends first.  Returns how many there
 * are (fewer than want only at the end, or before an error, which the
 * next call then returns), or -1 on error.  Valid until the next call on
 * s. */
ssize_t bsrc_peek(struct bsrc *s, size_t want, const unsigned char **p);

/* Consumes n bytes, at most what the last bsrc_peek returned. */
void bsrc_skip(struct bsrc *s, size_t n);

/* Copies up to cap bytes into dst; returns how many (fewer only at the
 * end or before an error, which the next call then returns), 0 at the
 * end, -1 on error. */
ssize_t bsrc_read(struct bsrc *s, void *dst, size_t cap);

/* The input offset of the next byte: bytes consumed so far, or where the
 * last bsrc_seek went. */
uint64_t bsrc_offset(const struct bsrc *s);

/* Random access, for formats read from the end (zip).  bsrc_size returns
 * the input's size, or -1 when it is a stream (a pipe, a filter).
 * bsrc_pread reads n bytes at off into buf: 0, or -1 when they are not
 * all there.  bsrc_seek makes off the next byte read: 0, or -1 with an
 * error set. */
int64_t bsrc_size(const struct bsrc *s);
int bsrc_pread(struct bsrc *s, uint64_t off, void *buf, size_t n);
int bsrc_seek(struct bsrc *s, uint64_t off);

/* Reads the rest of s with read(2) when it is a mapped file: for a reader
 * that copies every byte anyway (an inflater), where page faults on the
 * mapping would cost more than the copy read(2) makes.  Does nothing to
 * other sources. */
void bsrc_unmap(struct bsrc *s);

/* Makes every later read fail with msg (a filter could not be set up). */
void bsrc_fail(struct bsrc *s, const char *msg);

/* The name given at open ("<stdin>" for stdin), for messages. */
const char *bsrc_name(const struct bsrc *s);

/* After an error: what went wrong ("read error at byte 12: ...",
 * "truncated gzip input at byte 4096"), owned by s. */
const char *bsrc_error(const struct bsrc *s);

#endif
