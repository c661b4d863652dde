/* pvwrite: collapsed stacks to PerfView's stack files: the interned XML
 * form (frames and caller-tree nodes written once each) or JSON, both of
 * which PerfView opens, and which stackcollapse-perfview reads back to the
 * same stacks.  One sample per distinct stack; Time is the running total
 * of the metrics before it, so the samples tile a time line. */
#ifndef FLAME_PVWRITE_H
#define FLAME_PVWRITE_H

#include <stddef.h>
#include <stdio.h>

struct strtab;

struct pvwrite_stats {
	size_t frames;		/* distinct frames written (XML) */
	size_t nodes;		/* caller-tree nodes written (XML) */
	size_t samples;		/* samples written */
	size_t empty;		/* empty stacks left out */
	size_t bad_utf8;	/* frames whose invalid UTF-8 became U+FFFD */
};

/* Writes the stacks of t (values: struct fcount), in t's insertion order,
 * to f.  Returns 0, or -1 when a write failed. */
int pvwrite_xml(FILE *f, const struct strtab *t, struct pvwrite_stats *st);
int pvwrite_json(FILE *f, const struct strtab *t, struct pvwrite_stats *st);

/* Writes t as XML (json 0) or JSON to path (NULL or "-": stdout),
 * atomically, inside a one-member zip archive when zip is set.  Returns 0,
 * or -1 with a message in err. */
int pvwrite_save(const struct strtab *t, const char *path, int json, int zip,
		 struct pvwrite_stats *st, char *err, size_t errlen);

#endif
