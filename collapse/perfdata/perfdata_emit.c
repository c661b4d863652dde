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

#include <inttypes.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>

/* perf script shows at most this many frames (kernel.perf_event_max_stack). */
#define MAX_STACK 127

static size_t hex(char *out, uint64_t v)
{
	char tmp[16];
	size_t n = 0, i;

	do {
		tmp[n++] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	for (i = 0; i < n; i++)
		out[i] = tmp[n - 1 - i];
	return n;
}

/* mode: PERF_RECORD_MISC_KERNEL or _USER name the maps to look in; the
 * hypervisor's and guests' addresses are in none. */
static void frame(struct pd *d, struct pd_proc *user, unsigned mode, uint64_t ip, int raw)
{
	int kernel = mode == PERF_RECORD_MISC_KERNEL;
	const struct pd_map *m = kernel ? pd_find_map(d->kernel, ip) :
				 mode == PERF_RECORD_MISC_USER ? pd_find_map(user, ip) : NULL;
	const char *sym = NULL, *dso = "[unknown]";
	size_t dlen = 9, n;
	struct perfsym_map pm;
	uint64_t off;

	if (!m) {
		n = hex(d->hexbuf, ip);
		perf_event_frame(d->perf, d->hexbuf, n, "[unknown]", 9, dso, dlen);
		return;
	}
	dso = m->path;
	dlen = m->pathlen;
	n = hex(d->hexbuf, m->ident || raw ? ip : ip - m->start + m->pgoff);
	pm.path = m->sympath;
	pm.start = m->start;
	pm.len = m->end - m->start;
	pm.pgoff = m->pgoff;
	pm.build_id = m->bid_len ? m->build_id : NULL;
	pm.build_id_len = m->bid_len;
	pm.pid = d->cur_pid;
	sym = perfsym_lookup(d->sym, &pm, ip, &off);
	if (!sym)
		sym = "[unknown]";
	perf_event_frame(d->perf, d->hexbuf, n, sym, strlen(sym), dso, dlen);
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
		frame(d, user, PERF_RECORD_MISC_USER, ips[i], 0);
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
		frame(d, user, mode, ip, 0);
	}
	if (!user_done)
		unwound(d, s, user, &kept);
}

static size_t dec(char *out, uint32_t v)
{
	char tmp[12];
	size_t n = 0, i = 0;

	if (v == UINT32_MAX) {	/* -1: no such id */
		memcpy(out, "-1", 2);
		return 2;
	}
	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		out[i++] = tmp[--n];
	return i;
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
	if (perf_event_begin(d->perf, &h)) {
		struct pd_proc *user = pd_proc_of(d, t);

		d->cur_pid = t->pid;
		if (s->attr->sample_type & PERF_SAMPLE_CALLCHAIN)
			chain(d, s, user);
		else
			frame(d, user, s->cpumode, s->ip, 1);
	}
	perf_event_end(d->perf);
}
