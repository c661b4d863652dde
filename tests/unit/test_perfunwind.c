/* Unit tests for collapse/perfdata/perfunwind: this program takes a
 * snapshot of its own registers and stack, the way perf's REGS_USER and
 * STACK_USER do, three calls deep in functions built without frame
 * pointers, and unwinds it with the maps of /proc/self/maps.  The oracle
 * is the return addresses the compiler itself reports
 * (__builtin_return_address), less one as perf lists them. */
#include "check.h"
#include "perfunwind.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && defined(__linux__)

#define STACK_COPY 16384

/* Functions built without frame pointers, so the CFI alone can unwind
 * them (gcc; clang has no per-function switch). */
#if defined(__clang__)
#define NO_FP
#else
#define NO_FP optimize("omit-frame-pointer")
#endif

struct maps {
	struct perfunwind_map m[512];
	char path[512][256];
	size_t n;
	uint64_t stack_end;	/* top of [stack] */
};

struct snap {
	uint64_t regs[24];	/* by perf's x86-64 numbers */
	uint64_t mask;
	unsigned char stack[STACK_COPY];
	size_t size;
	void *ret[3];		/* return addresses seen by the functions */
};

static struct maps maps;
static struct snap snap;

static void read_maps(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[1024];

	maps.n = 0;
	while (f && fgets(line, sizeof(line), f) && maps.n < 512) {
		unsigned long long a, b, off;
		char perm[8], path[256] = "";

		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %255s", &a, &b, perm, &off, path) < 4)
			continue;
		if (strcmp(path, "[stack]") == 0)
			maps.stack_end = b;
		strcpy(maps.path[maps.n], path);
		maps.m[maps.n] = (struct perfunwind_map){ a, b, off, maps.path[maps.n] };
		maps.n++;
	}
	if (f)
		fclose(f);
}

static int find_map(void *ctx, uint32_t pid, uint64_t addr, struct perfunwind_map *m)
{
	size_t i;

	(void)ctx, (void)pid;
	for (i = 0; i < maps.n; i++) {
		if (addr >= maps.m[i].start && addr < maps.m[i].end) {
			*m = maps.m[i];
			return 0;
		}
	}
	return -1;
}

/* The stack above sp, as the kernel copies it: the bytes of other frames'
 * locals and padding too, which a sanitizer must not check here. */
__attribute__((noinline, no_sanitize_address)) static void copy_stack(uint64_t sp, size_t n)
{
	const volatile unsigned char *from = (const volatile unsigned char *)(uintptr_t)sp;
	size_t i;

	for (i = 0; i < n; i++)
		snap.stack[i] = from[i];
}

/* The registers perf would sample here, and the stack above them. */
__attribute__((noinline, NO_FP)) static void take(void)
{
	uint64_t ip, sp, bp, bx, r12, r13, r14, r15;

	__asm__ volatile("lea 0(%%rip), %0\n\tmov %%rsp, %1\n\tmov %%rbp, %2\n\tmov %%rbx, %3\n\t"
			 "mov %%r12, %4\n\tmov %%r13, %5\n\tmov %%r14, %6\n\tmov %%r15, %7"
			 : "=&r"(ip), "=&r"(sp), "=&r"(bp), "=&r"(bx), "=&r"(r12), "=&r"(r13),
			   "=&r"(r14), "=&r"(r15));
	snap.regs[PU_IP] = ip;
	snap.regs[PU_SP] = sp;
	snap.regs[PU_BP] = bp;
	snap.regs[PU_BX] = bx;
	snap.regs[PU_R8 + 4] = r12;
	snap.regs[PU_R8 + 5] = r13;
	snap.regs[PU_R8 + 6] = r14;
	snap.regs[PU_R15] = r15;
	snap.mask = 1u << PU_IP | 1u << PU_SP | 1u << PU_BP | 1u << PU_BX | 0xfull << (PU_R8 + 4);
	snap.size = maps.stack_end - sp < STACK_COPY ? maps.stack_end - sp : STACK_COPY;
	copy_stack(sp, snap.size);
	snap.ret[0] = __builtin_return_address(0);
}

__attribute__((noinline, NO_FP)) static void inner(volatile int *x)
{
	char pad[40];

	memset(pad, *x, sizeof(pad));
	take();
	snap.ret[1] = __builtin_return_address(0);
	*x += pad[3];
}

__attribute__((noinline, NO_FP)) static void outer(volatile int *x)
{
	char pad[72];

	memset(pad, *x + 1, sizeof(pad));
	inner(x);
	snap.ret[2] = __builtin_return_address(0);
	*x += pad[5];
}

/* The registers of mask, packed in mask order as a sample has them. */
static size_t pack(uint64_t *out)
{
	size_t n = 0;
	int bit;

	for (bit = 0; bit < 24; bit++)
		if (snap.mask >> bit & 1)
			out[n++] = snap.regs[bit];
	return n;
}

static void test_unwind(void)
{
	volatile int x = 1;
	struct perfunwind *u;
	struct perfunwind_sample s;
	uint64_t packed[24], ips[64];
	size_t n;

	read_maps();
	outer(&x);
	s = (struct perfunwind_sample){ 1, 1, snap.mask, packed, pack(packed), snap.stack, snap.size };
	u = perfunwind_new(NULL, find_map, NULL);
	n = perfunwind_stack(u, &s, ips, 64);
	CHECK(n >= 4);
	CHECK(n >= 1 && ips[0] == snap.regs[PU_IP]);
	CHECK(n >= 2 && ips[1] == (uint64_t)(uintptr_t)snap.ret[0] - 1);
	CHECK(n >= 3 && ips[2] == (uint64_t)(uintptr_t)snap.ret[1] - 1);
	CHECK(n >= 4 && ips[3] == (uint64_t)(uintptr_t)snap.ret[2] - 1);
	/* Again: the process's Dwfl is kept, the answer the same. */
	CHECK(perfunwind_stack(u, &s, ips, 64) == n && perfunwind_stats(u)->files >= 1);
	/* A stack copy cut short ends the unwinding, without a crash. */
	s.size = 8;
	CHECK(perfunwind_stack(u, &s, ips, 64) < n);
	/* Without SP nothing can be unwound. */
	s.mask &= ~(1ull << PU_SP);
	s.nregs = 0;
	CHECK(perfunwind_stack(u, &s, ips, 64) == 0);
	perfunwind_free(u);
	perfunwind_free(NULL);
}

int main(void)
{
	test_unwind();
	return check_done();
}

#else

int main(void)
{
	puts("skip: perfunwind unwinds x86-64 Linux only");
	return 0;
}

#endif
