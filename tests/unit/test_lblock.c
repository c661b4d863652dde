/* Unit tests for lib/lblock: blocks of whole lines from memory (read
 * through lread_read, the partial line carried over) and from a file
 * (mapped), several megabytes so that both cut blocks; and for
 * collapse/rustsym's cache, which must answer as rustsym_fix does. */
#include "check.h"
#include "gzip.h"
#include "lblock.h"
#include "lread.h"
#include "rustsym.h"

#include <stdlib.h>
#include <unistd.h>

/* What the handler saw: the blocks joined, and how they looked. */
struct seen {
	char *text;		/* the blocks, joined */
	size_t len, cap;	/* their length and room */
	unsigned long lines;	/* lines counted at the blocks' '\n's */
	int blocks;		/* calls */
	int torn;		/* blocks not ending in '\n' (the last may) */
	int numbering;		/* calls whose *lineno was not the lines before */
};

static int take(void *ctx, const char *text, size_t len, unsigned long *lineno)
{
	struct seen *s = ctx;
	size_t i;

	if (*lineno != s->lines)
		s->numbering++;
	if (len == 0 || text[len - 1] != '\n')
		s->torn++;
	if (s->len + len > s->cap) {
		s->cap = (s->len + len) * 2;
		s->text = realloc(s->text, s->cap);
	}
	memcpy(s->text + s->len, text, len);
	s->len += len;
	for (i = 0; i < len; i++)
		s->lines += text[i] == '\n';
	s->lines += len > 0 && text[len - 1] != '\n';
	*lineno = s->lines;
	s->blocks++;
	return 0;
}

/* n bytes of lines of every length from 0 to 299, "\r\n" ends now and then. */
static char *make_text(size_t n)
{
	char *t = malloc(n);
	size_t i = 0, k = 0, j;

	while (i < n) {
		for (j = 0; j < k % 300 && i < n; j++)
			t[i++] = (char)('a' + (j + k) % 26);
		if (k % 7 == 0 && i < n)
			t[i++] = '\r';
		if (i < n)
			t[i++] = '\n';
		k++;
	}
	return t;
}

static void check_same(const char *t, size_t n, const struct seen *s, int blocks_min)
{
	CHECK(s->len == n && (n == 0 || memcmp(s->text, t, n) == 0));
	CHECK(s->blocks >= blocks_min);
	CHECK(s->numbering == 0);
	CHECK(s->torn == (n > 0 && t[n - 1] != '\n'));
}

static void test_blocks(size_t n)
{
	char *t = make_text(n), path[] = "/tmp/flame-lblock-XXXXXX", err[256];
	struct seen s = { 0 };
	struct lread *lr = lread_from_mem(t, n, "mem");
	int fd = mkstemp(path);

	CHECK(lblock_feed(lr, take, &s, err, sizeof(err)) == 0);
	lread_free(lr);
	check_same(t, n, &s, (int)(n >> 22));
	CHECK(fd >= 0 && write(fd, t, n) == (ssize_t)n && close(fd) == 0);
	s.len = s.lines = 0;
	s.blocks = s.torn = s.numbering = 0;
	lr = lread_open(path);
	CHECK(lr && lblock_feed(lr, take, &s, err, sizeof(err)) == 0);
	lread_free(lr);
	check_same(t, n, &s, (int)(n >> 22));
	unlink(path);
	free(s.text);
	free(t);
}

/* A cut gzip member: the whole lines before the fault come, then -1. */
static void test_fault(void)
{
	static unsigned char z[4096];
	struct seen s = { 0 };
	char err[256];
	size_t n = test_gzip("one 1\ntwo 2\nthree", 17, z, sizeof(z));
	struct lread *lr = lread_from_mem(z, n - 10, "cut.gz");

	CHECK(lblock_feed(lr, take, &s, err, sizeof(err)) == -1);
	CHECK(strstr(err, "cut.gz") != NULL);
	CHECK(s.len == 0 || (s.text[s.len - 1] == '\n'));
	lread_free(lr);
	free(s.text);
}

static int stop(void *ctx, const char *text, size_t len, unsigned long *lineno)
{
	(void)text, (void)len, (void)lineno;
	++*(int *)ctx;
	return -1;
}

static void test_stop(void)
{
	char *t = make_text((size_t)9 << 20), err[256];
	struct lread *lr = lread_from_mem(t, (size_t)9 << 20, "mem");
	int calls = 0;

	CHECK(lblock_feed(lr, stop, &calls, err, sizeof(err)) == 0 && calls == 1);
	lread_free(lr);
	free(t);
}

/* rustsym_cached against rustsym_fix, on symbols sharing slots. */
static void test_rust_cache(void)
{
	static const char *const stems[] = { "std..fs..File$LT$T$GT$::open", "a$u20$b", "_$LT$x$GT$",
					     "plain::name", "x$C$y", "bad$ZZ$", "" };
	struct rustsym_cache *c = rustsym_cache_new();
	char sym[600], out[600], pad[301];
	const char *got;
	int i, bad = 0;

	memset(pad, 'q', 300);
	pad[300] = '\0';
	for (i = 0; i < 20000; i++) {
		size_t n = (size_t)snprintf(sym, sizeof(sym), "%s%.*s::h%015x%c", stems[i % 7],
					    (i / 7) % 3 ? 0 : 300, pad, (unsigned)(i % 37) * 0x1001,
					    "0f7gA"[i % 5]);
		size_t a = rustsym_fix(sym, n, out), b = rustsym_cached(c, sym, n, &got);

		bad += a != b || (a != (size_t)-1 && memcmp(out, got, a) != 0);
	}
	CHECK(bad == 0);
	CHECK(rustsym_cached(c, "short", 5, &got) == (size_t)-1);
	rustsym_cache_free(c);
	rustsym_cache_free(NULL);
}

int main(void)
{
	test_blocks(0);
	test_blocks(1000);
	test_blocks((size_t)9 << 20);
	test_blocks(((size_t)9 << 20) + 17);
	test_fault();
	test_stop();
	test_rust_cache();
	return check_done();
}
