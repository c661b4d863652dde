/* hkey: the hash of the tables that input fills (strtab, the frame-name
 * and key tables of the collapsers): XXH3 with a secret made at random
 * once a process.  With the library's own secret anyone can make many
 * names that fall in one place of a table (for short ones, by running
 * the hash backwards), and n of them then cost n^2 / 2 probes: a file
 * that hangs the tool.  With this one nobody knows where a name falls.
 * A key's slot then varies from run to run, so nothing read out of such
 * a table may follow its slots: ids go in the order keys came, output is
 * sorted.  FLAME_HASH_SEED=N (a decimal number) makes the secret from N
 * instead, for tests that check exactly that. */
#ifndef FLAME_HKEY_H
#define FLAME_HKEY_H

#include <stddef.h>
#include <stdint.h>
#include <xxhash.h>

/* Bytes of the secret (XXH3's default size). */
#define HKEY_SECRET 192

/* The secret: made at the first call (on any thread), the same after. */
const unsigned char *hkey_secret(void);

/* HKEY_SECRET / 8 more secret words (the stream after the secret's),
 * for hashes of a table's own that mix them in: not XXH3's, so keys made
 * to collide in one, were its words known, do not in the other. */
const uint64_t *hkey_words(void);

/* The hash of the len bytes at p with secret s (hkey_secret's), inline
 * where the caller inlines xxhash (XXH_INLINE_ALL). */
static inline uint64_t hkey_with(const unsigned char *s, const void *p, size_t len)
{
	return XXH3_64bits_withSecret(p, len, s, HKEY_SECRET);
}

/* The hash of the len bytes at p. */
uint64_t hkey(const void *p, size_t len);

/* An odd number made from the secret, for tables keyed by numbers from
 * the input (ids, addresses, offsets): see hkey_slot. */
uint64_t hkey_odd(void);

/* The slot of number x among n (a power of two) by multiply-shift with
 * odd a (hkey_odd's): the top bits of x * a.  With a unknown, no input
 * can choose numbers that share a slot, as with a fixed multiplier or a
 * bijective mix it could. */
static inline size_t hkey_slot(uint64_t x, uint64_t a, size_t n)
{
	return (size_t)(((unsigned __int128)(x * a) * n) >> 64);
}

#endif
