/* stacksink: stacks handed from a collapser to their consumer as frame
 * ids, so no stack is spelled out as a "a;b;c" string in between (flame's
 * perf text path: the collapser's table straight into the renderer's
 * call tree).  Only a contract between two modules; nothing to link. */
#ifndef FLAME_STACKSINK_H
#define FLAME_STACKSINK_H

#include <stddef.h>
#include <stdint.h>

#include "folded.h"

struct stack_sink {
	/* Frame id is called name (len bytes, no ';'; valid during the call
	 * only).  Every id a stack uses is named first; naming an id again
	 * replaces its name (a second input numbers its frames afresh). */
	void (*frame)(void *ctx, uint32_t id, const char *name, size_t len);
	/* One distinct stack: n frame ids, root first, and its count; the
	 * same stack as "name;name;...;name" with that count.  ids is valid
	 * during the call only. */
	void (*stack)(void *ctx, const uint32_t *ids, size_t n, const struct fcount *c);
	void *ctx;	/* for both */
};

#endif
