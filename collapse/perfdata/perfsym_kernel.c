/* perfsym_kernel: the search for a vmlinux and its reading. */
#include "perfsym_kernel.h"
#include "elfsym.h"
#include "xalloc.h"

#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

/* perf's vmlinux_path, in its order; %s is the kernel release. */
static const char *const places[] = {
	"vmlinux", "/boot/vmlinux", "/boot/vmlinux-%s", "/usr/lib/debug/boot/vmlinux-%s",
	"/lib/modules/%s/build/vmlinux", "/usr/lib/debug/lib/modules/%s/vmlinux",
	"/usr/lib/debug/boot/vmlinux-%s.debug"
};

/* The i-th place to look in, into buf: 1, 0 to skip it, -1 past the
 * last.  Place 0 is the build-id cache's copy. */
static int place(const struct perfsym_opts *o, int i, const char *hex, const char *release,
		 char *buf, size_t size)
{
	char bbuf[PATH_MAX];
	const char *bdir, *pct, *fs = o->symfs ? o->symfs : "";
	int n;

	if (i == 0) {
		bdir = perfsym_file_buildid_dir(o, bbuf, sizeof(bbuf));
		if (!bdir || !hex[0])
			return 0;
		n = snprintf(buf, size, "%s/.build-id/%.2s/%s", bdir, hex, hex + 2);
		return n > 0 && (size_t)n < size;
	}
	if ((size_t)i > sizeof(places) / sizeof(places[0]))
		return -1;
	pct = strstr(places[i - 1], "%s");
	if (pct && !release[0])
		return 0;
	/* A relative "vmlinux" is the current directory's, symfs or not. */
	n = snprintf(buf, size, "%s%.*s%s%s", places[i - 1][0] == '/' ? fs : "",
		     (int)(pct ? pct - places[i - 1] : (ptrdiff_t)strlen(places[i - 1])),
		     places[i - 1], pct ? release : "", pct ? pct + 2 : "");
	return n > 0 && (size_t)n < size;
}

/* Opens name as the vmlinux wanted: ELF with a .symtab and, when bid
 * is known, that build id. */
static int open_vmlinux(const char *name, const uint8_t *bid, size_t bid_len, struct elfsym *e)
{
	if (elfsym_open(e, name) != 0)
		return -1;
	if (e->symtab && (!bid_len || perfsym_file_same_id(bid, bid_len, e->build_id,
							    e->build_id_len)))
		return 0;
	elfsym_close(e);
	return -1;
}

int perfsym_kernel_vmlinux(struct perfsym_file *f, const struct perfsym_opts *o,
			   const uint8_t *bid, size_t bid_len, const char *refname,
			   uint64_t *ref, int *have_ref)
{
	struct utsname u;
	char hex[41] = "", name[PATH_MAX];
	const char *release = uname(&u) == 0 ? u.release : "";
	struct elfsym e;
	size_t i;
	int k, r;

	memset(f, 0, sizeof(*f));
	bid_len = bid_len < 20 ? bid_len : 20;
	for (i = 0; i < bid_len; i++)
		snprintf(hex + 2 * i, 3, "%02x", bid[i]);
	for (k = 0; (r = place(o, k, hex, release, name, sizeof(name))) >= 0; k++) {
		if (r == 0 || open_vmlinux(name, bid, bid_len, &e) != 0)
			continue;
		*have_ref = elfsym_value(&e, refname, ref) == 0;
		r = elfsym_load(&e, 0, &f->tab) > 0 ? 0 : -1;
		elfsym_close(&e);
		if (r == 0) {
			f->from = xstrndup(name, strlen(name));
			perfsym_tab_finish(&f->tab, PERFSYM_TAB_ELF, NULL, NULL);
			return 0;
		}
		perfsym_tab_release(&f->tab);
		perfsym_tab_init(&f->tab);
	}
	return -1;
}
