/* perf_dso: what the name of a DSO in perf script's frames tells. */
#include "perf_dso.h"
#include "bytes.h"

#include <string.h>

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Kernel DSOs: [kernel.kallsyms] and other [..], modules (.ko), and
 * vmlinux files, versioned ones included. */
int perf_dso_kernel(const char *d, size_t n)
{
	const char *v = NULL, *q;
	size_t i;

	if (n == 9 && memcmp(d, "[unknown]", 9) == 0)
		return 0;
	if ((n && d[0] == '[') || bytes_ends_with(d, n, ".ko"))
		return 1;
	for (q = d; (q = memmem(q, n - (size_t)(q - d), "vmlinux", 7)); q++)
		v = q;
	if (!v)
		return 0;
	for (i = (size_t)(v - d); i < n; i++) {
		char c = d[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) ||
		      c == '-' || c == '.' || c == '_'))
			return 0;
	}
	return 1;
}

int perf_dso_jit(const char *d, size_t n)
{
	return (n >= 10 && memcmp(d, "/tmp/perf-", 10) == 0 && bytes_ends_with(d, n, ".map")) ||
	       (bytes_contains(d, n, "/jitted-") && bytes_ends_with(d, n, ".so"));
}

/* DSOs --inline leaves alone: JIT maps, the kernel, "[...]" pseudo-DSOs. */
int perf_dso_no_inline(const char *d, size_t n)
{
	const char *q, *end = d + n;

	if (bytes_contains(d, n, "kernel."))
		return 1;
	for (q = d; (q = memmem(q, (size_t)(end - q), "perf-", 5)); q++) {
		const char *r = q + 5;

		while (r < end && is_digit(*r))
			r++;
		if (r > q + 5 && end - r >= 4 && memcmp(r + 1, "map", 3) == 0)
			return 1;
	}
	q = memchr(d, '[', n);
	return q && q + 1 < end && q[1] != ']' && memchr(q + 1, ']', (size_t)(end - q - 1));
}
