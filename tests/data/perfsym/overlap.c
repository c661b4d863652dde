/* For tests/perfsym.sh: names where perf's symbol tables overlap or
 * alias.  A hot loop through PLT entries (which perf adds after it has
 * stretched the unsized _init over .plt, so which of the two it prints
 * depends on its symbol tree), libc's memcpy and memmove (one function,
 * two names), and one function of ours under three names, one of them
 * a C++ mangled name ("operator delete[]" once demangled, which perf
 * prefers for having no leading underscore and the longest name). */
#include <stdlib.h>
#include <string.h>

volatile size_t sink;
static char a[1 << 16], b[1 << 16];

__attribute__((noinline, used)) void spin_impl(void *p)
{
	size_t i;

	for (i = 0; i < 2000; i++)
		sink += (size_t)p + i;
}
void xfree(void *p) __attribute__((alias("spin_impl")));
void _ZdaPv(void *p) __attribute__((alias("spin_impl")));

int main(int argc, char **argv)
{
	long i, n = argc > 1 ? atol(argv[1]) : 1000000;
	const char *s = argc > 2 ? argv[2] : "";

	for (i = 0; i < n; i++) {
		size_t k = (size_t)(i * 7919) % sizeof(a);

		sink += strlen(s) + (size_t)labs(i);
		memcpy(b, a, k / 4);
		memmove(a + 1, a, k / 8);
		if (i % 16 == 0)
			xfree(b);
	}
	return b[5];
}
