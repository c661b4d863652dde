/* libFuzzer target: wcp input through its collapser (linefmt). */
#include <stdint.h>
#include <stdlib.h>

#include "wcp.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_linefmt(&wcp_linefmt, NULL, data, size);
	return 0;
}
