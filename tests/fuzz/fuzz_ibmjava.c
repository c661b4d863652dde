/* libFuzzer target: ibmjava input through its collapser (linefmt); the first
 * byte's bits turn its options on. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ibmjava.h"
#include "jstack.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jstack_opts o;
	uint8_t b = size ? data[0] : 0;

	memset(&o, 0, sizeof(o));
	o.no_tname = b & 1;
	o.tid = (b >> 1) & 1;
	o.shorten = (b >> 2) & 1;
	fuzz_linefmt(&ibmjava_linefmt, &o, data + (size > 0), size - (size > 0));
	return 0;
}
