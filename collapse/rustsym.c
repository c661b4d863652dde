/* rustsym: the legacy Rust mangling's leftovers, undone. */
#include "rustsym.h"

#include <string.h>

#define HASH 17	/* "h" and 16 hex digits */

static int is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* Each escape, its length and what it stands for. */
static const struct {
	const char *s;
	size_t len;
	char c;
} escapes[] = {
	{ "$SP$", 4, '@' }, { "$BP$", 4, '*' }, { "$RF$", 4, '&' }, { "$LT$", 4, '<' },
	{ "$GT$", 4, '>' }, { "$LP$", 4, '(' }, { "$RP$", 4, ')' }, { "$C$", 3, ',' },
	{ "$u7e$", 5, '~' }, { "$u20$", 5, ' ' }, { "$u27$", 5, '\'' }, { "$u3d$", 5, '=' },
	{ "$u5b$", 5, '[' }, { "$u5d$", 5, ']' }, { "$u7b$", 5, '{' }, { "$u7d$", 5, '}' },
	{ "$u3b$", 5, ';' }, { "$u2b$", 5, '+' }, { "$u21$", 5, '!' }, { "$u22$", 5, '"' },
};

/* The escape at s (n bytes): its length, its character in *c; 0: none. */
static size_t escape(const char *s, size_t n, char *c)
{
	size_t k;

	for (k = 0; k < sizeof(escapes) / sizeof(escapes[0]); k++)
		if (n >= escapes[k].len && s[1] == escapes[k].s[1] &&
		    memcmp(s, escapes[k].s, escapes[k].len) == 0) {
			*c = escapes[k].c;
			return escapes[k].len;
		}
	return 0;
}

size_t rustsym_fix(const char *s, size_t n, char *out)
{
	size_t i, o = 0, used;

	if (n < HASH || s[n - HASH] != 'h')
		return (size_t)-1;
	for (i = n - HASH + 1; i < n; i++)
		if (!is_hex(s[i]))
			return (size_t)-1;
	n -= HASH;
	if (n >= 2 && s[n - 2] == ':' && s[n - 1] == ':')
		n -= 2;
	i = n >= 2 && s[0] == '_' && s[1] == '$';
	while (i < n) {
		if (s[i] == '.' && i + 1 < n && s[i + 1] == '.') {
			out[o++] = ':';
			out[o++] = ':';
			i += 2;
		} else if (s[i] != '$') {
			out[o++] = s[i++];
			while (i < n && s[i] != '$' && s[i] != '.')
				out[o++] = s[i++];
		} else if ((used = escape(s + i, n - i, out + o))) {
			o++;
			i += used;
		} else {
			/* An escape this does not know: the rest stays as it is. */
			memcpy(out + o, s + i, n - i);
			return o + n - i;
		}
	}
	return o;
}
