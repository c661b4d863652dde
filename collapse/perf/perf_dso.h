/* perf_dso: what the name of a DSO in perf script's frames tells (d, n
 * bytes, as printed between the parentheses). */
#ifndef FLAME_PERF_DSO_H
#define FLAME_PERF_DSO_H

#include <stddef.h>

/* Kernel DSOs: [kernel.kallsyms] and other [..], modules, vmlinux files. */
int perf_dso_kernel(const char *d, size_t n);

/* JIT code: /tmp/perf-PID.map and jitdump's jitted-*.so. */
int perf_dso_jit(const char *d, size_t n);

/* DSOs --inline leaves alone: JIT maps, the kernel, "[...]" pseudo-DSOs. */
int perf_dso_no_inline(const char *d, size_t n);

#endif
