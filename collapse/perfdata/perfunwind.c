/* perfunwind: libdwfl over a sample's copied registers and stack.  Files
 * are reported to a process's Dwfl as the unwinding meets their
 * addresses; the stack copy is the only memory there is, so a frame whose
 * CFA lies beyond it ends the stack, as in perf. */
#include "perfunwind.h"
#include "xalloc.h"

#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PROCS_MAX 64		/* processes whose Dwfl is kept */
#define DWARF_REGS 17		/* x86-64: rax ... r15, then the return address */

struct proc {
	Dwfl *dwfl;		/* NULL: a free entry */
	uint32_t pid;		/* the process */
	int attached;		/* thread callbacks set */
	uint64_t used;		/* when last unwound, for eviction */
};

struct perfunwind {
	char *symfs;			/* prefix for file names, "" for none */
	perfunwind_map_fn *find;	/* mappings */
	void *ctx;			/* for find */
	struct proc procs[PROCS_MAX];	/* kept Dwfls */
	uint64_t tick;			/* unwinds so far */
	const struct perfunwind_sample *cur;	/* the sample being unwound */
	struct proc *curp;		/* its process */
	Dwarf_Word regs[DWARF_REGS];	/* its registers, DWARF numbering */
	uint64_t sp;			/* its stack pointer: where stack starts */
	uint64_t *ips;			/* frames found... */
	size_t n, max;			/* ...how many, room */
	struct perfunwind_stats st;	/* counters */
};

static const Dwfl_Callbacks file_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

struct perfunwind *perfunwind_new(const char *symfs, perfunwind_map_fn *find, void *ctx)
{
	struct perfunwind *u = xcalloc(1, sizeof(*u));

	elf_version(EV_CURRENT);
	u->symfs = symfs ? xstrndup(symfs, strlen(symfs)) : xstrndup("", 0);
	u->find = find;
	u->ctx = ctx;
	return u;
}

void perfunwind_free(struct perfunwind *u)
{
	size_t i;

	if (!u)
		return;
	for (i = 0; i < PROCS_MAX; i++)
		if (u->procs[i].dwfl)
			dwfl_end(u->procs[i].dwfl);
	free(u->symfs);
	free(u);
}

const struct perfunwind_stats *perfunwind_stats(const struct perfunwind *u)
{
	return &u->st;
}

/* The load bias of a shared object mapped at m: the address of its
 * vaddr 0, from the segment holding m's file offset. */
static uint64_t load_bias(int fd, const struct perfunwind_map *m)
{
	uint64_t bias = m->start - m->pgoff;
	Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	size_t i, n;
	GElf_Phdr ph;

	if (!e)
		return bias;
	if (elf_getphdrnum(e, &n) == 0) {
		for (i = 0; i < n; i++) {
			uint64_t from;

			if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD)
				continue;
			from = ph.p_offset & ~(uint64_t)4095;
			if (m->pgoff >= from && m->pgoff < ph.p_offset + ph.p_filesz) {
				bias = m->start - m->pgoff + ph.p_offset - ph.p_vaddr;
				break;
			}
		}
	}
	elf_end(e);
	return bias;
}

/* Makes the file mapped at addr known to p's Dwfl; 1 when it is. */
static int report(struct perfunwind *u, struct proc *p, uint64_t addr)
{
	struct perfunwind_map m;
	Dwfl_Module *mod;
	char path[4096];
	int fd;

	if (dwfl_addrmodule(p->dwfl, addr))
		return 1;
	if (u->find(u->ctx, p->pid, addr, &m) < 0 || !m.path || m.path[0] != '/')
		return 0;
	snprintf(path, sizeof(path), "%s%s", u->symfs, m.path);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		u->st.missing++;
		return 0;
	}
	dwfl_report_begin_add(p->dwfl);
	mod = dwfl_report_elf(p->dwfl, m.path, path, fd, load_bias(fd, &m), false);
	dwfl_report_end(p->dwfl, NULL, NULL);
	if (!mod) {
		close(fd);
		u->st.missing++;
		return 0;
	}
	u->st.files++;
	return 1;
}

/* ---- thread callbacks: one thread, the sample's ---- */

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	struct perfunwind *u = arg;

	(void)dwfl;
	if (*thread_argp)
		return 0;
	*thread_argp = u;
	return (pid_t)u->cur->tid;
}

static bool get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
	(void)dwfl, (void)tid;
	*thread_argp = arg;
	return true;
}

static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct perfunwind *u = arg;

	(void)dwfl;
	if (addr < u->sp || addr - u->sp > u->cur->size || u->cur->size - (addr - u->sp) < 8)
		return false;
	memcpy(result, u->cur->stack + (addr - u->sp), 8);
	return true;
}

static bool initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct perfunwind *u = arg;

	if (!dwfl_thread_state_registers(thread, 0, DWARF_REGS, u->regs))
		return false;
	dwfl_thread_state_register_pc(thread, u->regs[16]);
	return true;
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.get_thread = get_thread,
	.memory_read = memory_read,
	.set_initial_registers = initial_registers,
};

/* ---- processes ---- */

/* The kept process pid, made (evicting the least recently used) when new. */
static struct proc *proc_get(struct perfunwind *u, uint32_t pid)
{
	struct proc *p, *old = &u->procs[0];
	size_t i;

	for (i = 0; i < PROCS_MAX; i++) {
		p = &u->procs[i];
		if (p->dwfl && p->pid == pid)
			return p;
		if (!p->dwfl || (old->dwfl && p->used < old->used))
			old = p;
	}
	if (old->dwfl)
		dwfl_end(old->dwfl);
	memset(old, 0, sizeof(*old));
	old->dwfl = dwfl_begin(&file_callbacks);
	old->pid = pid;
	return old->dwfl ? old : NULL;
}

/* perf's x86-64 registers into DWARF's numbering; 0 when IP or SP is
 * missing. */
static int dwarf_regs(struct perfunwind *u, const struct perfunwind_sample *s)
{
	static const int to_dwarf[24] = {
		[PU_AX] = 0, [PU_DX] = 1, [PU_CX] = 2, [PU_BX] = 3, [PU_SI] = 4, [PU_DI] = 5,
		[PU_BP] = 6, [PU_SP] = 7, [PU_IP] = 16, [9] = -1, [10] = -1, [11] = -1,
		[12] = -1, [13] = -1, [14] = -1, [15] = -1, [16] = 8, [17] = 9, [18] = 10,
		[19] = 11, [20] = 12, [21] = 13, [22] = 14, [23] = 15,
	};
	size_t k = 0;
	int bit, got = 0;

	memset(u->regs, 0, sizeof(u->regs));
	for (bit = 0; bit < 64 && k < s->nregs; bit++) {
		if (!(s->mask >> bit & 1))
			continue;
		if (bit < 24 && to_dwarf[bit] >= 0) {
			u->regs[to_dwarf[bit]] = s->regs[k];
			got |= bit == PU_IP ? 1 : bit == PU_SP ? 2 : 0;
		}
		k++;
	}
	u->sp = u->regs[7];
	return got == 3;
}

static int frame_cb(Dwfl_Frame *state, void *arg)
{
	struct perfunwind *u = arg;
	Dwarf_Addr pc;
	bool activation;

	if (!dwfl_frame_pc(state, &pc, &activation) || pc == 0)
		return DWARF_CB_ABORT;
	/* A return address is one past its call: perf lists the call. */
	if (!activation)
		pc--;
	u->ips[u->n++] = pc;
	if (u->n >= u->max)
		return DWARF_CB_ABORT;
	/* The caller's file must be known before its frame is unwound. */
	report(u, u->curp, pc);
	return DWARF_CB_OK;
}

size_t perfunwind_stack(struct perfunwind *u, const struct perfunwind_sample *s, uint64_t *ips,
			size_t max)
{
	struct proc *p;

	u->st.samples++;
	if (max == 0 || !dwarf_regs(u, s))
		return 0;
	ips[0] = u->regs[16];
	p = proc_get(u, s->pid);
	/* libdwfl takes the machine from the first file reported. */
	if (p && !p->attached && report(u, p, ips[0]))
		p->attached = dwfl_attach_state(p->dwfl, NULL, (pid_t)s->pid, &thread_callbacks, u);
	if (!p || !p->attached || !report(u, p, ips[0])) {
		u->st.failed++;
		return 1;
	}
	p->used = ++u->tick;
	u->cur = s;
	u->curp = p;
	u->ips = ips;
	u->n = 0;
	u->max = max;
	dwfl_getthread_frames(p->dwfl, (pid_t)s->tid, frame_cb, u);
	if (u->n == 0)
		ips[u->n++] = u->regs[16];
	u->st.failed += u->n < 2;
	return u->n;
}
