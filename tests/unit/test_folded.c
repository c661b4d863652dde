/* Unit tests for lib/folded: flamegraph.pl's line grammar. */
#include "check.h"
#include "folded.h"

static int parse(const char *s, struct folded *f)
{
	return folded_parse(s, strlen(s), f);
}

static int stack_is(const struct folded *f, const char *s)
{
	return f->len == strlen(s) && memcmp(f->stack, s, f->len) == 0;
}

int main(void)
{
	struct folded f;
	struct fcount c = { 0, 0 }, d;
	char buf[32];

	CHECK(parse("a;b 12", &f) == 0 && stack_is(&f, "a;b") && f.c1.n == 12 && !f.two);
	CHECK(parse("a;b  12", &f) == 0 && stack_is(&f, "a;b "));	/* one space is eaten, as Perl does */
	CHECK(parse("a b;c d 3", &f) == 0 && stack_is(&f, "a b;c d"));
	CHECK(parse("a;b\t7", &f) == 0 && stack_is(&f, "a;b") && f.c1.n == 7);
	CHECK(parse("a;b 3 5", &f) == 0 && stack_is(&f, "a;b") && f.two && f.c1.n == 3 && f.c2.n == 5);
	CHECK(parse("a;b 1.5", &f) == 0 && fcount_value(&f.c1) == 1.5);
	CHECK(parse("a;b 2.", &f) == 0 && f.c1.n == 2 && f.c1.frac == 0);
	CHECK(parse("a;b 2.000", &f) == 0 && f.c1.n == 2 && f.c1.frac == 0);
	CHECK(parse(" 5", &f) == 0 && f.len == 0);
	CHECK(parse("5", &f) < 0);
	CHECK(parse("a;b", &f) < 0);
	CHECK(parse("a;b .5", &f) < 0);
	CHECK(parse("a;b 1.2.3", &f) < 0);
	CHECK(parse("a;b 12V", &f) < 0);
	CHECK(parse("a;b -3", &f) < 0);
	CHECK(parse("", &f) < 0);
	CHECK(parse("a 18446744073709551615", &f) == 0 && f.c1.n == 18446744073709551615ULL);
	CHECK(parse("a 99999999999999999999", &f) == 0 && f.c1.frac > 9.9e19);
	/* Exact 64-bit sums past 2^32 and 2^53. */
	d.n = 1ULL << 53;
	d.frac = 0;
	fcount_add(&c, &d);
	d.n = 1;
	fcount_add(&c, &d);
	CHECK(c.n == (1ULL << 53) + 1);
	fcount_format(&c, buf);
	CHECK_STR(buf, "9007199254740993");
	d.n = 0;
	d.frac = 0.25;
	c.n = 3;
	c.frac = 0;
	fcount_add(&c, &d);
	fcount_format(&c, buf);
	CHECK_STR(buf, "3.25");
	/* The writer: "stack COUNT\n", integers exact, fractions short. */
	{
		char out[128];
		FILE *mf = fmemopen(out, sizeof(out), "w");
		struct fcount w = { 12, 0 }, x = { 0, 0.5 };

		CHECK(folded_write(mf, "a;b c", 5, &w) == 0);
		CHECK(folded_write(mf, "z", 1, &x) == 0);
		fclose(mf);
		CHECK_STR(out, "a;b c 12\nz 0.5\n");
	}
	return check_done();
}
