/* xcxml: a tag scanner for xctrace's XML. */
#include "xcxml.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

void xcxml_init(struct xcxml *x, xcxml_tag_fn *tag, void *ctx)
{
	memset(x, 0, sizeof(*x));
	x->tag = tag;
	x->ctx = ctx;
}

void xcxml_release(struct xcxml *x)
{
	free(x->buf);
	x->buf = NULL;
	x->len = x->cap = 0;
}

int xcxml_pending(const struct xcxml *x)
{
	return x->len > 0;
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* The end of the construct starting at p ('<'), or NULL when it is not
 * all there: "-->" for a comment, "]]>" for CDATA, else the first '>'
 * outside quotes. */
static const char *construct_end(const char *p, const char *end)
{
	char q = 0;

	if (end - p >= 4 && memcmp(p, "<!--", 4) == 0) {
		p = memmem(p + 4, (size_t)(end - p - 4), "-->", 3);
		return p ? p + 2 : NULL;
	}
	if (end - p >= 9 && memcmp(p, "<![CDATA[", 9) == 0) {
		p = memmem(p + 9, (size_t)(end - p - 9), "]]>", 3);
		return p ? p + 2 : NULL;
	}
	for (p++; p < end; p++) {
		if (q) {
			if (*p == q)
				q = 0;
		} else if (*p == '"' || *p == '\'') {
			q = *p;
		} else if (*p == '>') {
			return p;
		}
	}
	return NULL;
}

/* Hands on the tag between p ('<') and e ('>'). */
static int tag(struct xcxml *x, const char *p, const char *e)
{
	enum xcxml_kind k = XCXML_START;
	const char *n;

	if (p[1] == '!' || p[1] == '?')
		return 0;
	p++;
	if (*p == '/') {
		k = XCXML_END;
		p++;
	} else if (e > p && e[-1] == '/') {
		k = XCXML_EMPTY;
		e--;
	}
	for (n = p; p < e && !is_space(*p); p++)
		;
	return x->tag(x->ctx, k, n, (size_t)(p - n), p, (size_t)(e - p));
}

/* Scans [s, end): returns how many bytes were used (the rest is an
 * unfinished construct), or a negative status. */
static long long scan(struct xcxml *x, const char *s, const char *end)
{
	const char *p = s, *e;

	while ((p = memchr(p, '<', (size_t)(end - p)))) {
		if (!(e = construct_end(p, end)))
			return p - s;
		if (tag(x, p, e) < 0)
			return -1;
		p = e + 1;
	}
	return end - s;
}

int xcxml_feed(struct xcxml *x, const char *s, size_t n, unsigned long long *where)
{
	long long used;

	xappend(&x->buf, &x->len, &x->cap, s, n);
	used = scan(x, x->buf, x->buf + x->len);
	if (used < 0)
		return -1;
	memmove(x->buf, x->buf + used, x->len - (size_t)used);
	x->len -= (size_t)used;
	x->at += (unsigned long long)used;
	if (x->len > XCXML_MAX_TAG) {
		*where = x->at;
		return -2;
	}
	return 0;
}

int xcxml_attr(const char *a, size_t alen, const char *key, const char **v, size_t *vlen)
{
	const char *end = a + alen, *k, *ke, *q;
	size_t klen = strlen(key);

	while (a < end) {
		while (a < end && is_space(*a))
			a++;
		for (k = a; a < end && *a != '=' && !is_space(*a); a++)
			;
		ke = a;
		while (a < end && (is_space(*a) || *a == '='))
			a++;
		if (a >= end || (*a != '"' && *a != '\''))
			return 0;
		if (!(q = memchr(a + 1, *a, (size_t)(end - a - 1))))
			return 0;
		if ((size_t)(ke - k) == klen && memcmp(k, key, klen) == 0) {
			*v = a + 1;
			*vlen = (size_t)(q - a - 1);
			return 1;
		}
		a = q + 1;
	}
	return 0;
}

/* The character reference "#N" or "#xH" (n bytes): its code point, or -1. */
static long charref(const char *s, size_t n)
{
	int hex = n > 1 && (s[1] == 'x' || s[1] == 'X');
	size_t i = hex ? 2 : 1;
	long v = 0;

	if (n <= i || n > i + 8)
		return -1;
	for (; i < n; i++) {
		int d = s[i] >= '0' && s[i] <= '9' ? s[i] - '0'
			: hex && (s[i] | 0x20) >= 'a' && (s[i] | 0x20) <= 'f' ? (s[i] | 0x20) - 'a' + 10 : -1;

		if (d < 0)
			return -1;
		v = v * (hex ? 16 : 10) + d;
	}
	return v <= 0x10ffff ? v : -1;
}

/* Writes code point c as UTF-8 (at most 4 bytes, never more than the
 * reference it replaces, which is at least 4 bytes: "&#N;"). */
static size_t utf8(long c, char *o)
{
	if (c < 0x80) {
		o[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		o[0] = (char)(0xc0 | (c >> 6));
		o[1] = (char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		o[0] = (char)(0xe0 | (c >> 12));
		o[1] = (char)(0x80 | ((c >> 6) & 0x3f));
		o[2] = (char)(0x80 | (c & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | (c >> 18));
	o[1] = (char)(0x80 | ((c >> 12) & 0x3f));
	o[2] = (char)(0x80 | ((c >> 6) & 0x3f));
	o[3] = (char)(0x80 | (c & 0x3f));
	return 4;
}

size_t xcxml_unescape(const char *s, size_t n, char *out)
{
	static const char *const names[][2] = {
		{ "amp", "&" }, { "lt", "<" }, { "gt", ">" }, { "quot", "\"" }, { "apos", "'" },
	};
	size_t i = 0, o = 0, k, len;
	const char *semi;
	long c;

	while (i < n) {
		if (s[i] != '&' || !(semi = memchr(s + i, ';', n - i < 12 ? n - i : 12))) {
			out[o++] = s[i++];
			continue;
		}
		len = (size_t)(semi - s - i - 1);
		for (k = 0; k < 5; k++)
			if (strlen(names[k][0]) == len && memcmp(s + i + 1, names[k][0], len) == 0)
				break;
		if (k < 5)
			out[o++] = names[k][1][0];
		else if (len > 0 && s[i + 1] == '#' && (c = charref(s + i + 1, len)) >= 0)
			o += utf8(c, out + o);
		else {
			out[o++] = s[i++];	/* not a reference: kept */
			continue;
		}
		i += len + 2;
	}
	return o;
}
