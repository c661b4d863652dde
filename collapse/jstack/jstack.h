/* jstack: Java thread dumps (jstack PID, taken repeatedly) to collapsed
 * stacks, as stackcollapse-jstack.pl does: each RUNNABLE thread's stack
 * ("at pkg.Class.method(File.java:12)" lines, leaf first) is one sample,
 * under the thread's name; threads waiting in epoll or on a socket, and
 * the JVM's own (compiler, signal, service, attach), are left out. */
#ifndef FLAME_JSTACK_H
#define FLAME_JSTACK_H

#include <stddef.h>
#include <stdint.h>

#include "ctool.h"
#include "format.h"

struct jstack_opts {
	struct ctool_common common;	/* -q */
	int no_tname;			/* no thread name root frame */
	int tid;			/* keep the name's "-N" suffix */
	int shorten;			/* "java.util.HashMap.get" -> "j.u.HashMap.get" */
};

struct fseq;
struct strtab;
struct jstack;

/* Returns a reader adding to t (values: struct fcount), and to seq in
 * input order when not NULL; messages go to warn, about name.  Free with
 * jstack_free. */
struct jstack *jstack_new(const struct jstack_opts *o, struct strtab *t, struct fseq *seq,
			  collect_warn_fn *warn, void *ctx, const char *name);

/* Frees j.  jstack_free(NULL) does nothing. */
void jstack_free(struct jstack *j);

/* Reads one line (no line end).  Always returns 0. */
int jstack_line(struct jstack *j, const char *line, size_t n, unsigned long lineno);

/* Ends the input (a last thread with no blank line after it counts):
 * returns 0, or 1 when it held no thread dump. */
int jstack_end(struct jstack *j);

int jstack_sniff(const char *head, size_t len);
int jstack_collect(const struct format_job *j);

#endif
