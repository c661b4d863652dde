/* progress: one line on stderr for long work (an input of 100 MB or
 * more, or work past 2 seconds), redrawn in place, and only when stderr
 * is a terminal: a pipe or a log never gets it. */
#ifndef FLAME_PROGRESS_H
#define FLAME_PROGRESS_H

#include <stdint.h>

struct progress;

/* Returns a progress line for prog, or NULL when stderr is not a
 * terminal (every function takes NULL and does nothing).  Free with
 * progress_free, which clears the line. */
struct progress *progress_new(const char *prog);

void progress_free(struct progress *p);

/* A new input called name of size bytes (0: not known). */
void progress_input(struct progress *p, const char *name, uint64_t size);

/* done bytes of the input read so far; cheap enough for every buffer. */
void progress_at(struct progress *p, uint64_t done);

/* For a tool's main, once, before reading: a progress line for prog
 * when stderr is a terminal, cleared at exit.  The byte sources report to
 * it (progress_installed); it is the one process-wide pointer in lib/,
 * set before any reading and used only by the thread that reads. */
void progress_install(const char *prog);

/* The installed progress line, or NULL. */
struct progress *progress_installed(void);

#endif
