/* leafstack: a stack whose frames come leaf first (a backtrace, a stack
 * printed innermost first) kept root first, as collapsed stacks are
 * written: each frame goes in front of those before it, so the finished
 * stack is one piece of text without reversing. */
#ifndef FLAME_LEAFSTACK_H
#define FLAME_LEAFSTACK_H

#include <stddef.h>

struct leafstack {
	char *buf;		/* the stack in buf[at, cap) */
	size_t at, cap;		/* where it starts, buf's size */
	size_t nframes;		/* frames in it */
};

void leafstack_init(struct leafstack *s);
void leafstack_release(struct leafstack *s);

/* Room for a frame of n bytes in front of the stack (a ';' after it when
 * frames follow): the caller fills it. */
char *leafstack_room(struct leafstack *s, size_t n);

/* Puts the frame f (n bytes) in front of the stack. */
void leafstack_push(struct leafstack *s, const char *f, size_t n);

/* The stack's text and its length in *len. */
const char *leafstack_text(const struct leafstack *s, size_t *len);

/* Empties the stack. */
void leafstack_clear(struct leafstack *s);

#endif
