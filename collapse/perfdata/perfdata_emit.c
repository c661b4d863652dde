/* perfdata_emit: a sample to the perf collapser, frame by frame as perf
 * script prints them: "addr sym (dso)", where addr is, in a callchain, the
 * offset into the file for a mapped file and the address itself for the
 * kernel, JIT maps and addresses in no map (the sample's own address,
 * without a callchain, always itself); sym and dso are "[unknown]" when
 * not known. */
#include "perfdata_int.h"
#include "perf.h"
#include "perf_header.h"
#include "perfsym.h"
#include "perfunwind.h"
#include "numfmt.h"
#include "xalloc.h"

#include <inttypes.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_STACK PD_MAX_STACK
/* Inlined frames shown for one address, at most (perf's limit + 1). */
#define PERFINLINE_SHOWN 257

void pd_emit_free(struct pd *d)
{
	free(d->fcache);
	d->fcache = NULL;
}

/* Map m as the symbol resolver sees it. */
static void sym_map(const struct pd *d, const struct pd_map *m, struct perfsym_map *pm)
{
	pm->path = m->sympath;
	pm->start = m->start;
	pm->len = m->end - m->start;
	pm->pgoff = m->pgoff;
	pm->build_id = m->bid_len ? m->build_id : NULL;
	pm->build_id_len = m->bid_len;
	pm->pid = d->cur_pid;
}

/* Fills e with the frame at ip in map m, found the long way. */
static void resolve(struct pd *d, struct pd_map *m, uint64_t ip, struct pd_fcache *e)
{
	struct perfsym_map pm;
	const char *sym;
	uint64_t off;
	size_t len;

	sym_map(d, m, &pm);
	sym = perfsym_lookup(d->sym, &pm, ip, &off);
	/* A map of a file without symbols (missing, stripped) names none of
	 * its many addresses: they need not each be cached and looked up.
	 * A JIT map's names follow the process, and forks copy maps. */
	if (!sym && !m->by_pid && perfsym_names_none(d->sym, &pm))
		m->nameless = d->nameless_gen + 1;
	e->sym = sym ? sym : "[unknown]";
	len = strlen(e->sym);
	e->symlen = len < PD_LONG_SYM ? (uint32_t)len : PD_LONG_SYM;
	e->hint = 0;	/* another frame now */
}

/* The frame cache's key for ip in map m: (file id, offset into the
 * file), or (serial, address, pid) for a map whose names follow the
 * address or whose addresses are printed (raw: the sample's own). */
struct fkey {
	uint64_t at;			/* offset or address */
	uint32_t id;			/* file id or map serial */
	uint32_t pid;			/* 0 unless the map's by_pid */
};

static inline struct fkey key_of(const struct pd *d, const struct pd_map *m, uint64_t ip, int raw)
{
	struct fkey k;

	if (m->file && !raw) {
		k.at = ip - m->start + m->pgoff;
		k.id = m->file;
		k.pid = 0;
	} else {
		k.at = ip;
		k.id = m->serial;
		k.pid = m->by_pid ? d->cur_pid : 0;
	}
	return k;
}

/* The frame cache's slots: PD_FCACHE_SLOTS, or FLAME_PD_FCACHE's (a
 * power of 2 up to 2^20), with which the tests make frames collide. */
static size_t fcache_slots(void)
{
	const char *e = getenv("FLAME_PD_FCACHE");
	unsigned long n = e ? strtoul(e, NULL, 10) : 0;

	return n && n <= (1ul << 20) && !(n & (n - 1)) ? (size_t)n : PD_FCACHE_SLOTS;
}

/* Where key k goes in the cache. */
static size_t slot_of(const struct pd *d, struct fkey k)
{
	uint64_t h = (k.at ^ ((uint64_t)k.id << 40) ^ k.pid) * 0x9e3779b97f4a7c15ULL;

	return (size_t)(h >> 40) & (d->fslots - 1);
}

/* The kernel's text map for a kernel ip in no map, when perf's would
 * hold it: perf stretches that map over kallsyms' kernel symbols once it
 * has read them, so the init text past _etext is named. */
static struct pd_map *kernel_tail(struct pd *d, uint64_t ip)
{
	struct pd_map *k = pd_kernel_text(d);
	struct perfsym_map pm;
	uint64_t lo, hi;

	if (!k)
		return NULL;
	sym_map(d, k, &pm);
	return perfsym_kernel_span(d->sym, &pm, &lo, &hi) == 0 && lo <= ip && ip < hi ? k : NULL;
}

/* The map of f (its mode and ip set), or NULL: mode
 * PERF_RECORD_MISC_KERNEL or _USER names the maps to look in; the
 * hypervisor's and guests' addresses are in none. */
static struct pd_map *map_of(struct pd *d, struct pd_proc *user, const struct pd_rframe *f)
{
	struct pd_map *m;

	if (f->mode == PERF_RECORD_MISC_USER)
		return pd_find_map(user, f->ip);
	if (f->mode != PERF_RECORD_MISC_KERNEL)
		return NULL;
	m = pd_find_map(d->kernel, f->ip);
	return m ? m : kernel_tail(d, f->ip);
}

/* Whether m is known to have no names (resolve). */
static int nameless(const struct pd *d, const struct pd_map *m)
{
	return m->nameless && m->nameless == d->nameless_gen + 1;
}

/* Fills f with the frame as perf script prints it, from cache slot i
 * (slot_of) of map m, resolving it there when it is not.  Returns 1 when
 * the slot was given to f's frame now, else 0. */
static int fill(struct pd *d, struct pd_map *m, size_t i, struct pd_rframe *f, int raw)
{
	struct pd_fcache *e = &d->fcache[i];
	struct fkey k;
	int made = 0;

	f->hint = NULL;
	if (!m) {
		f->hint = d->pool ? NULL : &d->nomap_hint;
		f->pc = f->ip;
		f->sym = f->dso = "[unknown]";
		f->symlen = f->dlen = 9;
		return 0;
	}
	if (nameless(d, m)) {	/* as resolve would name it, uncached */
		f->hint = d->pool ? NULL : &m->hint;
		f->pc = m->ident || raw ? f->ip : f->ip - m->start + m->pgoff;
		f->sym = "[unknown]";
		f->symlen = 9;
		f->dso = m->path;
		f->dlen = (uint32_t)m->pathlen;
		return 0;
	}
	k = key_of(d, m, f->ip, raw);
	if (e->serial != k.id || e->ip != k.at || e->pid != k.pid || e->raw != (unsigned)raw) {
		resolve(d, m, f->ip, e);
		e->serial = k.id;
		e->ip = k.at;
		e->pid = k.pid;
		e->raw = raw & 1;
		made = 1;
	}
	/* The slot's key gives the DSO too (a file id its path, a serial
	 * its map): the collapser's note holds for (sym, dso) alike. */
	if (!d->pool)
		f->hint = &e->hint;
	f->pc = m->ident || raw ? f->ip : f->ip - m->start + m->pgoff;
	f->sym = e->sym;
	f->symlen = e->symlen != PD_LONG_SYM ? e->symlen : (uint32_t)strlen(e->sym);
	f->dso = m->path;
	f->dlen = (uint32_t)m->pathlen;
	return made;
}

static void lookup(struct pd *d, struct pd_proc *user, struct pd_rframe *f, int raw)
{
	struct pd_map *m = map_of(d, user, f);

	fill(d, m, m ? slot_of(d, key_of(d, m, f->ip, raw)) : 0, f, raw);
}

static void put(struct pd *d, const struct pd_rframe *f)
{
	pd_out_frame(d, f);
}

/* perf script shows the functions inlined at a DWARF-unwound frame f (of
 * map m, named) as frames of their own at its address, "inlined" for a
 * DSO.  Returns 0 when there are none to show: f is then put alone. */
static int put_inlines(struct pd *d, const struct pd_map *m, const struct pd_rframe *f)
{
	struct perfsym_inl in[PERFINLINE_SHOWN];
	struct perfsym_map pm;
	struct pd_rframe g = *f;
	size_t k, i;

	if (f->symlen == 9 && memcmp(f->sym, "[unknown]", 9) == 0)
		return 0;
	sym_map(d, m, &pm);
	k = perfsym_inlines(d->sym, &pm, f->ip, f->sym, in, PERFINLINE_SHOWN);
	for (i = 0; i < k; i++) {
		g.hint = NULL;
		g.sym = in[i].name;
		g.symlen = (uint32_t)strlen(in[i].name);
		g.dso = in[i].inlined ? "inlined" : f->dso;
		g.dlen = in[i].inlined ? 7 : f->dlen;
		put(d, &g);
	}
	return k > 0;
}

/* A frame of the callchain being read, resolved later (see emit_chain);
 * inl: unwound with DWARF, where perf adds the functions inlined. */
static void push(struct pd *d, unsigned mode, uint64_t ip, int inl)
{
	struct pd_rframe *f = &d->cur[d->ncur++];

	f->ip = ip;
	f->mode = (uint8_t)mode;
	f->inl = (uint8_t)inl;
}

/* perf drops a whole callchain holding a context it does not know (a
 * guest's, a deferred user one), as corrupt: the sample stays, frameless.
 * Only the entries it reaches count. */
static int chain_ok(const struct pd *d, const struct pd_sample *s)
{
	unsigned kept = 0;
	uint64_t i;

	for (i = 0; i < s->nchain && kept < MAX_STACK; i++) {
		uint64_t ip = pd_u64(d, s->chain + 8 * i);

		if (ip < PERF_CONTEXT_MAX)
			kept++;
		else if (ip != PERF_CONTEXT_KERNEL && ip != PERF_CONTEXT_USER && ip != PERF_CONTEXT_HV)
			return 0;
	}
	return 1;
}

/* For the unwinder: the file mapped at addr in the process unwound. */
static int unwind_map(void *ctx, uint32_t pid, uint64_t addr, struct perfunwind_map *um)
{
	struct pd *d = ctx;
	const struct pd_map *m = d->unwinding ? pd_find_map(d->unwinding, addr) : NULL;

	(void)pid;
	if (!m)
		return -1;
	um->start = m->start;
	um->end = m->end;
	um->pgoff = m->pgoff;
	um->path = m->sympath;
	return 0;
}

void pd_unwind_open(struct pd *d, const char *symfs)
{
	d->unwind = perfunwind_new(symfs, unwind_map, d);
}

void pd_unwind_close(struct pd *d)
{
	const struct perfunwind_stats *u = d->unwind ? perfunwind_stats(d->unwind) : NULL;
	char msg[200];

	if (u && u->failed) {
		snprintf(msg, sizeof(msg), "%" PRIu64 " of %" PRIu64 " DWARF user stacks could not "
			 "be unwound past their first frame (files missing or without CFI)",
			 u->failed, u->samples);
		d->warn(d->ctx, d->name, msg);
	}
	perfunwind_free(d->unwind);
	d->unwind = NULL;
}

/* --call-graph dwarf: the user frames unwound from the registers and the
 * stack copy the sample carries, after the kernel's, as perf script shows
 * them; *kept counts toward MAX_STACK.  0 when the sample has none. */
static int unwound(struct pd *d, const struct pd_sample *s, struct pd_proc *user, unsigned *kept)
{
	uint64_t regs[64], ips[MAX_STACK], mask = s->attr->regs_user;
	struct perfunwind_sample us;
	size_t n, i, k = 0;

	if (!d->unwind || !s->regs_abi || !s->stack || !s->stack_size || !mask || *kept >= MAX_STACK)
		return 0;
	for (i = 0; i < 64; i++)
		if (mask >> i & 1)
			regs[k] = pd_u64(d, s->regs + 8 * k), k++;
	us = (struct perfunwind_sample){ s->pid, s->tid, mask, regs, k, s->stack,
					 (size_t)s->stack_size };
	d->unwinding = user;
	n = perfunwind_stack(d->unwind, &us, ips, MAX_STACK - *kept);
	for (i = 0; i < n; i++)
		push(d, PERF_RECORD_MISC_USER, ips[i], 1);
	*kept += (unsigned)n;
	return n > 0;
}

/* The callchain, leaf first: PERF_CONTEXT_* entries say whose addresses
 * follow (perf starts in user space).  A DWARF recording's chain stops at
 * the kernel's frames; the user's are unwound in their place. */
static void chain(struct pd *d, const struct pd_sample *s, struct pd_proc *user)
{
	unsigned mode = PERF_RECORD_MISC_USER, kept = 0;
	int user_done = 0;
	uint64_t i;

	if (!chain_ok(d, s))
		return;
	for (i = 0; i < s->nchain && kept < MAX_STACK; i++) {
		uint64_t ip = pd_u64(d, s->chain + 8 * i);

		if (ip >= PERF_CONTEXT_MAX) {
			mode = ip == PERF_CONTEXT_KERNEL ? PERF_RECORD_MISC_KERNEL :
			       ip == PERF_CONTEXT_USER ? PERF_RECORD_MISC_USER :
			       PERF_RECORD_MISC_HYPERVISOR;
			if (mode == PERF_RECORD_MISC_USER && !user_done)
				user_done = unwound(d, s, user, &kept);
			continue;
		}
		if (mode == PERF_RECORD_MISC_USER && user_done)
			continue;	/* the unwinder began at this IP */
		kept++;
		push(d, mode, ip, 0);
	}
	if (!user_done)
		unwound(d, s, user, &kept);
}

/* Frame i took a cache slot from another: frames before it that were
 * filled from that slot must not leave the collapser a note there. */
static void forget_hint(struct pd *d, size_t i)
{
	size_t j;

	for (j = 0; j < i; j++)
		if (d->cur[j].hint == d->cur[i].hint)
			d->cur[j].hint = NULL;
}

/* Emits the frames pushed, leaf first.  Their maps and cache slots are
 * found first and the slots prefetched, so that the cache's misses (it
 * is larger than the CPU's) overlap instead of coming one by one. */
static void emit_chain(struct pd *d, struct pd_proc *user)
{
	size_t i;

	for (i = 0; i < d->ncur; i++) {
		struct pd_map *m = map_of(d, user, &d->cur[i]);

		d->curmap[i] = m;
		if (m && !nameless(d, m)) {
			d->curslot[i] = slot_of(d, key_of(d, m, d->cur[i].ip, 0));
			__builtin_prefetch(&d->fcache[d->curslot[i]]);
		}
	}
	for (i = 0; i < d->ncur; i++)
		if (fill(d, d->curmap[i], d->curslot[i], &d->cur[i], 0))
			forget_hint(d, i);
	for (i = 0; i < d->ncur; i++)
		if (!d->cur[i].inl || !d->curmap[i] || !put_inlines(d, d->curmap[i], &d->cur[i]))
			put(d, &d->cur[i]);
	d->ncur = 0;
}

static size_t dec(char *out, uint32_t v)
{
	if (v == UINT32_MAX) {	/* -1: no such id */
		memcpy(out, "-1", 2);
		return 2;
	}
	return numfmt_u64(out, v);
}

void pd_emit(struct pd *d, const struct pd_sample *s)
{
	struct pd_thread *t = pd_thread_get(d, s->pid, s->tid);
	struct perf_header h;
	char ids[32];

	if (d->hook) {
		d->hook(d, s);
		return;
	}
	memset(&h, 0, sizeof(h));
	h.comm = pd_thread_comm(d, t, &h.commlen);
	h.pid = ids;
	h.pidlen = dec(ids, s->pid);
	h.tid = ids + 16;
	h.tidlen = dec(ids + 16, s->tid);
	h.event = s->attr->name;
	/* The text path reads "cycles:pp:" and "sched:sched_switch:" up to
	 * the first colon; names must match it for --event-filter. */
	h.eventlen = strcspn(s->attr->name, ":");
	/* perf script prints no period for tracepoints: each counts 1 there. */
	h.period = s->attr->type == PERF_TYPE_TRACEPOINT ? 0 : s->period;
	if (s->time != UINT64_MAX) {
		/* perf script prints microseconds; filters compare those. */
		h.time = (double)(s->time / 1000000000) + (double)(s->time % 1000000000 / 1000) / 1e6;
		h.has_time = 1;
	}
	d->st->samples++;
	if (!d->out_started) {
		d->out_started = 1;
		d->fslots = fcache_slots();
		d->fcache = xcalloc(d->fslots, sizeof(*d->fcache));
		pd_out_start(d, d->stable ? d->workers : 1);
	}
	if (pd_out_begin(d, &h)) {
		struct pd_proc *user = pd_proc_of(d, t);

		d->cur_pid = t->pid;
		if (s->attr->sample_type & PERF_SAMPLE_CALLCHAIN) {
			d->ncur = 0;
			chain(d, s, user);
			emit_chain(d, user);
		} else {
			struct pd_rframe f;

			f.ip = s->ip;
			f.mode = (uint8_t)s->cpumode;
			f.inl = 0;
			lookup(d, user, &f, 1);
			put(d, &f);
		}
	}
	pd_out_end(d);
}
