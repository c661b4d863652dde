/* bytes: small byte-string tests shared by the collapsers and the renderer. */
#include "bytes.h"

#include <string.h>

int bytes_ends_with(const char *s, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);

	return n >= k && memcmp(s + n - k, suffix, k) == 0;
}

int bytes_contains(const char *s, size_t n, const char *needle)
{
	return memmem(s, n, needle, strlen(needle)) != NULL;
}
