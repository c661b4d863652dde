/* A small C program for the symbol resolver's tests: a static function
 * (in .symtab only), a global and a weak one, and calls through the PLT. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static long helper_static(long x)
{
	long s = 0;

	for (long i = 0; i < x; i++)
		s += i ^ (s >> 1);
	return s;
}

__attribute__((noinline)) long work_global(long x)
{
	return helper_static(x) + x;
}

__attribute__((noinline, weak)) long work_weak(long x)
{
	return x * 3 + (long)rand();
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10, t = 0;

	for (int k = 0; k < (argc > 2 ? atoi(argv[2]) : 1); k++)
		t += work_global(n) + work_weak(n);
	printf("%ld\n", t);
	puts("done");
	return 0;
}
