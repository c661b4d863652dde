/* genfolded: deterministic, realistic-looking collapsed stacks for tests
 * and benchmarks.
 *
 *   genfolded [-n LINES] [-d DISTINCT] [-s SEED] [-D MAXDEPTH] [-2]
 *
 * Stacks are random walks down a synthetic call tree (so they share
 * prefixes the way real profiles do) through C, C++ template, Java and
 * kernel names.  Lines cycle through the distinct stacks; -2 writes a
 * second (differential) count. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NAMES 6000

static uint64_t rng = 88172645463325252ULL;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static const char *const words[] = {
	"read", "write", "alloc", "parse", "hash", "insert", "lookup", "flush",
	"poll", "send", "recv", "encode", "decode", "compress", "sort", "merge",
	"visit", "render", "layout", "commit", "scan", "index", "query", "update"
};
static const char *const spaces[] = {
	"std", "boost::asio", "app::net", "app::db", "folly", "absl", "v8::internal"
};

static void make_name(char *buf, size_t size, unsigned i)
{
	const char *w = words[i % 24], *w2 = words[(i / 24) % 24];

	switch (i % 7) {
	case 0:
		snprintf(buf, size, "%s_%s_%u", w, w2, i);
		break;
	case 1:
		snprintf(buf, size, "%s::%s_%u<std::vector<int, std::allocator<int> > >::operator()",
			 spaces[i % 7], w, i);
		break;
	case 2:
		snprintf(buf, size, "Lorg/example/%s/%sService;::%s%u", w, w2, w, i);
		break;
	case 3:
		snprintf(buf, size, "__x64_sys_%s%u_[k]", w, i);
		break;
	case 4:
		snprintf(buf, size, "%s::%s::%s_impl%u(int, char const*)", spaces[(i / 7) % 7], w2, w, i);
		break;
	default:
		snprintf(buf, size, "%s%s%u", w, w2, i);
		break;
	}
}

int main(int argc, char **argv)
{
	long lines = 1000, distinct = 100, maxdepth = 48;
	int two = 0, c;
	static char names[NAMES][128];
	char *line = malloc(1 << 16);
	unsigned **stacks;
	unsigned *depth;
	long i;

	while ((c = getopt(argc, argv, "n:d:s:D:2")) != -1) {
		switch (c) {
		case 'n': lines = atol(optarg); break;
		case 'd': distinct = atol(optarg); break;
		case 's': rng ^= (uint64_t)atol(optarg) * 0x9e3779b97f4a7c15ULL; break;
		case 'D': maxdepth = atol(optarg); break;
		case '2': two = 1; break;
		default: return 2;
		}
	}
	if (distinct < 1 || maxdepth < 2 || maxdepth > 1000)
		return 2;
	for (i = 0; i < NAMES; i++)
		make_name(names[i], sizeof(names[i]), (unsigned)i);
	stacks = calloc((size_t)distinct, sizeof(*stacks));
	depth = calloc((size_t)distinct, sizeof(*depth));
	for (i = 0; i < distinct; i++) {
		unsigned d = 4 + (unsigned)(next() % (uint64_t)(maxdepth - 3)), k, f;

		stacks[i] = malloc(d * sizeof(unsigned));
		f = (unsigned)(next() % 12);	/* a dozen "processes" */
		for (k = 0; k < d; k++) {
			stacks[i][k] = f;
			/* Few children per frame, so prefixes are shared. */
			f = (f * 2654435761u + 1 + (unsigned)(next() % (k < 6 ? 3 : 5))) % NAMES;
		}
		depth[i] = d;
	}
	for (i = 0; i < lines; i++) {
		long s = (long)(next() % (uint64_t)distinct);
		size_t o = 0;
		unsigned k;

		for (k = 0; k < depth[s]; k++) {
			size_t n = strlen(names[stacks[s][k]]);

			if (o + n + 2 > (1 << 16) - 64)
				break;
			if (k)
				line[o++] = ';';
			memcpy(line + o, names[stacks[s][k]], n);
			o += n;
		}
		line[o] = '\0';
		if (two)
			printf("%s %u %u\n", line, (unsigned)(next() % 100), (unsigned)(next() % 100));
		else
			printf("%s %u\n", line, 1 + (unsigned)(next() % 50));
	}
	for (i = 0; i < distinct; i++)
		free(stacks[i]);
	free(stacks);
	free(depth);
	free(line);
	return fflush(stdout) == 0 ? 0 : 1;
}
