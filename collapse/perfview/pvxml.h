/* pvxml: a streaming reader of PerfView's XML stack files, no DOM: the
 * interned form (Frames/Frame, Stacks/Stack, Samples/Sample with StackID)
 * and the inline form (frames listed in a Sample's body, leaf first),
 * mixed as they come.  The five predefined entities and numeric character
 * references are decoded; DOCTYPE declarations are skipped, never expanded. */
#ifndef FLAME_PVXML_H
#define FLAME_PVXML_H

#include "perfview.h"

/* Parses in (its first byte is '<'), giving frames, stacks and samples to
 * p.  Returns 0, or -1 after reporting where the XML is broken. */
int pvxml_parse(struct pv *p, struct pvin *in);

#endif
