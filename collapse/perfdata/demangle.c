/* demangle: a shim over libiberty's cplus_demangle.  perf 6.1 (built
 * without libbfd, as Debian's is) calls it with no options, so names
 * come without parameter lists ("ns::Box<long>::spin"), and libiberty's
 * automatic style tries Rust before C++. */
#include "demangle.h"

#include <libiberty/demangle.h>
#include <string.h>

/* Longer names are left alone: the demangler's cost and recursion grow
 * with the input, and no real symbol comes near this. */
#define DEMANGLE_MAX 16384

char *demangle_name(const char *name)
{
	/* Itanium C++ and Rust legacy start "_Z", Rust v0 "_R". */
	if (name[0] != '_' || (name[1] != 'Z' && name[1] != 'R'))
		return NULL;
	if (strnlen(name, DEMANGLE_MAX) == DEMANGLE_MAX)
		return NULL;
	return cplus_demangle(name, DMGL_NO_OPTS);
}
