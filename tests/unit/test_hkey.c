/* Unit tests for hkey: FLAME_HASH_SEED makes the secret SplitMix64's
 * stream from it (and hkey_words the stream's next words); the hash is
 * XXH3 with that secret, not the library's
 * own; names made to collide under the library's secret do not under
 * it; with no seed given, two processes hash a name differently (run as
 * `test_hkey print`, this prints one hash); the tables that use it still
 * find what they hold. */
#include "check.h"
#include "fnames.h"
#include "hkey.h"
#include "strtab.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* SplitMix64 written out again, not taken from hkey.c. */
static uint64_t next(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15u);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

/* XXH3 of 8 bytes, run backwards (its steps are facts of the format):
 * the hash is rrmxmx(input ^ flip) where input is the first 4 bytes
 * (little-endian) above the last 4 and flip a constant of the secret.
 * rrmxmx: x ^= rotl(x, 49) ^ rotl(x, 24); x *= M; x ^= (x >> 35) + 8;
 * x *= M; x ^= x >> 28.  Each step is undone: the first is a product
 * (1 + r^24 + r^49) in the ring of rotations, whose inverse is the
 * product of (1 + r^(24 * 2^j) + r^(49 * 2^j)) for j < 6. */
#define RRM 0x9fb21c651e98df25u

static uint64_t rotl(uint64_t x, unsigned k)
{
	k &= 63;
	return k ? x << k | x >> (64 - k) : x;
}

/* The inverse of m modulo 2^64 (m odd), by Newton's steps. */
static uint64_t inverse(uint64_t m)
{
	uint64_t x = m;
	int i;

	for (i = 0; i < 6; i++)
		x *= 2 - m * x;
	return x;
}

static uint64_t unrrmxmx(uint64_t h)
{
	uint64_t x = h ^ h >> 28 ^ h >> 56, mi = inverse(RRM);
	unsigned j;

	x *= mi;
	x ^= (x >> 35) + 8;
	x *= mi;
	for (j = 0; j < 6; j++)
		x ^= rotl(x, 24u << j) ^ rotl(x, 49u << j);
	return x;
}

static uint64_t input_of(const unsigned char *p)
{
	uint32_t a, b;

	memcpy(&a, p, 4);
	memcpy(&b, p + 4, 4);
	return (uint64_t)a << 32 | b;
}

/* Names of 8 printable bytes whose XXH3 (the library's own secret) has
 * the same top 24 bits: all in one slot of any table of up to 2^24
 * slots that is indexed by them (strtab is).  Their hkey's top bits
 * must spread as any names' do. */
static void flood(void)
{
	const unsigned char probe[8] = { 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h' };
	uint64_t flip = unrrmxmx(XXH3_64bits(probe, 8)) ^ input_of(probe), in, lo;
	unsigned char p[8], seen[1 << 12] = { 0 };
	uint32_t a, b;
	size_t n = 0, k, spread = 0;
	int same = 1, ok;

	for (lo = 1; n < 2000 && lo < ((uint64_t)1 << 40); lo++) {
		in = unrrmxmx((uint64_t)0xabcdef << 40 | lo * 0x9e3779b9u % ((uint64_t)1 << 40)) ^ flip;
		a = (uint32_t)(in >> 32), b = (uint32_t)in;
		memcpy(p, &a, 4);
		memcpy(p + 4, &b, 4);
		for (ok = 1, k = 0; k < 8 && ok; k++)
			ok = p[k] > ' ' && p[k] < 0x7f && p[k] != ';';
		if (!ok)
			continue;
		n++;
		same &= XXH3_64bits(p, 8) >> 40 == 0xabcdef;
		k = (size_t)(hkey(p, 8) >> 52);
		spread += !seen[k];
		seen[k] = 1;
	}
	CHECK(n == 2000 && same);
	/* 2000 draws of 4096 values: about 1560 distinct; all 2000 in one
	 * would be the flood. */
	CHECK(spread > 1400);
}

/* Two runs of this program with no seed: their hashes of one name. */
static void two_runs(const char *self)
{
	char cmd[4200], a[64] = "", b[64] = "";
	FILE *p;
	int i;

	if (strlen(self) > 4000)
		return;
	snprintf(cmd, sizeof(cmd), "env -u FLAME_HASH_SEED '%s' print", self);
	for (i = 0; i < 2; i++) {
		if (!(p = popen(cmd, "r")))
			return;
		CHECK(fgets(i ? b : a, sizeof(a), p) != NULL);
		pclose(p);
	}
	CHECK(a[0] && b[0] && strcmp(a, b) != 0);
}

int main(int argc, char **argv)
{
	const unsigned char *s;
	unsigned char want[HKEY_SECRET];
	uint64_t x = 12345, w;
	struct strtab *t;
	struct fnames f;
	char name[32];
	size_t i;
	int bad = 0;

	if (argc > 1 && strcmp(argv[1], "print") == 0) {
		printf("%" PRIu64 "\n", hkey("main", 4));
		return 0;
	}
	two_runs(argv[0]);
	setenv("FLAME_HASH_SEED", "12345", 1);
	s = hkey_secret();
	for (i = 0; i < HKEY_SECRET; i += 8) {
		w = next(&x);
		memcpy(want + i, &w, 8);
	}
	CHECK(memcmp(s, want, HKEY_SECRET) == 0);
	/* hkey_words: the stream's next words, not the secret's. */
	for (i = 0, bad = 0; i < HKEY_SECRET / 8; i++)
		bad |= hkey_words()[i] != next(&x);
	CHECK(!bad);
	bad = 0;
	CHECK(hkey_secret() == s);
	CHECK(hkey("main", 4) == XXH3_64bits_withSecret("main", 4, want, HKEY_SECRET));
	CHECK(hkey("main", 4) != XXH3_64bits("main", 4));
	CHECK(strtab_hash("main", 4) == hkey("main", 4));
	flood();
	/* The tables find their keys again, through growth. */
	t = strtab_new(0);
	fnames_init(&f, 16);
	for (i = 0; i < 5000; i++) {
		snprintf(name, sizeof(name), "f%zu", i);
		bad |= strtab_intern(t, name, strlen(name), NULL) != i;
		bad |= fnames_id(&f, name, strlen(name)) != i;
	}
	for (i = 0; i < 5000; i++) {
		snprintf(name, sizeof(name), "f%zu", i);
		bad |= strtab_find(t, name, strlen(name)) != i;
		bad |= fnames_id(&f, name, strlen(name)) != i;
	}
	CHECK(!bad && strtab_count(t) == 5000 && fnames_count(&f) == 5000);
	strtab_free(t);
	fnames_release(&f);
	return check_done();
}
