/* etl_events: kernel event payloads (MOF classes) into records. */
#include "etl_int.h"
#include "hkey.h"
#include "strtab.h"
#include "xalloc.h"

#include <string.h>

#define MAX_FRAMES 4096		/* per fragment: Windows walks at most 192 */

struct erec *etl_record(struct etl *x, enum rkind kind, uint64_t ts)
{
	struct erec *r;

	if (x->nrec == x->reccap)
		xgrow(&x->rec, &x->reccap, x->nrec + 1, sizeof(*x->rec));
	r = &x->rec[x->nrec];
	memset(r, 0, sizeof(*r));
	r->kind = (uint8_t)kind;
	r->ts = ts;
	r->cpu = x->cpu;
	if (ts > x->cpumax[x->cpu])
		x->cpumax[x->cpu] = ts;
	if (x->cpu >= x->ncpu)
		x->ncpu = x->cpu + 1u;
	x->nrec++;
	return r;
}

uint32_t etl_jit_module(struct etl *x, uint64_t modid)
{
	if (x->nmodids == x->modidcap)
		xgrow(&x->modids, &x->modidcap, x->nmodids + 1, sizeof(*x->modids));
	x->modids[x->nmodids] = modid;
	return (uint32_t)x->nmodids++;
}

/* Interns count addresses at p (psz bytes each); returns the fragment's id. */
uint32_t etl_frag(struct etl *x, const unsigned char *p, size_t count, int psz)
{
	uint64_t h = hkey(p, count * (size_t)psz) ^ count;
	size_t c = 0, i;
	uint32_t id;

	while (map64_next(&x->fragmap, h, &c, &id) == 0) {
		const uint64_t *a = x->addr + x->fragat[id];

		if (x->fraglen[id] != count)
			continue;
		for (i = 0; i < count && a[i] == etl_le(p + i * (size_t)psz, psz); i++)
			;
		if (i == count)
			return id;
	}
	if (x->naddr + count > x->addrcap)
		xgrow(&x->addr, &x->addrcap, x->naddr + count, sizeof(*x->addr));
	if (x->nfrag == x->fragcap) {
		size_t cap = x->fragcap;

		xgrow(&x->fragat, &x->fragcap, x->nfrag + 1, sizeof(*x->fragat));
		xgrow(&x->fraglen, &cap, x->nfrag + 1, sizeof(*x->fraglen));
	}
	for (i = 0; i < count; i++)
		x->addr[x->naddr + i] = etl_le(p + i * (size_t)psz, psz);
	id = (uint32_t)x->nfrag++;
	x->fragat[id] = x->naddr;
	x->fraglen[id] = (uint32_t)count;
	x->naddr += count;
	map64_put(&x->fragmap, h, id);
	return id;
}

/* A file name's last part, from UTF-16 at p (n bytes at most). */
static uint32_t module_name(struct etl *x, const unsigned char *p, size_t n)
{
	char name[256];
	size_t i, len = 0;

	for (i = 0; i + 1 < n; i += 2) {
		unsigned c = (unsigned)etl_le(p + i, 2);

		if (c == 0)
			break;
		if (c == '\\' || c == '/')
			len = 0;
		else if (len < sizeof(name) - 1)
			name[len++] = c < 0x80 && c != ';' ? (char)c : c == ';' ? ':' : '?';
	}
	if (!len)
		return strtab_intern(x->names, "?", 1, NULL);
	return strtab_intern(x->names, name, len, NULL);
}

/* Image Load/Unload/DCStart: base, size, process, file name. */
static void image(struct etl *x, unsigned hook, int version, uint64_t ts,
		  const unsigned char *p, size_t n, int psz)
{
	size_t pid_at = 2 * (size_t)psz, name_at;
	struct erec *r;

	name_at = version >= 2 ? 44 + 3 * (size_t)(psz - 4) : 12 + 2 * (size_t)(psz - 4);
	if (n < pid_at + 4 || (hook != HOOK_IMG_UNLOAD && n < name_at)) {
		x->st.bad_events++;
		return;
	}
	r = etl_record(x, hook == HOOK_IMG_UNLOAD ? R_IMG_UNLOAD : R_IMG_LOAD, ts);
	r->a = etl_le(p, psz);
	r->b = etl_le(p + psz, psz);
	r->pid = version >= 1 ? (uint32_t)etl_le(p + pid_at, 4) : 0;
	r->flags = hook == HOOK_IMG_DCSTART ? IMG_RUNDOWN : 0;
	if (hook != HOOK_IMG_UNLOAD)
		r->frag = module_name(x, p + name_at, n - name_at);
}

/* The size of the SID at p (TOKEN_USER then the SID, or a zero word). */
static size_t sid_size(const unsigned char *p, size_t n, int psz)
{
	size_t token = 2 * (size_t)psz;

	if (n < 4)
		return n + 1;
	if (etl_le(p, 4) == 0)
		return 4;
	if (n < token + 2)
		return n + 1;
	return token + 8 + 4 * (size_t)p[token + 1];
}

/* Process Start/DCStart: its id and ImageFileName (after a SID). */
static void process(struct etl *x, int version, uint64_t ts, const unsigned char *p, size_t n,
		    int psz)
{
	size_t sid_at = version >= 4 ? 28 + 2 * (size_t)(psz - 4)
		      : version >= 3 ? 24 + 2 * (size_t)(psz - 4) : 20 + (size_t)(psz - 4);
	size_t at, len;
	struct erec *r;

	if (version < 1 || n < sid_at) {
		x->st.bad_events++;
		return;
	}
	at = sid_at + sid_size(p + sid_at, n - sid_at, psz);
	if (at > n) {
		x->st.bad_events++;
		return;
	}
	for (len = 0; at + len < n && p[at + len]; len++)
		;
	r = etl_record(x, R_PROC, ts);
	r->pid = (uint32_t)etl_le(p + psz, 4);
	r->frag = strtab_intern(x->names, len ? (const char *)p + at : "?", len ? len : 1, NULL);
}

/* StackWalk Stack: EventTimeStamp, process, thread, addresses. */
static void stack(struct etl *x, uint64_t ts, const unsigned char *p, size_t n, int psz)
{
	size_t count = n >= 16 ? (n - 16) / (size_t)psz : 0;
	struct erec *r;

	if (count == 0 || count > MAX_FRAMES) {
		x->st.bad_events++;
		return;
	}
	r = etl_record(x, R_STACK, ts);
	r->a = etl_le(p, 8);
	r->pid = (uint32_t)etl_le(p + 8, 4);
	r->tid = (uint32_t)etl_le(p + 12, 4);
	r->frag = etl_frag(x, p + 16, count, psz);
	x->st.stacks++;
}

static void key_ref(struct etl *x, unsigned hook, uint64_t ts, const unsigned char *p, size_t n,
		    int psz)
{
	struct erec *r;

	if (n < 16 + (size_t)psz) {
		x->st.bad_events++;
		return;
	}
	r = etl_record(x, hook == HOOK_KEY_KERNEL ? R_KEY_KERNEL : R_KEY_USER, ts);
	r->a = etl_le(p, 8);
	r->pid = (uint32_t)etl_le(p + 8, 4);
	r->tid = (uint32_t)etl_le(p + 12, 4);
	r->b = etl_le(p + 16, psz);
	x->st.stacks++;
}

/* KeyDelete/KeyRundown: a key, then its addresses. */
static void key_def(struct etl *x, uint64_t ts, const unsigned char *p, size_t n, int psz)
{
	size_t count = n / (size_t)psz;
	struct erec *r;

	if (count < 2 || count - 1 > MAX_FRAMES) {
		x->st.bad_events++;
		return;
	}
	r = etl_record(x, R_KEY_DEF, ts);
	r->b = etl_le(p, psz);
	r->frag = etl_frag(x, p + psz, count - 1, psz);
}

static void sample(struct etl *x, uint64_t ts, const unsigned char *p, size_t n, int psz)
{
	struct erec *r;

	if (n < (size_t)psz + 8) {
		x->st.bad_events++;
		return;
	}
	r = etl_record(x, R_SAMPLE, ts);
	r->a = etl_le(p, psz);
	r->tid = (uint32_t)etl_le(p + psz, 4);
	r->flags = p[psz + 6] & 3;	/* ExecutingDPC, ExecutingISR */
	x->st.samples++;
}

/* Whether the reader reads events of this hook. */
int etl_hook_used(unsigned hook)
{
	switch (hook) {
	case HOOK_SAMPLE: case HOOK_STACK: case HOOK_KEY_KERNEL: case HOOK_KEY_USER:
	case HOOK_KEY_DELETE: case HOOK_KEY_RUNDOWN: case HOOK_IMG_LOAD: case HOOK_IMG_DCSTART:
	case HOOK_IMG_UNLOAD: case HOOK_PROC_IMG_LOAD: case HOOK_PROC_START: case HOOK_PROC_DCSTART:
	case HOOK_PROC_START + 1: case HOOK_PROC_DCSTART + 1: case HOOK_THREAD_START:
	case HOOK_THREAD_DCSTART: case HOOK_THREAD_START + 1: case HOOK_THREAD_DCSTART + 1:
		return 1;
	default:
		return 0;
	}
}

void etl_kernel(struct etl *x, unsigned hook, int version, uint64_t ts, uint32_t tid,
		uint32_t pid, const unsigned char *p, size_t n, int psz)
{
	struct erec *r;

	(void)tid;
	(void)pid;
	switch (hook) {
	case HOOK_SAMPLE: sample(x, ts, p, n, psz); break;
	case HOOK_STACK: stack(x, ts, p, n, psz); break;
	case HOOK_KEY_KERNEL: case HOOK_KEY_USER: key_ref(x, hook, ts, p, n, psz); break;
	case HOOK_KEY_DELETE: case HOOK_KEY_RUNDOWN: key_def(x, ts, p, n, psz); break;
	case HOOK_IMG_LOAD: case HOOK_PROC_IMG_LOAD: case HOOK_IMG_DCSTART: case HOOK_IMG_UNLOAD:
		image(x, hook, version, ts, p, n, psz);
		break;
	case HOOK_PROC_START: case HOOK_PROC_DCSTART: case HOOK_PROC_START + 1:
	case HOOK_PROC_DCSTART + 1:
		process(x, version, ts, p, n, psz);
		break;
	case HOOK_THREAD_START: case HOOK_THREAD_DCSTART: case HOOK_THREAD_START + 1:
	case HOOK_THREAD_DCSTART + 1:
		if (n < 8) {
			x->st.bad_events++;
			break;
		}
		r = etl_record(x, R_THREAD, ts);
		r->pid = (uint32_t)etl_le(p, 4);
		r->tid = (uint32_t)etl_le(p + 4, 4);
		break;
	default: break;
	}
}
