/* lread: buffered line reader with gzip and UTF-16 decoding.
 *
 * Three stages, each pulling from the one before:
 *   raw    bytes from the fd or memory (peeked once to detect gzip);
 *   bytes  the raw bytes, inflated when the input is gzip, or the one
 *          member of a zip archive (found through its central directory
 *          when the input can seek, else from its local header);
 *   text   the bytes as UTF-8 (UTF-16 is transcoded, a BOM dropped),
 *          appended to the line buffer that lread_next splits at '\n'.
 * Plain input is read straight into the line buffer: no extra copy. */
#include "lread.h"
#include "bytes.h"
#include "xalloc.h"
#include "zip.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#define ZLIB_CONST
#include <zlib.h>

#define RAW_SIZE (256 * 1024)		/* compressed input chunk */
#define READ_SIZE (1024 * 1024)		/* text read per refill */

enum enc { ENC_UTF8, ENC_UTF16LE, ENC_UTF16BE };

struct lread {
	int fd;				/* source, -1 for memory input */
	char *name;			/* for messages */
	const unsigned char *raw;	/* raw bytes not yet consumed... */
	size_t raw_len;			/* ...and how many */
	unsigned char *rawbuf;		/* owned buffer behind raw (fd input) */
	unsigned char *prefix;		/* owned bytes read before fd (resume) */
	unsigned char *rec;		/* lread_stdin_tee: every byte read */
	size_t rec_len, rec_cap;	/* its length and room */
	int recording;			/* rec is being filled */
	int raw_eof;			/* the fd or memory is exhausted */
	int gz;				/* inflating */
	int gz_end;			/* the last gzip member ended */
	z_stream zs;			/* inflate state when gz or a deflated zip */
	int zip;			/* reading a zip member */
	struct zip_member zm;		/* that member */
	uint64_t zip_left;		/* its compressed bytes not yet consumed */
	uint64_t zip_out;		/* bytes it gave so far */
	uint32_t zip_crc;		/* their CRC-32 */
	int zip_end;			/* the member is complete and checked */
	uint64_t max_inflate;		/* a zip member may give no more */
	int bom;			/* the text started with a byte-order mark */
	unsigned char head[4];		/* decoded bytes peeked for a BOM */
	size_t head_len;		/* bytes left in head */
	size_t head_pos;		/* next byte of head */
	enum enc enc;			/* text encoding of the bytes */
	unsigned char *u16;		/* UTF-16 staging buffer */
	size_t u16_len;			/* bytes pending in u16 */
	char *buf;			/* line buffer */
	size_t cap;			/* its size */
	size_t start;			/* first byte of the next line */
	size_t scan;			/* bytes before this hold no '\n' */
	size_t end;			/* end of valid data */
	size_t max_line;		/* longer lines are skipped */
	int eof;			/* no more text will come */
	int skipping;			/* discarding an over-long line */
	unsigned long lineno;		/* number of the last line returned */
	char err[512];			/* message after LREAD_ERROR */
};

static int set_error(struct lread *lr, const char *msg, int errnum)
{
	if (errnum)
		snprintf(lr->err, sizeof(lr->err), "%s: %s", msg, strerror(errnum));
	else
		snprintf(lr->err, sizeof(lr->err), "%s", msg);
	return -1;
}

/* read(2) on the input, kept in rec while recording. */
static ssize_t fd_read(struct lread *lr, void *dst, size_t cap)
{
	ssize_t n;

	do
		n = read(lr->fd, dst, cap);
	while (n < 0 && errno == EINTR);
	if (n > 0 && lr->recording) {
		xgrow(&lr->rec, &lr->rec_cap, lr->rec_len + (size_t)n, 1);
		memcpy(lr->rec + lr->rec_len, dst, (size_t)n);
		lr->rec_len += (size_t)n;
	}
	return n;
}

/* Makes raw bytes available; returns 0 at end of input, -1 on error. */
static int raw_fill(struct lread *lr)
{
	ssize_t n;

	if (lr->raw_len)
		return 1;
	if (lr->raw_eof || lr->fd < 0) {
		lr->raw_eof = 1;
		return 0;
	}
	n = fd_read(lr, lr->rawbuf, RAW_SIZE);
	if (n < 0)
		return set_error(lr, "read error", errno);
	if (n == 0)
		lr->raw_eof = 1;
	lr->raw = lr->rawbuf;
	lr->raw_len = (size_t)n;
	return n > 0;
}

static int inflate_more(struct lread *lr, unsigned char *dst, size_t cap)
{
	size_t got = 0;

	while (got == 0 && !lr->gz_end) {
		int r = raw_fill(lr);

		if (r < 0)
			return -1;
		if (r == 0)
			return set_error(lr, "truncated gzip data", 0);
		lr->zs.next_in = lr->raw;
		lr->zs.avail_in = (uInt)lr->raw_len;
		lr->zs.next_out = dst;
		lr->zs.avail_out = (uInt)cap;
		r = inflate(&lr->zs, Z_NO_FLUSH);
		lr->raw += lr->raw_len - lr->zs.avail_in;
		lr->raw_len = lr->zs.avail_in;
		got = cap - lr->zs.avail_out;
		if (r == Z_STREAM_END) {
			/* Another member may follow (cat a.gz b.gz). */
			if (raw_fill(lr) > 0 && lr->raw[0] == 0x1f)
				inflateReset(&lr->zs);
			else
				lr->gz_end = 1;
		} else if (r == Z_MEM_ERROR) {
			return set_error(lr, "out of memory inflating", 0);
		} else if (r != Z_OK && r != Z_BUF_ERROR) {
			return set_error(lr, "corrupt gzip data", 0);
		}
	}
	return (int)got;
}

/* Checks a finished member against its directory entry (or, streamed,
 * against the data descriptor after it when one is there). */
static int zip_finish(struct lread *lr)
{
	struct zip_member *m = &lr->zm;

	lr->zip_end = 1;
	if (!m->sizes_known && lr->raw_len >= 12) {
		const unsigned char *d = lr->raw;
		size_t skip = d[0] == 'P' && d[1] == 'K' && d[2] == 7 && d[3] == 8 ? 4 : 0;

		if (lr->raw_len >= skip + 12) {
			m->crc = (uint32_t)d[skip] | (uint32_t)d[skip + 1] << 8 |
				 (uint32_t)d[skip + 2] << 16 | (uint32_t)d[skip + 3] << 24;
			m->usize = lr->zip_out;
			m->sizes_known = 1;
		}
	}
	if (m->sizes_known && lr->zip_crc != m->crc)
		return set_error(lr, "corrupt zip member: CRC-32 mismatch", 0);
	if (m->sizes_known && lr->zip_out != m->usize)
		return set_error(lr, "corrupt zip member: its size differs from the directory's", 0);
	return 0;
}

/* Compressed bytes of the member available now; 0 at its end. */
static int zip_input(struct lread *lr, size_t *avail)
{
	int r;

	if (lr->zip_left == 0) {
		*avail = 0;
		return 0;
	}
	r = raw_fill(lr);
	if (r < 0)
		return -1;
	if (r == 0)
		return set_error(lr, "truncated zip archive", 0);
	*avail = lr->raw_len < lr->zip_left ? lr->raw_len : (size_t)lr->zip_left;
	return 1;
}

/* Inflates (or copies) member bytes into dst; returns how many. */
static ssize_t zip_step(struct lread *lr, unsigned char *dst, size_t cap, size_t avail)
{
	size_t used, got;
	int r = Z_OK;

	if (lr->zm.method == 0) {
		got = used = avail < cap ? avail : cap;
		memcpy(dst, lr->raw, got);
	} else {
		lr->zs.next_in = lr->raw;
		lr->zs.avail_in = (uInt)(avail > (1u << 30) ? 1u << 30 : avail);
		lr->zs.next_out = dst;
		lr->zs.avail_out = (uInt)cap;
		r = inflate(&lr->zs, Z_NO_FLUSH);
		used = (size_t)(lr->zs.next_in - lr->raw);
		got = cap - lr->zs.avail_out;
		if (r == Z_MEM_ERROR)
			return set_error(lr, "out of memory inflating", 0);
		if (r != Z_OK && r != Z_STREAM_END && r != Z_BUF_ERROR)
			return set_error(lr, "corrupt zip member: bad deflate data", 0);
	}
	lr->raw += used;
	lr->raw_len -= used;
	if (lr->zip_left != UINT64_MAX)
		lr->zip_left -= used;
	lr->zip_crc = (uint32_t)crc32(lr->zip_crc, dst, (uInt)got);
	lr->zip_out += got;
	if (r == Z_STREAM_END || (lr->zm.method == 0 && lr->zip_left == 0))
		return zip_finish(lr) < 0 ? -1 : (ssize_t)got;
	if (r == Z_BUF_ERROR && lr->zip_left == 0)
		return set_error(lr, "corrupt zip member: deflate data ends early", 0);
	return (ssize_t)got;
}

static ssize_t zip_more(struct lread *lr, unsigned char *dst, size_t cap)
{
	ssize_t got = 0;

	if (lr->zm.sizes_known && lr->zm.usize > lr->max_inflate) {
		snprintf(lr->err, sizeof(lr->err), "zip member '%.160s' would inflate to %llu bytes, "
			 "over the limit of %llu: not read (raise it with --max-inflate)",
			 lr->zm.name, (unsigned long long)lr->zm.usize,
			 (unsigned long long)lr->max_inflate);
		return -1;
	}
	while (got == 0 && !lr->zip_end) {
		size_t avail;
		int r = zip_input(lr, &avail);

		if (r < 0)
			return -1;
		if (r == 0)
			return zip_finish(lr) < 0 ? -1 : 0;
		got = zip_step(lr, dst, cap, avail);
		if (got < 0)
			return -1;
		if (lr->zip_out > lr->max_inflate || (lr->zm.sizes_known && lr->zip_out > lr->zm.usize)) {
			snprintf(lr->err, sizeof(lr->err), "zip member '%.160s' inflates past %llu bytes "
				 "(its declared size or the --max-inflate limit): a zip bomb or a corrupt "
				 "archive; not read", lr->zm.name, (unsigned long long)
				 (lr->zm.sizes_known && lr->zm.usize < lr->max_inflate ? lr->zm.usize
									     : lr->max_inflate));
			return -1;
		}
	}
	return got;
}

static int zip_pread(void *ctx, uint64_t off, void *buf, size_t n)
{
	int fd = *(int *)ctx;
	size_t done = 0;

	while (done < n) {
		ssize_t r = pread(fd, (char *)buf + done, n - done, (off_t)(off + done));

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		done += (size_t)r;
	}
	return 0;
}

/* Memory input: ctx points at {base, size}. */
struct zip_mem {
	const unsigned char *base;	/* the archive */
	size_t size;			/* its bytes */
};

static int zip_mread(void *ctx, uint64_t off, void *buf, size_t n)
{
	const struct zip_mem *m = ctx;

	if (off > m->size || n > m->size - off)
		return -1;
	memcpy(buf, m->base + off, n);
	return 0;
}

/* Sets up reading the member of the archive that starts at raw. */
static int zip_setup(struct lread *lr)
{
	struct stat st;
	long hdr;

	lr->zip = 1;
	if (lr->fd < 0) {
		struct zip_mem m = { lr->raw, lr->raw_len };

		if (zip_find(zip_mread, &m, m.size, &lr->zm, lr->err, sizeof(lr->err)) < 0)
			return -1;
		lr->raw = m.base + lr->zm.offset;
		lr->raw_len = (size_t)lr->zm.csize;
	} else if (fstat(lr->fd, &st) == 0 && S_ISREG(st.st_mode)) {
		if (zip_find(zip_pread, &lr->fd, (uint64_t)st.st_size, &lr->zm, lr->err,
			     sizeof(lr->err)) < 0)
			return -1;
		if (lseek(lr->fd, (off_t)lr->zm.offset, SEEK_SET) < 0)
			return set_error(lr, "seek error", errno);
		lr->raw_len = 0;
		lr->raw_eof = 0;
	} else {
		hdr = zip_local(lr->raw, lr->raw_len, &lr->zm, lr->err, sizeof(lr->err));
		if (hdr <= 0)
			return hdr < 0 ? -1 : set_error(lr, "zip local header cut short", 0);
		lr->raw += hdr;
		lr->raw_len -= (size_t)hdr;
	}
	lr->zip_left = lr->zm.sizes_known ? lr->zm.csize : UINT64_MAX;
	if (lr->zm.method == 8 && inflateInit2(&lr->zs, -15) != Z_OK)
		return set_error(lr, "cannot initialise zlib", 0);
	return 0;
}

/* Reads decoded (inflated) bytes into dst; returns the count, 0 at end of
 * input, -1 on error. */
static ssize_t bytes_read(struct lread *lr, unsigned char *dst, size_t cap)
{
	ssize_t n;

	if (lr->head_pos < lr->head_len) {
		n = (ssize_t)(lr->head_len - lr->head_pos);
		if ((size_t)n > cap)
			n = (ssize_t)cap;
		memcpy(dst, lr->head + lr->head_pos, (size_t)n);
		lr->head_pos += (size_t)n;
		return n;
	}
	if (lr->gz)
		return inflate_more(lr, dst, cap > (1u << 30) ? (1u << 30) : cap);
	if (lr->zip)
		return zip_more(lr, dst, cap > (1u << 30) ? (1u << 30) : cap);
	if (lr->raw_len) {
		n = (ssize_t)(lr->raw_len < cap ? lr->raw_len : cap);
		memcpy(dst, lr->raw, (size_t)n);
		lr->raw += n;
		lr->raw_len -= (size_t)n;
		return n;
	}
	if (lr->raw_eof || lr->fd < 0)
		return 0;
	n = fd_read(lr, dst, cap);
	if (n < 0)
		return set_error(lr, "read error", errno);
	if (n == 0)
		lr->raw_eof = 1;
	return n;
}


/* Converts the UTF-16 units staged in u16 to UTF-8 at dst (room for at
 * least 2 bytes per input byte); keeps an incomplete unit or a high
 * surrogate waiting for its pair.  Unpaired surrogates become U+FFFD. */
static size_t u16_convert(struct lread *lr, char *dst, int at_end)
{
	const unsigned char *s = lr->u16;
	size_t i = 0, o = 0, n = lr->u16_len;
	int be = lr->enc == ENC_UTF16BE;

	while (i + 2 <= n) {
		unsigned u = be ? (unsigned)(s[i] << 8 | s[i + 1]) : (unsigned)(s[i + 1] << 8 | s[i]);

		if (u >= 0xd800 && u < 0xdc00) {
			unsigned v;

			if (i + 4 > n && !at_end)
				break;
			v = i + 4 <= n ? (be ? (unsigned)(s[i + 2] << 8 | s[i + 3])
					  : (unsigned)(s[i + 3] << 8 | s[i + 2])) : 0;
			if (v >= 0xdc00 && v < 0xe000) {
				o += bytes_utf8(dst + o, 0x10000 + ((u - 0xd800) << 10) + (v - 0xdc00));
				i += 4;
				continue;
			}
			u = 0xfffd;
		} else if (u >= 0xdc00 && u < 0xe000) {
			u = 0xfffd;
		}
		o += bytes_utf8(dst + o, u);
		i += 2;
	}
	if (at_end && i < n) {
		o += bytes_utf8(dst + o, 0xfffd);
		i = n;
	}
	memmove(lr->u16, lr->u16 + i, n - i);
	lr->u16_len = n - i;
	return o;
}

/* Decodes text into dst (cap >= 16); returns bytes written, 0 at end of
 * input, -1 on error. */
static ssize_t decode_into(struct lread *lr, char *dst, size_t cap)
{
	size_t room, o;
	ssize_t n;

	if (lr->enc == ENC_UTF8)
		return bytes_read(lr, (unsigned char *)dst, cap);
	/* UTF-16 grows at most 3/2 when converted, plus a U+FFFD at the end. */
	room = (cap - 8) / 3 * 2;
	if (room > READ_SIZE / 2)
		room = READ_SIZE / 2;
	do {
		n = bytes_read(lr, lr->u16 + lr->u16_len, room - lr->u16_len);
		if (n < 0)
			return -1;
		lr->u16_len += (size_t)n;
		o = u16_convert(lr, dst, n == 0);
	} while (o == 0 && n > 0);
	return (ssize_t)o;
}

/* Appends decoded text to the line buffer at end; returns bytes added, 0 at
 * end of input, -1 on error.  The buffer has at least READ_SIZE free. */
static ssize_t text_read(struct lread *lr)
{
	return decode_into(lr, lr->buf + lr->end, lr->cap - lr->end);
}

/* Peeks the first decoded bytes for a byte-order mark. */
static int sniff(struct lread *lr)
{
	unsigned char *h = lr->head;
	size_t n = 0;

	if (raw_fill(lr) < 0)
		return -1;
	if (lr->raw_len >= 2 && lr->raw[0] == 0x1f && lr->raw[1] == 0x8b) {
		if (inflateInit2(&lr->zs, 15 + 16) != Z_OK)
			return set_error(lr, "cannot initialise zlib", 0);
		lr->gz = 1;
	} else if (lr->raw_len >= 4 && memcmp(lr->raw, "PK\3\4", 4) == 0) {
		if (zip_setup(lr) < 0)
			return -1;
	}
	while (n < 3) {
		ssize_t r = bytes_read(lr, h + n, 3 - n);

		if (r < 0)
			return -1;
		if (r == 0)
			break;
		n += (size_t)r;
	}
	lr->head_len = n;
	if (n >= 3 && h[0] == 0xef && h[1] == 0xbb && h[2] == 0xbf) {
		lr->head_pos = 3;
		lr->bom = 1;
	} else if (n >= 2 && (h[0] == 0xff || h[0] == 0xfe) && h[1] == (h[0] ^ 1)) {
		lr->enc = h[0] == 0xff ? ENC_UTF16LE : ENC_UTF16BE;
		lr->head_pos = 2;
		lr->bom = 1;
		lr->u16 = xmalloc(READ_SIZE / 2);
	}
	return 0;
}

/* Sets up a reader; raw is the initial raw data for memory input (fd -1),
 * or NULL to read fd through an owned buffer. */
static struct lread *lread_init(struct lread *lr, int fd, const char *name,
				const unsigned char *raw, size_t raw_len)
{
	lr->fd = fd;
	lr->name = xstrndup(name, strlen(name));
	lr->max_line = (size_t)256 << 20;
	lr->max_inflate = (uint64_t)4 << 30;
	lr->cap = READ_SIZE * 2;
	lr->buf = xmalloc(lr->cap);
	if (raw) {
		lr->raw = raw;
		lr->raw_len = raw_len;
		lr->raw_eof = fd < 0;	/* else fd goes on after raw */
	}
	if (fd >= 0)
		lr->rawbuf = xmalloc(RAW_SIZE);
	if (sniff(lr) < 0)
		lr->eof = -1;	/* reported by the first lread_next */
	return lr;
}

static struct lread *lread_alloc(int fd, const char *name,
				 const unsigned char *raw, size_t raw_len)
{
	return lread_init(xcalloc(1, sizeof(struct lread)), fd, name, raw, raw_len);
}

struct lread *lread_open(const char *path)
{
	int fd = 0;

	if (path && strcmp(path, "-") != 0) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return NULL;
		return lread_alloc(fd, path, NULL, 0);
	}
	return lread_alloc(fd, "<stdin>", NULL, 0);
}

struct lread *lread_from_mem(const void *data, size_t len, const char *name)
{
	static const unsigned char empty[1];

	return lread_alloc(-1, name, data ? data : empty, len);
}

struct lread *lread_stdin_tee(void)
{
	struct lread *lr = xcalloc(1, sizeof(*lr));

	lr->recording = 1;	/* before lread_init's first read */
	return lread_init(lr, 0, "<stdin>", NULL, 0);
}

unsigned char *lread_take_record(struct lread *lr, size_t *len)
{
	unsigned char *r = lr->rec;

	*len = lr->rec_len;
	lr->rec = NULL;
	lr->rec_len = lr->rec_cap = 0;
	lr->recording = 0;
	return r;
}

struct lread *lread_resume_stdin(unsigned char *prefix, size_t len)
{
	struct lread *lr = xcalloc(1, sizeof(*lr));

	lr->prefix = prefix;
	return lread_init(lr, 0, "<stdin>", prefix ? prefix : (const unsigned char *)"", len);
}

void lread_free(struct lread *lr)
{
	if (!lr)
		return;
	if (lr->fd > 0)
		close(lr->fd);
	if (lr->gz || (lr->zip && lr->zm.method == 8))
		inflateEnd(&lr->zs);
	free(lr->rawbuf);
	free(lr->prefix);
	free(lr->rec);
	free(lr->u16);
	free(lr->buf);
	free(lr->name);
	free(lr);
}

/* Makes room for READ_SIZE more bytes after end, dropping consumed bytes. */
static void make_room(struct lread *lr)
{
	if (lr->start > 0) {
		memmove(lr->buf, lr->buf + lr->start, lr->end - lr->start);
		lr->end -= lr->start;
		lr->scan -= lr->start;
		lr->start = 0;
	}
	if (lr->cap - lr->end < READ_SIZE)
		xgrow(&lr->buf, &lr->cap, lr->end + READ_SIZE, 1);
}

/* Hands out buf[start, stop) as a line, without a trailing '\r'. */
static int emit(struct lread *lr, size_t stop, size_t next,
		const char **line, size_t *len)
{
	size_t n = stop - lr->start;

	if (n > 0 && lr->buf[lr->start + n - 1] == '\r')
		n--;
	*line = lr->buf + lr->start;
	*len = n;
	lr->start = lr->scan = next;
	lr->lineno++;
	return LREAD_LINE;
}

int lread_next(struct lread *lr, const char **line, size_t *len)
{
	for (;;) {
		char *nl = memchr(lr->buf + lr->scan, '\n', lr->end - lr->scan);
		ssize_t n;

		if (nl) {
			size_t stop = (size_t)(nl - lr->buf);

			if (lr->skipping || stop - lr->start > lr->max_line) {
				int was = lr->skipping;

				lr->skipping = 0;
				lr->start = lr->scan = stop + 1;
				if (was)
					continue;
				lr->lineno++;
				return LREAD_TOOLONG;
			}
			return emit(lr, stop, stop + 1, line, len);
		}
		lr->scan = lr->end;
		if (lr->eof < 0)
			return LREAD_ERROR;
		if (lr->eof) {
			if (lr->start == lr->end || lr->skipping)
				return LREAD_EOF;
			return emit(lr, lr->end, lr->end, line, len);
		}
		if (lr->end - lr->start > lr->max_line && !lr->skipping) {
			/* Give up on this line; keep reading to its end. */
			lr->skipping = 1;
			lr->lineno++;
			lr->start = lr->scan = lr->end;
			return LREAD_TOOLONG;
		}
		if (lr->skipping)
			lr->start = lr->scan = lr->end;
		make_room(lr);
		n = text_read(lr);
		if (n < 0) {
			lr->eof = -1;
			/* Lines complete before the error are still delivered. */
			continue;
		}
		if (n == 0)
			lr->eof = 1;
		lr->end += (size_t)n;
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
	return lr->name;
}

const char *lread_error(const struct lread *lr)
{
	return lr->err;
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
	n = decode_into(lr, dst, cap);
	if (n < 0)
		lr->eof = -1;
	else if (n == 0)
		lr->eof = 1;
	return n;
}
