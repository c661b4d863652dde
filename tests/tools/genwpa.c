/* genwpa: a deterministic wpaexporter-style CPU sampling CSV for make bench.
 *
 *   genwpa [-n ROWS] [-d DISTINCT] [-s SEED]
 *
 * Rows are samples of a few processes and threads, each with one of
 * DISTINCT stacks of 8 to 40 module!function frames drawn from a synthetic
 * call tree (real traces repeat their stacks heavily). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static uint64_t rng = 0x2545f4914f6cdd1dULL;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

int main(int argc, char **argv)
{
	static const char *const mods[] = { "ntdll.dll", "kernel32.dll", "chrome.dll", "v8.dll",
		"ntoskrnl.exe", "ucrtbase.dll", "d3d11.dll", "app.exe" };
	static const char *const procs[] = { "chrome.exe (8872)", "chrome.exe (9120)",
		"devenv.exe (4410)", "svchost.exe (1100)", "game.exe (56)" };
	long rows = 1000, distinct = 20000, i;
	char **stacks;
	int c;

	while ((c = getopt(argc, argv, "n:d:s:")) != -1) {
		if (c == 'n')
			rows = atol(optarg);
		else if (c == 'd')
			distinct = atol(optarg);
		else if (c == 's')
			rng ^= (uint64_t)atol(optarg) * 0x9e3779b97f4a7c15ULL;
		else
			return 2;
	}
	if (distinct < 1)
		return 2;
	stacks = calloc((size_t)distinct, sizeof(*stacks));
	for (i = 0; i < distinct; i++) {
		unsigned p = (unsigned)(next() % 5), depth = 8 + (unsigned)(next() % 33), k, f = p;
		size_t o;
		char *s = malloc(4096);

		o = (size_t)snprintf(s, 4096, "%s,%u,[Root]", procs[p], 1000 + p * 16 + (unsigned)(next() % 4) * 4);
		for (k = 0; k < depth && o < 3900; k++) {
			f = (f * 2654435761u + 1 + (unsigned)(next() % (k < 5 ? 2 : 4))) % 3000;
			o += (size_t)snprintf(s + o, 4096 - o, "/%s!Func%u_%s", mods[f % 8], f,
					      k % 3 ? "Impl" : "Dispatch");
		}
		stacks[i] = s;
	}
	puts("Process,Thread ID,Stack");
	for (i = 0; i < rows; i++)
		puts(stacks[next() % (uint64_t)distinct]);
	return 0;
}
