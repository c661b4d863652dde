/* libFuzzer target: chrometrace JSON through its reader, the bytes arriving in
 * chunks of a size the first byte picks. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "chrome.h"
#include "folded.h"
#include "fuzz.h"
#include "fuzzjson.h"
#include "strtab.h"

static void quiet(void *ctx, const char *file, unsigned long line, const char *msg)
{
	fuzz_quiet(ctx, file, line, msg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_chunks c;
	struct json *j = fuzz_json(&c, data, size);
	struct chrome_opts o;

	memset(&o, 0, sizeof(o));
	o.t = strtab_new(sizeof(struct fcount));
	o.warn = quiet;
	o.name = "fuzz";
	trace_read(j, &o);
	free(strtab_sorted(o.t));
	strtab_free(o.t);
	json_free(j);
	return 0;
}
