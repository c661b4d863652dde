/* perfdata_file: the parts of a perf.data around its records: the file
 * header, the attribute section and its ids, and the feature sections
 * the stacks need (event names, build ids); in pipe mode the same come
 * as records (HEADER_ATTR, HEADER_FEATURE, EVENT_UPDATE, BUILD_ID). */
#include "perfdata_int.h"
#include "perfsym.h"
#include "xalloc.h"

#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define FEAT_BUILD_ID 2		/* HEADER_BUILD_ID */
#define FEAT_EVENT_DESC 12	/* HEADER_EVENT_DESC */
#define BUILD_ID_SIZE_MISC (1 << 15)	/* PERF_RECORD_MISC_BUILD_ID_SIZE */

static uint64_t reverse_bits(uint64_t v)
{
	uint64_t r = 0;
	int i;

	for (i = 0; i < 64; i++)
		r |= ((v >> i) & 1) << (63 - i);
	return r;
}

static const char *const hw_names[] = {
	"cycles", "instructions", "cache-references", "cache-misses", "branches",
	"branch-misses", "bus-cycles", "stalled-cycles-frontend", "stalled-cycles-backend",
	"ref-cycles",
};
static const char *const sw_names[] = {
	"cpu-clock", "task-clock", "page-faults", "context-switches", "cpu-migrations",
	"minor-faults", "major-faults", "alignment-faults", "emulation-faults", "dummy",
	"bpf-output", "cgroup-switches",
};

/* The name perf gives an event it has no name for: the generic name and
 * the modifiers its exclude bits and precision make (":u", ":ppp", ...). */
static void default_name(struct pd_attr *a)
{
	uint64_t f = a->flags;
	int n, colon = 0, precise = (int)((f >> 15) & 3), guest_default = 0;
	char *s = a->name;
	const size_t cap = sizeof(a->name) - 8;

	if (a->type == PERF_TYPE_HARDWARE && a->config < sizeof(hw_names) / sizeof(hw_names[0]))
		n = snprintf(s, cap, "%s", hw_names[a->config]);
	else if (a->type == PERF_TYPE_SOFTWARE && a->config < sizeof(sw_names) / sizeof(sw_names[0]))
		n = snprintf(s, cap, "%s", sw_names[a->config]);
	else if (a->type == PERF_TYPE_RAW)
		n = snprintf(s, cap, "r%llx", (unsigned long long)a->config);
	else
		n = snprintf(s, cap, "unknown-%u-%llx", a->type, (unsigned long long)a->config);
	if (n < 0 || (size_t)n >= cap)
		n = (int)cap - 1;
#define MOD(bit, c) do { if (!(f & (1ULL << (bit)))) { if (!colon) colon = 1, s[n++] = ':'; s[n++] = (c); } } while (0)
	if (f & (7ULL << 4)) {
		MOD(5, 'k');
		MOD(4, 'u');
		MOD(6, 'h');
		guest_default = 1;
	}
	if (precise) {
		if (!colon)
			colon = 1, s[n++] = ':';
		while (precise--)
			s[n++] = 'p';
		guest_default = 1;
	}
	if ((f & (1ULL << 19)) || !!(f & (1ULL << 20)) == guest_default) {
		MOD(19, 'H');
		MOD(20, 'G');
	}
#undef MOD
	s[n] = '\0';
}

void pd_attr_parse(struct pd *d, const unsigned char *p, size_t n, struct pd_attr *a)
{
	memset(a, 0, sizeof(*a));
	if (n >= 16) {
		a->type = pd_u32(d, p);
		a->config = pd_u64(d, p + 8);
	}
	if (n >= 48) {
		a->sample_type = pd_u64(d, p + 24);
		a->read_format = pd_u64(d, p + 32);
		a->flags = pd_u64(d, p + 40);
		if (d->swap)	/* bitfields: the first is the top bit there */
			a->flags = reverse_bits(a->flags);
	}
	if (n >= 80)
		a->branch_sample_type = pd_u64(d, p + 72);
	if (n >= 88)
		a->regs_user = pd_u64(d, p + 80);
	if (n >= 104)
		a->regs_intr = pd_u64(d, p + 96);
	default_name(a);
}

struct pd_attr *pd_add_attr(struct pd *d)
{
	size_t cap = d->nattrs;

	xgrow(&d->attrs, &cap, d->nattrs + 1, sizeof(*d->attrs));
	return &d->attrs[d->nattrs++];
}

/* ids: n u64 at p. */
void pd_attr_ids(struct pd *d, struct pd_attr *a, const unsigned char *p, size_t n)
{
	size_t i;

	a->ids = xmalloc((n ? n : 1) * sizeof(*a->ids));
	for (i = 0; i < n; i++)
		a->ids[i] = pd_u64(d, p + 8 * i);
	a->nids = n;
}

static struct pd_attr *attr_with_id(struct pd *d, uint64_t id)
{
	size_t i, j;

	for (i = 0; i < d->nattrs; i++)
		for (j = 0; j < d->attrs[i].nids; j++)
			if (d->attrs[i].ids[j] == id)
				return &d->attrs[i];
	return NULL;
}

static void set_name(struct pd_attr *a, const unsigned char *s, size_t n)
{
	n = strnlen((const char *)s, n);
	if (n >= sizeof(a->name))
		n = sizeof(a->name) - 1;
	memcpy(a->name, s, n);
	a->name[n] = '\0';
}

/* HEADER_EVENT_DESC: nr, attr size, then per event its attr, id count,
 * name (u32 length, bytes) and ids.  An event is matched by its first
 * id, else by its place. */
void pd_event_desc(struct pd *d, const unsigned char *p, size_t n, uint64_t off)
{
	size_t pos = 8, i, nr, asz;

	if (n < 8)
		goto bad;
	nr = pd_u32(d, p);
	asz = pd_u32(d, p + 4);
	for (i = 0; i < nr; i++) {
		size_t nids, slen;
		struct pd_attr *a;

		if (asz > n - pos || n - pos - asz < 8)
			goto bad;
		pos += asz;
		nids = pd_u32(d, p + pos);
		slen = pd_u32(d, p + pos + 4);
		pos += 8;
		if (slen > n - pos || nids > (n - pos - slen) / 8)
			goto bad;
		a = nids ? attr_with_id(d, pd_u64(d, p + pos + slen)) : NULL;
		if (!a && i < d->nattrs)
			a = &d->attrs[i];
		if (a)
			set_name(a, p + pos, slen);
		pos += slen + 8 * nids;
	}
	return;
bad:
	pd_bad(d, off, "event descriptions cut short; events unnamed from here keep perf's generic names");
}

/* perf names the kernel after the first kernel file of the build-id
 * table that is not a module: "[kernel.kallsyms]", or a vmlinux path. */
static void kernel_name(struct pd *d, const char *path)
{
	size_t n = strlen(path);

	if (d->kname || (path[0] == '[' && strcmp(path, "[kernel.kallsyms]") != 0) || !n ||
	    strstr(path, ".ko"))
		return;
	d->kname = xstrndup(path, n);
}

/* build_id_event records: header, pid, 24 bytes of id (the first byte
 * after 20 its size, when misc says so), file name. */
void pd_build_ids(struct pd *d, const unsigned char *p, size_t n, uint64_t off)
{
	size_t pos = 0;

	while (n - pos >= 8) {
		size_t size = pd_u16(d, p + pos + 6), idlen = 20;
		char *path;

		if (size < 36 || size > n - pos) {
			pd_bad(d, off + pos, "build id entry of %zu bytes; stopped reading build ids", size);
			return;
		}
		if ((pd_u16(d, p + pos + 4) & BUILD_ID_SIZE_MISC) && p[pos + 32] <= 20)
			idlen = p[pos + 32];
		path = xstrndup((const char *)p + pos + 36, strnlen((const char *)p + pos + 36, size - 36));
		perfsym_note_build_id(d->sym, path, p + pos + 12, idlen);
		if ((pd_u16(d, p + pos + 4) & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL) {
			kernel_name(d, path);
			/* The kernel's id whatever perf called it ("vmlinux"
			 * when one was found while recording). */
			if (d->kname && strcmp(d->kname, path) == 0)
				perfsym_note_build_id(d->sym, "[kernel.kallsyms]", p + pos + 12, idlen);
		}
		free(path);
		pos += size;
	}
	pd_emit_flush(d);	/* in pipe mode, frames may have been named without */
}

/* The feature sections: a table after the data, one entry per bit set. */
static void features(struct pd *d, const unsigned char *b, uint64_t size, uint64_t at,
		     const uint64_t bits[4])
{
	int f;

	for (f = 0; f < 256; f++) {
		uint64_t off, len;

		if (!(bits[f / 64] >> (f % 64) & 1))
			continue;
		if (at > size || size - at < 16) {
			pd_bad(d, at, "feature table runs past the end of the file");
			return;
		}
		off = pd_u64(d, b + at);
		len = pd_u64(d, b + at + 8);
		at += 16;
		if (off > size || len > size - off) {
			pd_bad(d, at - 16, "feature %d section lies outside the file; skipped", f);
			continue;
		}
		if (f == FEAT_EVENT_DESC)
			pd_event_desc(d, b + off, (size_t)len, off);
		else if (f == FEAT_BUILD_ID)
			pd_build_ids(d, b + off, (size_t)len, off);
	}
}

/* The attribute section: entries of attr_size bytes, an attr and the
 * place of its ids. */
static int attrs(struct pd *d, const unsigned char *b, uint64_t size, const unsigned char *h,
		 char *err, size_t errlen)
{
	uint64_t asz = pd_u64(d, h + 16), off = pd_u64(d, h + 24), len = pd_u64(d, h + 32), i;

	if (asz <= 16 || asz > 4096 || off > size || len > size - off || len / asz == 0) {
		snprintf(err, errlen, "byte 16: no readable event attributes (entry size %llu, "
			 "section %llu bytes at %llu)", (unsigned long long)asz,
			 (unsigned long long)len, (unsigned long long)off);
		return -1;
	}
	for (i = 0; i < len / asz; i++) {
		const unsigned char *e = b + off + i * asz;
		struct pd_attr *a = pd_add_attr(d);
		uint64_t ioff = pd_u64(d, e + asz - 16), ilen = pd_u64(d, e + asz - 8);

		pd_attr_parse(d, e, (size_t)(asz - 16), a);
		if (ioff > size || ilen > size - ioff) {
			pd_bad(d, off + i * asz, "ids of event %llu lie outside the file",
			       (unsigned long long)i);
			ioff = ilen = 0;
		}
		pd_attr_ids(d, a, b + ioff, (size_t)(ilen / 8));
	}
	return 0;
}



int pd_file(struct pd *d, const unsigned char *b, uint64_t size, uint64_t *doffp,
	    uint64_t *dlenp, char *err, size_t errlen)
{
	uint64_t doff, dlen, bits[4];
	int i;

	if (size < 104 || pd_u64(d, b + 8) < 104) {
		snprintf(err, errlen, "byte 0: perf.data header cut short");
		return -1;
	}
	if (attrs(d, b, size, b, err, errlen) < 0)
		return -1;
	doff = pd_u64(d, b + 40);
	dlen = pd_u64(d, b + 48);
	for (i = 0; i < 4; i++)
		bits[i] = pd_u64(d, b + 72 + 8 * i);
	if (doff > size || dlen > size - doff) {
		pd_bad(d, 40, "data section (%llu bytes at %llu) runs past the end of the file "
		       "(%llu bytes): cut short?", (unsigned long long)dlen,
		       (unsigned long long)doff, (unsigned long long)size);
		dlen = doff > size ? 0 : size - doff;
	} else {
		features(d, b, size, doff + dlen, bits);
	}
	pd_layout(d);
	*doffp = doff;
	*dlenp = dlen;
	return 0;
}

/* PERF_RECORD_HEADER_ATTR: the attr (its own size) and then its ids. */
void pd_pipe_attr(struct pd *d, const unsigned char *r, size_t len, uint64_t off)
{
	size_t asz;
	struct pd_attr *a;

	if (len < 8 + 8 || (asz = pd_u32(d, r + 8 + 4)) == 0)
		asz = 64;
	if (asz > len - 8) {
		pd_bad(d, off, "attribute record of %zu bytes is too short", len);
		return;
	}
	a = pd_add_attr(d);
	pd_attr_parse(d, r + 8, asz, a);
	pd_attr_ids(d, a, r + 8 + asz, (len - 8 - asz) / 8);
	pd_layout(d);
}

/* PERF_RECORD_EVENT_UPDATE of type NAME (2): an event's name by id. */
void pd_event_update(struct pd *d, const unsigned char *r, size_t len)
{
	struct pd_attr *a;

	if (len <= 24 || pd_u64(d, r + 8) != 2)
		return;
	if ((a = attr_with_id(d, pd_u64(d, r + 16))))
		set_name(a, r + 24, len - 24);
}
