/* compact: the frames of a huge flame graph written once, compactly.
 *
 * A graph of hundreds of thousands of frames written as one <g><title>
 * <rect><text> per frame is tens of megabytes that a browser needs tens
 * of seconds to load.  The compact form keeps the picture and drops the
 * per-frame markup: frames are drawn as one <path> per colour (a frame is
 * a horizontal stroke as thick as the frame is tall), labels are <text>
 * only where a label fits, and the data the viewer needs (names once,
 * then depth, name, width and colour per frame) sits in one non-script
 * <script> element as escaped text.  Without JavaScript the graph and its
 * labels still show; with it, viewer.js hit-tests the data and redraws
 * only what is visible. */
#ifndef FLAME_COMPACT_H
#define FLAME_COMPACT_H

#include <stdio.h>

#include "svg.h"

/* Frames above which --compact=auto writes the compact form. */
#define COMPACT_AUTO_FRAMES 10000

/* Whether in's graph is written compactly: by --compact, or above
 * COMPACT_AUTO_FRAMES frames.  Graphs with per-frame titles the data
 * does not carry (--nameattr, differential counts) never are. */
int compact_wanted(const struct svg_in *in);

/* Writes the frames of in (drawing, labels and data) for an image of
 * the given height.  Write errors are left in f's error flag. */
void compact_write(FILE *f, const struct svg_in *in, double height);

#endif
