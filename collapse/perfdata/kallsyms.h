/* kallsyms: the kernel's symbol list (/proc/kallsyms, "ADDR TYPE NAME"
 * with "\t[module]" after module symbols) and perf's JIT maps
 * (/tmp/perf-PID.map, "START SIZE NAME", hex), parsed from memory. */
#ifndef FLAME_KALLSYMS_H
#define FLAME_KALLSYMS_H

#include <stddef.h>
#include <stdint.h>

#include "perfsym_tab.h"

/* Adds the text, weak, data and bss symbols perf keeps to t (not yet
 * finished).  When ref is not NULL, *ref gets the address of the symbol
 * named ref_name and the return says whether it was seen: 1, else 0. */
int kallsyms_parse(const char *buf, size_t len, struct perfsym_tab *t, const char *ref_name,
		   uint64_t *ref);

/* Adds each well-formed line of a perf-PID.map to t (not yet
 * finished); returns the number of lines skipped as malformed. */
size_t kallsyms_parse_jit(const char *buf, size_t len, struct perfsym_tab *t);

#endif
