/* etl_pe: names in a PE image through llvm-symbolizer (which reads the
 * image's PDB on any OS).  The image's preferred base, from its optional
 * header, turns an RVA into the address llvm-symbolizer expects; one
 * process per image, asked an address a line and answering two lines
 * (--output-style=GNU: function, file:line). */
#include "child.h"
#include "etl_int.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct etl_pe {
	uint64_t base;		/* the image's preferred base */
	struct child *sym;	/* llvm-symbolizer */
	int dead;		/* it stopped answering */
};

/* The preferred image base of the PE file, or -1 when it is none. */
static int image_base(const char *file, uint64_t *base)
{
	unsigned char h[1024];
	FILE *f = fopen(file, "rb");
	size_t n = f ? fread(h, 1, sizeof(h), f) : 0, pe, opt;

	if (f)
		fclose(f);
	if (n < 0x40 || h[0] != 'M' || h[1] != 'Z')
		return -1;
	pe = (size_t)etl_le(h + 0x3c, 4);
	opt = pe + 24;
	if (pe > n - 4 || n - opt < 40 || memcmp(h + pe, "PE\0\0", 4) != 0)
		return -1;
	if (etl_le(h + opt, 2) == 0x20b)
		*base = etl_le(h + opt + 24, 8);
	else if (etl_le(h + opt, 2) == 0x10b)
		*base = etl_le(h + opt + 28, 4);
	else
		return -1;
	return 0;
}

/* Starts llvm-symbolizer on file, asked on its stdin. */
static int start(struct etl_pe *p, const char *file)
{
	char *obj = xmalloc(strlen(file) + 7);
	const char *argv[] = { "llvm-symbolizer", obj, "--output-style=GNU", "--no-inlines",
			       "--functions=linkage", "--demangle", NULL };

	sprintf(obj, "--obj=%s", file);
	p->sym = child_start(argv, 1);
	free(obj);
	return p->sym ? 0 : -1;
}

struct etl_pe *etl_pe_new(const char *file, const char **why)
{
	struct etl_pe *p = xcalloc(1, sizeof(*p));

	*why = "is no PE image; its frames stay unnamed";
	if (image_base(file, &p->base) == 0) {
		*why = "llvm-symbolizer cannot be run (is it on PATH?); the image's frames stay unnamed";
		if (start(p, file) == 0)
			return p;
	}
	free(p);
	return NULL;
}

/* Reads one answer line into buf (cap bytes), newline dropped; its length
 * or -1. */
static long answer(struct etl_pe *p, char *buf, size_t cap)
{
	FILE *in = child_out(p->sym);
	size_t n;

	if (!fgets(buf, (int)cap, in))
		return -1;
	n = strlen(buf);
	if (n && buf[n - 1] == '\n')
		buf[--n] = 0;
	else {
		int c;

		while ((c = getc(in)) != EOF && c != '\n')
			;		/* a name longer than buf: cut */
	}
	if (n && buf[n - 1] == '\r')
		buf[--n] = 0;		/* a Windows build of it */
	return (long)n;
}

size_t etl_pe_name(struct etl_pe *p, uint64_t rva, char *buf, size_t cap)
{
	char line[40], where[256];
	int n = snprintf(line, sizeof(line), "0x%llx\n", (unsigned long long)(p->base + rva));
	long len;
	size_t i;

	if (p->dead || child_send(p->sym, line, (size_t)n) < 0 ||
	    (len = answer(p, buf, cap)) < 0 || answer(p, where, sizeof(where)) < 0) {
		p->dead = 1;
		return 0;
	}
	if (len == 0 || strcmp(buf, "??") == 0)
		return 0;
	for (i = 0; i < (size_t)len; i++)
		if (buf[i] == ';')
			buf[i] = ':';	/* ';' separates frames */
	return (size_t)len;
}

void etl_pe_free(struct etl_pe *p)
{
	if (!p)
		return;
	child_finish(p->sym);
	free(p);
}
