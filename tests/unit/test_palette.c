/* Unit tests for render/palette.  Expected colours are what flamegraph.pl
 * printed for the same names (see the comments). */
#include "check.h"
#include "palette.h"

#include <math.h>

static const char *color(struct palette *p, const char *name)
{
	static char out[48];

	palette_color(p, name, strlen(name), out);
	return out;
}

int main(void)
{
	struct palette *p;
	char out[48];

	/* perl -e 'srand(S); print rand(1)' */
	CHECK(fabs(palette_perl_rand(0) - 0.17082803610628972) < 1e-15);
	CHECK(fabs(palette_perl_rand(1) - 0.041630344771878214) < 1e-15);
	CHECK(fabs(palette_perl_rand(100) - 0.25105890266513953) < 1e-15);
	CHECK(fabs(palette_perl_rand(1234567) - 0.96463038570164272) < 1e-15);

	/* flamegraph.pl default (hot): "a" rgb(236,146,35), "" rgb(213,39,9). */
	p = palette_new(PAL_HOT, 0, 0);
	CHECK_STR(color(p, "a"), "rgb(236,146,35)");
	CHECK_STR(color(p, ""), "rgb(213,39,9)");
	CHECK_STR(color(p, "x"), "rgb(238,153,36)");
	palette_free(p);

	/* flamegraph.pl --hash. */
	p = palette_new(PAL_HOT, 1, 0);
	CHECK_STR(color(p, "parse_headers"), "rgb(238,149,36)");
	CHECK_STR(color(p, "libc.so`malloc"), "rgb(240,112,39)");
	CHECK_STR(color(p, "\xc3\x9c" "ber"), "rgb(244,163,43)");
	CHECK_STR(color(p, "main"), "rgb(247,83,46)");
	palette_free(p);

	/* flamegraph.pl --colors java. */
	p = palette_new(PAL_JAVA, 0, 0);
	CHECK_STR(color(p, "Lcom/x/Y"), "rgb(109,254,109)");
	CHECK_STR(color(p, "foo_[k]"), "rgb(218,118,0)");
	CHECK_STR(color(p, "::run_[j]"), "rgb(73,221,73)");
	CHECK_STR(color(p, "main"), "rgb(242,112,112)");
	palette_free(p);

	/* Differential: red grows, blue shrinks, white unchanged. */
	palette_diff(10, 10, 0, out);
	CHECK_STR(out, "rgb(255,0,0)");
	palette_diff(-5, 10, 0, out);
	CHECK_STR(out, "rgb(105,105,255)");
	palette_diff(-5, 10, 1, out);
	CHECK_STR(out, "rgb(255,105,105)");
	palette_diff(0, 10, 0, out);
	CHECK_STR(out, "rgb(255,255,255)");
	palette_diff(50, 10, 0, out);
	CHECK_STR(out, "rgb(255,0,0)");
	palette_free(NULL);
	return check_done();
}
