/* folded: collapsed-stack lines, parsed and written. */
#include "folded.h"
#include "bytes.h"
#include "lread.h"
#include "numfmt.h"
#include "outfile.h"
#include "strtab.h"
#include "xalloc.h"
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifndef _WIN32
#include <sys/uio.h>
#endif

/* Perl's \s on bytes: space, \t, \n, \v, \f, \r. */
static int is_space(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

int folded_count(const char *s, size_t len, struct fcount *c)
{
	uint64_t n = 0;
	size_t i = 0, j;
	int inexact = 0;	/* too big for 64 bits, or a real fraction */

	while (i < len && s[i] >= '0' && s[i] <= '9') {
		uint64_t d = (uint64_t)(s[i] - '0');

		if (n > (UINT64_MAX - d) / 10)
			inexact = 1;
		n = n * 10 + d;
		i++;
	}
	if (i == 0)
		return -1;
	if (i < len) {
		if (s[i] != '.')
			return -1;
		for (j = i + 1; j < len; j++) {
			if (s[j] < '0' || s[j] > '9')
				return -1;
			if (s[j] != '0')
				inexact = 1;	/* "12." and "12.00" stay integers */
		}
	}
	c->n = n;
	c->frac = 0;
	if (inexact && bytes_decimal(s, len, &c->frac) == 0)
		c->n = 0;
	else if (inexact) {
		char *tmp = xstrndup(s, len);

		/* Beyond exact integers a double is as good as Perl's NV. */
		c->n = 0;
		c->frac = strtod(tmp, NULL);
		free(tmp);
	}
	return 0;
}

/* Splits "stack<ws>count" at the end of s; returns 0 or -1. */
static int take_count(const char *s, size_t len, size_t *stacklen, struct fcount *c)
{
	size_t i = len;

	while (i > 0 && ((s[i - 1] >= '0' && s[i - 1] <= '9') || s[i - 1] == '.'))
		i--;
	if (i == len || i == 0 || !is_space((unsigned char)s[i - 1]))
		return -1;
	if (folded_count(s + i, len - i, c) < 0)
		return -1;
	*stacklen = i - 1;
	return 0;
}

int folded_parse(const char *s, size_t len, struct folded *out)
{
	size_t n;

	if (take_count(s, len, &n, &out->c1) < 0)
		return -1;
	out->stack = s;
	out->two = 0;
	if (take_count(s, n, &out->len, &out->c2) == 0) {
		struct fcount t = out->c1;

		out->c1 = out->c2;
		out->c2 = t;
		out->two = 1;
	} else {
		out->len = n;
		memset(&out->c2, 0, sizeof(out->c2));
	}
	return 0;
}

void fcount_add(struct fcount *acc, const struct fcount *c)
{
	if (acc->n > UINT64_MAX - c->n)
		acc->frac += (double)c->n;
	else
		acc->n += c->n;
	acc->frac += c->frac;
}

void fseq_add(struct fseq *q, uint32_t id, const struct fcount *c1, const struct fcount *c2)
{
	struct fseq_run *r = q->n ? &q->run[q->n - 1] : NULL;

	if (!r || r->id != id || r->two != (c2 != NULL)) {
		xgrow(&q->run, &q->cap, q->n + 1, sizeof(*q->run));
		r = &q->run[q->n++];
		memset(r, 0, sizeof(*r));
		r->id = id;
		r->two = c2 != NULL;
	}
	fcount_add(&r->c[0], c1);
	if (c2)
		fcount_add(&r->c[1], c2);
}

void fseq_put(struct strtab *t, struct fseq *q, const char *stack, size_t len,
	      const struct fcount *c)
{
	fseq_put_hashed(t, q, stack, len, strtab_hash(stack, len), c);
}

void fseq_put_hashed(struct strtab *t, struct fseq *q, const char *stack, size_t len, uint64_t h,
		     const struct fcount *c)
{
	uint32_t id = strtab_intern_hashed(t, stack, len, h, NULL);

	fcount_add(strtab_val(t, id), c);
	if (q)
		fseq_add(q, id, c, NULL);
}

void fseq_release(struct fseq *q)
{
	free(q->run);
	q->run = NULL;
	q->n = q->cap = 0;
}

double fcount_value(const struct fcount *c)
{
	return (double)c->n + c->frac;
}

size_t fcount_format(const struct fcount *c, char *buf)
{
	size_t n;

	if (c->frac == 0) {
		n = numfmt_u64(buf, c->n);
		buf[n] = '\0';
		return n;
	}
	return (size_t)snprintf(buf, 32, "%.15g", fcount_value(c));
}

int folded_write(FILE *f, const char *stack, size_t len, const struct fcount *c)
{
	char num[32];
	size_t n = fcount_format(c, num);

	if (fwrite(stack, 1, len, f) != len || putc(' ', f) == EOF ||
	    fwrite(num, 1, n, f) != n || putc('\n', f) == EOF)
		return -1;
	return 0;
}

#ifndef _WIN32
#define BATCH 512	/* stacks a writev, two iovecs each (IOV_MAX is 1024) */

/* " COUNT\n" at d (room for 34 bytes); returns its length.  Integer
 * counts without snprintf, as there is one a stack. */
static size_t count_tail(const struct fcount *c, char *d)
{
	size_t n = 1;

	d[0] = ' ';
	n += fcount_format(c, d + 1);
	d[n++] = '\n';
	return n;
}

/* Writes the cnt iovecs at v whole.  Returns 0, or -1 with errno set. */
static int writev_all(int fd, struct iovec *v, int cnt)
{
	while (cnt > 0) {
		ssize_t r = writev(fd, v, cnt);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0) {	/* nothing taken: only empty pieces may be left */
			while (cnt > 0 && v->iov_len == 0)
				v++, cnt--;
			if (cnt > 0) {
				errno = EIO;
				return -1;
			}
		}
		for (; cnt > 0 && (size_t)r >= v->iov_len; v++, cnt--)
			r -= (ssize_t)v->iov_len;
		if (cnt > 0) {
			v->iov_base = (char *)v->iov_base + r;
			v->iov_len -= (size_t)r;
		}
	}
	return 0;
}

/* The lines of the stacks ids (n of them) to f's file, each stack from
 * the table itself (writev), not copied into f's buffer first: a big
 * table's stacks are most of the bytes written.  Returns 0, or -1 with
 * errno set. */
static int write_direct(FILE *f, const struct strtab *t, const uint32_t *ids, size_t n)
{
	struct iovec v[2 * BATCH];
	char tail[BATCH][40];
	size_t i = 0, b, len;

	if (fflush(f) != 0)
		return -1;
	while (i < n) {
		for (b = 0; b < BATCH && i < n; b++, i++) {
			v[2 * b].iov_base = (void *)(uintptr_t)strtab_str(t, ids[i], &len);
			v[2 * b].iov_len = len;
			v[2 * b + 1].iov_base = tail[b];
			v[2 * b + 1].iov_len = count_tail(strtab_val(t, ids[i]), tail[b]);
		}
		if (writev_all(fileno(f), v, (int)(2 * b)) < 0)
			return -1;
	}
	return 0;
}
#endif

/* The lines of the stacks ids (n of them) to f.  Returns 0, or -1 with
 * errno set when the writing failed already (else outfile_commit finds
 * it). */
static int write_lines(FILE *f, const struct strtab *t, int pairs, const uint32_t *ids, size_t n)
{
	size_t i, len;
	char num[32];

#ifndef _WIN32
	if (!pairs)
		return write_direct(f, t, ids, n);
#endif
	for (i = 0; i < n; i++) {
		const char *s = strtab_str(t, ids[i], &len);
		const struct fcount *v = strtab_val(t, ids[i]);

		if (pairs) {
			fcount_format(&v[0], num);
			fprintf(f, "%.*s %s ", (int)len, s, num);
			fcount_format(&v[1], num);
			fprintf(f, "%s\n", num);
		} else {
			folded_write(f, s, len, v);
		}
	}
	return 0;
}

/* What folded_save and folded_save_pairs write: pairs says each value
 * is two counts. */
struct save {
	const struct strtab *t;
	int pairs;
};

static int save_lines(FILE *f, void *ctx)
{
	const struct save *sv = ctx;
	uint32_t *ids = strtab_sorted(sv->t);
	int rc = write_lines(f, sv->t, sv->pairs, ids, strtab_count(sv->t));

	free(ids);
	return rc;
}

static int save(const struct strtab *t, int pairs, const char *path, char *err, size_t errlen)
{
	struct save sv = { t, pairs };

	return outfile_save(path, save_lines, &sv, err, errlen);
}

int folded_save(const struct strtab *t, const char *path, char *err, size_t errlen)
{
	return save(t, 0, path, err, errlen);
}

int folded_save_pairs(const struct strtab *t, const char *path, char *err, size_t errlen)
{
	return save(t, 1, path, err, errlen);
}

/* State of folded_load's line handler. */
struct load {
	struct strtab *t;		/* destination */
	unsigned long invalid;		/* lines that are not folded */
	unsigned long first_invalid;	/* the first of them */
	struct strtab *before;		/* "stack N M": N goes here, M to t; NULL:
					   N names a frame */
	struct fseq *seq;		/* input order, or NULL */
};

static int load_line(void *ctx, const char *s, size_t len, unsigned long lineno)
{
	struct load *l = ctx;
	struct folded f;
	uint32_t id;

	if (len == 0)
		return 0;
	if (folded_parse(s, len, &f) < 0) {
		if (l->invalid++ == 0)
			l->first_invalid = lineno;
		return 0;
	}
	if (f.two && !l->before) {
		/* One count per line here: the number before it names a frame. */
		f.len = len - 1;
		while ((s[f.len] >= '0' && s[f.len] <= '9') || s[f.len] == '.')
			f.len--;
		f.c1 = f.c2;
	}
	id = strtab_intern(l->t, f.stack, f.len, NULL);
	fcount_add(strtab_val(l->t, id), f.two ? &f.c2 : &f.c1);
	if (f.two && l->before)
		fcount_add(strtab_val(l->before, strtab_intern(l->before, f.stack, f.len, NULL)), &f.c1);
	if (l->seq)
		fseq_add(l->seq, id, &f.c1, f.two && l->before ? &f.c2 : NULL);
	return 0;
}

int folded_read(struct lread *lr, struct strtab *t, struct strtab *before, struct fseq *seq,
		unsigned long *invalid, unsigned long *first_invalid, char *err, size_t errlen)
{
	struct load l = { t, 0, 0, before, seq };
	int rc = lread_feed(lr, load_line, &l, err, errlen);

	*invalid = l.invalid;
	if (first_invalid)
		*first_invalid = l.first_invalid;
	return rc;
}

int folded_load(const char *path, struct strtab *t, unsigned long *invalid,
		unsigned long *first_invalid, char *err, size_t errlen)
{
	struct lread *lr = lread_open(path);
	int rc;

	if (!lr) {
		snprintf(err, errlen, "cannot open '%s': %s", path ? path : "-", strerror(errno));
		return -1;
	}
	rc = folded_read(lr, t, NULL, NULL, invalid, first_invalid, err, errlen);
	lread_free(lr);
	return rc;
}
