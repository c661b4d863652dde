/* pickle: reads the subset of Python's pickle format that LNT profile v1
 * files hold: dicts, lists, tuples, str/unicode/bytes, ints, floats,
 * bools and None, with the memo, in protocol 0 (text, as Python 2 wrote
 * LNT's files) and protocols 1 to 5 (binary, Python 3's pickle.dumps).
 * Nothing is executed: classes, globals, persistent ids and the like are
 * refused, naming the opcode and its byte.  Memory is bounded by the
 * input and by PICKLE_MAX_VALUES (at most one value per opcode, memo ids
 * below the input's size), nesting by PICKLE_MAX_DEPTH. */
#ifndef FLAME_PICKLE_H
#define FLAME_PICKLE_H

#include <stddef.h>
#include <stdint.h>

#define PICKLE_MAX_DEPTH 64	/* open MARKs at once; LNT's data needs 6 */
#define PICKLE_MAX_VALUES (1u << 24)	/* values made; LNT's need ~6 an instruction */

enum pk_kind { PK_NONE, PK_BOOL, PK_INT, PK_FLOAT, PK_STR, PK_LIST, PK_DICT, PK_MARK };

/* A value.  Lists and tuples are PK_LIST; a dict's items are its
 * v[0], v[1] (key, value), v[2], v[3], ... in the order they were set. */
struct pk {
	enum pk_kind kind;		/* what it is */
	int neg;			/* PK_INT: negative (u is the magnitude) */
	union {				/* small: a pickle may hold millions */
		uint64_t u;		/* PK_INT, PK_BOOL */
		double f;		/* PK_FLOAT */
	};
	union {
		char *s;		/* PK_STR: bytes (UTF-8 for unicode), NUL-ended */
		struct pk **v;		/* PK_LIST, PK_DICT: entries */
	};
	size_t n;			/* PK_STR: bytes; PK_LIST, PK_DICT: entries */
	size_t cap;			/* room in v */
};

struct pickle;

/* Reads the pickle of n bytes at p.  Returns the reader holding every
 * value (free with pickle_free) and sets *root; or NULL with a message in
 * err naming the byte ("unsupported pickle opcode 'c' at byte 12"). */
struct pickle *pickle_load(const unsigned char *p, size_t n, const struct pk **root, char *err,
			   size_t errlen);

/* How many values k made. */
size_t pickle_values(const struct pickle *k);

/* Frees every value of k.  pickle_free(NULL) does nothing. */
void pickle_free(struct pickle *k);

/* The value of key (a string) in dict d (the last one set), or NULL when
 * d is not a dict or has no such key. */
const struct pk *pk_get(const struct pk *d, const char *key);

/* A number's value as a double: 0 and -1 for anything else. */
int pk_number(const struct pk *v, double *out);

#endif
