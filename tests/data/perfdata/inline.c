/* Functions inlined two deep (mix into twice into outer), for the
 * perf.data tests: built -O2 -g, a DWARF recording shows the inlined
 * frames perf script adds from the debug info. */
#include <stdlib.h>
static volatile unsigned long sink;
static inline __attribute__((always_inline)) unsigned long mix(unsigned long x)
{
	for (int i = 0; i < 300; i++)
		x = x * 6364136223846793005UL + 1;
	return x;
}
static inline __attribute__((always_inline)) unsigned long twice(unsigned long x)
{
	return mix(x) ^ mix(x + 1);
}
__attribute__((noinline)) unsigned long outer(unsigned long n)
{
	unsigned long s = 0;
	for (unsigned long i = 0; i < n; i++)
		s += twice(i);
	return s;
}
int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 100000;
	sink = outer(n);
	return 0;
}
