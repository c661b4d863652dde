/* rustsym: the legacy Rust mangling's leftovers, undone. */
#include "rustsym.h"

#include <string.h>

#define HASH 17	/* "h" and 16 hex digits */

static int is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static const char *const escapes[][2] = {
	{ "$SP$", "@" }, { "$BP$", "*" }, { "$RF$", "&" }, { "$LT$", "<" }, { "$GT$", ">" },
	{ "$LP$", "(" }, { "$RP$", ")" }, { "$C$", "," }, { "$u7e$", "~" }, { "$u20$", " " },
	{ "$u27$", "'" }, { "$u3d$", "=" }, { "$u5b$", "[" }, { "$u5d$", "]" }, { "$u7b$", "{" },
	{ "$u7d$", "}" }, { "$u3b$", ";" }, { "$u2b$", "+" }, { "$u21$", "!" }, { "$u22$", "\"" },
};

/* The escape at s (n bytes): its length, its character in *c; 0: none. */
static size_t escape(const char *s, size_t n, char *c)
{
	size_t k, len;

	for (k = 0; k < sizeof(escapes) / sizeof(escapes[0]); k++) {
		len = strlen(escapes[k][0]);
		if (n >= len && memcmp(s, escapes[k][0], len) == 0) {
			*c = escapes[k][1][0];
			return len;
		}
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
