/* Unit tests for lib/csv: fields and locale numbers. */
#include "check.h"
#include "csv.h"

static int num(const char *s, int integer, double want)
{
	double v;

	return csv_number(s, strlen(s), integer, &v) == 0 && v == want;
}

static int bad(const char *s, int integer)
{
	double v;

	return csv_number(s, strlen(s), integer, &v) < 0;
}

static int field(const struct csv *cs, size_t i, const char *want)
{
	return i < cs->n && cs->f[i].len == strlen(want) && memcmp(cs->f[i].s, want, cs->f[i].len) == 0;
}

int main(void)
{
	struct csv cs;
	const char *l1 = "1,\"a, \"\"b\"\"\",\"8,735\",0,100.00,\"\",";

	csv_init(&cs);
	CHECK(csv_split(&cs, l1, strlen(l1)) == 0);
	CHECK(cs.n == 7);
	CHECK(field(&cs, 0, "1") && field(&cs, 1, "a, \"b\"") && field(&cs, 2, "8,735"));
	CHECK(field(&cs, 5, "") && field(&cs, 6, ""));
	CHECK(csv_split(&cs, "\"open", 5) < 0);
	CHECK(csv_split(&cs, "Level,Function Name,Exclusive Samples %", 39) == 0);
	CHECK(csv_find(&cs, "function name") == 1 && csv_find(&cs, "ExclusiveSamples%") == 2);
	CHECK(csv_find(&cs, "nope") == -1);
	csv_release(&cs);

	CHECK(num("306", 1, 306));
	CHECK(num("8,735", 1, 8735));
	CHECK(num("2,893,824", 1, 2893824));
	CHECK(num("1.234", 1, 1234));
	CHECK(num("1 234", 1, 1234));
	CHECK(num("1\xc2\xa0" "234", 1, 1234));
	CHECK(num("1\xe2\x80\xaf" "234\xe2\x80\xaf" "567", 1, 1234567));
	CHECK(num("100.00", 0, 100));
	CHECK(num("100,00", 0, 100));
	CHECK(num("0.04", 0, 0.04));
	CHECK(num("4,718.25", 0, 4718.25));
	CHECK(num("1.234,5", 0, 1234.5));
	CHECK(num("-3", 1, -3));
	CHECK(bad("4,718.25", 1));
	CHECK(bad("1,234.567.8", 0));
	CHECK(bad("1,2,3", 1));
	CHECK(bad("x", 0));
	CHECK(bad("", 0));
	CHECK(bad("12V", 0));
	CHECK(bad("1,234.5,6", 0));
	CHECK(bad("1.", 0));
	return check_done();
}
