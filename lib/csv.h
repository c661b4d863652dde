/* csv: one CSV record per line, as Windows tools write them: fields split
 * at commas, double-quoted fields with "" escapes and commas inside, a
 * trailing comma giving an empty last field.  Also numbers written in any
 * locale ("8,735", "1.234", "1 234" with a (no-break) space, "100,00"). */
#ifndef FLAME_CSV_H
#define FLAME_CSV_H

#include <stddef.h>

struct csv_field {
	const char *s;	/* field text, unquoted */
	size_t len;	/* its length */
};

struct csv {
	struct csv_field *f;	/* fields of the last record */
	size_t n;		/* how many */
	size_t cap;		/* capacity of f */
	char *buf;		/* unquoted text of quoted fields */
	size_t bufcap;		/* capacity of buf */
};

/* Empties cs; release with csv_release. */
void csv_init(struct csv *cs);
void csv_release(struct csv *cs);

/* Splits line into cs->f (valid until the next call).  Returns 0, or -1
 * when a quoted field is not closed. */
int csv_split(struct csv *cs, const char *line, size_t len);

/* Parses a number in any of the usual locales: group separators ',' '.'
 * ' ' or a no-break space in groups of three, a decimal '.' or ','.
 * Returns 0 and sets *v, or -1 when s is not such a number.  With
 * integer set, a decimal part is an error. */
int csv_number(const char *s, size_t len, int integer, double *v);

/* Index of the field whose text equals name ignoring case and spaces, or
 * -1. */
int csv_find(const struct csv *cs, const char *name);

#endif
