/* libFuzzer target: pmc input through its collapser (linefmt). */
#include <stdint.h>
#include <stdlib.h>

#include "pmc.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_linefmt(&pmc_linefmt, NULL, data, size);
	return 0;
}
