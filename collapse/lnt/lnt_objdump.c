/* lnt_objdump: objdump run and read as cPerf does (see the header). */
#include "child.h"
#include "lnt_objdump.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SYMS ((size_t)1 << 22)	/* symbols kept from one file */

/* Hex digits at s[*i, len) after spaces; 1 when there was at least one. */
static int hexnum(const char *s, size_t len, size_t *i, uint64_t *v)
{
	size_t k = *i, start;

	while (k < len && (s[k] == ' ' || s[k] == '\t'))
		k++;
	if (k + 1 < len && s[k] == '0' && (s[k + 1] == 'x' || s[k + 1] == 'X'))
		k += 2;
	start = k;
	*v = 0;
	for (; k < len; k++) {
		int c = s[k], d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
				  c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;

		if (d < 0)
			break;
		*v = *v << 4 | (uint64_t)d;
	}
	*i = k;
	return k > start;
}

/* Where a dynamic symbol's name starts after its size: past a version
 * ("  GLIBC_2.2.5 malloc", " (GLIBC_2.2.5) memcpy"); unversioned ones
 * follow one space. */
static size_t past_version(const char *s, size_t len, size_t i)
{
	size_t sp = 0;

	while (i < len && s[i] == ' ')
		i++, sp++;
	if (i < len && (sp >= 2 || s[i] == '(')) {
		size_t v = i;

		while (v < len && s[v] != ' ')
			v++;
		if (v < len)
			i = v;
	}
	return i;
}

int lnt_objdump_symline(const char *s, size_t len, struct lnt_sym *out)
{
	size_t i = 0, sec;
	uint64_t start, size;

	if (!hexnum(s, len, &i, &start) || i >= len || s[i] != ' ' || len - i < 10)
		return 0;
	/* Seven flag columns: the last says function (F); the one before,
	 * dynamic (D). */
	if (s[i + 7] != 'F' || s[i + 8] != ' ')
		return 0;
	sec = i + 9;
	if (len - sec < 6 || memcmp(s + sec, ".text\t", 6) != 0)
		return 0;
	i = sec + 6;
	if (!hexnum(s, len, &i, &size))
		return 0;
	if (s[sec - 3] == 'D')
		i = past_version(s, len, i);
	while (i < len && s[i] == ' ')
		i++;
	if (i >= len)
		return 0;
	out->start = start;
	out->end = start + size < start ? UINT64_MAX : start + size;
	out->name = xstrndup(s + i, len - i);
	return 1;
}

int lnt_objdump_insnline(const char *s, size_t len, uint64_t *addr, size_t *at)
{
	const char *colon = memchr(s, ':', len);
	size_t i = 0;

	/* The address must be all there is before the colon. */
	if (!colon || !hexnum(s, (size_t)(colon - s), &i, addr))
		return 0;
	if (i != (size_t)(colon - s) || (size_t)(colon - s) + 1 >= len)
		return 0;
	*at = (size_t)(colon - s) + 1;
	return 1;
}

static const char *find(const char *s, size_t len, const char *w)
{
	size_t n = strlen(w), i;

	for (i = 0; i + n <= len; i++)
		if (memcmp(s + i, w, n) == 0)
			return s + i;
	return NULL;
}

int lnt_objdump_segline(const char *prev, size_t plen, const char *s, size_t len, uint64_t *off,
			uint64_t *vaddr)
{
	const char *o, *v;
	size_t i;

	if (!find(s, len, "flags r-x") && !find(s, len, "flags rwx"))
		return 0;
	o = find(prev, plen, "off ");
	v = find(prev, plen, "vaddr ");
	*off = *vaddr = 0;
	if (!o || !v)
		return 1;
	i = (size_t)(o - prev) + 4;
	hexnum(prev, plen, &i, off);
	i = (size_t)(v - prev) + 6;
	hexnum(prev, plen, &i, vaddr);
	return 1;
}

/* A running objdump and its output. */
struct run {
	struct child *c;	/* objdump */
	FILE *out;		/* its stdout */
	char *line;		/* the current line (getline's) */
	size_t cap;		/* its room */
};

/* Starts objdump with args (NULL-ended, without argv[0]).  0 or -1. */
static int run_start(struct run *r, const char *objdump, const char *const *args)
{
	const char *argv[12];
	size_t n = 0;

	argv[n++] = objdump;
	while (*args && n < 11)
		argv[n++] = *args++;
	argv[n] = NULL;
	memset(r, 0, sizeof(*r));
	if (!(r->c = child_start(argv, 0)))
		return -1;
	r->out = child_out(r->c);
	return 0;
}

/* The next line without its newline, skipping overlong ones; -1 at the
 * end. */
static ssize_t run_line(struct run *r)
{
	ssize_t n;

	while ((n = getline(&r->line, &r->cap, r->out)) >= 0) {
		if (n > 0 && r->line[n - 1] == '\n')
			r->line[--n] = '\0';
		if ((size_t)n <= LNT_OBJDUMP_LINE)
			return n;
	}
	return -1;
}

/* Closes the pipe (a child still writing gets SIGPIPE) and reaps it. */
static void run_end(struct run *r)
{
	child_finish(r->c);
	free(r->line);
}

int lnt_objdump_segment(const char *objdump, const char *file, uint64_t *off, uint64_t *vaddr)
{
	const char *args[] = { "-p", "-C", file, NULL };
	char *prev = NULL;
	size_t plen = 0;
	struct run r;
	ssize_t n;

	*off = *vaddr = 0;
	if (run_start(&r, objdump, args) < 0)
		return -1;
	while ((n = run_line(&r)) >= 0) {
		if (prev && lnt_objdump_segline(prev, plen, r.line, (size_t)n, off, vaddr))
			break;
		free(prev);
		prev = xstrndup(r.line, (size_t)n);
		plen = (size_t)n;
	}
	free(prev);
	run_end(&r);
	return 0;
}

static int by_start(const void *a, const void *b)
{
	const struct lnt_sym *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end > y->end ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Sorts s and keeps the first of each start address. */
static size_t one_per_start(struct lnt_sym *s, size_t n)
{
	size_t i, k = 0;

	qsort(s, n, sizeof(*s), by_start);
	for (i = 0; i < n; i++) {
		if (k && s[k - 1].start == s[i].start) {
			free(s[i].name);
			continue;
		}
		s[k++] = s[i];
	}
	return k;
}

struct lnt_sym *lnt_objdump_syms(const char *objdump, const char *file, size_t *n)
{
	const char *args[] = { "-t", "-T", "-C", file, NULL };
	struct lnt_sym *s = NULL, one;
	size_t cap = 0;
	struct run r;
	ssize_t len;

	*n = 0;
	if (run_start(&r, objdump, args) < 0)
		return NULL;
	while ((len = run_line(&r)) >= 0 && *n < MAX_SYMS) {
		if (!lnt_objdump_symline(r.line, (size_t)len, &one))
			continue;
		if (*n == cap)
			xgrow(&s, &cap, *n + 1, sizeof(*s));
		s[(*n)++] = one;
	}
	run_end(&r);
	*n = one_per_start(s, *n);
	if (!*n) {
		free(s);
		return NULL;
	}
	return s;
}

void lnt_objdump_free_syms(struct lnt_sym *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(s[i].name);
	free(s);
}

int lnt_objdump_disasm(const char *objdump, const char *file, uint64_t start, uint64_t end,
		       lnt_insn_fn *fn, void *ctx)
{
	char a[40], b[40];
	const char *args[] = { "-d", "--no-show-raw-insn", a, b, file, NULL };
	uint64_t addr;
	size_t at;
	struct run r;
	ssize_t n;

	snprintf(a, sizeof(a), "--start-address=%#llx", (unsigned long long)start);
	snprintf(b, sizeof(b), "--stop-address=%#llx", (unsigned long long)(end + 4));
	if (run_start(&r, objdump, args) < 0)
		return -1;
	while ((n = run_line(&r)) >= 0) {
		if (!lnt_objdump_insnline(r.line, (size_t)n, &addr, &at))
			continue;
		if (addr >= end || fn(ctx, addr, r.line + at, (size_t)n - at) < 0)
			break;
	}
	run_end(&r);
	return 0;
}
