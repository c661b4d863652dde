/* etl_int: what the .etl reader's modules share: the records of the
 * events that matter, kept from the walk over the buffers (file order:
 * CPU streams one after another) and replayed in time order, where stack
 * fragments join their samples as TraceEvent's TraceLog joins them. */
#ifndef FLAME_ETL_INT_H
#define FLAME_ETL_INT_H

#include <stddef.h>
#include <stdint.h>

#include "etl.h"

struct strtab;
struct join;
struct etl_imgrp;

/* Kernel events by hook id: group << 8 | opcode (MOF classes). */
enum {
	HOOK_HEADER = 0x0000,		/* EventTrace Header: TRACE_LOGFILE_HEADER */
	HOOK_PROC_START = 0x0301, HOOK_PROC_DCSTART = 0x0303,
	HOOK_PROC_IMG_LOAD = 0x030a,	/* Image Load, logged in the process group */
	HOOK_THREAD_START = 0x0501, HOOK_THREAD_DCSTART = 0x0503,
	HOOK_SAMPLE = 0x0f2e,		/* PerfInfo SampledProfile */
	HOOK_IMG_UNLOAD = 0x1402, HOOK_IMG_DCSTART = 0x1403, HOOK_IMG_LOAD = 0x140a,
	HOOK_STACK = 0x1820,		/* StackWalk Stack */
	HOOK_KEY_DELETE = 0x1823, HOOK_KEY_RUNDOWN = 0x1824,
	HOOK_KEY_KERNEL = 0x1825, HOOK_KEY_USER = 0x1826
};

enum rkind {
	R_THREAD, R_PROC, R_IMG_LOAD, R_IMG_UNLOAD, R_SAMPLE, R_STACK, R_KEY_KERNEL,
	R_KEY_USER, R_KEY_DEF
};

/* One event kept for the replay. */
struct erec {
	uint64_t ts;		/* its own time stamp (QPC ticks) */
	uint64_t a, b;		/* by kind: IP; EventTimeStamp and key; base and size */
	uint32_t tid, pid;	/* thread, process */
	uint32_t frag;		/* stack fragment, or a name in the names table */
	uint8_t kind;		/* enum rkind */
	uint8_t flags;		/* sample: DPC/ISR bits; image: IMG_* */
	uint8_t cpu;		/* the buffer's processor */
};

enum { IMG_RUNDOWN = 1, IMG_JIT = 2 };	/* there from the start; a .NET method */

/* A sample as joined, live in the join's ring (seq numbers + 1 link
 * them) until finalized into the aggregate (etl_agg.c), where equal
 * samples share one entry.  Its fragment slots: a fragment + 1, KEY_REF
 * | a stack key reference, or 0 (none). */
struct esample {
	uint64_t ts;		/* time stamp (the aggregate: its first sample's) */
	uint32_t tid, pid;	/* thread, and its process then */
	uint32_t proc;		/* process name (names table) + 1, 0: unknown */
	uint32_t kern, user;	/* fragment slots */
	uint64_t sig;		/* aggregate: the images its frames fell in, hashed */
	uint32_t epoch;		/* image events replayed before it */
	uint32_t pend;		/* live: next sample waiting on the thread + 1 */
	uint32_t prev;		/* live: the thread's sample before + 1 */
	uint32_t count;		/* aggregate: how many samples */
	uint8_t flags;		/* DPC/ISR bits */
	uint8_t waiting;	/* on its thread's kernel list */
};

#define KEY_REF 0x80000000u

/* An image of a process over a span of time. */
struct eimage {
	uint64_t base, size;	/* where */
	uint64_t t0, t1;	/* loaded over [t0, t1) */
	uint32_t pid;		/* whose */
	uint32_t name;		/* module, or a .NET method (names table) */
	uint32_t mod;		/* a method's ModuleID (modids index), UINT32_MAX: named */
	int jit;		/* a .NET method: "Module!method" is the frame */
	int sym;		/* --symbols: its module there + 1, -1: none, 0: not asked */
};

/* An open-addressing map from 64-bit keys to 32-bit values; several
 * values may share a key (lookups walk them with a cursor). */
struct map64 {
	uint64_t *key;
	uint32_t *val;		/* value + 1, 0: an empty slot */
	size_t cap, n;
	uint64_t mul;		/* hkey_odd's, taken at the first growth */
};

void map64_put(struct map64 *m, uint64_t key, uint32_t val);
/* The next value for key after cursor *c (start with *c = 0); returns 0
 * and sets *val, or -1 when there are no more. */
int map64_next(const struct map64 *m, uint64_t key, size_t *c, uint32_t *val);
/* Sets key's first value to val (adding it when absent). */
void map64_set(struct map64 *m, uint64_t key, uint32_t val);
void map64_free(struct map64 *m);

struct etl {
	struct etw *out;		/* where stacks go */
	const struct etw_opts *o;	/* options */
	etw_warn_fn *warn;		/* messages */
	void *ctx;
	const char *name;		/* input name */
	unsigned reported;		/* messages given */
	int ptrsize;			/* from the logfile header, 0 unknown */
	double freq;			/* time stamp ticks per second */
	uint64_t t0;			/* the trace start, in ticks */
	int have_t0;
	uint64_t off;			/* file offset of the buffer read */
	uint8_t cpu;			/* its processor */
	unsigned char *buf;		/* a buffer, decompressed */
	size_t bufcap;
	unsigned char *raw;		/* a compressed buffer as read */
	size_t rawcap;
	struct erec *rec;		/* kept events */
	size_t nrec, reccap;
	size_t retry;			/* a window is tried again at this many */
	uint64_t *addr;			/* fragment addresses, leaf first */
	size_t naddr, addrcap;
	size_t *fragat;			/* fragment i: its addresses at addr[fragat[i]]... */
	uint32_t *fraglen;		/* ...and fraglen[i] of them */
	size_t nfrag, fragcap;
	struct map64 fragmap;		/* hash of the addresses -> fragment */
	struct strtab *names;		/* process and module names */
	struct map64 clrmods;		/* .NET ModuleID -> its name */
	uint64_t *modids;		/* the ModuleIDs of JIT methods' records */
	size_t nmodids, modidcap;
	struct join *join;		/* the replay's state (etl_join.c) */
	uint32_t ncpu;			/* processors: the logfile header's, and seen */
	uint64_t cpumax[256];		/* per processor, its latest time stamp */
	struct esample *agg;		/* samples aggregated, in first-seen order */
	size_t nagg, aggcap;
	struct map64 aggmap;		/* their hash -> entry */
	uint32_t *aggrecent;		/* by hash, an entry + 1 found lately */
	uint32_t *keyfrag;		/* stack key reference -> fragment, UINT32_MAX: none */
	size_t nkey, keycap;
	struct eimage *img;		/* images */
	size_t nimg, imgcap;
	uint32_t *imgord;		/* etl_img.c: images by (pid, base, t0), when not dirty */
	size_t nimgord, imgordcap;
	struct etl_imgrp *imgrp;	/* etl_img.c: them grouped by (pid, base) */
	size_t nimgrp, imgrpcap;
	uint32_t *imghint;		/* etl_img.c: groups recent lookups found + 1 */
	struct esample *sigcache;	/* etl_agg.c: recent signatures, by their key's hash */
	uint32_t epoch;			/* image events replayed */
	struct etl_syms *syms;		/* --symbols, or NULL */
	struct etl_stats st;
};

/* etl_walk.c: the events of one decompressed buffer, its data ending at
 * end (cut: there the input broke off; an event it cuts is no fault). */
void etl_events(struct etl *x, const unsigned char *b, size_t end, int compressed, int cut);
/* Messages, at most a few per input; the rest only counted. */
void etl_warn(struct etl *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* etl_events.c: one kernel event's payload (p, n bytes; psz its pointer
 * size) into the records. */
void etl_kernel(struct etl *x, unsigned hook, int version, uint64_t ts, uint32_t tid,
		uint32_t pid, const unsigned char *p, size_t n, int psz);
int etl_hook_used(unsigned hook);
uint32_t etl_frag(struct etl *x, const unsigned char *p, size_t count, int psz);
struct erec *etl_record(struct etl *x, enum rkind kind, uint64_t ts);
/* Keeps a JIT method's ModuleID (named at the join); returns its index. */
uint32_t etl_jit_module(struct etl *x, uint64_t modid);

/* etl_clr.c: an EVENT_HEADER event (the CLR's methods and modules). */
void etl_clr(struct etl *x, const unsigned char *e, size_t size);

/* etl_sort.c: the records' order in time (file order among equals). */
struct etl_key {
	uint64_t ts;
	uint32_t i;		/* the record */
};
/* Its room, kept by the caller from one sort to the next. */
struct etl_sortbuf {
	struct etl_key *k, *t;
	size_t *at;
	size_t cap;
};
/* The order, in b (valid until the next sort with b). */
struct etl_key *etl_sorted(const struct erec *rec, size_t n, int cpus, struct etl_sortbuf *b);
/* Frees all of b but order (the last sort's), which b keeps. */
void etl_sortbuf_trim(struct etl_sortbuf *b, struct etl_key *order);
void etl_sortbuf_free(struct etl_sortbuf *b);

/* etl_join.c: the records replayed in time order, in windows: those
 * before every processor's latest time stamp once enough are kept (all
 * at the end), stack fragments joined to their samples, finished samples
 * into the aggregate. */
void etl_join(struct etl *x, int end);
void etl_join_free(struct etl *x);

/* Whether a is a kernel address in x's pointer size. */
static inline int etl_kernel_addr(const struct etl *x, uint64_t a)
{
	return x->ptrsize == 4 ? a >= 0x80000000u : a >= 0xffff800000000000ULL;
}

/* etl_agg.c: a finished sample into the aggregate (the idle thread's and
 * those the time filter drops only counted). */
void etl_agg_add(struct etl *x, const struct esample *s);

/* etl_img.c: the images of x in order (after new ones came), and the
 * one of pid holding address a at time ts: its index + 1, or 0.  The
 * lookup keeps hints in x (x's images unchanged). */
void etl_images_ordered(struct etl *x);
uint32_t etl_image_at(const struct etl *x, uint32_t pid, uint64_t a, uint64_t ts);

/* etl_emit.c: the aggregate out. */
void etl_emit(struct etl *x);

/* etl_sym.c: --symbols PATH (see there). */
struct etl_syms *etl_syms_new(const char *path);
void etl_syms_free(struct etl_syms *s);
/* The symbols of module name (len bytes): an index, or -1 when PATH has none. */
int etl_sym_module(struct etl *x, const char *name, size_t len);
/* The name at rva of module mod: 1 and *name (names table), or 0. */
int etl_sym_name(struct etl *x, int mod, uint64_t rva, uint32_t *name);

/* etl_pe.c: a PE image asked through llvm-symbolizer; NULL when file is
 * no PE image or llvm-symbolizer cannot be run (then *why says which). */
struct etl_pe;
struct etl_pe *etl_pe_new(const char *file, const char **why);
/* The function at rva into buf (cap bytes): its length, 0 when unknown. */
size_t etl_pe_name(struct etl_pe *p, uint64_t rva, char *buf, size_t cap);
void etl_pe_free(struct etl_pe *p);

static inline uint64_t etl_le(const unsigned char *p, int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

#endif
