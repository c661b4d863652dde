/* libFuzzer target: the jitdump reader on hostile bytes, and the Java
 * demangler on every name it reports (perf demangles JIT names so). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "demangle.h"
#include "fuzz.h"
#include "jitdump.h"

static int on_code(void *ctx, const struct jitdump_code *c)
{
	size_t *total = ctx;

	/* Names end where the reader said, inside the input. */
	if (strlen(c->name) != c->namelen)
		abort();
	*total += c->namelen;
	free(demangle_java(c->name));
	free(demangle_name(c->name));
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jitdump_result r;
	size_t total = 0;

	jitdump_read(data, size, on_code, &total, &r);
	if (r.why == NULL && r.bad_at)
		abort();
	return 0;
}
