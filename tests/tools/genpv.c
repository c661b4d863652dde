/* genpv: a deterministic PerfView stack file for make bench.
 *
 *   genpv -x|-j [-n SAMPLES] [-d DISTINCT] [-s SEED]
 *
 * -x: the interned XML form (frames, a caller tree of DISTINCT leaf stacks
 * 8 to 40 deep over 5000 frame names, then SAMPLES samples of them);
 * -j: JSON with every sample's frames listed, leaf first.  Metrics are
 * milliseconds with three decimals, times increase. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define FRAMES 5000

static uint64_t rng = 0x2545f4914f6cdd1dULL;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void frame_name(char *b, size_t n, unsigned f)
{
	static const char *const mods[] = { "ntdll", "kernel32", "coreclr", "System.Private.CoreLib",
		"MyApp", "ntoskrnl" };

	snprintf(b, n, "%s!Ns%u.Type%u.Method%u(int32,class System.String)", mods[f % 6], f % 37, f % 101, f);
}

int main(int argc, char **argv)
{
	long n = 1000, distinct = 20000, i, nodes = 0;
	int c, json = 0, xml = 0;
	long *leaf, *caller, *frame;
	char name[160];

	while ((c = getopt(argc, argv, "xjn:d:s:")) != -1) {
		if (c == 'x' || c == 'j')
			xml |= c == 'x', json |= c == 'j';
		else if (c == 'n')
			n = atol(optarg);
		else if (c == 'd')
			distinct = atol(optarg);
		else if (c == 's')
			rng ^= (uint64_t)atol(optarg) * 0x9e3779b97f4a7c15ULL;
		else
			return 2;
	}
	if (distinct < 1 || xml == json)
		return 2;
	/* A caller tree: each leaf stack extends a random earlier node. */
	leaf = calloc((size_t)distinct, sizeof(*leaf));
	caller = calloc((size_t)distinct * 41, sizeof(*caller));
	frame = calloc((size_t)distinct * 41, sizeof(*frame));
	for (i = 0; i < distinct; i++) {
		long at = nodes ? (long)(next() % (uint64_t)nodes) : -1, k, extra = 1 + (long)(next() % 8);

		if (i % 50 == 0)
			at = -1, extra = 8 + (long)(next() % 33);
		for (k = 0; k < extra; k++) {
			caller[nodes] = at;
			frame[nodes] = (long)(next() % FRAMES);
			at = nodes++;
		}
		leaf[i] = at;
	}
	if (xml) {
		printf("\xef\xbb\xbf<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<StackWindow>\n <StackSource>\n"
		       "  <Frames Count=\"%d\">\n", FRAMES);
		for (i = 0; i < FRAMES; i++) {
			frame_name(name, sizeof(name), (unsigned)i);
			printf("   <Frame ID=\"%ld\">%s</Frame>\n", i, name);
		}
		printf("  </Frames>\n  <Stacks Count=\"%ld\">\n", nodes);
		for (i = 0; i < nodes; i++)
			printf("   <Stack ID=\"%ld\" CallerID=\"%ld\" FrameID=\"%ld\" />\n", i, caller[i], frame[i]);
		printf("  </Stacks>\n  <Samples Count=\"%ld\">\n", n);
	} else {
		printf("{\"StackSource\": {\"Samples\": [\n");
	}
	for (i = 0; i < n; i++) {
		long s = leaf[next() % (uint64_t)distinct], m = 1 + (long)(next() % 2000);

		if (xml) {
			printf("   <Sample ID=\"%ld\" Time=\"%ld.%03ld\" StackID=\"%ld\" Metric=\"%ld.%03ld\" />\n",
			       i, i / 2, (i % 2) * 500, s, m / 1000, m % 1000);
			continue;
		}
		printf("%s{\"Time\": %ld.%03ld, \"Metric\": %ld.%03ld, \"Stack\": [", i ? ",\n" : "",
		       i / 2, (i % 2) * 500, m / 1000, m % 1000);
		for (; s >= 0; s = caller[s]) {
			frame_name(name, sizeof(name), (unsigned)frame[s]);
			printf("\"%s\"%s", name, caller[s] >= 0 ? ", " : "");
		}
		printf("]}");
	}
	printf(xml ? "  </Samples>\n </StackSource>\n</StackWindow>\n" : "\n]}}\n");
	free(leaf);
	free(caller);
	free(frame);
	return fflush(stdout) != 0 || ferror(stdout);
}
