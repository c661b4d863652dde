/* perf_run: the perf collapser over files, on one thread or several.
 *
 * Every piece of text is a job: a chunk cut at a blank line and handed to
 * a worker, or the stream the calling thread reads itself (the whole input
 * with one thread, or the rest of an input that has no blank line to cut
 * at).  Jobs keep their order (seq), their line count and their first few
 * messages, so line numbers and messages come out in input order at the
 * end, whatever thread did the work. */
#include "perf_run.h"
#include "perfdata.h"
#include "perfdata_format.h"
#include "folded.h"
#include "lread.h"
#include "strtab.h"
#include "tpool.h"
#include "xalloc.h"

#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOTES 5			/* messages kept per job and printed per input */

struct note {
	unsigned long line;	/* line within the job */
	char msg[240];		/* what was wrong */
};

struct job {
	char *buf;		/* the chunk; NULL for the caller's own stream */
	int borrowed;		/* buf is a piece of a mapped input, not ours */
	size_t len;		/* bytes in buf */
	int input;		/* index of the input */
	const char *name;	/* input name for messages */
	unsigned long lines;	/* lines seen */
	struct note notes[NOTES];	/* first messages */
	int nnotes;		/* how many */
};

struct worker {
	struct strtab *tab;	/* this worker's stacks */
	struct perf *p;		/* this worker's collapser */
	struct job *cur;	/* the job being worked on */
};

struct run {
	struct perf_opts opts;	/* options, with the event fixed once known */
	char event[64];		/* storage for opts.event_filter */
	struct worker self;	/* the calling thread's collapser */
	struct worker *w;	/* workers' states */
	int nw;			/* how many threads started */
	int threads;		/* how many wanted */
	struct tpool *pool;	/* the threads */
	struct job **jobs;	/* every job, in input order */
	size_t njobs;		/* how many */
	size_t jobcap;		/* capacity */
	int sequential;		/* no more chunking: the caller does the rest */
	size_t chunk;		/* text per job */
	struct lread **mapped;	/* mapped inputs the workers may still read */
	size_t nmapped;		/* how many */
	size_t nmapcap;		/* capacity of mapped */
};

static void collect(void *ctx, const char *file, unsigned long line, const char *msg)
{
	struct worker *w = ctx;
	struct job *j = w->cur;

	(void)file;
	if (j->nnotes < NOTES) {
		j->notes[j->nnotes].line = line;
		snprintf(j->notes[j->nnotes].msg, sizeof(j->notes[0].msg), "%s", msg);
		j->nnotes++;
	}
}

static void worker_init(struct worker *w, const struct perf_opts *o)
{
	w->tab = strtab_new(sizeof(struct fcount));
	w->p = perf_new(o, w->tab, collect, w);
}

/* Feeds the complete lines of text to w's collapser (and the rest too
 * when final); returns the bytes used. */
static size_t feed(struct worker *w, const char *text, size_t len, int final)
{
	return perf_lines(w->p, text, len, final, &w->cur->lines);
}

static void work(void *worker, void *job)
{
	struct worker *w = worker;
	struct job *j = job;

	if (j->borrowed)
		lread_bring_in(j->buf, j->len);
	w->cur = j;
	perf_begin(w->p, j->name);
	feed(w, j->buf, j->len, 1);
	perf_event_end(w->p);	/* the stacks stay in w->p until finish */
	if (j->borrowed)
		lread_give_back(j->buf, j->len);
	else
		free(j->buf);
	j->buf = NULL;
}

static struct job *new_job(struct run *r, int input, const char *name)
{
	struct job *j = xcalloc(1, sizeof(*j));

	j->input = input;
	j->name = name;
	xgrow(&r->jobs, &r->jobcap, r->njobs + 1, sizeof(*r->jobs));
	r->jobs[r->njobs++] = j;
	return j;
}

static void start_workers(struct run *r)
{
	void **states = xcalloc((size_t)r->threads, sizeof(*states));
	int i;

	r->w = xcalloc((size_t)r->threads, sizeof(*r->w));
	for (i = 0; i < r->threads; i++) {
		worker_init(&r->w[i], &r->opts);
		states[i] = &r->w[i];
	}
	r->pool = tpool_new(r->threads, (size_t)r->threads * 2, work, states);
	r->nw = tpool_count(r->pool);
	for (i = r->nw; i < r->threads; i++) {	/* threads that did not start */
		perf_free(r->w[i].p);
		strtab_free(r->w[i].tab);
	}
	if (r->nw == 0)
		r->sequential = 1;
	free(states);
}

/* Where the last blank line in buf ends, or 0 when there is none. */
static size_t last_blank(const char *buf, size_t len)
{
	size_t i = len;

	while (i >= 2) {
		const char *nl = memrchr(buf, '\n', i - 1);

		if (!nl)
			break;
		i = (size_t)(nl - buf) + 1;
		if (buf[i] == '\n' || (buf[i] == '\r' && i + 1 < len && buf[i + 1] == '\n'))
			return buf[i] == '\n' ? i + 1 : i + 2;
	}
	return 0;
}

/* Fills buf to chunk bytes (or the end); returns the new length.  Sets
 * *eof to 1 at the end of the input, or to -1 when reading broke off:
 * the text is then cut after its last complete line, as if the input
 * ended there (a line the fault cut is not collapsed). */
static size_t fill(struct lread *lr, char *buf, size_t len, size_t chunk, int *eof)
{
	while (len < chunk && !*eof) {
		ssize_t n = lread_read(lr, buf + len, chunk + 4096 - len);
		const char *nl;

		if (n < 0) {
			*eof = -1;
			nl = len ? memrchr(buf, '\n', len) : NULL;
			return nl ? (size_t)(nl - buf) + 1 : 0;
		}
		if (n == 0)
			*eof = 1;
		len += (size_t)n;
	}
	return len;
}

/* The caller's own stream: text already read (buf, len), then the rest.
 * Returns 0, or 1 when reading broke off (eof -1). */
static int stream_rest(struct run *r, struct lread *lr, int input, const char *name,
		       char *buf, size_t len, int eof)
{
	struct worker *w = &r->self;

	w->cur = new_job(r, input, name);
	perf_begin(w->p, name);
	for (;;) {
		size_t used = feed(w, buf, len, eof);

		/* A line longer than a chunk is cut into chunk-sized pieces. */
		if (used == 0 && len >= r->chunk)
			used = feed(w, buf, len, 1);

		memmove(buf, buf + used, len - used);
		len -= used;
		if (eof)
			break;
		len = fill(lr, buf, len, r->chunk, &eof);
	}
	perf_event_end(w->p);
	return eof < 0;
}

/* Decides the event before any chunk is worked on, so every worker keeps
 * the same one; without a header in the first chunk, no threads. */
static void first_chunk(struct run *r, const char *buf, size_t len)
{
	struct perf *old;

	if (!r->opts.event_filter) {
		if (perf_first_event(buf, len, r->event, sizeof(r->event)) < 0) {
			r->sequential = 1;
			return;
		}
		r->opts.event_filter = r->event;
		old = r->self.p;
		r->self.p = perf_new(&r->opts, r->self.tab, collect, &r->self);
		/* A perf.data read before left its stacks in the collapser. */
		perf_absorb(r->self.p, old);
		perf_free(old);
	}
	start_workers(r);
}

static int chunk_input(struct run *r, struct lread *lr, int input, const char *name)
{
	char *buf = xmalloc(r->chunk + 4096);
	size_t len = 0, cut;
	int eof = 0, rc = 0;

	for (;;) {
		len = fill(lr, buf, len, r->chunk, &eof);
		if (!r->nw && !r->sequential)
			first_chunk(r, buf, len);
		cut = eof ? len : last_blank(buf, len);
		if (r->sequential || cut == 0) {
			rc = stream_rest(r, lr, input, name, buf, len, eof);
			break;
		} else {
			struct job *j = new_job(r, input, name);
			char *next = xmalloc(r->chunk + 4096);

			memcpy(next, buf + cut, len - cut);
			j->buf = buf;
			j->len = cut;
			tpool_submit(r->pool, j);
			buf = next;
			len -= cut;
			if (eof) {
				rc = eof < 0;
				break;
			}
		}
	}
	free(buf);
	return rc;
}

/* The rest of a mapped input on the calling thread, in the pieces
 * stream_rest would read (so a line longer than a chunk is cut alike),
 * each piece's pages given back once worked on. */
static void whole_rest(struct run *r, const char *text, size_t len, int input,
		       const char *name)
{
	struct worker *w = &r->self;
	size_t pos = 0;

	w->cur = new_job(r, input, name);
	perf_begin(w->p, name);
	while (pos < len) {
		size_t n = len - pos < r->chunk + 4096 ? len - pos : r->chunk + 4096;
		size_t used;

		lread_bring_in(text + pos, n);
		used = feed(w, text + pos, n, pos + n == len);

		if (used == 0)
			used = feed(w, text + pos, n, 1);
		lread_give_back(text + pos, used);
		pos += used;
	}
	perf_event_end(w->p);
}

/* A mapped input: its chunks are pieces of the mapping handed to the
 * workers with no copy, cut as chunk_input cuts what it reads. */
static void chunk_whole(struct run *r, const char *text, size_t len, int input,
			const char *name)
{
	size_t pos = 0;

	while (pos < len) {
		size_t n = len - pos < r->chunk + 4096 ? len - pos : r->chunk + 4096;
		size_t cut = pos + n == len ? n : last_blank(text + pos, n);
		struct job *j;

		if (!r->nw && !r->sequential)
			first_chunk(r, text + pos, n);
		if (r->sequential || cut == 0) {
			whole_rest(r, text + pos, len - pos, input, name);
			return;
		}
		j = new_job(r, input, name);
		j->buf = (char *)(size_t)(text + pos);	/* only read */
		j->borrowed = 1;
		j->len = cut;
		tpool_submit(r->pool, j);
		pos += cut;
	}
}

static void add_stats(struct perf_stats *st, const struct perf_stats *s)
{
	st->samples += s->samples;
	st->filtered += s->filtered;
	st->malformed += s->malformed;
	st->outside += s->outside;
	st->unknown += s->unknown;
	st->weighted += s->weighted;
	if (s->event[0] && !st->event[0])
		memcpy(st->event, s->event, sizeof(st->event));
	if (s->other[0] && (!st->other[0] || strcmp(s->other, st->other) < 0))
		memcpy(st->other, s->other, sizeof(st->other));
}

/* The calling thread's table into out: taken as it is when out is empty
 * (a copy would hold every distinct stack twice at the peak). */
static void merge(struct strtab *out, struct strtab *tab)
{
	size_t i;

	if (strtab_count(out) == 0)
		strtab_swap(out, tab);
	for (i = 0; i < strtab_count(tab); i++) {
		size_t len;
		const char *k = strtab_str(tab, (uint32_t)i, &len);

		fcount_add(strtab_val(out, strtab_intern(out, k, len, NULL)), strtab_val(tab, (uint32_t)i));
	}
}

/* Messages in input order with absolute line numbers, NOTES per input. */
static void report(struct run *r, perf_warn_fn *warn, void *ctx)
{
	unsigned long base = 0;
	int input = -1, told = 0, k;
	size_t i;

	for (i = 0; i < r->njobs; i++) {
		struct job *j = r->jobs[i];

		if (j->input != input) {
			input = j->input;
			base = 0;
			told = 0;
		}
		for (k = 0; k < j->nnotes && told < NOTES; k++, told++)
			warn(ctx, j->name, base + j->notes[k].line, j->notes[k].msg);
		base += j->lines;
		if (!j->borrowed)
			free(j->buf);
		free(j);
	}
	free(r->jobs);
}

/* The workers' stacks join the calling thread's collapser. */
static void join_workers(struct run *r, struct perf_stats *st)
{
	int i;

	tpool_free(r->pool);
	for (i = 0; i < (int)r->nmapped; i++)
		lread_free(r->mapped[i]);
	free(r->mapped);
	for (i = 0; i < r->nw; i++) {
		perf_absorb(r->self.p, r->w[i].p);
		add_stats(st, perf_stats(r->w[i].p));
		perf_free(r->w[i].p);
		strtab_free(r->w[i].tab);
	}
	free(r->w);
}

/* All the stacks spelled out once into the calling thread's table, and
 * that into out. */
static void finish(struct run *r, struct strtab *out, struct perf_stats *st)
{
	join_workers(r, st);
	perf_end(r->self.p);
	add_stats(st, perf_stats(r->self.p));
	perf_free(r->self.p);
	merge(out, r->self.tab);
	strtab_free(r->self.tab);
}

/* Every stack joined in the calling thread's collapser, which is
 * returned (the caller frees it), none spelled out. */
static struct perf *keep(struct run *r, struct perf_stats *st)
{
	join_workers(r, st);
	strtab_free(r->self.tab);	/* empty: no perf_end came */
	perf_event_end(r->self.p);
	add_stats(st, perf_stats(r->self.p));
	return r->self.p;
}

static void run_init(struct run *r, const struct perf_opts *o, const struct perf_run_opts *ro,
		     struct perf_stats *st)
{
	memset(r, 0, sizeof(*r));
	memset(st, 0, sizeof(*st));
	r->opts = *o;
	r->opts.threads = ro->threads;
	r->threads = ro->threads;
	r->sequential = ro->threads <= 1;
	r->chunk = ro->chunk;
	/* Tests shrink the chunk to run many chunks through small inputs. */
	if (!r->chunk && getenv("FLAME_CHUNK"))
		r->chunk = (size_t)strtoul(getenv("FLAME_CHUNK"), NULL, 10);
	if (r->chunk < 4096)
		r->chunk = (size_t)8 << 20;
	worker_init(&r->self, &r->opts);
}

/* Opens an input, telling from its first bytes whether it is a perf.data
 * (read natively): a file is opened again, stdin rewound when it is a
 * file and its bytes replayed when it is a pipe. */
static struct lread *open_input(const char *path, int *perfdata)
{
	char head[16];
	struct stat sb;
	int piped = !strcmp(path, "-") && (fstat(0, &sb) < 0 || !S_ISREG(sb.st_mode));
	off_t start = strcmp(path, "-") || piped ? 0 : lseek(0, 0, SEEK_CUR);
	struct lread *lr = piped ? lread_stdin_tee() : lread_open(path);
	unsigned char *prefix;
	ssize_t n;
	size_t len;

	if (!lr)
		return NULL;
	n = lread_read(lr, head, sizeof(head));
	*perfdata = n > 0 && perfdata_fmt_sniff(head, (size_t)n);
	if (!piped) {
		lread_free(lr);
		if (strcmp(path, "-"))
			return lread_open(path);
		return lseek(0, start, SEEK_SET) < 0 ? NULL : lread_open(NULL);
	}
	prefix = lread_take_record(lr, &len);
	lread_free(lr);
	return lread_resume_stdin(prefix, len);
}

/* A perf.data, read on the calling thread into its own table. */
static int perfdata_input(struct run *r, struct lread *lr, const char *name, perf_warn_fn *warn,
			  void *ctx, char *err, size_t errlen)
{
	char msg[400];
	int rc = perfdata_collapse(r->self.p, &r->opts, lr, name, warn, ctx, msg, sizeof(msg));

	if (rc < 0)
		snprintf(err, errlen, "%s: %s", name, msg);
	else if (rc > 0)
		snprintf(err, errlen, "%s: the recording broke off; what came before is kept", name);
	return rc;
}

/* A text input, mapped or read; returns as chunk_input.  The workers may
 * still be reading a mapping: unless the caller keeps the reader (lr
 * NULL: it frees it only after perf_run's end), it is kept here (*lr set
 * to NULL) and freed once they are done. */
static int text_input(struct run *r, struct lread *in, struct lread **lr, int input,
		      const char *name)
{
	size_t len;
	const char *whole = lread_whole(in, &len);

	if (!whole)
		return chunk_input(r, in, input, name);
	chunk_whole(r, whole, len, input, name);
	if (lr) {
		xgrow(&r->mapped, &r->nmapcap, r->nmapped + 1, sizeof(*r->mapped));
		r->mapped[r->nmapped++] = *lr;
		*lr = NULL;
	}
	return 0;
}

/* Reads the inputs in turn; returns as perf_run does. */
static int run_inputs(struct run *r, const char *const *inputs, int ninputs, perf_warn_fn *warn,
		      void *ctx, char *err, size_t errlen)
{
	int i, rc = 0;

	for (i = 0; i < ninputs && rc == 0; i++) {
		const char *name = strcmp(inputs[i], "-") ? inputs[i] : "<stdin>";
		int perfdata = 0;
		struct lread *lr = open_input(inputs[i], &perfdata);

		if (!lr) {
			snprintf(err, errlen, "cannot open '%s': %s", inputs[i], strerror(errno));
			return -1;
		}
		if (perfdata) {
			rc = perfdata_input(r, lr, name, warn, ctx, err, errlen);
		} else {
			rc = text_input(r, lr, &lr, i, name);
			if (rc)
				snprintf(err, errlen, "%s: %s", name, lread_error(lr));
		}
		lread_free(lr);
	}
	return rc;
}

/* The text of one open reader (perf_run_reader and its _kept form). */
static int reader_input(struct run *r, struct lread *lr, const char *name, char *err,
			size_t errlen)
{
	int rc = text_input(r, lr, NULL, 0, name);

	if (rc)
		snprintf(err, errlen, "%s: %s", name, lread_error(lr));
	return rc;
}

int perf_run(const struct perf_opts *o, const char *const *inputs, int ninputs,
	     const struct perf_run_opts *ro, struct strtab *out, struct perf_stats *st,
	     perf_warn_fn *warn, void *ctx, char *err, size_t errlen)
{
	struct run r;
	int rc;

	run_init(&r, o, ro, st);
	rc = run_inputs(&r, inputs, ninputs, warn, ctx, err, errlen);
	finish(&r, out, st);
	report(&r, warn, ctx);
	return rc;
}

int perf_run_kept(const struct perf_opts *o, const char *const *inputs, int ninputs,
		  const struct perf_run_opts *ro, struct perf **kept, struct perf_stats *st,
		  perf_warn_fn *warn, void *ctx, char *err, size_t errlen)
{
	struct run r;
	int rc;

	run_init(&r, o, ro, st);
	rc = run_inputs(&r, inputs, ninputs, warn, ctx, err, errlen);
	*kept = keep(&r, st);
	report(&r, warn, ctx);
	return rc;
}

int perf_run_reader_kept(const struct perf_opts *o, struct lread *lr, const char *name,
			 const struct perf_run_opts *ro, struct perf **kept, struct perf_stats *st,
			 perf_warn_fn *warn, void *ctx, char *err, size_t errlen)
{
	struct run r;
	int rc;

	run_init(&r, o, ro, st);
	rc = reader_input(&r, lr, name, err, errlen);
	*kept = keep(&r, st);
	report(&r, warn, ctx);
	return rc;
}

int perf_run_reader(const struct perf_opts *o, struct lread *lr, const char *name,
		    const struct perf_run_opts *ro, struct strtab *out, struct perf_stats *st,
		    perf_warn_fn *warn, void *ctx, char *err, size_t errlen)
{
	struct run r;
	int rc;

	run_init(&r, o, ro, st);
	rc = reader_input(&r, lr, name, err, errlen);
	finish(&r, out, st);
	report(&r, warn, ctx);
	return rc;
}
