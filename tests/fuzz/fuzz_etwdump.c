/* libFuzzer target: xperf -a dumper event lines through the etw collapser.
 * A fixed header block comes first, so the fuzzer spends its time on
 * SampledProfile and Stack lines; the first byte picks options. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "etw.h"
#include "folded.h"
#include "fuzz.h"
#include "strtab.h"

static const char header[] =
	"BeginHeader\n"
	"SampledProfileNmi, TimeStamp, Process Name ( PID), ThreadID, PrgrmCtr, CPU, "
	"ThreadStartImage!Function, Image!Function, Interrupts Masked\n"
	"SampledProfile, TimeStamp, Process Name ( PID), ThreadID, PrgrmCtr, CPU, "
	"ThreadStartImage!Function, Image!Function, Count, SampledProfile type\n"
	"Stack, TimeStamp, ThreadID, No., Address, Image!Function\n"
	"EndHeader\n";

static int feed(void *e, const char *line, size_t len, unsigned long lineno)
{
	return etw_line(e, line, len, lineno);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct etw_opts o = { 0 };
	struct strtab *t = strtab_new(sizeof(struct fcount));
	uint8_t *buf = malloc(sizeof(header) + size + 1);
	struct etw *e;

	if (size > 0) {
		o.nmi = data[0] & 1;
		o.addrs = (data[0] >> 1) & 1;
		o.include_idle = (data[0] >> 2) & 1;
		o.collapse_threads = (data[0] >> 3) & 1;
		o.grep = (data[0] >> 4) & 1 ? "!" : NULL;
		data++;
		size--;
	}
	memcpy(buf, header, sizeof(header) - 1);
	memcpy(buf + sizeof(header) - 1, data, size);
	e = etw_new(&o, t, 1, fuzz_quiet, NULL);
	etw_begin(e, "fuzz");
	fuzz_lines(buf, sizeof(header) - 1 + size, feed, e);
	etw_end(e);
	free(strtab_sorted(t));
	etw_free(e);
	strtab_free(t);
	free(buf);
	return 0;
}
