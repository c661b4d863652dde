/* csv: a small CSV tokenizer and a locale-tolerant number parser. */
#include "csv.h"
#include "xalloc.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

void csv_init(struct csv *cs)
{
	memset(cs, 0, sizeof(*cs));
}

void csv_release(struct csv *cs)
{
	free(cs->f);
	free(cs->buf);
	csv_init(cs);
}

int csv_split(struct csv *cs, const char *line, size_t len)
{
	size_t i = 0, o = 0;

	cs->n = 0;
	if (cs->bufcap < len + 1)
		xgrow(&cs->buf, &cs->bufcap, len + 1, 1);
	for (;;) {
		struct csv_field *fld;

		if (cs->n == cs->cap)
			xgrow(&cs->f, &cs->cap, cs->n + 1, sizeof(*cs->f));
		fld = &cs->f[cs->n++];
		if (i < len && line[i] == '"') {
			/* Quoted: copied without its quotes, "" read as ". */
			fld->s = cs->buf + o;
			for (i++;; i++) {
				if (i >= len)
					return -1;
				if (line[i] == '"') {
					if (i + 1 < len && line[i + 1] == '"') {
						cs->buf[o++] = '"';
						i++;
						continue;
					}
					i++;
					break;
				}
				cs->buf[o++] = line[i];
			}
			fld->len = (size_t)(cs->buf + o - fld->s);
			while (i < len && line[i] != ',')
				i++;	/* text after the closing quote is ignored */
		} else {
			const char *c = memchr(line + i, ',', len - i);
			size_t end = c ? (size_t)(c - line) : len;

			fld->s = line + i;
			fld->len = end - i;
			i = end;
		}
		if (i >= len)
			return 0;
		i++;	/* the comma */
	}
}

/* A group separator: ',', '.', ' ', U+00A0 or U+202F; returns its length. */
static size_t group_sep(const char *s, size_t n)
{
	if (n >= 1 && (s[0] == ',' || s[0] == '.' || s[0] == ' '))
		return 1;
	if (n >= 2 && (unsigned char)s[0] == 0xc2 && (unsigned char)s[1] == 0xa0)
		return 2;
	if (n >= 3 && (unsigned char)s[0] == 0xe2 && (unsigned char)s[1] == 0x80 &&
	    (unsigned char)s[2] == 0xaf)
		return 3;
	return 0;
}

/* Digits right after position i, and where they end. */
static size_t digits_after(const char *s, size_t len, size_t i, size_t *end)
{
	size_t j = i;

	while (j < len && isdigit((unsigned char)s[j]))
		j++;
	*end = j;
	return j - i;
}

int csv_number(const char *s, size_t len, int integer, double *v)
{
	char digits[128];
	size_t i = 0, o = 0, run = 0, groups = 0;
	int neg = 0, dec = 0;
	char grp = 0;

	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	while (i < len && isspace((unsigned char)s[i]))
		i++;
	if (i < len && (s[i] == '-' || s[i] == '+'))
		neg = s[i++] == '-';
	for (; i < len; i++) {
		size_t k, end;

		if (isdigit((unsigned char)s[i])) {
			if (o + 2 >= sizeof(digits))
				return -1;
			digits[o++] = s[i];
			run++;
			continue;
		}
		k = group_sep(s + i, len - i);
		if (!k || run == 0 || dec)
			return -1;
		/* Three digits, then the end or another separator: a group
		 * separator (the same one throughout, the first group 1-3 digits).
		 * Anything else is the decimal mark. */
		if (digits_after(s, len, i + k, &end) == 3 && (end == len || group_sep(s + end, len - end)) &&
		    (!grp || grp == s[i]) && (groups || run <= 3)) {
			grp = s[i];
			groups++;
			run = 0;
			i += k - 1;
			continue;
		}
		if ((s[i] != '.' && s[i] != ',') || grp == s[i])
			return -1;
		dec = 1;
		digits[o++] = '.';
		run = 0;
	}
	if (run == 0 || (integer && dec))
		return -1;
	digits[o] = '\0';
	*v = strtod(digits, NULL);
	if (neg)
		*v = -*v;
	return 0;
}

static int same_name(const char *a, size_t n, const char *b)
{
	size_t i = 0;

	for (;; b++) {
		while (i < n && a[i] == ' ')
			i++;
		while (*b == ' ')
			b++;
		if (i == n || !*b)
			return i == n && !*b;
		if (tolower((unsigned char)a[i]) != tolower((unsigned char)*b))
			return 0;
		i++;
	}
}

int csv_find(const struct csv *cs, const char *name)
{
	size_t i;

	for (i = 0; i < cs->n; i++)
		if (same_name(cs->f[i].s, cs->f[i].len, name))
			return (int)i;
	return -1;
}
