/* A known call tree for the perf.data tests: main -> fa -> leaf and
 * main -> fb -> leaf, fb doing twice fa's work.  Built with
 * -O0 -fno-omit-frame-pointer so perf's frame-pointer callchains are whole. */
#include <stdlib.h>

static volatile unsigned long sink;

__attribute__((noinline)) static unsigned long leaf(unsigned long x)
{
	for (int i = 0; i < 300; i++)
		x = x * 6364136223846793005UL + 1;
	return x;
}

__attribute__((noinline)) unsigned long fa(unsigned long n)
{
	unsigned long s = 0;

	for (unsigned long i = 0; i < n; i++)
		s += leaf(i);
	return s;
}

__attribute__((noinline)) unsigned long fb(unsigned long n)
{
	unsigned long s = 0;

	for (unsigned long i = 0; i < n; i++)
		s ^= leaf(i);
	return s;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 100000;

	sink = fa(n) + fb(2 * n);
	return 0;
}
