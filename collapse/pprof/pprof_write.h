/* pprof_write: collapsed stacks written as a gzipped pprof profile
 * (profile.proto), for go tool pprof, Pyroscope, Parca and the like. */
#ifndef FLAME_PPROF_WRITE_H
#define FLAME_PPROF_WRITE_H

#include <stddef.h>

struct strtab;

/* Writes the stacks of t (values: struct fcount) to path (NULL or "-":
 * stdout) atomically, as a gzipped profile: a function and a location per
 * distinct frame name, a sample per stack (locations leaf first) holding
 * its count.  The one sample type follows unit: "samples" (or NULL)
 * samples/count, "ns" cpu/nanoseconds, "bytes" space/bytes, else
 * UNIT/count; title (may be NULL) becomes the profile's comment.  Returns
 * 0, or -1 with a message in err (a count that is not a whole number: a
 * profile holds integers; a write error). */
int pprof_write_save(const struct strtab *t, const char *unit, const char *title,
		     const char *path, char *err, size_t errlen);

/* The profile pprof_write_save writes, not gzipped: *len bytes the
 * caller frees, or NULL with a message in err. */
unsigned char *pprof_write_mem(const struct strtab *t, const char *unit, const char *title,
			       size_t *len, char *err, size_t errlen);

#endif
