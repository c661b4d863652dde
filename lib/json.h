/* json: a streaming JSON tokenizer.  It pulls bytes through a read
 * function in blocks, so a document of any size is read in bounded
 * memory (the longest string, at most JSON_MAX_STRING, and the nesting,
 * at most JSON_MAX_DEPTH levels).  Tokens come one at a time with the
 * grammar checked (RFC 8259: no trailing commas, no comments, no control
 * characters in strings); the first fault stops it with a message naming
 * the byte offset.  Strings come decoded to UTF-8 (a lone surrogate or
 * \u0000 becomes U+FFFD). */
#ifndef FLAME_JSON_H
#define FLAME_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define JSON_MAX_DEPTH 512			/* deeper nesting is refused */
#define JSON_MAX_STRING ((size_t)64 << 20)	/* longer strings are refused */

enum json_tok {
	JSON_ERROR = -1,	/* malformed or unreadable: see json_error */
	JSON_END = 0,		/* the one top-level value is complete */
	JSON_OBJECT,		/* '{' */
	JSON_OBJECT_END,	/* '}' */
	JSON_ARRAY,		/* '[' */
	JSON_ARRAY_END,		/* ']' */
	JSON_KEY,		/* a member name: json_text */
	JSON_STRING,		/* a string value: json_text */
	JSON_NUMBER,		/* a number: json_text holds it as written */
	JSON_TRUE,		/* true */
	JSON_FALSE,		/* false */
	JSON_NULL		/* null */
};

/* Fills dst with up to cap bytes; returns how many, 0 at the end, -1 on
 * a read error (the tokenizer then reports "read error"). */
typedef ssize_t json_read_fn(void *ctx, char *dst, size_t cap);

struct json;

/* A tokenizer pulling from rd(ctx).  Free with json_free. */
struct json *json_new(json_read_fn *rd, void *ctx);

/* A tokenizer over len bytes at data (which must outlive it). */
struct json *json_new_mem(const char *data, size_t len);

/* json_free(NULL) does nothing. */
void json_free(struct json *j);

/* The next token (enum json_tok).  After JSON_END or JSON_ERROR every
 * call returns the same again.  Trailing bytes other than white space
 * after the top-level value are an error. */
int json_next(struct json *j);

/* The text of the last KEY, STRING or NUMBER token, NUL-terminated and
 * holding no NUL (\u0000 became U+FFFD), its length in *len if not NULL;
 * owned by j, valid until the next call. */
const char *json_text(const struct json *j, size_t *len);

/* Skips the rest of a value whose first token was just returned: for
 * OBJECT or ARRAY everything up to its matching end; for a scalar,
 * nothing.  Returns 0, or -1 (JSON_ERROR was met). */
int json_skip(struct json *j, int tok);

/* What to do with an object member: its name key (klen bytes,
 * NUL-terminated, cut to 31: callers match short names) and its value's
 * first token tok, which the callback reads through (json_skip when it
 * has no use for it).  Returns 0, or -1 to stop. */
typedef int json_member_fn(void *ctx, const char *key, size_t klen, int tok, void *arg);

/* Hands each member of the object whose '{' j has just returned to
 * fn(ctx, ..., arg) (json_members.c).  Returns the token it stopped at:
 * JSON_OBJECT_END when every member was read, JSON_KEY when fn stopped
 * it, JSON_ERROR on malformed input. */
int json_members(struct json *j, json_member_fn *fn, void *ctx, void *arg);

/* Nesting depth after the last token (0 at the top level). */
int json_depth(const struct json *j);

/* Byte offset in the input where the last token began. */
uint64_t json_offset(const struct json *j);

/* After JSON_ERROR: "expected ',' or ']' at byte 1234", owned by j. */
const char *json_error(const struct json *j);

/* After JSON_ERROR: non-zero when the fault was only that the input
 * ended before the value closed (a cut-short file, as partial traces
 * are), not a malformed byte or a read error. */
int json_truncated(const struct json *j);

/* Number helpers for the text of a NUMBER (or a STRING holding one, as
 * some writers give): json_u64 takes a plain non-negative integer that
 * fits in 64 bits, json_i64 the same with an optional '-'; json_double
 * any JSON number.  Each returns 0, or -1 when s is not such a number. */
int json_u64(const char *s, size_t len, uint64_t *v);
int json_i64(const char *s, size_t len, int64_t *v);
int json_double(const char *s, size_t len, double *v);

/* Whether the len bytes at s are one number by JSON's grammar (at most
 * 64 characters). */
int json_number_ok(const char *s, size_t len);

/* json_number_ok, but leading zeros ("007") are taken, as PerfView's
 * JSON reader takes them. */
int json_number_loose(const char *s, size_t len);

/* json_u64 and json_i64 of the last token's json_text, without parsing
 * it again when the tokenizer already did (a short integer number). */
int json_num_u64(const struct json *j, uint64_t *v);
int json_num_i64(const struct json *j, int64_t *v);

/* Inside an array (just after its '[' or one of its values): reads the
 * elements that come next while each is an integer of at most 18 digits
 * without a sign, up to cap of them, into v, stopping before anything
 * else (or where the window ends: json_next takes it from there).  j is
 * left as json_next returning those NUMBERs would leave it.  Returns how
 * many. */
size_t json_uints(struct json *j, uint64_t *v, size_t cap);

/* A weight: the text of a non-negative number (integers summed exactly)
 * into *c.  Returns 0, or -1 for anything else (negative, not finite). */
struct fcount;
int json_weight(const char *s, size_t len, struct fcount *c);

/* A non-negative finite d as a weight (an integer exactly when it is
 * one below 2^53). */
void json_fcount(double d, struct fcount *c);

#endif
