/* perfview: PerfView's stack files (.PerfView.json, .PerfView.xml, either
 * inside a .zip) to collapsed stacks.  pvread runs the JSON or XML parser
 * (pvjson, pvxml), which stream their input and hand samples to this
 * module, which turns
 * them into stacks: summed into a table of struct fcount keyed by stack,
 * or kept in time order.  Memory grows with distinct frames and stacks,
 * not with samples (except in time order, which keeps every sample). */
#ifndef FLAME_PERFVIEW_H
#define FLAME_PERFVIEW_H

#include <stddef.h>
#include <stdint.h>

#include "folded.h"

struct strtab;
struct lread;

enum pv_format { PV_ANY, PV_JSON, PV_XML };

struct pv_opts {
	enum pv_format format;	/* PV_ANY: JSON or XML by the first byte */
	int time_order;		/* keep samples in Time order (pv_each_in_order) */
	int has_begin;		/* begin is set */
	int has_end;		/* end is set */
	double begin;		/* keep samples with Time >= begin (ms) */
	double end;		/* ...and Time < end */
	uint64_t max_inflate;	/* cap on a zip member's size, 0: lread's default */
	size_t chunk;		/* bytes decoded per refill (>= 16), 0: 1 MiB;
				 * tests use small ones to cross every boundary */
};

struct pv_stats {
	uint64_t samples;	/* samples kept */
	uint64_t skipped;	/* samples that could not be used */
	int bad_input;		/* an input was broken or unreadable */
};

/* Messages: file, line and column (0 when unknown) and the text. */
typedef void pv_warn_fn(void *ctx, const char *file, unsigned long line, unsigned long col,
			const char *msg);

struct pv;

/* Returns a reader adding stacks to out (values: struct fcount); out must
 * outlive it.  Free with pv_free. */
struct pv *pv_new(const struct pv_opts *o, struct strtab *out, pv_warn_fn *warn, void *ctx);
void pv_free(struct pv *p);

/* With time_order: calls fn for each stack in Time order, adjacent equal
 * stacks merged.  Returns 0, or the first non-zero fn returned. */
typedef int pv_stack_fn(void *ctx, const char *stack, size_t len, const struct fcount *c);
int pv_each_in_order(struct pv *p, pv_stack_fn *fn, void *ctx);

const struct pv_stats *pv_stats(const struct pv *p);

/* Parses a PerfView number ("12", "1.195", "-3", "1e3") into *c (counts:
 * not negative) and *d.  Returns 0, or -1 when it is not a finite number. */
int pv_number(const char *s, size_t len, double *d);

/* Byte input for the parsers, with line and column. */
struct pvin {
	/* private */
	struct lread *lr;	/* source */
	char *buf;		/* chunk of decoded text */
	size_t pos;		/* next byte */
	size_t len;		/* bytes in buf */
	size_t cap;		/* room in buf */
	unsigned long line;	/* of the next byte, from 1 */
	unsigned long col;	/* of the last byte read, from 1 */
	int eof;		/* 1 at the end, -1 after a read error */
};

int pvin_fill(struct pvin *in);

/* The next byte, or -1 at the end of input or on a read error. */
static inline int pvin_get(struct pvin *in)
{
	int c;

	if (in->pos == in->len && pvin_fill(in) <= 0)
		return -1;
	c = (unsigned char)in->buf[in->pos++];
	if (c == '\n') {
		in->line++;
		in->col = 0;
	} else {
		in->col++;
	}
	return c;
}

/* The next byte without taking it, or -1. */
static inline int pvin_peek(struct pvin *in)
{
	if (in->pos == in->len && pvin_fill(in) <= 0)
		return -1;
	return (unsigned char)in->buf[in->pos];
}

/* What the reader (pvread) calls around a file: its name (NULL: none)
 * before, and at the end, interned stacks resolved into stacks. */
void pv_file_begin(struct pv *p, const char *name);
void pv_file_end(struct pv *p);

/* The options p was made with. */
const struct pv_opts *pv_options(const struct pv *p);

/* Notes that an input was broken or unreadable (pv_stats' bad_input). */
void pv_mark_bad(struct pv *p);

/* What the parsers call. */

/* Reports a problem at the input's current position. */
void pv_warn(struct pv *p, const struct pvin *in, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Reports broken lang ("JSON", "XML") input at the byte that does not
 * fit; returns -1. */
int pv_broken(struct pv *p, struct pvin *in, const char *lang, const char *what);

/* A sample whose frames are listed: frames is n names packed one after
 * another, their lengths in lens, leaf first.  metric and time are text
 * (NULL: absent; metric defaults to 1, time to 0). */
void pv_sample_frames(struct pv *p, const struct pvin *in, const char *frames,
		      const size_t *lens, size_t n, const char *metric, size_t mlen,
		      const char *time, size_t tlen);

/* The interned form: frame id is name; stack id is frame fid called by
 * stack caller (-1: none); a sample of stack sid. */
void pv_frame(struct pv *p, const struct pvin *in, long id, const char *name, size_t len);
void pv_stack(struct pv *p, const struct pvin *in, long id, long caller, long fid);
void pv_sample_stack(struct pv *p, const struct pvin *in, long sid, const char *metric,
		     size_t mlen, const char *time, size_t tlen);

#endif
