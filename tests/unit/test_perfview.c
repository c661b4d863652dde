/* Unit tests for collapse/perfview (with pvjson, pvxml) and lib/zip:
 * every fixture gives the same stacks whatever the refill size, so no
 * token is lost at a buffer boundary; zip archives written by zip_writer
 * read back, and damaged ones are refused. */
#include "check.h"
#include "folded.h"
#include "lread.h"
#include "perfview.h"
#include "pvread.h"
#include "strtab.h"
#include "zip.h"

#include <dirent.h>
#include <stdlib.h>

static void quiet(void *ctx, const char *file, unsigned long line, unsigned long col, const char *msg)
{
	(void)ctx, (void)file, (void)line, (void)col, (void)msg;
}

static int append(void *ctx, const char *s, size_t len, const struct fcount *c)
{
	return folded_write(ctx, s, len, c);
}

/* Collapses path with the given refill size; returns the folded text. */
static char *collapse(const char *path, size_t chunk, int time_order)
{
	struct pv_opts o = { 0 };
	struct strtab *t = strtab_new(sizeof(struct fcount));
	struct pv *p;
	char *text = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&text, &len);
	uint32_t *ids;

	o.chunk = chunk;
	o.time_order = time_order;
	p = pv_new(&o, t, quiet, NULL);
	pvread_file(p, path);
	if (time_order)
		pv_each_in_order(p, append, f);
	ids = strtab_sorted(t);
	for (i = 0; i < strtab_count(t) && !time_order; i++) {
		size_t n;
		const char *s = strtab_str(t, ids[i], &n);

		folded_write(f, s, n, strtab_val(t, ids[i]));
	}
	fclose(f);
	free(ids);
	pv_free(p);
	strtab_free(t);
	return text;
}

static void same_for_any_chunk(const char *path)
{
	static const size_t chunks[] = { 16, 17, 31, 64, 1000 };
	char *want = collapse(path, 0, 0), *want_t = collapse(path, 0, 1);
	size_t i;

	CHECK(want && *want);
	for (i = 0; i < sizeof(chunks) / sizeof(chunks[0]); i++) {
		char *got = collapse(path, chunks[i], 0), *got_t = collapse(path, chunks[i], 1);

		if (strcmp(got, want) != 0 || strcmp(got_t, want_t) != 0)
			printf("FAIL %s: refills of %zu bytes change the result\n", path, chunks[i]);
		CHECK(strcmp(got, want) == 0 && strcmp(got_t, want_t) == 0);
		free(got);
		free(got_t);
	}
	free(want);
	free(want_t);
}

static void fixtures(void)
{
	const char *dir = "tests/data/perfview";
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	CHECK(d != NULL);
	while (d && (e = readdir(d))) {
		size_t len = strlen(e->d_name);
		char path[512];

		if (len < 5 || (strcmp(e->d_name + len - 4, ".xml") && strcmp(e->d_name + len - 5, ".json")))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		same_for_any_chunk(path);
		n++;
	}
	if (d)
		closedir(d);
	CHECK(n >= 5);
}

/* Reads all of a zip archive held in memory through lread; returns the
 * text (caller frees) or NULL with the error in err. */
static char *unzip(const char *zip, size_t len, char *err, size_t errlen)
{
	struct lread *lr = lread_from_mem(zip, len, "mem");
	char *out = malloc(len * 4 + 1000), buf[4096];
	size_t n = 0;
	ssize_t r;

	while ((r = lread_read(lr, buf, sizeof(buf))) > 0) {
		memcpy(out + n, buf, (size_t)r);
		n += (size_t)r;
	}
	out[n] = 0;
	if (r < 0) {
		snprintf(err, errlen, "%s", lread_error(lr));
		free(out);
		out = NULL;
	}
	lread_free(lr);
	return out;
}

static void zip_roundtrip(void)
{
	const char *text = "main;a;b 3\nmain;a;c 2\nmain;a;c 2\nmain;a;c 2\n";
	char *zip = NULL, *got, err[512] = "";
	size_t len = 0;
	FILE *mem = open_memstream(&zip, &len), *z = zip_writer(mem, "x.PerfView.xml");

	CHECK(z != NULL);
	fputs(text, z);
	CHECK(fclose(z) == 0);
	fclose(mem);
	CHECK(len > 22 && memcmp(zip, "PK\3\4", 4) == 0);
	got = unzip(zip, len, err, sizeof(err));
	CHECK_STR(got, text);
	free(got);
	/* A flipped bit in the deflated data (after the 30-byte local header
	 * and the name), then a cut archive. */
	zip[30 + 14 + 4] ^= 0x10;
	got = unzip(zip, len, err, sizeof(err));
	CHECK(got == NULL && (strstr(err, "CRC") || strstr(err, "deflate") || strstr(err, "size")));
	free(got);
	zip[30 + 14 + 4] ^= 0x10;
	got = unzip(zip, len - 30, err, sizeof(err));
	CHECK(got == NULL && strstr(err, "zip"));
	free(got);
	got = unzip(zip, 30, err, sizeof(err));
	CHECK(got == NULL);
	free(got);
	free(zip);
}

/* The fast decimal path must give strtod's exact double: random
 * decimals of 1..18 digits with the point anywhere. */
static void decimals_agree_with_strtod(void)
{
	unsigned long long r = 88172645463325252ULL;
	char s[32];
	int i, bad = 0;

	for (i = 0; i < 200000; i++) {
		int n = 0, digits, point, k;
		double d;

		r ^= r << 13, r ^= r >> 7, r ^= r << 17;
		digits = 1 + (int)(r % 18);
		point = (int)((r >> 8) % (unsigned)(digits + 2));
		if ((r >> 16) & 1)
			s[n++] = '-';
		for (k = 0; k < digits; k++) {
			if (k == point)
				s[n++] = '.';
			s[n++] = (char)('0' + (r >> (20 + k * 2)) % 10);
		}
		s[n] = 0;
		if (pv_number(s, (size_t)n, &d) != 0 || d != strtod(s, NULL))
			bad++;
	}
	CHECK(bad == 0);
}

static void numbers(void)
{
	double d;

	CHECK(pv_number("1.195", 5, &d) == 0 && d == 1.195);
	CHECK(pv_number(" 10 ", 4, &d) == 0 && d == 10);
	CHECK(pv_number("-3", 2, &d) == 0 && d == -3);
	CHECK(pv_number("1e3", 3, &d) == 0 && d == 1000);
	CHECK(pv_number("1e999", 5, &d) < 0);
	CHECK(pv_number("nan", 3, &d) < 0);
	CHECK(pv_number("inf", 3, &d) < 0);
	CHECK(pv_number("", 0, &d) < 0);
	CHECK(pv_number("12x", 3, &d) < 0);
	CHECK(pv_number("+5", 2, &d) < 0);
	CHECK(pv_number("-", 1, &d) < 0);
	CHECK(pv_number("1.2.3", 5, &d) < 0);
	CHECK(pv_number("-.5", 3, &d) == 0 && d == -0.5);
	CHECK(pv_number("123456789012345678", 18, &d) == 0 && d == 123456789012345678.0);
	decimals_agree_with_strtod();
}

int main(void)
{
	fixtures();
	zip_roundtrip();
	numbers();
	return check_done();
}
