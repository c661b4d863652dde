/* Two busy functions for flame --to lnt's recorded tests: spin_a takes
 * about twice spin_b's time. */
#include <stdlib.h>

static volatile double sink;

__attribute__((noinline)) static double spin_a(long n)
{
	double s = 0;
	long i;

	for (i = 0; i < n; i++)
		s += (double)i * 0.5;
	return s;
}

__attribute__((noinline)) static double spin_b(long n)
{
	double s = 1;
	long i;

	for (i = 0; i < n; i++)
		s = s * 1.0000001 + (double)i;
	return s;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 20000000;

	sink = spin_a(n) + spin_b(n / 2);
	return 0;
}
