/* A threaded workload for example profiles: workers hash, sort and
 * compress buffers handed over through a mutex-protected queue. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ITEMS 12000
#define SIZE 8192

struct queue {
	pthread_mutex_t lock;
	int next;
};

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdULL;
}

__attribute__((noinline)) static uint64_t hash_block(const unsigned char *p, size_t n)
{
	uint64_t h = 1;

	for (size_t i = 0; i < n; i++)
		h = mix(h, p[i]);
	return h;
}

static int cmp(const void *a, const void *b)
{
	return (int)*(const unsigned char *)a - (int)*(const unsigned char *)b;
}

__attribute__((noinline)) static void sort_block(unsigned char *p, size_t n)
{
	qsort(p, n, 1, cmp);
}

__attribute__((noinline)) static size_t rle_compress(const unsigned char *p, size_t n, unsigned char *out)
{
	size_t o = 0;

	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j < n && p[j] == p[i] && j - i < 255)
			j++;
		out[o++] = (unsigned char)(j - i);
		out[o++] = p[i];
		i = j;
	}
	return o;
}

__attribute__((noinline)) static void fill_block(unsigned char *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		p[i] = (unsigned char)(seed >> 24) % 16;
	}
}

__attribute__((noinline)) static uint64_t process_item(int item, unsigned char *buf, unsigned char *out)
{
	uint64_t acc;

	fill_block(buf, SIZE, (unsigned)item);
	acc = hash_block(buf, SIZE);
	if (item % 3 == 0)
		sort_block(buf, SIZE);
	return acc + rle_compress(buf, SIZE, out);
}

static void *worker(void *arg)
{
	struct queue *q = arg;
	static int counter;
	char name[16];

	snprintf(name, sizeof(name), "worker-%d", __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED));
	pthread_setname_np(pthread_self(), name);
	unsigned char *buf = malloc(SIZE), *out = malloc(SIZE * 2);
	uint64_t acc = 0;

	for (;;) {
		int item;

		pthread_mutex_lock(&q->lock);
		item = q->next < ITEMS ? q->next++ : -1;
		pthread_mutex_unlock(&q->lock);
		if (item < 0)
			break;
		acc ^= process_item(item, buf, out);
	}
	free(buf);
	free(out);
	return (void *)(uintptr_t)acc;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 4;
	pthread_t t[16];
	struct queue q = { PTHREAD_MUTEX_INITIALIZER, 0 };
	uintptr_t sum = 0;

	if (n < 1 || n > 16)
		n = 4;
	for (int i = 0; i < n; i++)
		pthread_create(&t[i], NULL, worker, &q);
	for (int i = 0; i < n; i++) {
		void *r;

		pthread_join(t[i], &r);
		sum ^= (uintptr_t)r;
	}
	printf("%lx\n", (unsigned long)sum);
	return 0;
}
