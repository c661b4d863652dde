/* libFuzzer target: flame's front half, format detection and then the
 * detected collapser, over bytes that may be any format (gzip and zip
 * included).  The first byte picks the --format override, or none; an
 * odd length asks for a flame chart's order too, whose runs must add up
 * to the stacks' counts. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "collect.h"
#include "folded.h"
#include "fuzz.h"
#include "strtab.h"

/* Every run names a stack of t, and the runs of a stack sum to its count. */
static void check_chart(const struct strtab *t, const struct fseq *seq)
{
	size_t i, n = strtab_count(t);
	double *sum = calloc(n ? n : 1, sizeof(*sum));

	if (!sum)
		abort();
	for (i = 0; i < seq->n; i++) {
		const struct fseq_run *r = &seq->run[i];

		if (r->id >= n)
			abort();
		sum[r->id] += fcount_value(&r->c[r->two]);
	}
	for (i = 0; i < n; i++) {
		double want = fcount_value(strtab_val(t, (uint32_t)i));

		if (fabs(sum[i] - want) > 1e-9 * fabs(want) + 1e-9)
			abort();
	}
	free(sum);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct collect_opts o = { 0 };
	struct fseq seq = { NULL, 0, 0 };
	struct strtab *t = strtab_new(sizeof(struct fcount));
	const struct format *fmt;
	size_t nformats;
	char err[512];

	static const long ids[] = { 1, 4387, 4391 };
	static const char *const names[] = { "worker-3", "app.exe" };

	if (size > 0) {
		/* Most inputs are detected; one in 8 is forced to a format. */
		for (nformats = 0; formats[nformats].name; nformats++)
			;
		if (data[0] < 32 && data[0] % (nformats + 1))
			o.format = &formats[data[0] % (nformats + 1) - 1];
		/* Bits 5..7: the filters, on ETW, perf and PerfView input. */
		if (data[0] & 0x20) {
			o.filter.pid = ids;
			o.filter.npid = 2;
		}
		if (data[0] & 0x40) {
			o.filter.tid = ids + 1;
			o.filter.ntid = 2;
			o.filter.process = names;
			o.filter.nprocess = 2;
		}
		if (data[0] & 0x80) {
			o.filter.has_begin = o.filter.has_end = 1;
			o.filter.begin = 0.5;
			o.filter.end = 2470.5;
		}
		data++;
		size--;
	}
	o.before = strtab_new(sizeof(struct fcount));
	o.max_inflate = 1 << 20;
	if (size % 2)
		o.seq = &seq;
	collect_mem((const char *)data, size, &o, t, &fmt, fuzz_quiet, NULL, err, sizeof(err));
	free(strtab_sorted(t));
	if (o.seq)
		check_chart(t, &seq);
	fseq_release(&seq);
	strtab_free(o.before);
	strtab_free(t);
	return 0;
}
