/* Unit tests for the JSON tokenizer: the token stream of a document read
 * whole and one byte at a time (every token crossing a refill), strings
 * decoded, the grammar's faults refused with the byte they are at, and
 * the number helpers. */
#include "check.h"
#include "folded.h"
#include "json.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct drip {
	const char *s;		/* the input */
	size_t len, pos;	/* its length, bytes handed out */
};

/* Hands out one byte a call. */
static ssize_t drip(void *ctx, char *dst, size_t cap)
{
	struct drip *d = ctx;

	(void)cap;
	if (d->pos == d->len)
		return 0;
	dst[0] = d->s[d->pos++];
	return 1;
}

/* The tokens of s as one letter each ("{k s}" ...), texts after '='. */
static void tokens(struct json *j, char *out, size_t cap)
{
	static const char letter[] = "E{}[]ksn10z";
	size_t o = 0, n;
	int t;

	while ((t = json_next(j)) > 0 && o + 40 < cap) {
		out[o++] = letter[t];
		if (t == JSON_KEY || t == JSON_STRING || t == JSON_NUMBER) {
			const char *s = json_text(j, &n);

			out[o++] = '=';
			memcpy(out + o, s, n < 30 ? n : 30);
			o += n < 30 ? n : 30;
		}
		out[o++] = ' ';
	}
	out[o++] = t == JSON_END ? '.' : '!';
	out[o] = '\0';
}

static const char doc[] = " {\"a\": [1, -2.5e3, \"x\\ty\", true, false, null, {}], \"\\u00e9\\ud83d\\ude00\": [] }\n";
static const char want[] = "{ k=a [ n=1 n=-2.5e3 s=x\ty 1 0 z { } ] k=\xc3\xa9\xf0\x9f\x98\x80 [ ] } .";

static void stream(void)
{
	char out[512];
	struct drip d = { doc, sizeof(doc) - 1, 0 };
	struct json *j = json_new_mem(doc, sizeof(doc) - 1);

	tokens(j, out, sizeof(out));
	CHECK_STR(out, want);
	json_free(j);
	j = json_new(drip, &d);
	tokens(j, out, sizeof(out));
	CHECK_STR(out, want);
	json_free(j);
}

/* The message for s, and the fault's kind. */
static void refused(const char *s, const char *msg, int truncated)
{
	struct json *j = json_new_mem(s, strlen(s));
	int t;

	while ((t = json_next(j)) > 0)
		;
	CHECK(t == JSON_ERROR);
	CHECK_STR(json_error(j), msg);
	CHECK(json_truncated(j) == truncated);
	CHECK(json_next(j) == JSON_ERROR);
	json_free(j);
}

static void faults(void)
{
	char deep[600];

	refused("[1,]", "expected a value at byte 3", 0);
	refused("{\"a\" 1}", "expected ':' after a member name at byte 5", 0);
	refused("{1: 2}", "expected a quoted member name at byte 1", 0);
	refused("[1 2]", "expected ',' or ']' at byte 3", 0);
	refused("{\"a\": 1]", "expected ',' or '}' at byte 7", 0);
	refused("[01]", "not a number, string, object, array, true, false or null at byte 1", 0);
	refused("[tru]", "not a number, string, object, array, true, false or null at byte 1", 0);
	refused("[\"a\\q\"]", "invalid escape in a string at byte 4", 0);
	refused("[\"a\nb\"]", "a control character in a string at byte 3", 0);
	refused("[\"\\u12\"]", "\\u needs four hex digits at byte 6", 0);
	refused("[1] 2", "more after the end of the JSON value at byte 4", 0);
	refused("[1, 2", "the input ends early (at byte 5: expected ',' or ']')", 1);
	refused("[\"abc", "the input ends early (at byte 5: inside a string)", 1);
	refused("", "the input ends early (at byte 0: expected a value)", 1);
	memset(deep, '[', sizeof(deep));
	deep[sizeof(deep) - 1] = '\0';
	refused(deep, "nested deeper than 512 levels at byte 512", 0);
}

static void skip_and_numbers(void)
{
	const char *s = "{\"a\": {\"b\": [1, {\"c\": 2}]}, \"d\": 3}";
	struct json *j = json_new_mem(s, strlen(s));
	struct fcount c;
	uint64_t u;
	int64_t i;
	double d;

	CHECK(json_next(j) == JSON_OBJECT && json_next(j) == JSON_KEY);
	CHECK(json_skip(j, json_next(j)) == 0 && json_depth(j) == 1);
	CHECK(json_next(j) == JSON_KEY && json_next(j) == JSON_NUMBER);
	CHECK(json_offset(j) == 33);
	CHECK(json_next(j) == JSON_OBJECT_END && json_next(j) == JSON_END);
	json_free(j);
	CHECK(json_u64("18446744073709551615", 20, &u) == 0 && u == UINT64_MAX);
	CHECK(json_u64("18446744073709551616", 20, &u) < 0);
	CHECK(json_i64("-9223372036854775808", 20, &i) == 0 && i == INT64_MIN);
	CHECK(json_i64("1.5", 3, &i) < 0);
	CHECK(json_double("1e-3", 4, &d) == 0 && d == 0.001);
	CHECK(json_double("1.", 2, &d) < 0 && json_double("-", 1, &d) < 0);
	CHECK(json_weight("12", 2, &c) == 0 && c.n == 12 && c.frac == 0);
	CHECK(json_weight("2e3", 3, &c) == 0 && c.n == 2000 && c.frac == 0);
	CHECK(json_weight("0.5", 3, &c) == 0 && fcount_value(&c) == 0.5);
	CHECK(json_weight("-1", 2, &c) < 0);
}

int main(void)
{
	stream();
	faults();
	skip_and_numbers();
	return check_done();
}
