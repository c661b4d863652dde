/* Unit tests for lib/folded: flamegraph.pl's line grammar. */
#include "check.h"
#include "folded.h"
#include "strtab.h"

#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

static int parse(const char *s, struct folded *f)
{
	return folded_parse(s, strlen(s), f);
}

static int stack_is(const struct folded *f, const char *s)
{
	return f->len == strlen(s) && memcmp(f->stack, s, f->len) == 0;
}

/* The count of stack i in save_check: integers of every length, 0, the
 * largest, and fractions now and then. */
static struct fcount count_of(unsigned i)
{
	struct fcount c = { (uint64_t)i * 2654435761u * (i % 5), 0 };

	if (i == 7)
		c.n = UINT64_MAX;
	if (i % 97 == 3)
		c.frac = 0.25;
	return c;
}

/* folded_save on more stacks than one writev takes, added out of order:
 * the file read back is every line, sorted, counts as folded_write puts
 * them; a write to a full disk fails. */
static void save_check(void)
{
	struct strtab *t = strtab_new(sizeof(struct fcount));
	char path[] = "/tmp/test_folded.XXXXXX", key[32], err[256], *want = NULL, *got;
	size_t wlen = 0, glen;
	unsigned i, n = 1500;
	FILE *f;
	int fd = mkstemp(path);

	for (i = 0; i < n; i++) {
		unsigned k = (i * 7u) % n;
		int len = snprintf(key, sizeof(key), "s%05u;f", k);

		*(struct fcount *)strtab_val(t, strtab_intern(t, key, (size_t)len, NULL)) = count_of(k);
	}
	f = open_memstream(&want, &wlen);
	for (i = 0; i < n; i++) {
		struct fcount c = count_of(i);
		int len = snprintf(key, sizeof(key), "s%05u;f", i);

		folded_write(f, key, (size_t)len, &c);
	}
	fclose(f);
	CHECK(fd >= 0 && folded_save(t, path, err, sizeof(err)) == 0);
	got = NULL;
	glen = 0;
	if ((f = fopen(path, "rb")) != NULL) {
		got = malloc(wlen + 2);
		glen = fread(got, 1, wlen + 2, f);
		fclose(f);
	}
	CHECK(got && glen == wlen && memcmp(got, want, wlen) == 0);
	if (access("/dev/full", W_OK) == 0)
		CHECK(folded_save(t, "/dev/full", err, sizeof(err)) < 0 &&
		      strstr(err, "write error on '/dev/full'") != NULL);
	if (fd >= 0) {
		close(fd);
		unlink(path);
	}
	free(got);
	free(want);
	strtab_free(t);
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
	/* Over bytes not 0: the number ends the string itself. */
	memset(buf, 'x', 32);
	CHECK(fcount_format(&c, buf) == 16);
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
	save_check();
	return check_done();
}
