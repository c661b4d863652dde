/* Unit tests for the JSON tokenizer: the token stream of a document read
 * whole and one byte at a time (every token crossing a refill), strings
 * decoded, the grammar's faults refused with the byte they are at, and
 * the number helpers. */
#include "check.h"
#include "folded.h"
#include "json.h"

#include <stdint.h>
#include <stdio.h>
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

/* Hands out up to 13 bytes a call: numbers end near a window's end. */
static ssize_t chunk13(void *ctx, char *dst, size_t cap)
{
	struct drip *d = ctx;
	size_t n = d->len - d->pos < 13 ? d->len - d->pos : 13;

	n = n < cap ? n : cap;
	memcpy(dst, d->s + d->pos, n);
	d->pos += n;
	return (ssize_t)n;
}

static const char *const ints[] = {
	"0", "7", "-0", "10", "-12", "123", "4567", "89012", "345678", "9012345", "12345678",
	"-1234567", "123456789", "1000000000", "1234567890123456789", "9223372036854775807",
	"9223372036854775808", "-9223372036854775808", "-9223372036854775809",
	"18446744073709551615", "18446744073709551616", "1.5", "1e3", "-1.0", "42E-1", NULL
};

/* Every number of ints, as json_text, json_num_u64 and json_num_i64
 * give it, agrees with the helpers on its text. */
static void numbers_of(struct json *j)
{
	size_t k = 0, n;
	uint64_t u, u2;
	int64_t i, i2;

	CHECK(json_next(j) == JSON_ARRAY);
	while (json_next(j) == JSON_NUMBER && ints[k]) {
		const char *t = json_text(j, &n);
		int ru = json_num_u64(j, &u), ri = json_num_i64(j, &i);

		CHECK_STR(t, ints[k]);
		CHECK(ru == json_u64(ints[k], strlen(ints[k]), &u2) && (ru < 0 || u == u2));
		CHECK(ri == json_i64(ints[k], strlen(ints[k]), &i2) && (ri < 0 || i == i2));
		k++;
	}
	CHECK(ints[k] == NULL && json_next(j) == JSON_END);
	json_free(j);
}

static void short_ints(void)
{
	char doc2[1024];
	size_t k, o = 0;
	struct drip d;

	doc2[o++] = '[';
	for (k = 0; ints[k]; k++)
		o += (size_t)snprintf(doc2 + o, sizeof(doc2) - o, "%s%s", k ? (k % 3 ? "," : " ,\n") : "",
				      ints[k]);
	doc2[o++] = ']';
	numbers_of(json_new_mem(doc2, o));
	d.s = doc2;
	d.len = o;
	d.pos = 0;
	numbers_of(json_new(drip, &d));
	d.pos = 0;
	numbers_of(json_new(chunk13, &d));
}

/* "@offset " of the last token, or " " when cap > 1. */
static size_t offset_of(const struct json *j, size_t cap, char *out, size_t room)
{
	if (cap > 1)
		return (size_t)snprintf(out, room, " ");
	return (size_t)snprintf(out, room, "@%llu ", (unsigned long long)json_offset(j));
}

/* A document's tokens as "letter=text@offset" (offsets only when cap is
 * at most 1: json_offset names the last of a batch), json_uints taking
 * up to cap at a time when bulk, json_next the rest. */
static void trail(struct json *j, size_t cap, int bulk, char *out, size_t room)
{
	static const char letter[] = "E{}[]ksn10z";
	size_t o = 0, n, k, got;
	uint64_t v[3], u;
	int t;

	do {
		got = bulk ? json_uints(j, v, cap) : 0;
		for (k = 0; k < got && o + 64 < room; k++) {
			CHECK(cap > 1 || (json_num_u64(j, &u) == 0 && u == v[k]));
			o += (size_t)snprintf(out + o, room - o, "n=%llu", (unsigned long long)v[k]);
			o += offset_of(j, cap, out + o, room - o);
		}
		t = json_next(j);
		o += (size_t)snprintf(out + o, room - o, "%c=%s", t < 0 ? '!' : letter[t],
				      t == JSON_NUMBER ? json_text(j, &n) : "");
		o += offset_of(j, cap, out + o, room - o);
	} while (t > 0 && o + 64 < room);
	o += (size_t)snprintf(out + o, room - o, "%s", t < 0 ? json_error(j) : ".");
	json_free(j);
}

/* The trails of doc1 with and without json_uints agree, read whole, a
 * byte at a time and 13 bytes at a time. */
static void trails(const char *doc1, size_t cap)
{
	char plain[2048], got[2048];
	struct drip d = { doc1, strlen(doc1), 0 };
	json_read_fn *const how[] = { chunk13, drip };
	size_t k;

	trail(json_new_mem(doc1, d.len), cap, 0, plain, sizeof(plain));
	trail(json_new_mem(doc1, d.len), cap, 1, got, sizeof(got));
	CHECK_STR(got, plain);
	for (k = 0; k < 2; k++) {
		d.pos = 0;
		trail(json_new(how[k], &d), cap, 0, plain, sizeof(plain));
		d.pos = 0;
		trail(json_new(how[k], &d), cap, 1, got, sizeof(got));
		CHECK_STR(got, plain);
	}
}

/* json_uints leaves each document as json_next alone would: the same
 * numbers, offsets, texts and faults. */
static void bulk_ints(void)
{
	static const char *const docs[] = {
		"[1, 22 ,333,\n4444 , 0, -5, 6.5, 7, 12345678, 123456789012345678, "
		"1234567890123456789, [8, 9], {\"a\": [10]}, 11]",
		"[]", "[ 5 ]", "[1, 2,]", "[1, 00, 3]", "[1 2]", "[7, 8", "{\"x\": [3, 4, 5, 6, 7, 8, 9]}",
		NULL
	};
	size_t k;

	for (k = 0; docs[k]; k++) {
		trails(docs[k], 1);
		trails(docs[k], 3);
	}
}

/* The grammar strict and loose: they differ on leading zeros alone. */
static void number_grammar(void)
{
	static const char *const both[] = { "0", "-0", "7", "1.5", "-2e+10", "3E-2", "0.001", NULL };
	static const char *const neither[] = { "", "-", "+1", "1.", ".5", "1e", "1e+", "1x", "0x10",
						"--1", NULL };
	size_t k;

	for (k = 0; both[k]; k++)
		CHECK(json_number_ok(both[k], strlen(both[k])) &&
		      json_number_loose(both[k], strlen(both[k])));
	for (k = 0; neither[k]; k++)
		CHECK(!json_number_ok(neither[k], strlen(neither[k])) &&
		      !json_number_loose(neither[k], strlen(neither[k])));
	CHECK(!json_number_ok("007", 3) && json_number_loose("007", 3));
	CHECK(!json_number_ok("-01.5", 5) && json_number_loose("-01.5", 5));
}

int main(void)
{
	number_grammar();
	stream();
	faults();
	skip_and_numbers();
	short_ints();
	bulk_ints();
	return check_done();
}
