/* A tiny JIT for the perf.data tests: writes two functions of x86-64
 * code into executable memory and describes them in a jitdump file
 * (jit-PID.dump in DIR, mapped executable so that perf records where it
 * is), the way JIT runtimes do for `perf inject --jit`.  Then runs them.
 * Usage: jitgen DIR N */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* rax = rdi; do rax-- while rax; ret */
static const unsigned char spin[] = { 0x48, 0x89, 0xf8, 0x48, 0xff, 0xc8, 0x75, 0xfb, 0xc3 };

static uint64_t now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void put(FILE *f, const void *p, size_t n)
{
	if (fwrite(p, 1, n, f) != n)
		exit(1);
}

/* JIT_CODE_LOAD (id 0): header, pid, tid, vma, code address, size,
 * index, name, then the code. */
static void code_load(FILE *f, const char *name, const void *code, uint64_t size, uint64_t index)
{
	uint32_t id = 0, total = (uint32_t)(16 + 8 + 32 + strlen(name) + 1 + size);
	uint32_t pid = (uint32_t)getpid(), tid = pid;
	uint64_t ts = now(), addr = (uint64_t)(uintptr_t)code;

	put(f, &id, 4);
	put(f, &total, 4);
	put(f, &ts, 8);
	put(f, &pid, 4);
	put(f, &tid, 4);
	put(f, &addr, 8);
	put(f, &addr, 8);
	put(f, &size, 8);
	put(f, &index, 8);
	put(f, name, strlen(name) + 1);
	put(f, code, size);
}

int main(int argc, char **argv)
{
	char path[4096];
	uint32_t head[6] = { 0x4A695444, 1, 40, 62, 0, 0 };
	uint64_t ts = now(), flags = 0, n = argc > 2 ? strtoull(argv[2], NULL, 10) : 1000;
	unsigned char *mem;
	FILE *f;
	void *marker;

	if (argc < 2)
		return 2;
	snprintf(path, sizeof(path), "%s/jit-%d.dump", argv[1], (int)getpid());
	if (!(f = fopen(path, "w+")))
		return 1;
	head[5] = (uint32_t)getpid();
	put(f, head, sizeof(head));
	put(f, &ts, 8);
	put(f, &flags, 8);
	fflush(f);
	/* The mapping perf sees: PROT_EXEC makes it an MMAP record. */
	marker = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ | PROT_EXEC, MAP_PRIVATE,
		      fileno(f), 0);
	mem = mmap(NULL, 8192, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (marker == MAP_FAILED || mem == MAP_FAILED)
		return 1;
	memcpy(mem, spin, sizeof(spin));
	memcpy(mem + 4096, spin, sizeof(spin));
	code_load(f, "jit_hot", mem, sizeof(spin), 1);
	code_load(f, "Ljava/lang/Cold;run(I[JLjava/lang/String;Z)V", mem + 4096, sizeof(spin), 2);
	fclose(f);
	for (uint64_t i = 0; i < n; i++) {
		((void (*)(uint64_t))(void *)mem)(200000);
		((void (*)(uint64_t))(void *)(mem + 4096))(100000);
	}
	return 0;
}
