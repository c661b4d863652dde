/* Unit tests for render/layout, render/xmlesc and render/svg helpers. */
#include "check.h"
#include "draw.h"
#include "layout.h"
#include "stree.h"
#include "svg.h"
#include "xmlesc.h"

#include <stdlib.h>

static void test_layout(void)
{
	struct stree *t = stree_new(0);
	struct lentry e[3] = {
		{ .node = stree_add(t, "a;b", 3), .weight = 3 },
		{ .node = stree_add(t, "a;c;;", 5), .weight = 2 },	/* ";;" is not drawn */
		{ .node = stree_add(t, "d", 1), .weight = 5 }
	};
	struct layout lo;

	layout_build(&lo, t, e, 3, 0);
	/* all, a, b, c, d in pre-order. */
	CHECK(lo.n == 5 && lo.total == 10 && lo.depthmax == 2);
	CHECK(lo.f[0].depth == 0 && lo.f[0].end == 10);
	CHECK(lo.f[1].len == 1 && lo.f[1].name[0] == 'a' && lo.f[1].start == 0 && lo.f[1].end == 5);
	CHECK(lo.f[3].name[0] == 'c' && lo.f[3].start == 3 && lo.f[3].end == 5);
	CHECK(lo.f[4].name[0] == 'd' && lo.f[4].start == 5 && lo.f[4].end == 10);
	layout_release(&lo);
	/* A minimum width of 2.5 drops c (2) and keeps the rest. */
	layout_build(&lo, t, e, 3, 2.5);
	CHECK(lo.n == 4 && lo.f[3].name[0] == 'd');
	layout_release(&lo);
	stree_free(t);
}

static char *esc(const char *s, size_t len, size_t max)
{
	static char buf[256];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	xmlesc_write(f, s, len, max);
	fclose(f);
	return buf;
}

static void test_xmlesc(void)
{
	CHECK_STR(esc("a<b>&\"c\"", 8, (size_t)-1), "a&lt;b&gt;&amp;&quot;c&quot;");
	CHECK_STR(esc("x\001y\tz", 5, (size_t)-1), "x\xef\xbf\xbdy\tz");
	CHECK_STR(esc("\xff\xc3\xa9\xed\xa0\x80", 6, (size_t)-1),
		  "\xef\xbf\xbd\xc3\xa9\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	CHECK_STR(esc("n\0l", 3, (size_t)-1), "n\xef\xbf\xbdl");
	CHECK_STR(esc("\xc3\xa9t\xc3\xa9", 5, 2), "\xc3\xa9t");
	CHECK(xmlesc_count("\xc3\xa9t\xc3\xa9", 5) == 3);
	CHECK(xmlesc_count("\xf0\x9f\x94\xa5", 4) == 1);
	CHECK(xmlesc_count("\xf0\x9f\x94", 3) == 3);
}

static void test_numbers(void)
{
	char b[64];

	draw_commify(b, sizeof(b), 1234567);
	CHECK_STR(b, "1,234,567");
	draw_commify(b, sizeof(b), 999);
	CHECK_STR(b, "999");
	draw_commify(b, sizeof(b), 1000);
	CHECK_STR(b, "1,000");
	draw_commify(b, sizeof(b), 2.5);	/* %.0f rounds half to even, as Perl's sprintf */
	CHECK_STR(b, "2");
	CHECK_STR(draw_num(b, 117), "117");
	CHECK_STR(draw_num(b, 66.5), "66.5");
}

int main(void)
{
	test_layout();
	test_xmlesc();
	test_numbers();
	return check_done();
}
