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

/* The callchain, leaf first: PERF_CONTEXT_* entries say whose addresses
 * follow (perf starts in user space). */
static void chain(struct pd *d, const struct pd_sample *s, struct pd_proc *user)
{
	unsigned mode = PERF_RECORD_MISC_USER, kept = 0;
	uint64_t i;

	if (!chain_ok(d, s))
		return;
	for (i = 0; i < s->nchain && kept < MAX_STACK; i++) {
		uint64_t ip = pd_u64(d, s->chain + 8 * i);

		if (ip >= PERF_CONTEXT_MAX) {
			mode = ip == PERF_CONTEXT_KERNEL ? PERF_RECORD_MISC_KERNEL :
			       ip == PERF_CONTEXT_USER ? PERF_RECORD_MISC_USER :
			       PERF_RECORD_MISC_HYPERVISOR;
			continue;
		}
		kept++;
		frame(d, user, mode, ip, 0);
	}
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
