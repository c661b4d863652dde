/* etl_map: the reader's hash map, 64-bit keys to 32-bit values. */
#include "etl_int.h"
#include "hkey.h"
#include "xalloc.h"

#include <stdlib.h>

/* The keys are the trace's (thread ids, addresses, signatures): placed
 * with the process's secret multiplier (hkey_slot). */
static size_t slot(const struct map64 *m, uint64_t key, size_t cap)
{
	return hkey_slot(key, m->mul, cap);
}

static void grow(struct map64 *m)
{
	struct map64 old = *m;
	size_t i, j;

	m->cap = old.cap ? old.cap * 2 : 1024;
	if (!m->mul)
		m->mul = hkey_odd();
	m->key = xcalloc(m->cap, sizeof(*m->key));
	m->val = xcalloc(m->cap, sizeof(*m->val));
	for (i = 0; i < old.cap; i++) {
		if (!old.val[i])
			continue;
		for (j = slot(m, old.key[i], m->cap); m->val[j]; j = (j + 1) & (m->cap - 1))
			;
		m->key[j] = old.key[i];
		m->val[j] = old.val[i];
	}
	free(old.key);
	free(old.val);
}

void map64_put(struct map64 *m, uint64_t key, uint32_t val)
{
	size_t j;

	if ((m->n + 1) * 4 > m->cap * 3)
		grow(m);
	for (j = slot(m, key, m->cap); m->val[j]; j = (j + 1) & (m->cap - 1))
		;
	m->key[j] = key;
	m->val[j] = val + 1;
	m->n++;
}

int map64_next(const struct map64 *m, uint64_t key, size_t *c, uint32_t *val)
{
	size_t j;

	if (!m->cap)
		return -1;
	/* *c counts the slots already looked at from the key's home. */
	for (j = (slot(m, key, m->cap) + *c) & (m->cap - 1); m->val[j]; j = (j + 1) & (m->cap - 1)) {
		(*c)++;
		if (m->key[j] == key) {
			*val = m->val[j] - 1;
			return 0;
		}
	}
	return -1;
}

void map64_set(struct map64 *m, uint64_t key, uint32_t val)
{
	size_t j;

	if (m->cap) {
		for (j = slot(m, key, m->cap); m->val[j]; j = (j + 1) & (m->cap - 1))
			if (m->key[j] == key) {
				m->val[j] = val + 1;
				return;
			}
	}
	map64_put(m, key, val);
}

void map64_free(struct map64 *m)
{
	free(m->key);
	free(m->val);
	m->key = NULL;
	m->val = NULL;
	m->cap = m->n = 0;
}
