/* demangle: C++ and Rust (legacy and v0) names as perf script shows
 * them: libiberty's demangler without parameter lists. */
#ifndef FLAME_DEMANGLE_H
#define FLAME_DEMANGLE_H

#include <stddef.h>

/* Returns the demangled form of the NUL-terminated name (the caller
 * frees it), or NULL when name is not mangled or cannot be demangled. */
char *demangle_name(const char *name);

#endif
