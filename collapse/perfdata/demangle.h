/* demangle: C++ and Rust (legacy and v0) names as perf script shows
 * them: libiberty's demangler without parameter lists. */
#ifndef FLAME_DEMANGLE_H
#define FLAME_DEMANGLE_H

#include <stddef.h>

/* Returns the demangled form of the NUL-terminated name (the caller
 * frees it), or NULL when name is not mangled or cannot be demangled. */
char *demangle_name(const char *name);

/* A Java method's name "Lpkg/Class;method(args)ret" as perf shows it
 * when C++ and Rust demangling fail: "pkg.Class.method(int, pkg.T)",
 * no return type.  Returns it (the caller frees), or NULL when name is
 * not one. */
char *demangle_java(const char *name);

#endif
