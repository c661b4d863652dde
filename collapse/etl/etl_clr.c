/* etl_clr: .NET JIT-compiled methods from the CLR's events
 * (EVENT_HEADER, manifest providers Microsoft-Windows-DotNETRuntime and
 * its Rundown): MethodLoadVerbose / MethodUnloadVerbose and the rundown's
 * MethodDCStartVerbose / MethodDCEndVerbose give a method's code range,
 * namespace, name and signature; ModuleLoad / ModuleDCStart /
 * ModuleDCEnd name its module.  A method's range becomes an image of its
 * process whose frames read "Module!Namespace.Name(args)". */
#include "etl_int.h"
#include "strtab.h"
#include "xalloc.h"

#include <string.h>

#define EV_HDR 80		/* EVENT_HEADER */
#define FLAG_EXT 0x0001		/* EVENT_HEADER_FLAG_EXTENDED_INFO */

static const unsigned char runtime_guid[16] = {	/* e13c0d23-ccbc-4e12-931b-d9cc2eee27e4 */
	0x23, 0x0d, 0x3c, 0xe1, 0xbc, 0xcc, 0x12, 0x4e,
	0x93, 0x1b, 0xd9, 0xcc, 0x2e, 0xee, 0x27, 0xe4 };
static const unsigned char rundown_guid[16] = {	/* a669021c-c450-4609-a035-5af59af4df18 */
	0x1c, 0x02, 0x69, 0xa6, 0x50, 0xc4, 0x09, 0x46,
	0xa0, 0x35, 0x5a, 0xf5, 0x9a, 0xf4, 0xdf, 0x18 };

/* A UTF-16 string at p (n bytes left) as ASCII ('?' for the rest, ':'
 * for ';') appended to buf at *len (cap bytes); returns the bytes it
 * took, its NUL included, or 0 when it has no end. */
static size_t wstr(const unsigned char *p, size_t n, char *buf, size_t *len, size_t cap)
{
	size_t i;

	for (i = 0; i + 1 < n; i += 2) {
		unsigned c = (unsigned)etl_le(p + i, 2);

		if (c == 0)
			return i + 2;
		if (*len < cap)
			buf[(*len)++] = c == ';' ? ':' : c < 0x80 && c >= 0x20 ? (char)c : '?';
	}
	return 0;
}

/* ModuleLoad and the rundown's module events: ModuleID, then after 24
 * bytes ModuleILPath, whose last part names the module. */
static void module(struct etl *x, const unsigned char *p, size_t n)
{
	char name[256];
	size_t len = 0, i, cut = 0;

	if (n < 26 || !wstr(p + 24, n - 24, name, &len, sizeof(name)))
		return;
	for (i = 0; i < len; i++)
		if (name[i] == '\\' || name[i] == '/')
			cut = i + 1;
	map64_set(&x->clrmods, etl_le(p, 8),
		  strtab_intern(x->names, len > cut ? name + cut : "?", len > cut ? len - cut : 1,
				NULL));
}

/* MethodLoadVerbose and kin: MethodID, ModuleID, start, size (4), token,
 * flags, then namespace, name and signature. */
static void method(struct etl *x, const unsigned char *e, const unsigned char *p, size_t n,
		   int load)
{
	char text[1024];
	size_t len = 0, at = 36, k, mark;
	struct erec *r;

	if (n < at)
		return;
	if (!(k = wstr(p + at, n - at, text, &len, sizeof(text) - 1)))
		return;
	at += k;
	if (len)
		text[len++] = '.';
	if (!(k = wstr(p + at, n - at, text, &len, sizeof(text))))
		return;
	at += k;
	mark = len;	/* the signature: only its argument list, from '(' */
	if (!wstr(p + at, n - at, text, &len, sizeof(text)))
		return;
	for (k = mark; k < len && text[k] != '('; k++)
		;
	memmove(text + mark, text + k, len - k);
	len = mark + (len - k);
	r = etl_record(x, load ? R_IMG_LOAD : R_IMG_UNLOAD, etl_le(e + 16, 8));
	r->pid = (uint32_t)etl_le(e + 12, 4);
	r->a = etl_le(p + 16, 8);
	r->b = etl_le(p + 24, 4);
	r->flags = (uint8_t)(IMG_JIT | (load == 2 ? IMG_RUNDOWN : 0));
	r->frag = strtab_intern(x->names, text, len, NULL);
	r->tid = etl_jit_module(x, etl_le(p + 8, 8));
}

/* An EVENT_HEADER event at e (size bytes): the CLR's are read. */
void etl_clr(struct etl *x, const unsigned char *e, size_t size)
{
	const unsigned char *p = e + EV_HDR;
	size_t n = size - EV_HDR;
	unsigned id;
	int rt, rd;

	if (size < EV_HDR || (etl_le(e + 4, 2) & FLAG_EXT))
		return;
	rt = memcmp(e + 24, runtime_guid, 16) == 0;
	rd = memcmp(e + 24, rundown_guid, 16) == 0;
	if (!rt && !rd)
		return;
	id = (unsigned)etl_le(e + 40, 2);
	if ((rt && id == 152) || (rd && (id == 153 || id == 154)))
		module(x, p, n);
	else if (id == 143 || (rd && id == 144))
		method(x, e, p, n, rt ? 1 : 2);		/* loaded, or there from the start */
	else if (rt && id == 144)
		method(x, e, p, n, 0);			/* unloaded */
}
