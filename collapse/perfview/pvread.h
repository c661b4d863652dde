/* pvread: reads a PerfView stack file, JSON or XML by its first byte
 * (or as pv_opts.format says), handing its samples to a struct pv. */
#ifndef FLAME_PVREAD_H
#define FLAME_PVREAD_H

struct pv;
struct lread;

/* Reads one file (NULL or "-": stdin).  Returns 0, or -1 when it could
 * not be opened or was broken (reported through p's warn; the samples
 * read before the fault are kept). */
int pvread_file(struct pv *p, const char *path);

/* The same for an open reader (its name is used in messages). */
int pvread_lread(struct pv *p, struct lread *lr);

#endif
