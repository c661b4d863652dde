/* speedscope: speedscope's JSON file format (shared frames, then sampled
 * or evented profiles) to collapsed stacks.  The whole document is read
 * first (profiles may come before the frames they name), kept as frame
 * indices, then turned into stacks: a sampled profile's samples (root
 * first) with their weights, an evented profile's open/close events with
 * the time between events as the weight of the stack then open.  With
 * several profiles each stack starts with its profile's name. */
#ifndef FLAME_SPEEDSCOPE_H
#define FLAME_SPEEDSCOPE_H

#include <stddef.h>

#include "format.h"

struct fseq;
struct strtab;
struct json;

struct speedscope_opts {
	struct strtab *t;		/* stacks out (values: struct fcount) */
	struct fseq *seq;		/* input order too, or NULL */
	collect_warn_fn *warn;		/* messages */
	void *ctx;			/* for warn */
	const char *name;		/* the input, for messages */
	char unit[16];			/* out: flame's unit of the weights
					   ("ns", "bytes"), "" when none */
};

/* Reads the document of j into o->t.  Returns 0; 1 when the JSON broke
 * off or held no profile (what came before is kept; the fault named
 * through warn). */
int speedscope_read(struct json *j, struct speedscope_opts *o);

/* speedscope's unit name for flame's unit u ("ns": "nanoseconds"), or
 * "none". */
const char *speedscope_unit_name(const char *u);

int speedscope_sniff(const char *head, size_t len);
int speedscope_collect(const struct format_job *j);

#endif
