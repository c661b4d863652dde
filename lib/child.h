/* child: a helper program (addr2line, llvm-symbolizer, objdump) run with
 * no shell, its stdout read through a stream, its stdin fed or empty, its
 * stderr discarded.  The same calls on Linux (posix_spawn) and Windows
 * (CreateProcessW, the command line quoted as the C runtime splits it,
 * so any argument reaches the program whole).
 *
 * Writing to a child that has stopped fails (-1); it never raises a
 * signal. */
#ifndef FLAME_CHILD_H
#define FLAME_CHILD_H

#include <stddef.h>
#include <stdio.h>

struct child;

/* Starts argv[0], looked up on PATH, with argv (NULL-ended, UTF-8).  With
 * feed, its stdin is a pipe child_send writes to; else it reads nothing.
 * NULL when it cannot be started. */
struct child *child_start(const char *const argv[], int feed);

/* The child's standard output, owned by c. */
FILE *child_out(struct child *c);

/* Writes n bytes to the child's stdin.  0, or -1 when it is gone. */
int child_send(struct child *c, const void *buf, size_t n);

/* Closes both pipes (a child still writing then fails or stops), waits
 * for it and frees c.  Its exit status, or -1 when it did not exit. */
int child_finish(struct child *c);

#endif
