/* perf_int.h: the perf collapser's state, shared by its two halves:
 * perf.c (lines, events, stacks) and perf_tidy.c (a frame line to the
 * frames it names, as stackcollapse-perf.pl tidies them, and the memos
 * that spare doing it twice). */
#ifndef FLAME_PERF_INT_H
#define FLAME_PERF_INT_H

#include "perf.h"

#include <stddef.h>
#include <stdint.h>

struct perf_memo;
struct perf_pmemo;
struct perf_stacks;
struct strtab;

enum skip { KEEP, SKIP_EVENT, SKIP_REST };

struct frame {
	size_t off;	/* offset in fbuf */
	size_t len;	/* bytes */
	uint32_t fid;	/* frame id of stacks, or NO_FID: the text says */
};

/* A frame line's verdict in the memo (perf_memo_val.how). */
enum { MEMO_NAME, MEMO_NONE, MEMO_SKIP = 4 };

#define NO_FID UINT32_MAX	/* a frame known by its text only */

struct perf {
	const struct perf_opts *o;	/* options */
	struct strtab *out;		/* stack -> struct fcount */
	perf_warn_fn *warn;		/* message sink */
	void *ctx;			/* its context */
	const char *name;		/* input name, for messages */
	int in_event;			/* a header was read; frames follow */
	enum skip skip;			/* what to do with the event's frames */
	int java;			/* comm starts with "java" */
	uint64_t period;		/* weight of the event */
	char *pname;			/* root frame: comm[-pid[/tid]] */
	size_t pnamelen;		/* its length */
	size_t pnamecap;		/* its capacity */
	char *fbuf;			/* frame texts */
	size_t flen;			/* bytes used */
	size_t fcap;			/* capacity */
	struct frame *fr;		/* frames, leaf first */
	size_t nfr;			/* frames in the event */
	size_t frcap;			/* capacity of fr */
	size_t srcwait;			/* frames (from the end) awaiting a source line */
	char *key;			/* the assembled stack */
	size_t keycap;			/* its capacity */
	char *sym;			/* a demangled symbol */
	size_t symcap;			/* its capacity */
	struct perf_memo *memo;		/* tidied frames by text, or NULL */
	struct perf_pmemo *pmemo;	/* perf_event_frame's frames by the
					   addresses of their texts, or NULL */
	struct perf_stacks *stacks;		/* frame names; stacks so far, unless
					   o->seq: those go to out at once */
	uint32_t root;			/* the root frame's id, or NO_FID: pname
					   says (perf_event_begin_kept) */
	uint32_t *path;			/* an event's frame ids, root first */
	size_t npath;			/* ids in path */
	size_t pathcap;			/* capacity of path */
	const char *ahead;		/* the line after the one in hand... */
	size_t aheadlen;		/* ...its length, trimmed... */
	uint64_t aheadh;		/* ...and its perf_memo_line_hash */
	const char *cur;		/* the same of the line in hand... */
	size_t curlen;			/* ...its length... */
	uint64_t curh;			/* ...and hash */
	int have_event;			/* st.event holds the event to keep */
	int weighted;			/* the event in hand printed a period */
	unsigned reported;		/* malformed lines named for this input */
	struct perf_stats st;		/* counters */
};

static inline int is_space(char c)
{
	return c == ' ' || c == '\t';
}

/* perf_tidy.c.  A frame line ("addr symbol+0xoff (dso)") into the event's
 * frames: 0, or -1 when it is not one. */
int perf_tidy_line(struct perf *p, const char *s, size_t n);

/* Whether s looks like the source line -F +srcline writes after a frame,
 * and that line onto the frames awaiting one. */
int perf_srcline_like(const char *s, size_t n);
void perf_tidy_srcline(struct perf *p, const char *s, size_t n);

#endif
