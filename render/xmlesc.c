/* xmlesc: sanitising XML escaper. */
#include "xmlesc.h"

#include <string.h>

static int cont(unsigned char c)
{
	return (c & 0xc0) == 0x80;
}

/* Decodes strict UTF-8: no overlong forms, no surrogates, <= U+10FFFF. */
static size_t utf8_decode(const unsigned char *s, size_t len, unsigned *cp)
{
	unsigned c = s[0];

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf && len >= 2 && cont(s[1])) {
		*cp = (c & 0x1f) << 6 | (s[1] & 0x3f);
		return 2;
	}
	if (c >= 0xe0 && c <= 0xef && len >= 3 && cont(s[1]) && cont(s[2])) {
		*cp = (c & 0x0f) << 12 | (unsigned)(s[1] & 0x3f) << 6 | (s[2] & 0x3f);
		if (*cp >= 0x800 && (*cp < 0xd800 || *cp > 0xdfff))
			return 3;
	}
	if (c >= 0xf0 && c <= 0xf4 && len >= 4 && cont(s[1]) && cont(s[2]) && cont(s[3])) {
		*cp = (c & 0x07) << 18 | (unsigned)(s[1] & 0x3f) << 12 |
		      (unsigned)(s[2] & 0x3f) << 6 | (s[3] & 0x3f);
		if (*cp >= 0x10000 && *cp <= 0x10ffff)
			return 4;
	}
	*cp = 0xfffd;
	return 1;
}

size_t xmlesc_char(const char *s, size_t len, unsigned *cp)
{
	size_t n = utf8_decode((const unsigned char *)s, len, cp);

	if ((*cp < 0x20 && *cp != '\t') || *cp == 0xfffe || *cp == 0xffff)
		*cp = 0xfffd;
	return n;
}

size_t xmlesc_count(const char *s, size_t len)
{
	size_t i = 0, n = 0;
	unsigned cp;

	while (i < len) {
		/* ASCII runs are the common case. */
		if ((unsigned char)s[i] < 0x80) {
			i++;
		} else {
			i += xmlesc_char(s + i, len - i, &cp);
		}
		n++;
	}
	return n;
}

/* Characters that can be copied as they are. */
static int plain(unsigned char c)
{
	return c >= 0x20 && c < 0x80 && c != '&' && c != '<' && c != '>' && c != '"';
}

size_t xmlesc_write(FILE *f, const char *s, size_t len, size_t maxchars)
{
	size_t i = 0, chars = 0;

	while (i < len && chars < maxchars) {
		size_t run = 0, n;
		unsigned cp;

		while (i + run < len && chars + run < maxchars && plain((unsigned char)s[i + run]))
			run++;
		if (run) {
			fwrite(s + i, 1, run, f);
			i += run;
			chars += run;
			continue;
		}
		n = xmlesc_char(s + i, len - i, &cp);
		switch (cp) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case 0xfffd: fputs("\xef\xbf\xbd", f); break;
		default: fwrite(s + i, 1, n, f); break;
		}
		i += n;
		chars++;
	}
	return i;
}

void xmlesc_comment(FILE *f, const char *s, size_t len)
{
	size_t i = 0;
	int dash = 0;

	while (i < len) {
		unsigned cp;
		size_t n = xmlesc_char(s + i, len - i, &cp);

		if (cp == '-' && dash)
			putc(' ', f);
		dash = cp == '-';
		if (cp == 0xfffd)
			fputs("\xef\xbf\xbd", f);
		else
			fwrite(s + i, 1, n, f);
		i += n;
	}
	if (dash)
		putc(' ', f);
}
