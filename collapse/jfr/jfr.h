/* jfr: Java Flight Recorder recordings (.jfr, format 1.x and 2.x, as JDK
 * 9 and later write them) to stacks.  Each chunk of the file is read on
 * its own: its metadata event describes every type, its constant pools
 * (checkpoint events) hold the stack traces, methods, classes and
 * symbols, and each jdk.ExecutionSample event names a stack trace.
 *
 * Frames are the JVM's names, CLASS.METHOD with the class in its internal
 * form (java/util/HashMap.get), root first.  Everything read is
 * untrusted: sizes, counts and nesting are bounded by the bytes there
 * are, and a fault ends the chunk it is in, not the file. */
#ifndef FLAME_JFR_H
#define FLAME_JFR_H

#include <stddef.h>
#include <stdint.h>

/* A sample's stack, root first, frames joined by ';' (len bytes). */
typedef void jfr_emit_fn(void *ctx, const char *stack, size_t len);

struct jfr_stats {
	unsigned long samples;		/* jdk.ExecutionSample events drawn */
	unsigned long native;		/* jdk.NativeMethodSample events, not drawn */
	unsigned long truncated;	/* samples whose stack the JVM cut short */
	unsigned long unresolved;	/* samples naming no stack trace there is */
	unsigned long chunks;		/* chunks read */
	int fault;			/* a chunk could not be read to its end */
	char first[200];		/* the first fault, with its byte offset */
};

/* Reads the recording in buf (len bytes) and calls emit for every
 * jdk.ExecutionSample, in the order of the file, with its stack.  Fills
 * st.  Returns 0, or 1 when part of the file could not be read
 * (st->first says where); what could be read is emitted either way. */
int jfr_read(const unsigned char *buf, size_t len, jfr_emit_fn *emit, void *ctx,
	     struct jfr_stats *st);

/* Whether head (len bytes) starts a recording: its magic and a major
 * version this reader knows. */
int jfr_sniff(const char *head, size_t len);

#endif
