/* libFuzzer target: Java Flight Recorder recordings.  Every stack emitted
 * must be a collapsed stack's text (no line ends, no empty frame at an
 * end) of the length given, and the counts must add up. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "jfr.h"

static void check(void *ctx, const char *stack, size_t len)
{
	unsigned long *n = ctx;

	if (len == 0 || memchr(stack, '\n', len) || memchr(stack, '\0', len) || stack[0] == ';' ||
	    stack[len - 1] == ';')
		abort();
	(*n)++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jfr_stats st;
	unsigned long n = 0;

	jfr_read(data, size, check, &n, &st);
	if (n != st.samples)
		abort();
	return 0;
}
