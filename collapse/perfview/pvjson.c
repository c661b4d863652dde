/* pvjson: recursive descent over a byte stream, depth-limited; only the
 * parts that make samples are kept, the rest is checked and dropped. */
#include "pvjson.h"
#include "bytes.h"
#include "json.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 256			/* deeper nesting is refused */
#define MAX_STRING ((size_t)64 << 20)	/* longer strings are refused */

enum role { R_ANY, R_SAMPLES, R_SAMPLE, R_STACK };

struct pvjson {
	struct pv *p;		/* where samples go */
	struct pvin *in;	/* input */
	char *s;		/* the last string or number token */
	size_t slen;		/* its length */
	size_t scap;		/* room in s */
	char *frames;		/* frames of the sample being read, packed */
	size_t flen;		/* bytes in frames */
	size_t fcap;		/* room */
	size_t *lens;		/* length of each frame */
	size_t nlens;		/* frames */
	size_t lcap;		/* room */
	char metric[64];	/* Metric text of the sample */
	char time[64];		/* Time text */
	int has_metric;		/* Metric given */
	int has_time;		/* Time given */
	int has_stack;		/* a stack array was read */
	int noted_comma;	/* trailing comma reported */
	int noted_string;	/* number-as-string reported */
	int noted_escape;	/* bad escape reported */
	int noted_shape;	/* odd sample reported */
};

static int broken(struct pvjson *j, const char *what)
{
	if (pvin_peek(j->in) < 0 && strncmp(what, "the input ends", 14) != 0)
		what = "the input ends early";
	return pv_broken(j->p, j->in, "JSON", what);
}

static void note(struct pvjson *j, int *flag, const char *what)
{
	if (!*flag)
		pv_warn(j->p, j->in, "%s", what);
	*flag = 1;
}

/* Skips white space; returns the next byte (not taken) or -1. */
static int ws(struct pvjson *j)
{
	int c;

	while ((c = pvin_peek(j->in)) == ' ' || c == '\n' || c == '\r' || c == '\t')
		pvin_get(j->in);
	return c;
}

static void sput(struct pvjson *j, const char *s, size_t n)
{
	xappend(&j->s, &j->slen, &j->scap, s, n);
}

static void sput_utf8(struct pvjson *j, unsigned long cp)
{
	char b[4];

	sput(j, b, bytes_utf8(b, cp));
}

/* Four hex digits; returns the value or -1. */
static long hex4(struct pvjson *j)
{
	long v = 0;
	int i, c;

	for (i = 0; i < 4; i++) {
		c = pvin_peek(j->in);
		if (c >= '0' && c <= '9')
			v = v * 16 + (c - '0');
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			v = v * 16 + ((c | 0x20) - 'a' + 10);
		else
			return -1;
		pvin_get(j->in);
	}
	return v;
}

/* After "\u": a code point, surrogate pairs joined; a lone surrogate
 * becomes U+FFFD. */
static int unicode(struct pvjson *j)
{
	long u = hex4(j), v;

	if (u < 0)
		return broken(j, "\\u needs four hex digits");
	if (u >= 0xd800 && u < 0xdc00 && pvin_peek(j->in) == '\\') {
		pvin_get(j->in);
		if (pvin_get(j->in) != 'u' || (v = hex4(j)) < 0)
			return broken(j, "a surrogate \\u escape must be followed by another");
		if (v >= 0xdc00 && v < 0xe000) {
			sput_utf8(j, (unsigned)(0x10000 + ((u - 0xd800) << 10) + (v - 0xdc00)));
			return 0;
		}
		sput_utf8(j, 0xfffd);
		u = v;
	}
	sput_utf8(j, (u >= 0xd800 && u < 0xe000) || u == 0 ? 0xfffd : (unsigned)u);
	return 0;
}

static int escape(struct pvjson *j)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	int c = pvin_get(j->in);
	const char *k = c > 0 ? strchr(from, c) : NULL;

	if (c == 'u')
		return unicode(j);
	if (k) {
		sput(j, to + (k - from), 1);
		return 0;
	}
	if (c < 0)
		return broken(j, "the input ends inside a string");
	/* Writers that forget to escape Windows paths: keep what they meant. */
	note(j, &j->noted_escape, "invalid escape in a string: kept as written");
	sput(j, "\\", 1);
	sput_utf8(j, (unsigned)c);
	return 0;
}

/* Reads a string after its opening quote into s. */
static int string(struct pvjson *j)
{
	struct pvin *in = j->in;

	j->slen = 0;
	for (;;) {
		size_t start = in->pos, i = start;
		int c;

		while (i < in->len && in->buf[i] != '"' && in->buf[i] != '\\' && in->buf[i] != '\n')
			i++;
		sput(j, in->buf + start, i - start);
		in->col += i - start;
		in->pos = i;
		if (j->slen > MAX_STRING)
			return broken(j, "a string longer than 64 MiB");
		c = pvin_get(in);
		if (c == '"')
			return 0;
		if (c == '\\') {
			if (escape(j) < 0)
				return -1;
		} else if (c < 0) {
			return broken(j, "the input ends inside a string");
		} else {
			/* A raw line break (lenient), or the first byte of a refill. */
			sput(j, (const char[]){ (char)c }, 1);
		}
	}
}

/* A number or literal token into s. */
static int scalar(struct pvjson *j)
{
	int c;

	j->slen = 0;
	while ((c = pvin_peek(j->in)) >= 0 && (c == '-' || c == '+' || c == '.' ||
					       (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
					       (c >= 'A' && c <= 'Z'))) {
		char b = (char)c;

		sput(j, &b, 1);
		pvin_get(j->in);
		if (j->slen > 64)
			return broken(j, "a number longer than 64 characters");
	}
	if (j->slen == 0)
		return broken(j, c < 0 ? "the input ends where a value should be"
				       : "unexpected character where a value should be");
	if ((j->slen == 4 && (!memcmp(j->s, "true", 4) || !memcmp(j->s, "null", 4))) ||
	    (j->slen == 5 && !memcmp(j->s, "false", 5)))
		return 0;
	if (!json_number_loose(j->s, j->slen))
		return broken(j, "not a number, string, object, array, true, false or null");
	return 0;
}

static int value(struct pvjson *j, int depth, enum role role);

/* Ends a list: returns 1 at the closing byte, 0 after a comma, -1. */
static int next_item(struct pvjson *j, int close)
{
	int c = ws(j);

	if (c == close) {
		pvin_get(j->in);
		return 1;
	}
	if (c != ',')
		return broken(j, close == ']' ? "expected ',' or ']'" : "expected ',' or '}'");
	pvin_get(j->in);
	if (ws(j) == close) {
		note(j, &j->noted_comma, "trailing comma before a closing bracket: accepted");
		pvin_get(j->in);
		return 1;
	}
	return 0;
}

/* A frame of a sample's stack: strings, numbers taken as their text. */
static int stack_item(struct pvjson *j, int depth)
{
	int c = ws(j);

	if (c == '"') {
		pvin_get(j->in);
		if (string(j) < 0)
			return -1;
	} else if (c == '{' || c == '[') {
		note(j, &j->noted_shape, "a stack holds something other than names: ignored");
		return value(j, depth, R_ANY);
	} else if (scalar(j) < 0) {
		return -1;
	}
	xgrow(&j->frames, &j->fcap, j->flen + j->slen + 1, 1);
	memcpy(j->frames + j->flen, j->s, j->slen);
	j->flen += j->slen;
	xgrow(&j->lens, &j->lcap, j->nlens + 1, sizeof(*j->lens));
	j->lens[j->nlens++] = j->slen;
	return 0;
}

static int array(struct pvjson *j, int depth, enum role role)
{
	int r;

	if (ws(j) == ']') {
		pvin_get(j->in);
		return 0;
	}
	do {
		if (role == R_STACK)
			r = stack_item(j, depth);
		else if (role == R_SAMPLES && ws(j) == '{')
			r = value(j, depth, R_SAMPLE);
		else
			r = value(j, depth, R_ANY);
		if (r < 0)
			return -1;
	} while ((r = next_item(j, ']')) == 0);
	return r < 0 ? -1 : 0;
}

/* Keeps a sample's Time or Metric (a number, or a string holding one). */
static int field(struct pvjson *j, char *dst, int *has)
{
	int c = ws(j);

	if (c == '"') {
		pvin_get(j->in);
		if (string(j) < 0)
			return -1;
		note(j, &j->noted_string, "numbers given as strings: accepted");
	} else if (scalar(j) < 0) {
		return -1;
	}
	if (j->slen >= 64)
		j->slen = 63;
	memcpy(dst, j->s, j->slen);
	dst[j->slen] = 0;
	*has = 1;
	return 0;
}

/* One member of an object; the key is in s. */
static int member(struct pvjson *j, int depth, enum role role)
{
	int c = ws(j);

	if (role == R_SAMPLE && j->slen == 4 && !memcmp(j->s, "Time", 4))
		return field(j, j->time, &j->has_time);
	if (role == R_SAMPLE && j->slen == 6 && !memcmp(j->s, "Metric", 6))
		return field(j, j->metric, &j->has_metric);
	if (role == R_SAMPLE && c == '[' && !j->has_stack) {
		j->has_stack = 1;
		pvin_get(j->in);
		return array(j, depth + 1, R_STACK);
	}
	if (role != R_SAMPLE && c == '[' && j->slen == 7 && !memcmp(j->s, "Samples", 7)) {
		pvin_get(j->in);
		return array(j, depth + 1, R_SAMPLES);
	}
	return value(j, depth, R_ANY);
}

static int object(struct pvjson *j, int depth, enum role role)
{
	int r;

	if (ws(j) == '}') {
		pvin_get(j->in);
		return 0;
	}
	do {
		if (ws(j) != '"')
			return broken(j, "expected a quoted member name");
		pvin_get(j->in);
		if (string(j) < 0)
			return -1;
		if (ws(j) != ':')
			return broken(j, "expected ':' after a member name");
		pvin_get(j->in);
		if (member(j, depth, role) < 0)
			return -1;
	} while ((r = next_item(j, '}')) == 0);
	return r < 0 ? -1 : 0;
}

static int sample(struct pvjson *j, int depth)
{
	j->flen = j->nlens = 0;
	j->has_metric = j->has_time = j->has_stack = 0;
	if (object(j, depth, R_SAMPLE) < 0)
		return -1;
	if (!j->has_stack)
		note(j, &j->noted_shape, "a sample without a stack array: skipped");
	pv_sample_frames(j->p, j->in, j->frames, j->lens, j->nlens,
			 j->has_metric ? j->metric : NULL, strlen(j->metric),
			 j->has_time ? j->time : NULL, strlen(j->time));
	return 0;
}

static int value(struct pvjson *j, int depth, enum role role)
{
	int c = ws(j);

	if (depth >= MAX_DEPTH)
		return broken(j, "nested deeper than 256 levels");
	if (c == '{') {
		pvin_get(j->in);
		return role == R_SAMPLE ? sample(j, depth + 1) : object(j, depth + 1, role);
	}
	if (c == '[') {
		pvin_get(j->in);
		return array(j, depth + 1, R_ANY);
	}
	if (c == '"') {
		pvin_get(j->in);
		return string(j);
	}
	return scalar(j);
}

int pvjson_parse(struct pv *p, struct pvin *in, int bom)
{
	struct pvjson j = { 0 };
	int rc;

	j.p = p;
	j.in = in;
	if (bom)
		pv_warn(p, NULL, "JSON with a byte-order mark: accepted");
	rc = value(&j, 0, R_ANY);
	if (rc == 0 && ws(&j) >= 0)
		rc = broken(&j, "more after the end of the JSON value");
	free(j.s);
	free(j.frames);
	free(j.lens);
	return rc;
}
