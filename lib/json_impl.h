/* json_impl: the tokenizer's state, shared by lib/json.c and
 * lib/json_bulk.c only (everyone else goes through json.h). */
#ifndef FLAME_JSON_IMPL_H
#define FLAME_JSON_IMPL_H

#include "json.h"

#define WINDOW (256 * 1024)	/* bytes read at a time */

enum state {
	S_VALUE,		/* a value must come */
	S_VALUE_OR_END,		/* just after '[' */
	S_KEY,			/* a member name must come (after ',') */
	S_KEY_OR_END,		/* just after '{' */
	S_AFTER			/* after a value: ',' or a close, or the end */
};

struct json {
	json_read_fn *rd;		/* NULL: the input is all in buf */
	void *ctx;			/* for rd */
	char *win;			/* the window we own (rd given) */
	const char *buf;		/* the bytes at hand */
	size_t pos, len;		/* next byte in buf, bytes in buf */
	uint64_t base;			/* input offset of buf[0] */
	int eof, rerr;			/* rd said the end, rd failed */
	enum state st;			/* what may come next */
	int depth;			/* open brackets */
	char open[JSON_MAX_DEPTH];	/* '{' or '[' for each */
	int done;			/* 0, or the token to keep returning */
	uint64_t tokoff;		/* offset of the last token */
	char *s;			/* text of the last string or number */
	size_t slen, scap;		/* its length, room in s */
	const char *lazy;		/* NULL, or s's text, still in buf */
	uint64_t num;			/* the last number's magnitude, */
	int numok, numneg;		/* when numok; numneg: it had a '-' */
	int truncated;			/* the fault was the input's end */
	char err[160];			/* the fault */
};

/* A byte of a number or a literal (true, false, null) as the tokenizer
 * takes it in: what may follow one decides whether it ended. */
static inline int json_word_byte(int c)
{
	return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') ||
	       c == '-' || c == '+' || c == '.';
}

#endif
