/* bsrc: windows over memory, a mapping, a file or a filter.  A source is
 * a memory part followed by a file part, either of which may be empty:
 * memory input and a mapped file are all memory part, a file that is read
 * all file part, stdin resumed after a tee the recorded bytes then the
 * pipe.  A filter has neither: its fill makes the windows.  The window
 * (p, n) is what is left of the last refill; a peek that needs more bytes
 * in a row than it holds copies them into join, and what the refill
 * brought past them waits in rest. */
#include "bsrc.h"
#include "progress.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define READ_SIZE ((size_t)256 << 10)	/* per read(2): 1 MiB left zlib's input out of L2 */
#define MAP_WINDOW ((size_t)1 << 20)	/* a mapping's window: whole pages */
#define DIRECT_MIN ((size_t)64 << 10)	/* bsrc_read: no copy from here up */

struct bsrc {
	const unsigned char *p;		/* window: the next unread byte */
	size_t n;			/* unread bytes at p */
	uint64_t off;			/* input offset of p */
	const unsigned char *rest;	/* a refill's bytes past a peek's join */
	size_t rest_n;			/* how many */
	unsigned char *join;		/* peek's buffer */
	int state;			/* 0 reading, 1 at the end, -1 failed */
	const struct bsrc_ops *ops;	/* a filter's calls, or NULL */
	void *ctx;			/* the filter's state */
	const unsigned char *mem;	/* the memory part */
	size_t mem_len;			/* its bytes */
	size_t mem_pos;			/* the next of them to hand out */
	size_t map_len;			/* mem is our mapping of this size, or 0 */
	int map_fd;			/* the mapped file, for bsrc_read */
	size_t released;		/* mapped bytes below this were given back */
	unsigned char *owned;		/* mem when it is ours to free */
	int fd;				/* the file part, -1 when none */
	int close_fd;			/* fd is ours to close */
	int regular;			/* fd is a regular file: pread, lseek */
	int64_t size;			/* the regular file's size */
	unsigned char *buf;		/* read buffer, READ_SIZE */
	unsigned char *rec;		/* tee: every byte read from fd */
	size_t rec_len;			/* how many */
	size_t rec_cap;			/* room in rec */
	int recording;			/* rec is being filled */
	uint64_t taken;			/* raw bytes taken from the file or memory */
	char *name;			/* for messages */
	char err[512];			/* what failed, once state is -1 */
};

static struct bsrc *new_source(const char *name)
{
	struct bsrc *s = xcalloc(1, sizeof(*s));

	s->fd = -1;
	s->name = xstrndup(name, strlen(name));
	return s;
}

/* A source reading fd (not closed by bsrc_free unless close_fd is set). */
static struct bsrc *fd_source(int fd, const char *name)
{
	struct bsrc *s = new_source(name);
	struct stat st;
	off_t at;

	s->fd = fd;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		s->regular = 1;
		s->size = st.st_size;
		at = lseek(fd, 0, SEEK_CUR);
		s->off = at > 0 ? (uint64_t)at : 0;
	}
	progress_input(progress_installed(), name, s->regular ? (uint64_t)s->size : 0);
	return s;
}

/* Maps the whole of s's regular file in place of reading it; on failure
 * the file is read as before. */
static void try_map(struct bsrc *s)
{
	size_t len = (size_t)s->size;
	void *m;

	if ((uint64_t)s->size != (uint64_t)len || s->off != 0)
		return;
	m = mmap(NULL, len, PROT_READ, MAP_PRIVATE, s->fd, 0);
	if (m == MAP_FAILED)
		return;
	(void)madvise(m, len, MADV_SEQUENTIAL);
	s->mem = m;
	s->mem_len = s->map_len = len;
	s->map_fd = s->fd;	/* closed by bsrc_free as fd */
	s->fd = -1;
}

struct bsrc *bsrc_open(const char *path, size_t map_min)
{
	struct bsrc *s;
	int fd;

	if (!path || strcmp(path, "-") == 0)
		return fd_source(0, "<stdin>");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	s = fd_source(fd, path);
	s->close_fd = 1;
	if (s->regular && s->size > 0 && (uint64_t)s->size >= map_min)
		try_map(s);
	return s;
}

struct bsrc *bsrc_from_mem(const void *data, size_t len, const char *name)
{
	static const unsigned char empty[1];
	struct bsrc *s = new_source(name);

	s->mem = data ? data : empty;
	s->mem_len = data ? len : 0;
	return s;
}

struct bsrc *bsrc_stdin_tee(void)
{
	struct bsrc *s = fd_source(0, "<stdin>");

	s->recording = 1;
	return s;
}

unsigned char *bsrc_take_record(struct bsrc *s, size_t *len)
{
	unsigned char *r = s->rec;

	*len = s->rec_len;
	s->rec = NULL;
	s->rec_len = s->rec_cap = 0;
	s->recording = 0;
	return r;
}

struct bsrc *bsrc_resume_stdin(unsigned char *prefix, size_t len)
{
	struct bsrc *s = fd_source(0, "<stdin>");

	s->owned = prefix;
	s->mem = prefix ? prefix : (const unsigned char *)"";
	s->mem_len = prefix ? len : 0;
	s->off = 0;
	s->regular = 0;		/* the prefix is not in the file: no seeking */
	return s;
}

struct bsrc *bsrc_filter(const struct bsrc_ops *ops, void *ctx, const char *name)
{
	struct bsrc *s = new_source(name);

	s->ops = ops;
	s->ctx = ctx;
	return s;
}

void bsrc_free(struct bsrc *s)
{
	if (!s)
		return;
	if (s->ops && s->ops->release)
		s->ops->release(s->ctx);
	if (s->map_len)
		munmap((void *)(size_t)s->mem, s->map_len);
	if (s->close_fd)
		close(s->map_len ? s->map_fd : s->fd);
	free(s->owned);
	free(s->buf);
	free(s->join);
	free(s->rec);
	free(s->name);
	free(s);
}

/* read(2) into dst at the input offset at; the bytes are kept in rec
 * while recording. */
static ssize_t fd_read(struct bsrc *s, unsigned char *dst, size_t cap, uint64_t at)
{
	ssize_t n;

	do
		n = read(s->fd, dst, cap);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		snprintf(s->err, sizeof(s->err), "read error at byte %llu: %s",
			 (unsigned long long)at, strerror(errno));
		return -1;
	}
	if (n > 0 && s->recording) {
		xgrow(&s->rec, &s->rec_cap, s->rec_len + (size_t)n, 1);
		memcpy(s->rec + s->rec_len, dst, (size_t)n);
		s->rec_len += (size_t)n;
	}
	return n;
}

/* The next window of the memory part.  A mapping is handed out a window
 * at a time, and the pages of the windows before it, which nobody may
 * use any more, are given back: memory stays flat however big the file. */
static ssize_t mem_window(struct bsrc *s, const unsigned char **p)
{
	size_t n = s->mem_len - s->mem_pos;

	if (s->map_len) {
		size_t page = (size_t)sysconf(_SC_PAGESIZE);
		size_t behind = s->mem_pos / page * page;

		if (behind > s->released) {
			(void)madvise((void *)(size_t)(s->mem + s->released), behind - s->released,
				      MADV_DONTNEED);
			s->released = behind;
		}
		if (n > MAP_WINDOW)
			n = MAP_WINDOW;
	}
	*p = s->mem + s->mem_pos;
	s->mem_pos += n;
	return (ssize_t)n;
}

/* Makes the next bytes available at *p: the rest of a join, the memory
 * part, the file part or the filter.  Returns their count, 0 at the end,
 * -1 on error; the end and errors stick. */
static ssize_t refill(struct bsrc *s, const unsigned char **p)
{
	ssize_t n = 0;

	if (s->rest_n) {
		*p = s->rest;
		n = (ssize_t)s->rest_n;
		s->rest_n = 0;
		return n;
	}
	if (s->state)
		return s->state < 0 ? -1 : 0;
	if (s->ops) {
		n = s->ops->fill(s->ctx, p, s->err, sizeof(s->err));
	} else if (s->mem_pos < s->mem_len) {
		n = mem_window(s, p);
	} else if (s->fd >= 0) {
		if (!s->buf)
			s->buf = xmalloc(READ_SIZE);
		*p = s->buf;
		n = fd_read(s, s->buf, READ_SIZE, s->off + s->n);
	}
	if (n <= 0)
		s->state = n < 0 ? -1 : 1;
	else if (!s->ops)
		progress_at(progress_installed(), s->taken += (uint64_t)n);
	return n;
}

ssize_t bsrc_next(struct bsrc *s, const unsigned char **p)
{
	ssize_t n = (ssize_t)s->n;

	if (n)
		*p = s->p;
	else if ((n = refill(s, p)) <= 0)
		return n;
	s->off += (uint64_t)n;
	s->n = 0;
	return n;
}

/* Copies the window and as many more bytes as needed (up to want) into a
 * new join buffer, which becomes the window, also when a refill fails
 * (the bytes before the fault are kept).  Returns 0, or -1 on an error. */
static int join(struct bsrc *s, size_t want)
{
	unsigned char *j = xmalloc(want);
	size_t have = s->n;
	int rc = 0;

	if (have)
		memcpy(j, s->p, have);
	while (have < want) {
		const unsigned char *q;
		ssize_t r = refill(s, &q);
		size_t take;

		if (r <= 0) {
			rc = r < 0 ? -1 : 0;
			break;
		}
		take = (size_t)r < want - have ? (size_t)r : want - have;
		memcpy(j + have, q, take);
		have += take;
		s->rest = q + take;
		s->rest_n = (size_t)r - take;
	}
	free(s->join);
	s->join = j;
	s->p = j;
	s->n = have;
	return rc;
}

ssize_t bsrc_peek(struct bsrc *s, size_t want, const unsigned char **p)
{
	if (s->n == 0) {
		ssize_t r = refill(s, &s->p);

		if (r < 0)
			return -1;
		s->n = (size_t)r;
	}
	/* Bytes before an error are shown first; the error comes next. */
	if (s->n < want && (s->rest_n || !s->state) && join(s, want) < 0 && s->n == 0)
		return -1;
	*p = s->p;
	return (ssize_t)s->n;
}

void bsrc_skip(struct bsrc *s, size_t n)
{
	s->p += n;
	s->n -= n;
	s->off += n;
}

/* pread(2) of a mapped file's next bytes: a copy from the mapping would
 * cost a page fault for every few pages it touches. */
static ssize_t map_read(struct bsrc *s, unsigned char *dst, size_t cap)
{
	ssize_t n;

	if (cap > s->mem_len - s->mem_pos)
		cap = s->mem_len - s->mem_pos;
	do
		n = pread(s->map_fd, dst, cap, (off_t)s->mem_pos);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		snprintf(s->err, sizeof(s->err), "read error at byte %llu: %s",
			 (unsigned long long)s->mem_pos, strerror(errno));
	else
		s->mem_pos += (size_t)n;
	return n;
}

/* With the window empty, bytes are made straight into dst when the
 * source can (a file read or mapped, a filter with into), saving a copy.
 * Only for a big read (want bytes in all): a window is better for small
 * ones.  The rest of a big read after a window is read straight too, so
 * the reads after it need no window.  Returns as refill does, or -2 when
 * the source cannot. */
static ssize_t direct(struct bsrc *s, unsigned char *dst, size_t cap, size_t want)
{
	ssize_t n;

	if (s->rest_n || s->state || want < DIRECT_MIN)
		return -2;
	if (s->ops && s->ops->into)
		n = s->ops->into(s->ctx, dst, cap, s->err, sizeof(s->err));
	else if (s->map_len)
		n = map_read(s, dst, cap);
	else if (!s->ops && s->mem_pos == s->mem_len && s->fd >= 0)
		n = fd_read(s, dst, cap, s->off);
	else
		return -2;
	if (n <= 0)
		s->state = n < 0 ? -1 : 1;
	else if (!s->ops || !s->ops->into)
		progress_at(progress_installed(), s->taken += (uint64_t)n);
	return n;
}

ssize_t bsrc_read(struct bsrc *s, void *dst, size_t cap)
{
	unsigned char *d = dst;
	size_t got = 0;

	while (got < cap) {
		size_t take;

		if (s->n == 0) {
			ssize_t r = direct(s, d + got, cap - got, cap);

			if (r > 0) {
				s->off += (uint64_t)r;
				got += (size_t)r;
				continue;
			}
			if (r == -2)
				r = refill(s, &s->p);
			if (r <= 0)
				return got || r == 0 ? (ssize_t)got : -1;
			s->n = (size_t)r;
		}
		take = s->n < cap - got ? s->n : cap - got;
		memcpy(d + got, s->p, take);
		bsrc_skip(s, take);
		got += take;
	}
	return (ssize_t)got;
}

uint64_t bsrc_offset(const struct bsrc *s)
{
	return s->off;
}

/* Memory input or a mapped file: every byte is at hand. */
static int in_memory(const struct bsrc *s)
{
	return !s->ops && s->fd < 0;
}

int64_t bsrc_size(const struct bsrc *s)
{
	if (in_memory(s))
		return (int64_t)s->mem_len;
	return s->regular && !s->mem_len ? s->size : -1;
}

int bsrc_pread(struct bsrc *s, uint64_t off, void *buf, size_t n)
{
	size_t done = 0;

	if (in_memory(s)) {
		if (off > s->mem_len || n > s->mem_len - off)
			return -1;
		memcpy(buf, s->mem + off, n);
		return 0;
	}
	if (bsrc_size(s) < 0)
		return -1;
	while (done < n) {
		ssize_t r = pread(s->fd, (char *)buf + done, n - done, (off_t)(off + done));

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		done += (size_t)r;
	}
	return 0;
}

int bsrc_seek(struct bsrc *s, uint64_t off)
{
	if (s->state < 0)
		return -1;
	if (bsrc_size(s) < 0 || off > (uint64_t)bsrc_size(s)) {
		snprintf(s->err, sizeof(s->err), "cannot seek to byte %llu", (unsigned long long)off);
		s->state = -1;
		return -1;
	}
	if (in_memory(s)) {
		s->mem_pos = (size_t)off;
	} else if (lseek(s->fd, (off_t)off, SEEK_SET) < 0) {
		snprintf(s->err, sizeof(s->err), "seek error: %s", strerror(errno));
		s->state = -1;
		return -1;
	}
	s->n = s->rest_n = 0;
	s->state = 0;
	s->off = off;
	return 0;
}

void bsrc_unmap(struct bsrc *s)
{
	if (!s->map_len || s->state || lseek(s->map_fd, (off_t)s->off, SEEK_SET) < 0)
		return;
	munmap((void *)(size_t)s->mem, s->map_len);
	s->fd = s->map_fd;
	s->mem = NULL;
	s->mem_len = s->mem_pos = s->map_len = s->released = s->n = s->rest_n = 0;
}

void bsrc_fail(struct bsrc *s, const char *msg)
{
	snprintf(s->err, sizeof(s->err), "%s", msg);
	s->n = s->rest_n = 0;
	s->state = -1;
}

const char *bsrc_name(const struct bsrc *s)
{
	return s->name;
}

const char *bsrc_error(const struct bsrc *s)
{
	return s->err;
}
