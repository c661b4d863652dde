/* libFuzzer target: the symbol resolver's parsers on hostile bytes.  The
 * first byte picks one: an ELF image (sections, symbols, PLT, build id,
 * .gnu_debuglink, MiniDebugInfo, then the table's fixing and lookups and
 * demangling of what it found), kallsyms text, or a perf-PID.map. */
#include <libelf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "demangle.h"
#include "elfsym.h"
#include "fuzz.h"
#include "kallsyms.h"
#include "perfsym_tab.h"

/* Looks up a spread of addresses and demangles the names found. */
static void probe(struct perfsym_tab *t)
{
	size_t i;

	for (i = 0; i < t->n && i < 64; i++) {
		struct perfsym_sym *s = perfsym_tab_find(t, t->v[i].start + (t->v[i].end - t->v[i].start) / 2);

		if (s)
			free(demangle_name(perfsym_tab_raw(t, s))), free(demangle_java(perfsym_tab_raw(t, s)));
	}
	perfsym_tab_find(t, 0);
	perfsym_tab_find(t, UINT64_MAX);
}

static void fuzz_elf(const uint8_t *data, size_t size, struct perfsym_tab *t)
{
	struct elfsym e, inner;
	void *img = malloc(size ? size : 1);
	char link[256];
	uint64_t va;

	memcpy(img, data, size);
	if (elfsym_open_mem(&e, img, size, 1) != 0)
		return;
	elfsym_load(&e, 0, t);
	elfsym_load(&e, 1, t);
	elfsym_load_plt(&e, t);
	elfsym_debuglink(&e, link, sizeof(link));
	if (elfsym_open_debugdata(&e, &inner) == 0) {
		elfsym_load(&inner, 0, t);
		elfsym_close(&inner);
	}
	elfsym_vaddr(e.segs, e.nsegs, 0x1000, &va);
	elfsym_value(&e, "_text", &va);	/* a vmlinux's reference symbol */
	elfsym_close(&e);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perfsym_tab t;
	uint64_t ref;

	if (size < 1)
		return 0;
	elf_version(EV_CURRENT);
	perfsym_tab_init(&t);
	switch (data[0] % 3) {
	case 0:
		fuzz_elf(data + 1, size - 1, &t);
		perfsym_tab_finish(&t, PERFSYM_TAB_ELF, NULL, NULL);
		break;
	case 1:
		kallsyms_parse((const char *)data + 1, size - 1, &t, "_text", &ref);
		perfsym_tab_finish(&t, PERFSYM_TAB_KALLSYMS, NULL, NULL);
		break;
	default:
		kallsyms_parse_jit((const char *)data + 1, size - 1, &t);
		perfsym_tab_finish(&t, PERFSYM_TAB_JIT, NULL, NULL);
	}
	probe(&t);
	perfsym_tab_release(&t);
	return 0;
}
