/* libFuzzer target: PerfView XML through pvxml and perfview. */
#include <stdint.h>
#include <stdlib.h>

#include "folded.h"
#include "perfview.h"
#include "strtab.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_perfview(data, size, PV_XML);
	return 0;
}
