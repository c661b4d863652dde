/* Unit tests for numfmt: byte for byte what snprintf's "%.Nf" and
 * "%.15g" write, over a million values of the shapes the renderer
 * prints (coordinates, shares, counts, ties, negatives, huge ones);
 * numfmt_u64 what "%llu" writes, at every power of ten and either side
 * of it, 2^64 - 1, and a million values of every length. */
#include "check.h"
#include "numfmt.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint64_t rng = 88172645463325252ull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* A value of one of several shapes. */
static double pick(void)
{
	double u = (double)(next() >> 11) / 9007199254740992.0;

	switch (next() % 8) {
	case 0: return u * 1200;				/* x */
	case 1: return floor(u * 24000) / 2;			/* y, halves */
	case 2: return floor(u * 1e6) / 1000 + 0.0005;		/* ties at 3 */
	case 3: return (floor(u * 1e5) + 0.5) / 100;		/* ties at 2 */
	case 4: return -u * 100;
	case 5: return floor(u * 1e17);				/* large counts */
	case 6: return u * 1e-4 * ((next() & 1) ? 1 : -1);	/* tiny, -0.00 */
	default: return 100 * floor(u * 5000) / 4999;		/* shares */
	}
}

/* Whether numfmt_u64 writes v as "%llu" does, and no byte past it. */
static int u64_ok(uint64_t v)
{
	char want[32], got[32];
	int n = snprintf(want, sizeof(want), "%llu", (unsigned long long)v);

	memset(got, 'x', sizeof(got));
	return numfmt_u64(got, v) == (size_t)n && memcmp(got, want, (size_t)n) == 0 &&
	       got[n] == 'x';
}

int main(void)
{
	char want[NUMFMT_MAX], got[NUMFMT_MAX];
	static const double edge[] = { 0, -0.0, 0.5, 1.5, 2.5, -0.5, 0.05, 0.125, 1e15, 999999999999999.0,
				       -1e-9, 1e300, INFINITY, -INFINITY };
	unsigned long bad = 0, i;
	int d;
	uint64_t p;
	int ok = u64_ok(UINT64_MAX) && u64_ok(0);

	for (p = 1; p <= UINT64_MAX / 10; p *= 10)
		ok &= u64_ok(p - 1) && u64_ok(p) && u64_ok(p + 1) && u64_ok(p * 10 - 1);
	for (i = 0; i < 1000000; i++)
		ok &= u64_ok(next() >> (next() % 64));
	CHECK(ok);

	for (i = 0; i < 1000000 + sizeof(edge) / sizeof(edge[0]); i++) {
		double v = i < sizeof(edge) / sizeof(edge[0]) ? edge[i] : pick();

		for (d = 0; d <= 3; d++) {
			snprintf(want, sizeof(want), "%.*f", d, v);
			numfmt_fixed(got, v, d);
			if (strcmp(want, got) && bad++ < 10)
				printf("FAIL %%.%df of %.17g: %s, not %s\n", d, v, got, want);
		}
		snprintf(want, sizeof(want), "%.15g", v);
		numfmt_g15(got, v);
		if (strcmp(want, got) && bad++ < 10)
			printf("FAIL %%.15g of %.17g: %s, not %s\n", v, got, want);
	}
	CHECK(bad == 0);
	CHECK(numfmt_fixed(got, 1234.5678, 2) == 7 && strcmp(got, "1234.57") == 0);
	return check_done();
}
