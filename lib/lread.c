/* lread: lines over a decoded byte source.
 *
 * The input is opened as a bsrc; at the first read it is decoded
 * (decode_inflate, then decode_text), so lread_set_max_inflate may come
 * between.  Lines are cut in the source's windows and handed out where
 * they lie, with no copy: only a line that runs past a window's end is
 * gathered in carry.  A mapped file's windows are 4 MiB and a read one's
 * 1 MiB, so that copy is one line in a few hundred thousand. */
#include "lread.h"
#include "bsrc.h"
#include "decode.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

struct lread {
	struct bsrc *raw;		/* the input as opened */
	struct bsrc *src;		/* its text; NULL before the first read */
	uint64_t max_inflate;		/* for decode_inflate */
	int bom;			/* the text began with a byte-order mark */
	const char *w;			/* the window being cut into lines */
	size_t wlen;			/* its bytes */
	size_t pos;			/* the next line starts here in it */
	char *carry;			/* a line begun in an earlier window */
	size_t clen;			/* its bytes so far */
	size_t ccap;			/* room in carry */
	size_t max_line;		/* longer lines are skipped */
	int eof;			/* 1 no more text, -1 a read error */
	int skipping;			/* discarding an over-long line */
	unsigned long lineno;		/* number of the last line returned */
	char *path;			/* the file opened, or NULL (stdin, memory) */
	void *map;			/* lread_whole's mapping of it, or NULL */
	size_t maplen;			/* its bytes */
};

static struct lread *lread_new(struct bsrc *raw)
{
	struct lread *lr = xcalloc(1, sizeof(*lr));

	lr->raw = raw;
	lr->w = "";
	lr->max_line = (size_t)256 << 20;
	lr->max_inflate = (uint64_t)4 << 30;
	return lr;
}

struct lread *lread_from(struct bsrc *raw)
{
	return lread_new(raw);
}

struct lread *lread_open(const char *path)
{
	struct bsrc *raw = bsrc_open(path, BSRC_MAP_MIN);
	struct lread *lr = raw ? lread_new(raw) : NULL;

	if (lr && path && strcmp(path, "-") != 0)
		lr->path = xstrndup(path, strlen(path));
	return lr;
}

struct lread *lread_from_mem(const void *data, size_t len, const char *name)
{
	return lread_new(bsrc_from_mem(data, len, name));
}

struct lread *lread_stdin_tee(void)
{
	return lread_new(bsrc_stdin_tee());
}

unsigned char *lread_take_record(struct lread *lr, size_t *len)
{
	return bsrc_take_record(lr->raw, len);
}

struct lread *lread_resume_stdin(unsigned char *prefix, size_t len)
{
	return lread_new(bsrc_resume_stdin(prefix, len));
}

void lread_free(struct lread *lr)
{
	if (!lr)
		return;
	bsrc_free(lr->src ? lr->src : lr->raw);
	if (lr->map)
		munmap(lr->map, lr->maplen);
	free(lr->path);
	free(lr->carry);
	free(lr);
}

/* The source of text, set up at the first read. */
static struct bsrc *text(struct lread *lr)
{
	if (!lr->src)
		lr->src = decode_text(decode_inflate(lr->raw, lr->max_inflate), &lr->bom);
	return lr->src;
}

const char *lread_whole(struct lread *lr, size_t *len)
{
	int64_t size;
	void *m;
	int fd;

	if (!lr->path || lr->map || lr->eof || lr->wlen || lr->lineno)
		return NULL;
	if (text(lr) != lr->raw || lr->bom || bsrc_offset(lr->raw) != 0 ||
	    (size = bsrc_size(lr->raw)) <= 0 || (uint64_t)size != (size_t)size)
		return NULL;
	if ((fd = open(lr->path, O_RDONLY | O_CLOEXEC)) < 0)
		return NULL;
	m = mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return NULL;
	lr->map = m;
	*len = lr->maplen = (size_t)size;
	return m;
}

void lread_give_back(const char *p, size_t len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t a = ((size_t)p + page - 1) / page * page, b = ((size_t)p + len) / page * page;

	if (b > a)
		(void)madvise((void *)a, b - a, MADV_DONTNEED);
}

void lread_bring_in(const char *p, size_t len)
{
#ifdef MADV_POPULATE_READ
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t a = (size_t)p / page * page;

	/* Older kernels refuse it (EINVAL): the faults then map the pages. */
	(void)madvise((void *)a, (size_t)p + len - a, MADV_POPULATE_READ);
#else
	(void)p;
	(void)len;
#endif
}

/* Takes the next window; at the end or on an error sets eof instead. */
static void next_window(struct lread *lr)
{
	const unsigned char *p;
	ssize_t n = bsrc_next(text(lr), &p);

	lr->pos = 0;
	if (n > 0) {
		lr->w = (const char *)p;
		lr->wlen = (size_t)n;
		return;
	}
	lr->w = "";
	lr->wlen = 0;
	lr->eof = n < 0 ? -1 : 1;
}

/* Adds n bytes to the line being gathered (nothing while skipping). */
static void gather(struct lread *lr, const char *s, size_t n)
{
	if (lr->skipping || n == 0)
		return;
	xgrow(&lr->carry, &lr->ccap, lr->clen + n, 1);
	memcpy(lr->carry + lr->clen, s, n);
	lr->clen += n;
}

/* Hands out the n bytes at s as a line without a trailing '\r', or says
 * it is too long. */
static int line_out(struct lread *lr, const char *s, size_t n, const char **line, size_t *len)
{
	lr->lineno++;
	if (n > lr->max_line)
		return LREAD_TOOLONG;
	if (n > 0 && s[n - 1] == '\r')
		n--;
	*line = s;
	*len = n;
	return LREAD_LINE;
}

int lread_next(struct lread *lr, const char **line, size_t *len)
{
	for (;;) {
		const char *s = lr->w + lr->pos, *nl;
		size_t n = lr->wlen - lr->pos;

		if (n && (nl = memchr(s, '\n', n))) {
			size_t k = (size_t)(nl - s);

			lr->pos += k + 1;
			if (lr->skipping) {
				lr->skipping = 0;	/* its TOOLONG was returned */
				continue;
			}
			if (!lr->clen)
				return line_out(lr, s, k, line, len);
			gather(lr, s, k);
			k = lr->clen;
			lr->clen = 0;
			return line_out(lr, lr->carry, k, line, len);
		}
		gather(lr, s, n);
		lr->pos = lr->wlen;
		if (lr->clen > lr->max_line) {
			/* Give up on this line now; keep reading to its end. */
			lr->skipping = 1;
			lr->clen = 0;
			lr->lineno++;
			return LREAD_TOOLONG;
		}
		if (lr->eof < 0)
			return LREAD_ERROR;	/* a line cut by the error is dropped */
		if (lr->eof) {
			if (!lr->clen)
				return LREAD_EOF;
			n = lr->clen;
			lr->clen = 0;
			return line_out(lr, lr->carry, n, line, len);
		}
		next_window(lr);
	}
}

void lread_set_max_line(struct lread *lr, size_t max)
{
	lr->max_line = max;
}

void lread_set_max_inflate(struct lread *lr, uint64_t max)
{
	lr->max_inflate = max;
}

int lread_bom(const struct lread *lr)
{
	return lr->bom;
}

unsigned long lread_lineno(const struct lread *lr)
{
	return lr->lineno;
}

const char *lread_name(const struct lread *lr)
{
	return bsrc_name(lr->raw);
}

const char *lread_error(const struct lread *lr)
{
	return bsrc_error(lr->src ? lr->src : lr->raw);
}

int lread_feed(struct lread *lr, lread_line_fn *fn, void *ctx, char *err, size_t errlen)
{
	const char *line;
	size_t len;
	int st;

	while ((st = lread_next(lr, &line, &len)) == LREAD_LINE || st == LREAD_TOOLONG)
		if (st == LREAD_LINE && fn(ctx, line, len, lr->lineno) < 0)
			break;
	if (st == LREAD_ERROR)
		snprintf(err, errlen, "%s: %s", lread_name(lr), lread_error(lr));
	return st == LREAD_ERROR ? -1 : 0;
}

int lread_each(const char *path, lread_line_fn *fn, void *ctx, unsigned long *lines,
	       char *err, size_t errlen)
{
	struct lread *lr = lread_open(path);
	int rc;

	if (!lr) {
		snprintf(err, errlen, "cannot open '%s': %s", path ? path : "-", strerror(errno));
		return -1;
	}
	rc = lread_feed(lr, fn, ctx, err, errlen);
	if (lines)
		*lines = lr->lineno;
	lread_free(lr);
	return rc;
}

ssize_t lread_read(struct lread *lr, char *dst, size_t cap)
{
	ssize_t n;

	if (lr->eof < 0)
		return -1;
	if (lr->eof || cap < 16)
		return 0;
	n = bsrc_read(text(lr), dst, cap);
	if (n < 0)
		lr->eof = -1;
	else if (n == 0)
		lr->eof = 1;
	return n;
}

ssize_t lread_pull(void *lr, char *dst, size_t cap)
{
	return lread_read(lr, dst, cap);
}

char *lread_slurp(struct lread *lr, uint64_t max, size_t *len, char *err, size_t errlen)
{
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n = 1;

	*len = 0;
	err[0] = '\0';
	while (n > 0) {
		if (*len >= max) {
			snprintf(err, errlen, "larger than %llu bytes", (unsigned long long)max);
			free(buf);
			return NULL;
		}
		xgrow(&buf, &cap, *len + 65537, 1);
		n = lread_read(lr, buf + *len, cap - *len - 1);
		*len += n > 0 ? (size_t)n : 0;
	}
	if (n < 0)
		snprintf(err, errlen, "%s", lread_error(lr));
	buf[*len] = '\0';
	return buf;
}
