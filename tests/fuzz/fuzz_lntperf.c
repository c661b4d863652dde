/* libFuzzer target: flame --to lnt's own parsers.  The first byte picks
 * what is read: objdump's output (each line as a symbol table line, an
 * instruction line and, with the line before, a program header), or a
 * perf.data through the sample hook into an LNT profile (objdump cannot
 * be run: no file's symbols are read), which is written as v2 and must
 * read back. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "lnt.h"
#include "lnt_objdump.h"
#include "lnt_perf.h"

static void warn(void *ctx, const char *file, const char *msg)
{
	(void)ctx, (void)file, (void)msg;
}

static void objdump_lines(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size, *prev = NULL;
	size_t plen = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p), at;
		struct lnt_sym s;
		uint64_t a, b;

		if (lnt_objdump_symline(p, len, &s)) {
			if (s.end < s.start)
				abort();
			free(s.name);
		}
		if (lnt_objdump_insnline(p, len, &a, &at) && (at == 0 || at > len))
			abort();
		if (prev)
			lnt_objdump_segline(prev, plen, p, len, &a, &b);
		prev = p;
		plen = len;
		p += len + 1;
	}
}

static void samples(const uint8_t *data, size_t size)
{
	struct lread *lr = lread_from_mem(data, size, "<fuzz>");
	struct lnt_perf *a = lnt_perf_new();
	struct lnt_perf_opts o = { "/nonexistent/objdump", NULL };
	struct lnt_perf_stats st;
	struct perfdata_stats ps;
	struct lnt_prof *p;
	unsigned char *w;
	size_t wlen;
	char err[300];

	perfdata_samples("<fuzz>", lr, lnt_perf_add, a, &ps, warn, NULL, err, sizeof(err));
	lread_free(lr);
	p = lnt_perf_build(a, &o, &st);
	w = lnt_write_v2(p, &wlen);
	lnt_free(p);
	p = lnt_read(w, wlen, err, sizeof(err));
	if (!p || p->partial)
		abort();	/* what we write, we must read */
	lnt_free(p);
	free(w);
	lnt_perf_free(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	if (data[0] % 2)
		samples(data + 1, size - 1);
	else
		objdump_lines(data + 1, size - 1);
	return 0;
}
