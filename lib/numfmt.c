/* numfmt: fixed-point and %.15g formatting with an exact fallback. */
#include "numfmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const double scale[] = { 1, 10, 100, 1000 };

/* "00" to "99". */
static const char two_digits[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* x (below 10^8) as 8 digits at d. */
static void put_8digits(char *d, uint32_t x)
{
	uint32_t hi = x / 10000, lo = x % 10000;

	memcpy(d, two_digits + hi / 100 * 2, 2);
	memcpy(d + 2, two_digits + hi % 100 * 2, 2);
	memcpy(d + 4, two_digits + lo / 100 * 2, 2);
	memcpy(d + 6, two_digits + lo % 100 * 2, 2);
}

/* Its digits counted first (from its bits, then one compare), then
 * written from the last: 8 at a time in 32 bits while more than 8 are
 * left, then two at a time.  A weight of 10 digits, as pprof's
 * nanosecond ones are, took a fifth of pprof's writing a digit at a
 * time and reversed. */
size_t numfmt_u64(char *buf, uint64_t v)
{
	static const uint64_t pow10[20] = {
		1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000,
		10000000000u, 100000000000u, 1000000000000u, 10000000000000u,
		100000000000000u, 1000000000000000u, 10000000000000000u,
		100000000000000000u, 1000000000000000000u, 10000000000000000000u
	};
	/* 1233 / 4096 is just above log10(2): t is the digits of 2^bits,
	 * which v has or has one fewer. */
	unsigned t = (unsigned)(64 - __builtin_clzll(v | 1)) * 1233 >> 12;
	size_t n = t + ((v | 1) >= pow10[t]);
	char *d = buf + n;
	uint32_t x;

	for (; v >= 100000000; v /= 100000000)
		put_8digits(d -= 8, (uint32_t)(v % 100000000));
	for (x = (uint32_t)v; x >= 100; x /= 100)
		memcpy(d -= 2, two_digits + x % 100 * 2, 2);
	if (x >= 10)
		memcpy(d - 2, two_digits + x * 2, 2);
	else
		d[-1] = (char)('0' + x);
	return n;
}

static size_t slow_fixed(char *buf, double v, int decimals)
{
	return (size_t)snprintf(buf, NUMFMT_MAX, "%.*f", decimals, v);
}

/* Writes k / 10^decimals (k a whole number), "-" first when neg. */
static size_t put_scaled(char *buf, unsigned long long k, int decimals, int neg)
{
	unsigned long long unit = (unsigned long long)scale[decimals];
	size_t n = 0;
	int i;

	if (neg)
		buf[n++] = '-';
	n += numfmt_u64(buf + n, k / unit);
	if (decimals) {
		buf[n++] = '.';
		for (i = decimals - 1, k %= unit; i >= 0; i--, k /= 10)
			buf[n + (size_t)i] = (char)('0' + k % 10);
		n += (size_t)decimals;
	}
	buf[n] = '\0';
	return n;
}

size_t numfmt_fixed(char *buf, double v, int decimals)
{
	double r, fl, frac;

	if (decimals < 0 || decimals > 3 || (v == 0 && signbit(v)))
		return slow_fixed(buf, v, decimals);
	/* Whole numbers up to 2^53 are exact: "123.00". */
	if (v == floor(v) && fabs(v) < 9007199254740992.0)
		return put_scaled(buf, (unsigned long long)fabs(v) * (unsigned long long)scale[decimals],
				  decimals, v < 0);
	r = v * scale[decimals];
	/* Past 1e9 the product's own rounding could reach the 1e-6 margin. */
	if (!(fabs(r) < 1e9))
		return slow_fixed(buf, v, decimals);
	fl = floor(r);
	frac = r - fl;
	/* Near a tie, printf's exact decimal rounding decides. */
	if (fabs(frac - 0.5) < 1e-6)
		return slow_fixed(buf, v, decimals);
	fl += frac > 0.5;
	if (v < 0 && fl == 0)	/* "-0.00" */
		return slow_fixed(buf, v, decimals);
	return put_scaled(buf, (unsigned long long)fabs(fl), decimals, fl < 0);
}

size_t numfmt_g15(char *buf, double v)
{
	size_t n = 0;

	if (v == floor(v) && fabs(v) < 1e15 && !(v == 0 && signbit(v))) {
		if (v < 0)
			buf[n++] = '-';
		n += numfmt_u64(buf + n, (uint64_t)fabs(v));
		buf[n] = '\0';
		return n;
	}
	if (fabs(v) < 1e14 && v * 2 == floor(v * 2) && v != 0) {	/* halves: y of a frame */
		n = numfmt_fixed(buf, v, 1);
		return n;
	}
	return (size_t)snprintf(buf, 32, "%.15g", v);
}
