/* json: the tokenizer.  A state says what may come next, a stack of open
 * brackets what closes them; bytes come through a refilled window. */
#include "json.h"
#include "json_digits.h"
#include "json_impl.h"
#include "bytes.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NUMBER 64		/* longer numbers are refused */

struct json *json_new(json_read_fn *rd, void *ctx)
{
	struct json *j = xcalloc(1, sizeof(*j));

	j->rd = rd;
	j->ctx = ctx;
	j->win = xmalloc(WINDOW);
	j->buf = j->win;
	return j;
}

struct json *json_new_mem(const char *data, size_t len)
{
	struct json *j = xcalloc(1, sizeof(*j));

	j->buf = data ? data : "";
	j->len = data ? len : 0;
	j->eof = 1;
	return j;
}

void json_free(struct json *j)
{
	if (!j)
		return;
	free(j->win);
	free(j->s);
	free(j);
}

/* A number's text is copied out of the window only when asked for, or
 * before the window is overwritten. */
static void keep_text(struct json *j)
{
	memcpy(j->s, j->lazy, j->slen);
	j->s[j->slen] = '\0';
	j->lazy = NULL;
}

static int refill(struct json *j)
{
	ssize_t n;

	if (!j->rd || j->eof || j->rerr)
		return -1;
	if (j->lazy)
		keep_text(j);
	n = j->rd(j->ctx, j->win, WINDOW);
	if (n <= 0) {
		j->eof = n == 0;
		j->rerr = n < 0;
		return -1;
	}
	j->base += j->len;
	j->len = (size_t)n;
	j->pos = 0;
	return 0;
}

static inline int peek(struct json *j)
{
	if (j->pos == j->len && refill(j) < 0)
		return -1;
	return (unsigned char)j->buf[j->pos];
}

static uint64_t offset(const struct json *j)
{
	return j->base + j->pos;
}

/* Stops with what at the current byte. */
static int fail(struct json *j, const char *what)
{
	if (j->rerr)
		snprintf(j->err, sizeof(j->err), "read error at byte %llu",
			 (unsigned long long)offset(j));
	else if ((j->truncated = peek(j) < 0))
		snprintf(j->err, sizeof(j->err), "the input ends early (at byte %llu: %s)",
			 (unsigned long long)offset(j), what);
	else
		snprintf(j->err, sizeof(j->err), "%s at byte %llu", what,
			 (unsigned long long)offset(j));
	j->done = JSON_ERROR;
	return JSON_ERROR;
}

static int ws_slow(struct json *j)
{
	int c;

	for (;;) {
		while (j->pos < j->len) {
			c = (unsigned char)j->buf[j->pos];
			if (c != ' ' && c != '\n' && c != '\r' && c != '\t')
				return c;
			j->pos++;
		}
		if (refill(j) < 0)
			return -1;
	}
}

/* The next byte that is not white space, or -1 at the end. */
static inline int ws(struct json *j)
{
	if (j->pos < j->len && (unsigned char)j->buf[j->pos] > ' ')
		return (unsigned char)j->buf[j->pos];
	return ws_slow(j);
}

static void sput(struct json *j, const char *s, size_t n)
{
	xappend(&j->s, &j->slen, &j->scap, s, n);
}

static void sput_cp(struct json *j, unsigned long cp)
{
	char b[4];

	sput(j, b, bytes_utf8(b, cp));
}

static long hex4(struct json *j)
{
	long v = 0;
	int i, c;

	for (i = 0; i < 4; i++) {
		c = peek(j);
		if (c >= '0' && c <= '9')
			v = v * 16 + (c - '0');
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			v = v * 16 + ((c | 0x20) - 'a' + 10);
		else
			return -1;
		j->pos++;
	}
	return v;
}

/* After "\u": a code point, a surrogate pair joined. */
static int unicode(struct json *j)
{
	long u = hex4(j), v;

	if (u < 0)
		return fail(j, "\\u needs four hex digits");
	if (u >= 0xd800 && u < 0xdc00 && peek(j) == '\\') {
		j->pos++;	/* the backslash */
		if (peek(j) != 'u' || (j->pos++, (v = hex4(j)) < 0))
			return fail(j, "a bad escape after a high surrogate");
		if (v >= 0xdc00 && v < 0xe000) {
			sput_cp(j, (unsigned long)(0x10000 + ((u - 0xd800) << 10) + (v - 0xdc00)));
			return 0;
		}
		sput_cp(j, 0xfffd);
		u = v;
	}
	sput_cp(j, (u >= 0xd800 && u < 0xe000) || u == 0 ? 0xfffd : (unsigned long)u);
	return 0;
}

static int escape(struct json *j)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	int c = peek(j);
	const char *k = c > 0 ? strchr(from, c) : NULL;

	j->pos += c >= 0;
	if (c == 'u')
		return unicode(j);
	if (!k) {
		j->pos -= c >= 0;	/* name the byte after the backslash */
		return fail(j, "invalid escape in a string");
	}
	sput(j, to + (k - from), 1);
	return 0;
}

/* A string after its opening quote, into s. */
static int string(struct json *j)
{
	j->lazy = NULL;
	j->slen = 0;
	for (;;) {
		size_t i = j->pos;
		int c;

		while (i < j->len && j->buf[i] != '"' && j->buf[i] != '\\' &&
		       (unsigned char)j->buf[i] >= 0x20)
			i++;
		sput(j, j->buf + j->pos, i - j->pos);
		j->pos = i;
		if (j->slen > JSON_MAX_STRING)
			return fail(j, "a string longer than 64 MiB");
		c = peek(j);
		if (c == '"') {
			j->pos++;
			sput(j, "", 0);
			j->s[j->slen] = '\0';
			return 0;
		}
		if (c == '\\') {
			j->pos++;
			if (escape(j) < 0)
				return -1;
		} else if (c >= 0x20) {
			continue;	/* the window ended inside the string */
		} else if (c >= 0) {
			return fail(j, "a control character in a string");
		} else if (j->pos == j->len) {
			return fail(j, "inside a string");
		}
	}
}

/* The common number, a short integer whole in the window, straight from
 * the window, its value kept; -1 to leave it to scalar. */
static int short_int(struct json *j)
{
	const char *b = j->buf + j->pos, *e = j->buf + j->len, *p = b, *d;
	uint64_t x = 0;
	size_t n;

	p += p < e && *p == '-';
	d = p;
	if (FAST_DIGITS && e - d >= 8 && (n = json_digits8(d, &x)) < 8)
		p += n;
	else
		for (; p < e && p - d < 19 && (unsigned)(*p - '0') < 10; p++)
			x = x * 10 + (uint64_t)(*p - '0');
	if (p == e || p == d || json_word_byte((unsigned char)*p) || (*d == '0' && p - d > 1))
		return -1;
	n = (size_t)(p - b);
	if (j->scap < 32)
		xgrow(&j->s, &j->scap, 32, 1);
	j->lazy = b;
	j->slen = n;
	j->pos += n;
	j->num = x;
	j->numneg = *b == '-';
	j->numok = 1;
	return JSON_NUMBER;
}

#define NOT_A_VALUE "not a number, string, object, array, true, false or null"

/* A number or literal. */
static int scalar(struct json *j)
{
	uint64_t start = offset(j);
	int c;

	if (short_int(j) == JSON_NUMBER)
		return JSON_NUMBER;
	j->lazy = NULL;
	j->slen = 0;
	while ((c = peek(j)) >= 0 && json_word_byte(c)) {
		char b = (char)c;

		if (j->slen == MAX_NUMBER)
			return fail(j, "a number longer than 64 characters");
		sput(j, &b, 1);
		j->pos++;
	}
	sput(j, "", 0);
	j->s[j->slen] = '\0';
	if (j->slen == 4 && memcmp(j->s, "true", 4) == 0)
		return JSON_TRUE;
	if (j->slen == 5 && memcmp(j->s, "false", 5) == 0)
		return JSON_FALSE;
	if (j->slen == 4 && memcmp(j->s, "null", 4) == 0)
		return JSON_NULL;
	if (json_number_ok(j->s, j->slen))
		return JSON_NUMBER;
	if (j->slen && !j->rerr && start < j->base) {
		/* Begun before this window (read since): named at its start
		 * all the same. */
		snprintf(j->err, sizeof(j->err), "%s at byte %llu", NOT_A_VALUE,
			 (unsigned long long)start);
		j->done = JSON_ERROR;
		return JSON_ERROR;
	}
	j->pos -= j->slen <= j->pos ? j->slen : 0;
	return fail(j, j->slen ? NOT_A_VALUE : "expected a value");
}

static int push(struct json *j, char c)
{
	if (j->depth == JSON_MAX_DEPTH)
		return fail(j, "nested deeper than 512 levels");
	j->open[j->depth++] = c;
	j->pos++;
	j->st = c == '{' ? S_KEY_OR_END : S_VALUE_OR_END;
	return c == '{' ? JSON_OBJECT : JSON_ARRAY;
}

static int value(struct json *j, int c)
{
	if (c == '{' || c == '[')
		return push(j, (char)c);
	j->st = S_AFTER;
	if (c == '"') {
		j->pos++;
		return string(j) < 0 ? JSON_ERROR : JSON_STRING;
	}
	return scalar(j);
}

static int key(struct json *j, int c)
{
	if (c != '"')
		return fail(j, "expected a quoted member name");
	j->pos++;
	if (string(j) < 0)
		return JSON_ERROR;
	if (ws(j) != ':')
		return fail(j, "expected ':' after a member name");
	j->pos++;
	j->st = S_VALUE;
	return JSON_KEY;
}

static int close_bracket(struct json *j)
{
	char o = j->open[--j->depth];

	j->pos++;
	j->st = S_AFTER;
	return o == '{' ? JSON_OBJECT_END : JSON_ARRAY_END;
}

/* After a value: a comma (then what follows it) or a close. */
static int after(struct json *j, int c)
{
	char o;

	if (j->depth == 0) {
		if (c < 0 && !j->rerr) {
			j->done = JSON_END;
			return JSON_END;
		}
		return fail(j, "more after the end of the JSON value");
	}
	o = j->open[j->depth - 1];
	if (c == (o == '{' ? '}' : ']'))
		return close_bracket(j);
	if (c != ',')
		return fail(j, o == '{' ? "expected ',' or '}'" : "expected ',' or ']'");
	j->pos++;
	c = ws(j);
	j->tokoff = offset(j);
	return o == '{' ? key(j, c) : value(j, c);
}

int json_next(struct json *j)
{
	int c;

	if (j->done)
		return j->done;
	j->numok = 0;
	c = ws(j);
	j->tokoff = offset(j);
	switch (j->st) {
	case S_AFTER:
		return after(j, c);
	case S_KEY_OR_END:
		return c == '}' ? close_bracket(j) : key(j, c);
	case S_KEY:
		return key(j, c);
	case S_VALUE_OR_END:
		if (c == ']')
			return close_bracket(j);
		/* fall through */
	case S_VALUE:
	default:
		return value(j, c);
	}
}

int json_num_u64(const struct json *j, uint64_t *v)
{
	if (!j->numok)
		return json_u64(json_text(j, NULL), j->slen, v);
	if (j->numneg)
		return -1;
	*v = j->num;
	return 0;
}

int json_num_i64(const struct json *j, int64_t *v)
{
	if (!j->numok)
		return json_i64(json_text(j, NULL), j->slen, v);
	if (j->num > (uint64_t)INT64_MAX + (uint64_t)j->numneg)
		return -1;
	*v = j->numneg ? (int64_t)(0 - j->num) : (int64_t)j->num;
	return 0;
}

const char *json_text(const struct json *j, size_t *len)
{
	if (j->lazy) {	/* copied again on each call: j stays constant */
		memcpy(j->s, j->lazy, j->slen);
		j->s[j->slen] = '\0';
	}
	if (len)
		*len = j->slen;
	return j->s ? j->s : "";
}

int json_skip(struct json *j, int tok)
{
	int depth = j->depth - 1;

	if (tok == JSON_ERROR)
		return -1;
	if (tok != JSON_OBJECT && tok != JSON_ARRAY)
		return 0;
	while (j->depth > depth) {
		int t = json_next(j);

		if (t == JSON_ERROR || t == JSON_END)
			return -1;
	}
	return 0;
}

int json_depth(const struct json *j)
{
	return j->depth;
}

uint64_t json_offset(const struct json *j)
{
	return j->tokoff;
}

int json_truncated(const struct json *j)
{
	return j->done == JSON_ERROR && j->truncated && !j->rerr;
}

const char *json_error(const struct json *j)
{
	return j->err[0] ? j->err : "no error";
}
