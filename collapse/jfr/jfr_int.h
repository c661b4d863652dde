/* jfr_int: what the parts of the JFR reader share: a bounded big-endian
 * reader of JFR's integers and strings, and the type descriptions of a
 * chunk's metadata. */
#ifndef FLAME_JFR_INT_H
#define FLAME_JFR_INT_H

#include "jfr.h"

#include <stddef.h>
#include <stdint.h>

/* A window of the file.  packed: integers are JFR's compressed varints
 * (a chunk's features flag), else fixed-size big-endian.  bad is set at
 * the first read past end, after which every read gives 0. */
struct jrd {
	const unsigned char *p, *end;
	int packed;
	int bad;
};

static inline uint64_t jrd_fixed(struct jrd *r, size_t n)
{
	uint64_t v = 0;

	if (r->bad || (size_t)(r->end - r->p) < n) {
		r->bad = 1;
		return 0;
	}
	while (n--)
		v = v << 8 | *r->p++;
	return v;
}

/* A compressed integer: 7 bits a byte, low first, a set top bit meaning
 * more; the ninth byte gives all its 8 bits. */
static inline uint64_t jrd_varint(struct jrd *r)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 9; i++) {
		unsigned b;

		if (r->p >= r->end) {
			r->bad = 1;
			return 0;
		}
		b = *r->p++;
		if (i == 8)
			return v | (uint64_t)b << 56;
		v |= (uint64_t)(b & 0x7f) << (7 * i);
		if (!(b & 0x80))
			break;
	}
	return v;
}

static inline uint64_t jrd_long(struct jrd *r)
{
	return r->packed ? jrd_varint(r) : jrd_fixed(r, 8);
}

static inline uint32_t jrd_int(struct jrd *r)
{
	return (uint32_t)(r->packed ? jrd_varint(r) : jrd_fixed(r, 4));
}

static inline unsigned jrd_byte(struct jrd *r)
{
	return (unsigned)jrd_fixed(r, 1);
}

/* Decoded strings, UTF-8, in one growing buffer: a string is an offset
 * and a length, so the buffer may move. */
struct jstr {
	char *b;
	size_t len, cap;
};

/* A string as read: text in a jstr, or a reference into the
 * java.lang.String constant pool, or null. */
struct jsval {
	uint32_t off, len;	/* the text, when kind is JS_TEXT */
	uint64_t ref;		/* the pool key, when kind is JS_REF */
	int kind;
};
enum { JS_NULL, JS_TEXT, JS_REF };

/* Reads one string in any of JFR's encodings (null, empty, pool
 * reference, UTF-8, UTF-16 chars, Latin-1) into s.  0, or -1 on a fault
 * (r->bad, or an encoding there is not). */
int jfr_string(struct jrd *r, struct jstr *s, struct jsval *v);

/* The primitive types, by their names in the metadata. */
enum { JP_NONE, JP_BOOL, JP_BYTE, JP_CHAR, JP_SHORT, JP_INT, JP_LONG, JP_FLOAT, JP_DOUBLE,
       JP_STRING };

/* What the reader keeps of a field, by class and field name. */
enum { JR_NONE, JR_NAME, JR_CLASS, JR_METHOD, JR_FTYPE, JR_FRAMES, JR_TRUNC, JR_STACK };

struct jfield {
	uint64_t type;		/* the class id it has */
	int cls;		/* that class, an index; -1: none there is */
	uint8_t cp;		/* a constant pool key, not the value */
	uint8_t array;		/* a count, then that many */
	uint8_t role;		/* JR_* */
	uint32_t name;		/* its name, in the metadata's strings */
};

struct jclass {
	uint64_t id;
	uint32_t name;		/* in the metadata's strings */
	int prim;		/* JP_*, for primitive types */
	int empty;		/* a value of it takes no bytes */
	struct jfield *f;
	size_t nf, cap;
};

/* The classes the reader looks for, -1 when the metadata has none. */
enum { JK_STACK, JK_FRAME, JK_METHOD, JK_CLASS, JK_SYMBOL, JK_FTYPE, JK_STRING, JK_SAMPLE,
       JK_NATIVE, JK_N };

struct jmeta {
	struct jclass *c;	/* sorted by id once read */
	size_t n, cap;
	struct jstr s;		/* the metadata's strings */
	struct jsval *str;	/* ...by index */
	size_t nstr;
	int known[JK_N];	/* JK_* -> class index */
};

/* Reads the metadata event at r (after its size and type) into m.  0, or
 * -1 with a message in err. */
int jfr_meta_read(struct jrd *r, struct jmeta *m, char *err, size_t errlen);
void jfr_meta_free(struct jmeta *m);

/* The class of id in m, an index, or -1. */
int jfr_meta_class(const struct jmeta *m, uint64_t id);

#endif
