/* For the --inline test: inner() is always inlined into outer(). */
#include <stdio.h>

static volatile int sink;

static inline __attribute__((always_inline)) int inner(int x)
{
	for (int i = 0; i < x; i++)
		sink += i * 3;
	return sink;
}

__attribute__((noinline)) int outer(int x)
{
	return inner(x) + 1;
}

int main(int argc, char **argv)
{
	(void)argv;
	printf("%d\n", outer(argc * 1000));
	return 0;
}
