/* rustsym: the legacy Rust mangling's leftovers, undone.  Most symbols
 * have no escape and no "..": the bytes up to the next '$' or '.' are
 * found a word at a time and copied in one go. */
#include "rustsym.h"
#include "xalloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define HASH 17	/* "h" and 16 hex digits */
#define ONES 0x0101010101010101ULL
#define HIGHS 0x8080808080808080ULL

/* Hex digits, either case. */
static const unsigned char hex[256] = {
	['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1, ['7'] = 1,
	['8'] = 1, ['9'] = 1, ['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1, ['f'] = 1,
	['A'] = 1, ['B'] = 1, ['C'] = 1, ['D'] = 1, ['E'] = 1, ['F'] = 1,
};

/* The "$u.." escapes, by their two hex digits. */
static char uescape(char a, char b)
{
	static const struct {
		char a, b, c;	/* the digits and what they stand for */
	} u[] = {
		{ '7', 'e', '~' }, { '2', '0', ' ' }, { '2', '7', '\'' }, { '3', 'd', '=' },
		{ '5', 'b', '[' }, { '5', 'd', ']' }, { '7', 'b', '{' }, { '7', 'd', '}' },
		{ '3', 'b', ';' }, { '2', 'b', '+' }, { '2', '1', '!' }, { '2', '2', '"' },
	};
	size_t k;

	for (k = 0; k < sizeof(u) / sizeof(u[0]); k++)
		if (u[k].a == a && u[k].b == b)
			return u[k].c;
	return 0;
}

/* The escape at s (n bytes, s[0] == '$'): its length, its character in
 * *c; 0: none.  "$SP$" '@', "$BP$" '*', "$RF$" '&', "$LT$" '<', "$GT$"
 * '>', "$LP$" '(', "$RP$" ')', "$C$" ',', and "$u7e$" and the like. */
static size_t escape(const char *s, size_t n, char *c)
{
	static const char two[][3] = { "SP@", "BP*", "RF&", "LT<", "GT>", "LP(", "RP)" };
	size_t k;

	if (n >= 3 && s[1] == 'C' && s[2] == '$') {
		*c = ',';
		return 3;
	}
	if (n >= 5 && s[1] == 'u' && s[4] == '$')
		return (*c = uescape(s[2], s[3])) ? 5 : 0;
	if (n < 4 || s[3] != '$')
		return 0;
	for (k = 0; k < sizeof(two) / sizeof(two[0]); k++)
		if (s[1] == two[k][0] && s[2] == two[k][1]) {
			*c = two[k][2];
			return 4;
		}
	return 0;
}

/* How many of the n bytes at s come before the first '$' or '.'. */
static size_t plain(const char *s, size_t n)
{
	size_t i = 0;
	uint64_t w, d, p;

	for (; i + 8 <= n; i += 8) {
		memcpy(&w, s + i, 8);
		d = w ^ (ONES * '$');
		p = w ^ (ONES * '.');
		d = ((d - ONES) & ~d) | ((p - ONES) & ~p);
		if (d & HIGHS)
			break;
	}
	while (i < n && s[i] != '$' && s[i] != '.')
		i++;
	return i;
}

size_t rustsym_fix(const char *s, size_t n, char *out)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i, o = 0, used, k;
	unsigned all = 1;

	if (n < HASH || s[n - HASH] != 'h')
		return (size_t)-1;
	for (i = n - HASH + 1; i < n; i++)
		all &= hex[u[i]];	/* no branch a digit */
	if (!all)
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
			/* A lone '.' is kept, with the run after it. */
			k = (s[i] == '.') + plain(s + i + (s[i] == '.'), n - i - (s[i] == '.'));
			memcpy(out + o, s + i, k);
			o += k;
			i += k;
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

#define SLOTS 1024	/* cache entries, picked by the hash's last digits */
#define LONGEST 288	/* longer symbols are fixed every time */

struct entry {
	size_t n;		/* the symbol's length, 0: empty */
	size_t fixed;		/* the fixed one's length, or (size_t)-1 */
	unsigned old;		/* in a pair's first slot: which of the two was
				   used longer ago (the next one to go) */
	char s[LONGEST];	/* the symbol */
	char out[LONGEST];	/* fixed */
};

struct rustsym_cache {
	struct entry *e;	/* SLOTS entries, allocated when first used */
	char *tmp;		/* a long symbol, fixed */
	size_t tmpcap;		/* its room */
};

struct rustsym_cache *rustsym_cache_new(void)
{
	return xcalloc(1, sizeof(struct rustsym_cache));
}

void rustsym_cache_free(struct rustsym_cache *c)
{
	if (!c)
		return;
	free(c->e);
	free(c->tmp);
	free(c);
}

size_t rustsym_cached(struct rustsym_cache *c, const char *s, size_t n, const char **out)
{
	const unsigned char *u = (const unsigned char *)s;
	struct entry *e, *pair;

	if (n < HASH || s[n - HASH] != 'h')
		return (size_t)-1;
	if (n > LONGEST) {
		xgrow(&c->tmp, &c->tmpcap, n, 1);
		*out = c->tmp;
		return rustsym_fix(s, n, c->tmp);
	}
	if (!c->e)
		c->e = xcalloc(SLOTS, sizeof(*c->e));
	/* The low four bits of the last three digits (even when they are
	 * not hex: then the fix says no) pick a pair of slots, so two hot
	 * symbols sharing them do not fix each other out; a new one takes
	 * the slot used longer ago. */
	pair = &c->e[((u[n - 1] & 15u) | (u[n - 2] & 15u) << 4 | (u[n - 3] & 3u) << 8) % SLOTS & ~1u];
	if (pair[0].n == n && memcmp(pair[0].s, s, n) == 0) {
		e = pair;
	} else if (pair[1].n == n && memcmp(pair[1].s, s, n) == 0) {
		e = pair + 1;
	} else {
		e = pair + pair->old;
		memcpy(e->s, s, n);
		e->n = n;
		e->fixed = rustsym_fix(s, n, e->out);
	}
	pair->old = e == pair;
	*out = e->out;
	return e->fixed;
}
