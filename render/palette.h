/* palette: frame colours, as flamegraph.pl computes them.  By default a
 * colour depends only on the frame name (the same function has the same
 * colour in every graph, and the same as flamegraph.pl gives it); --hash
 * uses flamegraph.pl's name hash, --random random numbers.  With a
 * palette map (--cp) colours are remembered in a file. */
#ifndef FLAME_PALETTE_H
#define FLAME_PALETTE_H

#include <stddef.h>

#include "options.h"

struct palette;

/* A warning sink: msg is one line without newline. */
typedef void palette_warn_fn(void *ctx, const char *msg);

/* Returns a palette for the scheme.  Free with palette_free. */
struct palette *palette_new(enum fg_palette scheme, int hash, int random);

/* Frees p.  palette_free(NULL) does nothing. */
void palette_free(struct palette *p);

/* Writes "rgb(R,G,B)" for the frame name (raw, annotation included) to
 * out (at least 48 bytes).  With a map, an unknown name is added to it. */
void palette_color(struct palette *p, const char *name, size_t len, char *out);

/* Writes the differential colour: red for growth, blue for shrinkage
 * (swapped by negate), paler as |delta| is smaller than maxdelta. */
void palette_diff(double delta, double maxdelta, int negate, char *out);

/* Loads "NAME->COLOUR" lines from path into the map and turns the map on.
 * A missing file is an empty map.  Malformed lines are skipped, each
 * reported through warn.  Returns 0, or -1 with errno set on a read error. */
int palette_map_load(struct palette *p, const char *path, palette_warn_fn *warn, void *ctx);

/* Writes the map to path (sorted by name, atomically).  Returns 0, or -1
 * with errno set. */
int palette_map_save(const struct palette *p, const char *path);

/* The value flamegraph.pl's rand(1) gives right after srand(seed): the
 * first drand48 step of Perl's generator.  Exposed for tests. */
double palette_perl_rand(unsigned long seed);

#endif
