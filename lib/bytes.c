/* bytes: small byte-string tests shared by the collapsers and the renderer. */
#include "bytes.h"

#include <string.h>

int bytes_ends_with(const char *s, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);

	return n >= k && memcmp(s + n - k, suffix, k) == 0;
}

int bytes_contains(const char *s, size_t n, const char *needle)
{
	return memmem(s, n, needle, strlen(needle)) != NULL;
}

size_t bytes_utf8(char *d, unsigned long cp)
{
	if (cp < 0x80) {
		d[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		d[0] = (char)(0xc0 | cp >> 6);
		d[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		d[0] = (char)(0xe0 | cp >> 12);
		d[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		d[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	d[0] = (char)(0xf0 | cp >> 18);
	d[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	d[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	d[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* The digits as an integer and 10^k are both exact doubles, so the one
 * division rounds correctly: to the value strtod gives. */
int bytes_decimal(const char *s, size_t len, double *d)
{
	static const double pow10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8,
					1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15 };
	const char *e = s + len;
	int neg = s < e && *s == '-', digits = 0, frac = -1;
	unsigned long long m = 0;

	for (s += neg; s < e; s++) {
		if (*s == '.' && frac < 0)
			frac = 0;
		else if (*s >= '0' && *s <= '9' && digits < 15) {
			m = m * 10 + (unsigned)(*s - '0');
			digits++;
			frac += frac >= 0;
		} else
			return -1;
	}
	if (digits == 0)
		return -1;
	*d = (double)m / pow10[frac > 0 ? frac : 0];
	if (neg)
		*d = -*d;
	return 0;
}
