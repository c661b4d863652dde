/* hkey: the secret is 192 bytes of SplitMix64 output from a 64-bit seed:
 * the system's random bytes (getrandom, rand_s), or the time, the process
 * id and an address where it has none to give, or FLAME_HASH_SEED. */
#ifndef XXH_INLINE_ALL
#define XXH_INLINE_ALL
#endif
#include "hkey.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifndef _WIN32
#include <sys/random.h>
#include <unistd.h>
#else
#include <process.h>
#endif

/* Written once, under pthread_once, and only read after: the one state
 * shared by every table of the process, whose hashes one thread may work
 * out for another's table (strtab_intern_hashed). */
static uint64_t secret[HKEY_SECRET / 8];
static uint64_t more[HKEY_SECRET / 8];	/* hkey_words' */
static pthread_once_t made = PTHREAD_ONCE_INIT;

/* SplitMix64's next output from *x. */
static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15u);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

/* A seed no input can know in advance. */
static uint64_t random_seed(void)
{
	uint64_t x = 0;
#ifdef _WIN32
	unsigned int lo, hi;

	if (rand_s(&lo) == 0 && rand_s(&hi) == 0)
		return (uint64_t)hi << 32 | lo;
	x = (uint64_t)_getpid();
#else
	if (getrandom(&x, sizeof(x), GRND_NONBLOCK) == (ssize_t)sizeof(x))
		return x;
	x = (uint64_t)getpid();
#endif
	return x << 40 ^ (uint64_t)time(NULL) << 20 ^ (uint64_t)clock() ^ (uint64_t)(uintptr_t)&x;
}

static void make(void)
{
	const char *env = getenv("FLAME_HASH_SEED");
	char *end;
	uint64_t x = 0;
	size_t i;

	if (env && *env)
		x = (uint64_t)strtoull(env, &end, 10);
	if (!env || !*env || *end)
		x = random_seed();
	for (i = 0; i < HKEY_SECRET / 8; i++)
		secret[i] = splitmix(&x);
	for (i = 0; i < HKEY_SECRET / 8; i++)
		more[i] = splitmix(&x);
}

const unsigned char *hkey_secret(void)
{
	pthread_once(&made, make);
	return (const unsigned char *)secret;
}

const uint64_t *hkey_words(void)
{
	pthread_once(&made, make);
	return more;
}

uint64_t hkey(const void *p, size_t len)
{
	return hkey_with(hkey_secret(), p, len);
}

uint64_t hkey_odd(void)
{
	return hkey_words()[HKEY_SECRET / 8 - 1] | 1;
}
