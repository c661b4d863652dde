/* perfdata_sink: the reader's samples handed out one by one (see the
 * header).  It hooks pd_emit, so a sample meets the same maps and time
 * order as the stacks do. */
#include "perfdata_sink.h"
#include "perfdata_int.h"
#include "perfsym.h"

#include <linux/perf_event.h>
#include <string.h>

struct sink {
	perfdata_hit_fn *fn;	/* where samples go */
	void *ctx;		/* its context */
	int stopped;		/* fn asked for no more */
};

static void hit(struct pd *d, const struct pd_sample *s)
{
	struct sink *k = d->hook_ctx;
	struct perfdata_hit h;
	const struct pd_map *m = NULL;

	d->st->samples++;
	if (k->stopped)
		return;
	memset(&h, 0, sizeof(h));
	h.event = (size_t)(s->attr - d->attrs);
	h.event_name = s->attr->name;
	h.period = s->attr->sample_type & PERF_SAMPLE_PERIOD ? s->period : 1;
	h.ip = s->ip;
	h.pid = s->pid;
	h.tid = s->tid;
	h.kernel = s->cpumode == PERF_RECORD_MISC_KERNEL;
	if (h.kernel)
		m = pd_find_map(d->kernel, s->ip);
	else if (s->cpumode == PERF_RECORD_MISC_USER)
		m = pd_find_map(pd_proc_of(d, pd_thread_get(d, s->pid, s->tid)), s->ip);
	if (m) {
		h.path = m->path;
		h.pathlen = m->pathlen;
		h.start = m->start;
		h.end = m->end;
		h.pgoff = m->pgoff;
	}
	if (k->fn(k->ctx, &h) < 0)
		k->stopped = 1;
}

int perfdata_samples(const char *name, struct lread *lr, perfdata_hit_fn *fn, void *ctx,
		     struct perfdata_stats *st, perfdata_warn_fn *warn, void *wctx, char *err,
		     size_t errlen)
{
	struct perfsym_opts so;
	struct sink k = { fn, ctx, 0 };
	struct pd d;
	int rc;

	memset(&so, 0, sizeof(so));
	memset(&d, 0, sizeof(d));
	d.name = name;
	d.sym = perfsym_new(&so);	/* the build-id table goes here */
	d.warn = warn;
	d.ctx = wctx;
	d.st = st;
	d.hook = hit;
	d.hook_ctx = &k;
	rc = pd_run(&d, lr, NULL, err, errlen);
	perfsym_free(d.sym);
	return rc;
}
