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

/* Length of name without a trailing _[k] _[w] _[i] _[j] annotation: the
 * name as labels and titles show it. */
size_t svg_strip(const char *s, size_t n);

/* Writes fr's fill ("rgb(R,G,B)" or a url(#...) pattern) to out (48
 * bytes). */
void svg_fill(const struct svg_in *in, const struct frame *fr, char *out);

/* Writes fr's <text> label for a box from x1 to x2 (px) at baseline ty,
 * or nothing when fewer than 3 characters fit. */
void svg_label(FILE *f, const struct svg_in *in, const struct frame *fr, double x1,
	       double x2, double ty);

/* The top and bottom (px) of frames at depth in an image of height. */
void svg_frame_y(const struct fg_opts *o, unsigned depth, double height, double *y1, double *y2);

/* Formats v as Perl prints a number (%.15g); returns buf. */
const char *svg_num(char *buf, double v);

/* Writes n with thousands separators ("1,234,567"), as flamegraph.pl
 * labels sample counts, after rounding it to an integer. */
void svg_commify(char *buf, size_t size, double n);

#endif
