/* numfmt: fixed-point and %.15g formatting with an exact fallback. */
#include "numfmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const double scale[] = { 1, 10, 100, 1000 };

/* Writes the whole number k (not negative) in decimal; returns the length. */
static size_t whole(char *buf, unsigned long long k)
{
	char tmp[24];
	size_t n = 0, i;

	do {
		tmp[n++] = (char)('0' + k % 10);
		k /= 10;
	} while (k);
	for (i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
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
	n += whole(buf + n, k / unit);
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
		n += whole(buf + n, (unsigned long long)fabs(v));
		buf[n] = '\0';
		return n;
	}
	if (fabs(v) < 1e14 && v * 2 == floor(v * 2) && v != 0) {	/* halves: y of a frame */
		n = numfmt_fixed(buf, v, 1);
		return n;
	}
	return (size_t)snprintf(buf, 32, "%.15g", v);
}
