/* libFuzzer target: faulthandler input through its collapser (linefmt). */
#include <stdint.h>
#include <stdlib.h>

#include "faulthandler.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_linefmt(&faulthandler_linefmt, NULL, data, size);
	return 0;
}
