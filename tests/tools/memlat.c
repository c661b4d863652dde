/* memlat: how long a load at random takes in a block of each size
 * given (MB, default 1 and 16), each load's address read from the one
 * before (no two overlap), on small pages:
 *
 *   memlat [MB...]
 *
 * Prints "MB ns" a line.  bench/perbyte.sh prints it beside its table:
 * the pprof profile of 100k stacks reads its keys' table (about 12 MB)
 * at random, the perf collapser its text in order, so the ratio of the
 * two moves with this figure (a machine whose last-level cache another
 * guest fills answers 16 MB at DRAM's latency). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* One line (64 bytes) a step. */
#define STRIDE 8

/* Loads timed a block. */
#define LOADS 2000000L

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* xorshift64: the shuffle's numbers (any will do; fixed, so that two
 * runs walk alike). */
static uint64_t next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Nanoseconds a load, walking one cycle through every line of mb MB;
 * -1 without the memory. */
static double walk(size_t mb)
{
	size_t lines = mb * 1024 * 1024 / 64, i, j, t, at = 0;
	size_t *order = malloc(lines * sizeof(*order));
	size_t *block = malloc(lines * STRIDE * sizeof(*block));
	uint64_t seed = 0x9e3779b97f4a7c15u;
	double t0, t1;
	long k;

	if (!order || !block || !lines) {
		free(order);
		free(block);
		return -1;
	}
	for (i = 0; i < lines; i++)
		order[i] = i;
	for (i = lines - 1; i > 0; i--) {
		j = (size_t)(next(&seed) % (i + 1));
		t = order[i], order[i] = order[j], order[j] = t;
	}
	/* Each line holds the place of the next in the cycle. */
	for (i = 0; i < lines; i++)
		block[order[i] * STRIDE] = order[(i + 1) % lines] * STRIDE;
	for (k = 0; k < LOADS / 4; k++)
		at = block[at];
	t0 = now_ns();
	for (k = 0; k < LOADS; k++)
		at = block[at];
	t1 = now_ns();
	/* at is used: the loop is not taken away. */
	if (at == (size_t)-1)
		puts("");
	free(order);
	free(block);
	return (t1 - t0) / LOADS;
}

int main(int argc, char **argv)
{
	static const char *const def[] = { "1", "16" };
	const char *const *mb = argc > 1 ? (const char *const *)argv + 1 : def;
	int n = argc > 1 ? argc - 1 : 2, i;
	double ns;
	long v;
	char *end;

	for (i = 0; i < n; i++) {
		v = strtol(mb[i], &end, 10);
		if (*end || v < 1 || v > 4096) {
			fprintf(stderr, "memlat: '%s': expected MB from 1 to 4096\n", mb[i]);
			return 2;
		}
		if ((ns = walk((size_t)v)) < 0) {
			fprintf(stderr, "memlat: %ld MB: out of memory\n", v);
			return 1;
		}
		printf("%ld %.1f\n", v, ns);
	}
	return 0;
}
