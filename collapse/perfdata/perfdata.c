/* perfdata: a run over one perf.data.
 *
 * The first 16 bytes tell the mode.  Pipe mode (a header of 16 bytes) is
 * read as a stream of records.  File mode needs the feature sections,
 * which follow the data: a regular file is mapped, anything else (stdin,
 * gzip) is first copied to an unlinked temporary file and mapped, so
 * memory never follows the recording's size. */
#include "perfdata_int.h"
#include "lread.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAGIC2 0x32454c4946524550ULL	/* "PERFILE2" read little-endian */
#define CHUNK ((size_t)256 << 10)	/* bytes read from a stream at a time */
#define SPOOL_MEM ((size_t)64 << 20)	/* a file-mode stream up to this size
					   is read in memory, not a temporary file */

/* A stream's bytes: buf[pos, len) not yet used; off is pos's place. */
struct stream {
	struct lread *lr;	/* where they come from */
	unsigned char *buf;	/* read, not used */
	size_t pos, len, cap;	/* window, capacity */
	uint64_t off;		/* input offset of buf[pos] */
	int failed;		/* lread broke off */
};

/* Records of the kernel, by time; records perf itself writes (>= 64). */
static uint64_t user_record(struct pd *d, const unsigned char *r, size_t len, uint64_t off)
{
	switch (pd_u32(d, r)) {
	case 64:	/* HEADER_ATTR */
		pd_pipe_attr(d, r, len, off);
		return 0;
	case 66:	/* HEADER_TRACING_DATA: u32 size, then the data, padded */
		return len >= 12 ? ((uint64_t)pd_u32(d, r + 8) + 7) / 8 * 8 : 0;
	case 67:	/* HEADER_BUILD_ID */
		pd_build_ids(d, r, len, off);
		return 0;
	case 68:	/* FINISHED_ROUND */
		pd_round(d);
		return 0;
	case 71:	/* AUXTRACE: u64 size of the trace after it */
		return len >= 16 ? pd_u64(d, r + 8) : 0;
	case 78:	/* EVENT_UPDATE */
		pd_event_update(d, r, len);
		return 0;
	case 80:	/* HEADER_FEATURE: u64 feature, its section */
		if (len >= 16 && pd_u64(d, r + 8) == 12)
			pd_event_desc(d, r + 16, len - 16, off + 16);
		return 0;
	case 81:	/* COMPRESSED */
	case 83:	/* COMPRESSED2: u64 size, then the data */
		if (d->inflating) {
			pd_bad(d, off, "a compressed record inside a compressed one; skipped");
		} else if (len < 16 && pd_u32(d, r) == 83) {
			pd_bad(d, off, "compressed record of %zu bytes is too short", len);
		} else {
			uint64_t at = pd_u32(d, r) == 81 ? 8 : 16;
			uint64_t n = at == 8 ? len - 8 : len >= 16 ? pd_u64(d, r + 8) : 0;

			const unsigned char *in;
			size_t inlen;

			d->inflating = 1;
			pd_decompress(d, r + at, n < len - at ? (size_t)n : len - at, off);
			while ((in = pd_zstd_record(d, &inlen, off))) {
				d->st->records++;
				pd_record(d, in, inlen, off);
			}
			d->inflating = 0;
		}
		return 0;
	default:
		if (pd_u32(d, r) > 83)
			d->st->unknown++;
		return 0;
	}
}

uint64_t pd_record(struct pd *d, const unsigned char *r, size_t len, uint64_t off)
{
	uint32_t type = pd_u32(d, r);
	uint64_t t;

	switch (type) {
	case PERF_RECORD_SAMPLE:
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		t = pd_time_of(d, r, len);
		if (t == UINT64_MAX)
			pd_apply(d, r, len, off);
		else
			pd_queue(d, r, len, t, off);
		return 0;
	case PERF_RECORD_LOST:
		if (len >= 24)
			d->st->lost += pd_u64(d, r + 16);
		return 0;
	case PERF_RECORD_LOST_SAMPLES:
		if (len >= 16)
			d->st->lost += pd_u64(d, r + 8);
		return 0;
	default:
		if (type >= 64)
			return user_record(d, r, len, off);
		if (type >= PERF_RECORD_MAX)
			d->st->unknown++;
		return 0;
	}
}

/* ---- streams ---- */

/* Makes n bytes available at s->buf + s->pos: 0, or -1 at the end or a
 * fault (what there is stays). */
static int need(struct stream *s, size_t n)
{
	while (s->len - s->pos < n) {
		ssize_t got;

		if (s->pos) {
			memmove(s->buf, s->buf + s->pos, s->len - s->pos);
			s->len -= s->pos;
			s->pos = 0;
		}
		xgrow(&s->buf, &s->cap, s->len + (n > CHUNK ? n : CHUNK), 1);
		got = lread_read(s->lr, (char *)s->buf + s->len, s->cap - s->len);
		if (got <= 0) {
			s->failed |= got < 0;
			return -1;
		}
		s->len += (size_t)got;
	}
	return 0;
}

static void consume(struct stream *s, uint64_t n)
{
	while (n) {
		size_t k = s->len - s->pos < n ? s->len - s->pos : (size_t)n;

		s->pos += k;
		s->off += k;
		n -= k;
		if (n && need(s, n < CHUNK ? (size_t)n : CHUNK) < 0 && s->len == s->pos)
			return;
	}
}

static int stream_fault(struct pd *d, struct stream *s, const char *what)
{
	if (s->failed)
		d->warn(d->ctx, d->name, lread_error(s->lr));
	else
		pd_bad(d, s->off, "%s cut short", what);
	return 1;
}

/* Pipe mode: records one after another, attrs among them. */
static int pipe_mode(struct pd *d, struct stream *s)
{
	consume(s, 16);
	while (need(s, 8) == 0) {
		size_t size = pd_u16(d, s->buf + s->pos + 6);
		uint64_t extra;

		if (size < 8) {
			pd_bad(d, s->off, "record of %zu bytes; the rest of the stream is not read", size);
			pd_drain(d);
			return 1;
		}
		if (need(s, size) < 0) {
			pd_drain(d);
			return stream_fault(d, s, "last record");
		}
		d->st->records++;
		extra = pd_record(d, s->buf + s->pos, size, s->off);
		consume(s, size + extra);
	}
	pd_drain(d);
	d->st->bytes = s->off;
	if (s->failed || s->len != s->pos)
		return stream_fault(d, s, "record header");
	return 0;
}

/* ---- file mode ---- */

/* The file itself, when name is a regular file starting with the magic
 * (not a compressed copy): mapped.  NULL otherwise. */
static void *map_file(const char *name, uint64_t *size)
{
	unsigned char head[8];
	struct stat sb;
	void *m = NULL;
	int fd = open(name, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size >= 104 &&
	    pread(fd, head, 8, 0) == 8 &&
	    (memcmp(head, "PERFILE2", 8) == 0 || memcmp(head, "2ELIFREP", 8) == 0)) {
		m = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (m == MAP_FAILED)
			m = NULL;
		*size = (uint64_t)sb.st_size;
	}
	close(fd);
	return m;
}

/* Copies the whole stream to an unlinked temporary file and maps it. */
static void *spool(struct pd *d, struct stream *s, uint64_t *size, char *err, size_t errlen)
{
	FILE *f = tmpfile();
	void *m = MAP_FAILED;
	int ok = f != NULL;

	while (ok && s->len > s->pos) {
		ok = fwrite(s->buf + s->pos, 1, s->len - s->pos, f) == s->len - s->pos;
		s->off += s->len - s->pos;
		s->pos = s->len;
		if (ok && need(s, CHUNK) < 0 && s->len == s->pos)
			break;
	}
	if (s->failed)
		d->warn(d->ctx, d->name, lread_error(s->lr));
	if (ok && fflush(f) == 0 && s->off > 0)
		m = mmap(NULL, (size_t)s->off, PROT_READ, MAP_PRIVATE, fileno(f), 0);
	if (!ok || m == MAP_FAILED)
		snprintf(err, errlen, "cannot keep a copy of the recording in a temporary file: %s",
			 strerror(errno));
	if (f)
		fclose(f);
	*size = s->off;
	return m == MAP_FAILED ? NULL : m;
}

/* Reads the stream on while it fits in SPOOL_MEM: 1 when all of it is in
 * s->buf now, 0 when it is bigger. */
static int all_in_memory(struct stream *s)
{
	while (s->len - s->pos < SPOOL_MEM)
		if (need(s, s->len - s->pos + CHUNK) < 0)
			return 1;
	return 0;
}

/* A mapped file's pages behind the records read go back to the kernel
 * every so often: every record read was copied or used, and memory must
 * not follow the recording's size. */
static void give_back(const struct pd *d, const unsigned char *b, uint64_t *done, uint64_t upto)
{
	const uint64_t page = 4096;
	size_t i;

	/* Not past a record still waiting in the queue. */
	for (i = 0; i < d->nq; i++)
		if (d->q[i].ptr && (uint64_t)(d->q[i].ptr - b) < upto)
			upto = (uint64_t)(d->q[i].ptr - b);
	upto &= ~(page - 1);
	if (upto <= *done)
		return;
	madvise((void *)(uintptr_t)(b + *done), (size_t)(upto - *done), MADV_DONTNEED);
	*done = upto;
}

/* The records of the data section, in file order. */
static int data_section(struct pd *d, const unsigned char *b, uint64_t doff, uint64_t dlen)
{
	const uint64_t step = (uint64_t)16 << 20;
	uint64_t pos, done = 0, next = step;

	for (pos = 0; pos + 8 <= dlen;) {
		const unsigned char *r = b + doff + pos;
		size_t rs = pd_u16(d, r + 6);
		uint64_t extra;

		if (rs < 8 || rs > dlen - pos) {
			pd_bad(d, doff + pos, "record of %zu bytes %s; the rest of the data is not read",
			       rs, rs < 8 ? "is too short" : "runs past the end of the data");
			pd_drain(d);
			return 1;
		}
		d->st->records++;
		extra = pd_record(d, r, rs, doff + pos);
		pos += rs;
		pos += extra > dlen - pos ? dlen - pos : extra;
		if (d->mapped && doff + pos >= next) {
			give_back(d, b, &done, doff + pos);
			next = doff + pos + step;
		}
	}
	pd_drain(d);
	return 0;
}

/* A whole perf.data of size bytes at b: its header, then its records. */
static int file_records(struct pd *d, const unsigned char *b, uint64_t size, char *err,
			size_t errlen)
{
	uint64_t doff, dlen;

	if (pd_file(d, b, size, &doff, &dlen, err, errlen) < 0)
		return -1;
	return data_section(d, b, doff, dlen);
}

static int file_mode(struct pd *d, struct stream *s, char *err, size_t errlen)
{
	uint64_t size = 0;
	int rc;
	void *m = NULL;

	if (d->name[0] != '<')
		m = map_file(d->name, &size);
	if (!m && all_in_memory(s)) {
		if (s->failed)
			d->warn(d->ctx, d->name, lread_error(s->lr));
		d->st->bytes = s->len - s->pos;
		d->stable = 1;
		rc = file_records(d, s->buf + s->pos, s->len - s->pos, err, errlen);
		return rc == 0 && s->failed ? 1 : rc;
	}
	if (!m && !(m = spool(d, s, &size, err, errlen)))
		return -1;
	d->st->bytes = size;
	d->mapped = d->stable = 1;
	rc = file_records(d, m, size, err, errlen);
	munmap(m, (size_t)size);
	return rc == 0 && s->failed ? 1 : rc;
}

/* Tells the byte order from the magic; -1 with a message when it is none. */
static int magic(struct pd *d, const unsigned char *h, char *err, size_t errlen)
{
	d->swap = 0;
	if (memcmp(h, "PERFILE2", 8) == 0 || memcmp(h, "2ELIFREP", 8) == 0) {
		d->swap = pd_u64(d, h) != MAGIC2;
		return 0;
	}
	if (memcmp(h, "PERFFILE", 8) == 0)
		snprintf(err, errlen, "byte 0: a perf.data of the first format (\"PERFFILE\", perf "
			 "before Linux 2.6.37) is not read here; rewrite it with a newer perf");
	else
		snprintf(err, errlen, "byte 0: not a perf.data (no PERFILE2 magic)");
	return -1;
}

static void pd_release(struct pd *d)
{
	size_t i;

	pd_out_finish(d);
	for (i = 0; i < d->nattrs; i++)
		free(d->attrs[i].ids);
	free(d->attrs);
	free(d->idmap);
	free(d->kname);
	pd_zstd_free(d);
	pd_jit_free(d);
	pd_proc_release(d);
	pd_unwind_close(d);
	pd_emit_free(d);
}

int pd_run(struct pd *d, struct lread *lr, const char *symfs, char *err, size_t errlen)
{
	struct stream s = { lr, NULL, 0, 0, 0, 0, 0 };
	int rc;

	memset(d->st, 0, sizeof(*d->st));
	d->symfs = symfs && symfs[0] ? symfs : NULL;
	pd_unwind_open(d, symfs);
	pd_proc_init(d);
	if (need(&s, 16) < 0) {
		snprintf(err, errlen, "%s", s.failed ? lread_error(lr) : "byte 0: perf.data header cut short");
		rc = -1;
	} else if ((rc = magic(d, s.buf, err, errlen)) == 0) {
		rc = pd_u64(d, s.buf + 8) == 16 ? pipe_mode(d, &s) : file_mode(d, &s, err, errlen);
	}
	free(s.buf);
	pd_release(d);
	return rc;
}

int perfdata_run(const char *name, struct lread *lr, struct perf *p, struct perfsym *sym,
		 const char *symfs, int threads, struct perfdata_stats *st, perfdata_warn_fn *warn,
		 void *ctx, char *err, size_t errlen)
{
	struct pd d;

	memset(&d, 0, sizeof(d));
	d.name = name;
	d.perf = p;
	d.sym = sym;
	d.workers = threads;
	d.warn = warn;
	d.ctx = ctx;
	d.st = st;
	return pd_run(&d, lr, symfs, err, errlen);
}
