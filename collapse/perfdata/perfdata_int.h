/* perfdata_int: what the modules of the perf.data reader share (not for
 * users of perfdata.h).
 *
 * perfdata.c drives a run (file or pipe mode, the header, attributes and
 * feature sections), perfdata_rec.c reads records and the fields of a
 * sample, perfdata_proc.c keeps the processes' maps and names and puts
 * records in time order, perfdata_emit.c turns a sample into a stack. */
#ifndef FLAME_PERFDATA_INT_H
#define FLAME_PERFDATA_INT_H

#include "perfdata.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct strtab;
struct perf;
struct perfsym;
struct tpool;
struct pd_batch;

#define PD_NAME_MAX 64		/* event names */

/* One event of the recording (a perf_event_attr) and its sample ids. */
struct pd_attr {
	uint32_t type;			/* PERF_TYPE_* */
	uint64_t config;		/* which event of the type */
	uint64_t sample_type;		/* PERF_SAMPLE_* fields present */
	uint64_t read_format;		/* PERF_FORMAT_* of a READ field */
	uint64_t flags;			/* the bitfield word, LSB = disabled */
	uint64_t branch_sample_type;	/* PERF_SAMPLE_BRANCH_* */
	uint64_t regs_user;		/* registers in REGS_USER */
	uint64_t regs_intr;		/* registers in REGS_INTR */
	uint64_t *ids;			/* sample ids of this event (owned) */
	size_t nids;			/* how many */
	size_t trailer;			/* bytes of a sample_id_all trailer */
	char name[PD_NAME_MAX];		/* "cycles:u", from EVENT_DESC or made up */
};

/* A sample's fields, as far as a stack needs them. */
struct pd_sample {
	const struct pd_attr *attr;	/* its event */
	uint64_t ip;			/* IP */
	uint32_t pid, tid;		/* TID */
	uint64_t time;			/* TIME, or UINT64_MAX */
	uint64_t period;		/* PERIOD, or 0 */
	const unsigned char *chain;	/* CALLCHAIN entries (file byte order) */
	uint64_t nchain;		/* how many */
	unsigned cpumode;		/* misc & PERF_RECORD_MISC_CPUMODE_MASK */
	/* For a DWARF unwinder (--call-graph dwarf), not used yet: */
	uint64_t regs_abi;		/* REGS_USER abi, 0: no registers */
	const unsigned char *regs;	/* their values, one u64 per bit of
					   attr->regs_user, in bit order */
	const unsigned char *stack;	/* STACK_USER bytes from the user sp */
	uint64_t stack_size;		/* bytes kept (dyn_size of them valid) */
};

/* One mapping of a process. */
struct pd_map {
	uint64_t start, end;		/* [start, end) */
	uint64_t pgoff;			/* file offset of start */
	const char *path;		/* file name as perf shows it (in names,
					   whose strings never move) */
	size_t pathlen;			/* its length */
	const char *sympath;		/* the name perfsym is given: as recorded
					   for the kernel and modules, else path */
	int ident;			/* perf prints the address itself, not
					   its offset in the file */
	uint8_t build_id[20];		/* from MMAP2, when bid_len */
	uint8_t bid_len;		/* bytes of build_id, 0: none */
	uint32_t serial;		/* names this map's contents: a map made
					   or cut gets a new one, a fork's copy
					   keeps it (the frame cache's key) */
	uint8_t by_pid;			/* its names depend on the process too
					   (PERFSYM_BY_PID), else on it alone */
	uint32_t file;			/* its file's id (perfdata_fid.c): the
					   names follow the offset into it
					   alone; 0: they follow the address */
	uint32_t nameless;		/* pd.nameless_gen + 1 when perfsym was
					   found to name nothing in it, whatever
					   the address (not by_pid maps) */
	uint32_t hint;			/* the collapser's note on its frames
					   then, "[unknown]" in path */
};

struct pd_proc;
struct pd_gone;
struct pd_jit;
struct pd_fid;

/* perf script shows at most this many frames (kernel.perf_event_max_stack). */
#define PD_MAX_STACK 127

/* A frame of a callchain, resolved to what perf script prints. */
struct pd_rframe {
	uint64_t ip;			/* the address */
	const char *sym;		/* function name (perfsym's or static) */
	const char *dso;		/* map's path (d->names) or "[unknown]" */
	uint32_t symlen, dlen;		/* their lengths */
	uint64_t pc;			/* what perf script prints for it: the
					   address or the offset into the file */
	uint32_t *hint;			/* the collapser's note in its frame cache
					   entry (perf_event_frame), or NULL */
	uint8_t mode;			/* PERF_RECORD_MISC_KERNEL, _USER, ... */
	uint8_t inl;			/* DWARF-unwound: perf adds the functions
					   inlined there */
};


/* One frame as emitted, kept by (file id, offset into the map's file)
 * or, for maps whose names follow the address (pd_map.file 0), by (map
 * serial, address, and the pid for a map whose names depend on it): hot
 * code is sampled over and over, also in the many processes that map
 * the same files, and this skips the symbol search and the hex
 * formatting for it.  File ids have PD_FILE_KEY set, serials never. */
#define PD_FILE_KEY ((uint32_t)1 << 31)
#define PD_FCACHE_SLOTS ((size_t)1 << 16)	/* 2 MB of frames emitted lately */

struct pd_fcache {
	uint64_t ip;			/* the address sampled, or the offset
					   into the file */
	uint32_t serial;		/* its map's serial or file's id; 0: empty */
	uint32_t pid;			/* the process (0 unless the map's by_pid) */
	const char *sym;		/* its name (perfsym's), or "[unknown]" */
	uint32_t symlen : 24;		/* its length (PD_LONG_SYM: strlen's) */
	uint32_t raw : 8;		/* printed as the address itself */
	uint32_t hint;			/* the collapser's note on the frame (one
					   thread only), 0 until it makes one */
};

#define PD_LONG_SYM 0xffffffu	/* fcache symlen of a longer name */

struct pd_thread {
	uint32_t tid;		/* thread id */
	uint32_t pid;		/* its process */
	uint32_t comm;		/* its name (d->names) */
	int comm_set;		/* named by COMM (else ":TID") */
	int exited;		/* EXIT seen (and no FORK of the tid since) */
};

#define PD_IDHIT 64	/* ids remembered: one per CPU and event, often */

/* A sample id and the attr it belongs to. */
struct pd_idmap {
	uint64_t id;			/* the id */
	size_t attr;			/* index in pd.attrs */
};

/* A queued record: bytes in the queue's arena, for time ordering. */
struct pd_qent {
	uint64_t time;			/* when it happened */
	uint64_t seq;			/* arrival order, among equal times */
	size_t off;			/* where in the arena */
	uint32_t len;			/* bytes */
	uint64_t fileoff;		/* where in the input, for messages */
	const unsigned char *ptr;	/* the record where it lies (file mode:
					   not copied), or NULL: in the arena */
};

/* The reader's state over one input. */
struct pd {
	const char *name;		/* input name, for messages */
	struct perf *perf;		/* the collapser stacks go to */
	struct perfsym *sym;		/* the symbol resolver */
	perfdata_warn_fn *warn;		/* messages */
	void *ctx;			/* for warn */
	struct perfdata_stats *st;	/* counters */
	unsigned reported;		/* messages so far */
	int swap;			/* the file has the other byte order */
	int mapped;			/* file mode over a mapping of the file */
	struct pd_attr *attrs;		/* events */
	size_t nattrs;			/* how many */
	struct pd_idmap *idmap;		/* ids -> attrs, sorted by id */
	size_t nidmap;			/* entries */
	struct pd_idmap idhit[PD_IDHIT]; /* ids found lately, by id % PD_IDHIT;
					   attr + 1 (0: empty); pd_layout empties */
	int id_pos;			/* ID's u64 index in a sample, -1: none */
	int id_trail;			/* ID's u64 index from a trailer's end */
	struct strtab *names;		/* comms and paths, interned */
	struct pd_proc **procs;		/* hash of pid -> maps (open addressing) */
	size_t nprocs, proccap;		/* entries, slots */
	struct pd_thread **threads;	/* hash of tid -> comm, pid */
	size_t nthreads, threadcap;	/* entries, slots */
	struct pd_proc *kernel;		/* the kernel's maps (pid -1) */
	char *kname;			/* the kernel's name from the build-id
					   table, or NULL: "[kernel.kallsyms]" */
	struct pd_qent *q;		/* records waiting for their turn */
	size_t nq, qcap;		/* entries, capacity */
	struct pd_qent *qtmp;		/* room for sorting q */
	size_t qtmpcap;			/* its capacity */
	size_t *runs;			/* where q's sorted runs start */
	size_t runcap;			/* its capacity */
	size_t qbytes;			/* bytes of the records queued */
	int stable;			/* records stay where they are read
					   until the end (file mode) */
	unsigned char *arena;		/* bytes of the records copied */
	size_t alen, acap;		/* used, capacity */
	uint64_t seq;			/* next arrival number */
	uint64_t max_time;		/* latest time queued */
	uint64_t next_flush;		/* a round ends: deliver up to here */
	int inflating;			/* records come out of a COMPRESSED one */
	void *zstd;			/* ZSTD_DStream for COMPRESSED, or NULL */
	unsigned char *zbuf;		/* decompressed bytes, zbuf[zpos, zlen)
					   not yet handed out */
	size_t zpos, zlen, zcap;	/* handed out, used, capacity */
	const unsigned char *zin;	/* the compressed payload being read... */
	size_t zinpos, zinlen;		/* ...how far, of how much */
	uint32_t cur_pid;		/* the process of the sample being read */
	struct perfunwind *unwind;	/* user stacks of --call-graph dwarf, or NULL */
	struct pd_proc *unwinding;	/* the process being unwound */
	struct pd_jit *jit;		/* JIT code from jitdumps, or NULL */
	const char *symfs;		/* --symfs DIR (jitdumps are read under
					   it too), or NULL */
	size_t copied;			/* maps copied by FORKs, of processes alive */
	struct pd_gone *gone;		/* processes whose maps go soon, by time */
	size_t ngone, gonecap;		/* entries, capacity */
	uint32_t map_serial;		/* the last serial given to a map */
	uint64_t hmul;			/* hkey_odd's: the process and thread
					   tables' slots (0: not yet) */
	struct pd_fid *fids;		/* file ids (perfdata_fid.c), open addressing */
	size_t nfids, fidcap;		/* entries, slots */
	struct pd_fcache *fcache;	/* frames emitted lately (owned), or NULL */
	size_t fslots;			/* its slots, a power of 2 */
	uint32_t nameless_gen;		/* changes when a map's names may have
					   (pd_map.nameless is then stale) */
	uint32_t nomap_hint;		/* the collapser's note on frames in no map */
	struct pd_rframe cur[PD_MAX_STACK]; /* the chain being emitted */
	size_t ncur;			/* its frames */
	struct pd_map *curmap[PD_MAX_STACK]; /* their maps, or NULL */
	size_t curslot[PD_MAX_STACK];	/* their places in fcache */
	int workers;			/* 1: all on this thread (else see
					   perfdata_out.c) */
	int out_started;		/* pd_out_start was called */
	struct tpool *pool;		/* the collapsing thread, or NULL */
	struct pd_batch *batch;		/* the batch being filled (owned) */
	size_t bsample;			/* offset of its last sample */
	size_t batch_bytes;		/* a batch is handed over when this full */
	char keep[64];			/* with pool: the event the collapser keeps
					   (as its perf_stats names it)... */
	size_t keeplen;			/* ...its length... */
	int keep_known;			/* ...once known (else: the first seen) */
	/* perfdata_sink.c: when set, samples go here instead of to perf */
	void (*hook)(struct pd *d, const struct pd_sample *s);
	void *hook_ctx;			/* for hook */
};

/* Numbers in the file's byte order. */
static inline uint64_t pd_u64(const struct pd *d, const unsigned char *p)
{
	uint64_t v;

	__builtin_memcpy(&v, p, 8);
	return d->swap ? __builtin_bswap64(v) : v;
}

static inline uint32_t pd_u32(const struct pd *d, const unsigned char *p)
{
	uint32_t v;

	__builtin_memcpy(&v, p, 4);
	return d->swap ? __builtin_bswap32(v) : v;
}

static inline uint16_t pd_u16(const struct pd *d, const unsigned char *p)
{
	uint16_t v;

	__builtin_memcpy(&v, p, 2);
	return d->swap ? __builtin_bswap16(v) : v;
}

/* perfdata_msg.c: a message about the input at byte off (UINT64_MAX: none); counted in
 * st->bad, the first few shown. */
void pd_bad(struct pd *d, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* perfdata_rec.c */
/* Fills a->trailer and d's id positions once every attr is known. */
void pd_layout(struct pd *d);
/* The attr of a record (len bytes at r, a sample or not), or NULL. */
const struct pd_attr *pd_attr_of(struct pd *d, const unsigned char *r, size_t len);
/* Reads a sample's fields; returns 0, or -1 when it is malformed. */
int pd_parse_sample(struct pd *d, const unsigned char *r, size_t len, struct pd_sample *s);
/* The time of a record (sample_id_all for others), or UINT64_MAX. */
uint64_t pd_time_of(struct pd *d, const unsigned char *r, size_t len);
/* perfdata.c */
/* Takes one record of the data (a kernel record, or a user one such as
 * FINISHED_ROUND): queued, applied or counted.  Returns how many bytes
 * of payload follow the record in the input (TRACING_DATA, AUXTRACE). */
uint64_t pd_record(struct pd *d, const unsigned char *r, size_t len, uint64_t off);

/* perfdata.c: reads the input into d, whose name, perf or hook, sym,
 * warn, ctx and st are set; releases d.  As perfdata_run. */
int pd_run(struct pd *d, struct lread *lr, const char *symfs, char *err, size_t errlen);

/* perfdata_emit.c: the DWARF unwinder (files under symfs, NULL: /). */
void pd_unwind_open(struct pd *d, const char *symfs);
void pd_unwind_close(struct pd *d);

/* perfdata_proc.c */
void pd_proc_init(struct pd *d);
void pd_proc_release(struct pd *d);
/* What MMAP (two: MMAP2), COMM and FORK records change. */
void pd_apply_mmap(struct pd *d, const unsigned char *r, size_t len, uint64_t off, int two);
void pd_apply_comm(struct pd *d, const unsigned char *r, size_t len);
void pd_apply_fork(struct pd *d, const unsigned char *r, size_t len);
/* EXIT: when the last thread known of a process has exited, its maps
 * go (memory follows the processes alive, not all there were). */
void pd_apply_exit(struct pd *d, const unsigned char *r, size_t len);
/* The thread tid (made when new, named ":tid" as perf does) and its map
 * holding addr, kernel or user by cpumode, or NULL. */
struct pd_thread *pd_thread_get(struct pd *d, uint32_t pid, uint32_t tid);
const char *pd_thread_comm(const struct pd *d, const struct pd_thread *t, size_t *len);
struct pd_proc *pd_proc_of(struct pd *d, const struct pd_thread *t);
struct pd_map *pd_find_map(struct pd_proc *p, uint64_t addr);
/* The kernel's text map ("[kernel.kallsyms]..."), or NULL. */
struct pd_map *pd_kernel_text(struct pd *d);
/* Adds m to p's maps, cutting what it overlaps (m copied; its strings
 * must outlive the reader, as d->names' do). */
void pd_map_add(struct pd *d, struct pd_proc *p, const struct pd_map *m);
/* After an MMAP record r: when it maps process PID's jit-PID.dump, the
 * code the dump describes waits to become maps named as perf inject
 * --jit names them, each at the time it was loaded: pd_jit_due maps
 * those loaded by time (call it before applying a record of that time
 * while d->jit is set); pd_jit_free frees them (perfdata_jit.c). */
void pd_jit_mmap(struct pd *d, const unsigned char *r, size_t len);
void pd_jit_due(struct pd *d, uint64_t time);
void pd_jit_free(struct pd *d);

/* perfdata_emit.c */
void pd_emit(struct pd *d, const struct pd_sample *s);
void pd_emit_free(struct pd *d);

/* Forgets the frames emitted so far: the names a map gives changed (a
 * build id noted late, serials wrapped).  pd_emit_free frees the cache. */
static inline void pd_emit_flush(struct pd *d)
{
	d->nameless_gen++;
	if (d->fcache)
		memset(d->fcache, 0, d->fslots * sizeof(*d->fcache));
}

/* A new map serial (never 0); the frame cache, keyed by them, is
 * forgotten when they wrap (old serials would match new maps).  Inline
 * here: the process tables make maps, the emitter caches by them. */
static inline uint32_t pd_map_serial(struct pd *d)
{
	if (++d->map_serial >= PD_FILE_KEY) {
		pd_emit_flush(d);
		d->map_serial = 1;
	}
	return d->map_serial;
}

/* perfdata_fid.c: sets m's frame cache key (by_pid, file) once its
 * path, sympath, ident, pgoff and build id are; kernel: one of the
 * kernel's maps.  pd_fid_free frees the ids. */
void pd_map_key(struct pd *d, struct pd_map *m, int kernel);
void pd_fid_free(struct pd *d);

/* perfdata_out.c: samples to the collapser, through a second thread
 * when threads is not 1, the input a file, and the collapser's choice of
 * event foreseeable (it keeps the one it was told or saw first); no
 * filter of its own (the caller passes threads 1 then).  pd_out_finish
 * waits for it (before perf_end).  pd_out_begin returns 0 when the
 * sample's frames are not wanted. */
struct perf_header;
void pd_out_start(struct pd *d, int threads);
int pd_out_begin(struct pd *d, const struct perf_header *h);
void pd_out_frame(struct pd *d, const struct pd_rframe *f);
void pd_out_end(struct pd *d);
void pd_out_finish(struct pd *d);

/* perfdata_order.c */
/* Applies a kernel record in time order (COMM, FORK, MMAP, a sample...). */
void pd_apply(struct pd *d, const unsigned char *r, size_t len, uint64_t off);
/* Queues a record by time; FINISHED_ROUND calls pd_round, the end pd_drain. */
void pd_queue(struct pd *d, const unsigned char *r, size_t len, uint64_t time, uint64_t off);
void pd_round(struct pd *d);
void pd_drain(struct pd *d);

/* perfdata_file.c */
/* Reads the header, attributes and features of a whole perf.data of size
 * bytes at b (file mode) and finds its data section (*doff, *dlen, cut
 * to the file): 0, or -1 with a message in err. */
int pd_file(struct pd *d, const unsigned char *b, uint64_t size, uint64_t *doff, uint64_t *dlen,
	    char *err, size_t errlen);
void pd_attr_parse(struct pd *d, const unsigned char *p, size_t n, struct pd_attr *a);
struct pd_attr *pd_add_attr(struct pd *d);
void pd_attr_ids(struct pd *d, struct pd_attr *a, const unsigned char *p, size_t n);
void pd_event_desc(struct pd *d, const unsigned char *p, size_t n, uint64_t off);
void pd_build_ids(struct pd *d, const unsigned char *p, size_t n, uint64_t off);
void pd_pipe_attr(struct pd *d, const unsigned char *r, size_t len, uint64_t off);
void pd_event_update(struct pd *d, const unsigned char *r, size_t len);

/* perfdata_zstd.c: COMPRESSED records.  pd_decompress takes a payload;
 * pd_zstd_record then gives the records inside one by one (len bytes,
 * valid until the next call), NULL when the payload is used up. */
void pd_decompress(struct pd *d, const unsigned char *p, size_t len, uint64_t off);
const unsigned char *pd_zstd_record(struct pd *d, size_t *len, uint64_t off);
void pd_zstd_free(struct pd *d);

#endif
