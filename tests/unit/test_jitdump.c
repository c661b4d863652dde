/* Unit tests: the jitdump reader (loads, a move keeping its load's name,
 * the other byte order, records it skips, where it stops on a bad one)
 * and the Java demangler perf applies to JIT names (its expected names
 * are those perf 6.1 printed for the same symbols). */
#include "check.h"
#include "demangle.h"
#include "jitdump.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct got {
	char names[4][64];	/* names reported */
	uint64_t addr[4];	/* their addresses */
	size_t n;		/* how many */
};

static int on_code(void *ctx, const struct jitdump_code *c)
{
	struct got *g = ctx;

	if (g->n < 4) {
		snprintf(g->names[g->n], sizeof(g->names[0]), "%s", c->name);
		g->addr[g->n++] = c->addr;
	}
	return 0;
}

static size_t put32(unsigned char *p, uint32_t v, int be)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(be ? v >> (24 - 8 * i) : v >> (8 * i));
	return 4;
}

static size_t put64(unsigned char *p, uint64_t v, int be)
{
	put32(p, (uint32_t)(be ? v >> 32 : v), be);
	put32(p + 4, (uint32_t)(be ? v : v >> 32), be);
	return 8;
}

/* A dump: header, a load of "f" at 0x1000 (index 9), a record of an
 * unknown kind, a move of index 9 to 0x2000, a move of index 5. */
static size_t make_dump(unsigned char *b, int be)
{
	size_t p = 0;

	p += put32(b + p, 0x4A695444, be), p += put32(b + p, 1, be), p += put32(b + p, 40, be);
	p += put32(b + p, 62, be), p += put32(b + p, 0, be), p += put32(b + p, 7, be);
	p += put64(b + p, 1, be), p += put64(b + p, 0, be);
	p += put32(b + p, 0, be), p += put32(b + p, 16 + 40 + 2 + 1, be), p += put64(b + p, 2, be);
	p += put32(b + p, 7, be), p += put32(b + p, 7, be);
	p += put64(b + p, 0x1000, be), p += put64(b + p, 0x1000, be), p += put64(b + p, 1, be);
	p += put64(b + p, 9, be);
	memcpy(b + p, "f\0\xc3", 3), p += 3;
	p += put32(b + p, 2, be), p += put32(b + p, 24, be), p += put64(b + p, 3, be);
	p += put64(b + p, 0, be);
	for (int k = 0; k < 2; k++) {
		p += put32(b + p, 1, be), p += put32(b + p, 64, be), p += put64(b + p, 4, be);
		p += put32(b + p, 7, be), p += put32(b + p, 7, be), p += put64(b + p, 0, be);
		p += put64(b + p, 0x1000, be), p += put64(b + p, 0x2000, be), p += put64(b + p, 1, be);
		p += put64(b + p, k ? 5 : 9, be);
	}
	return p;
}

static void reader_tests(void)
{
	unsigned char b[512];
	struct jitdump_result r;

	for (int be = 0; be < 2; be++) {
		struct got g = { .n = 0 };
		size_t n = make_dump(b, be);

		CHECK(jitdump_read(b, n, on_code, &g, &r) == 0);
		CHECK(r.pid == 7 && r.codes == 2 && r.skipped == 2);
		CHECK(g.n == 2 && strcmp(g.names[0], "f") == 0 && strcmp(g.names[1], "f") == 0);
		CHECK(g.addr[0] == 0x1000 && g.addr[1] == 0x2000);
		/* Cut inside the last record: what came before is reported. */
		memset(&g, 0, sizeof(g));
		CHECK(jitdump_read(b, n - 1, on_code, &g, &r) == -1);
		CHECK(g.n == 2 && r.bad_at == n - 64 && strstr(r.why, "past the end"));
	}
	CHECK(jitdump_read((const unsigned char *)"PERFILE2", 8, on_code, NULL, &r) == -1);
	CHECK(r.bad_at == 0 && r.why);
}

static void java_tests(void)
{
	char *d;

	CHECK_STR(d = demangle_java("Ljava/lang/Cold;run(I[JLjava/lang/String;Z)V"),
		  "java.lang.Cold.run(int, long[], java.lang.String, boolean)");
	free(d);
	CHECK_STR(d = demangle_java("Ljava/lang/Cold;run()V"), "java.lang.Cold.run()");
	free(d);
	CHECK(demangle_java("main") == NULL);
	CHECK(demangle_java("f(int)") == NULL);	/* a '(' outside a method */
}

int main(void)
{
	reader_tests();
	java_tests();
	return check_done();
}
