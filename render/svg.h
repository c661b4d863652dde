/* svg: writes a laid-out flame graph as an interactive SVG document with
 * flamegraph.pl's geometry: one <g> per frame holding a <title>, a <rect>
 * and, when the name fits, a <text> label. */
#ifndef FLAME_SVG_H
#define FLAME_SVG_H

#include <stdio.h>

#include "layout.h"
#include "options.h"

#define SVG_XPAD 10	/* left and right padding, px */

struct palette;
struct nameattr;

struct svg_in {
	const struct fg_opts *o;	/* options */
	const struct layout *lo;	/* frames */
	struct palette *pal;		/* colours */
	const struct nameattr *na;	/* per-name attributes, or NULL */
	double timemax;			/* samples spanning the width */
	double maxdelta;		/* largest |delta|, >= 1 */
	int fractional;			/* some count had a fraction */
	double before_total;		/* differential: all of count1... */
	double after_total;		/* ...and of count2 */
};

/* Writes the graph.  Write errors are left in f's error flag. */
void svg_write(FILE *f, const struct svg_in *in);

/* Writes the small SVG that says there was no valid input. */
void svg_write_empty(FILE *f, const struct fg_opts *o);

#endif
