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

size_t bytes_utf8_len(const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t k, i;
	unsigned cp;

	if (s[0] < 0x80)
		return 1;
	k = s[0] >= 0xf0 && s[0] < 0xf5 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 && s[0] < 0xe0 ? 2 : 0;
	if (k == 0 || k > n || (k == 3 && s[0] >= 0xf0))
		return 0;
	cp = s[0] & (0x7f >> k);
	for (i = 1; i < k; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((k == 3 && (cp < 0x800 || (cp >= 0xd800 && cp < 0xe000))) || (k == 4 && cp < 0x10000))
		return 0;
	return k;
}

int bytes_json(FILE *f, const char *s, size_t n)
{
	size_t i = 0, k;
	int bad = 0;

	while (i < n) {
		unsigned char c = (unsigned char)s[i];

		if ((k = bytes_utf8_len(s + i, n - i)) == 0) {
			fputs("\xef\xbf\xbd", f);
			bad = 1;
			k = 1;
		} else if (k > 1) {
			fwrite(s + i, 1, k, f);
		} else if (c == '"' || c == '\\') {
			fprintf(f, "\\%c", c);
		} else if (c < 0x20) {
			fprintf(f, "\\u%04x", c);
		} else {
			putc(c, f);
		}
		i += k;
	}
	return bad;
}
