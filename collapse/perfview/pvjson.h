/* pvjson: a streaming reader of PerfView's JSON stack files.
 * {"StackSource": {"Samples": [{"Time": t, "Metric": m, "Stack": ["leaf",
 * ..., "root"]}, ...]}}, the wrapper optional, "Samples" found at any
 * depth; numbers as numbers or strings; a trailing comma tolerated. */
#ifndef FLAME_PVJSON_H
#define FLAME_PVJSON_H

#include "perfview.h"

/* Parses in (its first byte is '{' or '['), giving samples to p; bom says
 * the text began with a byte-order mark (worth a note).  Returns 0, or -1
 * after reporting where the JSON is broken. */
int pvjson_parse(struct pv *p, struct pvin *in, int bom);

#endif
