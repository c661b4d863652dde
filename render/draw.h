/* draw: pieces of a frame's drawing that both SVG forms use, the classic
 * (svg.c) and the compact (compact.c): its fill, its label, its place,
 * and numbers as flamegraph.pl prints them. */
#ifndef FLAME_DRAW_H
#define FLAME_DRAW_H

#include <stddef.h>
#include <stdio.h>

#include "svg.h"

#define DRAW_GONE_ID "fg-gone"	/* the pattern for frames gone from AFTER */

/* Length of name without a trailing _[k] _[w] _[i] _[j] annotation: the
 * name as labels and titles show it. */
size_t draw_strip(const char *s, size_t n);

/* Writes fr's fill ("rgb(R,G,B)" or a url(#...) pattern) to out (48
 * bytes). */
void draw_fill(const struct svg_in *in, const struct frame *fr, char *out);

/* Writes fr's <text> label for a box from x1 to x2 (px) at baseline ty,
 * or nothing when fewer than 3 characters fit. */
void draw_label(FILE *f, const struct svg_in *in, const struct frame *fr, double x1,
		double x2, double ty);

/* The top and bottom (px) of frames at depth in an image of height. */
void draw_frame_y(const struct fg_opts *o, unsigned depth, double height, double *y1, double *y2);

/* Formats v as Perl prints a number (%.15g); returns buf. */
const char *draw_num(char *buf, double v);

/* Writes n with thousands separators ("1,234,567"), as flamegraph.pl
 * labels sample counts, after rounding it to an integer. */
void draw_commify(char *buf, size_t size, double n);

#endif
