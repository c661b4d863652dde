/* strtab: open-addressing hash table over an append-only arena.
 *
 * Each slot holds the entry's address, 32 bits of the key's hash and the
 * key's length, so a probe reads the string only when both match, and a
 * hit costs one cache miss for the slot and one for the entry.  A key's
 * home slot is taken from the top of those 32 bits, so the table grows
 * without reading its strings again.  Entries
 * are laid out in the arena as [value][id][length][bytes NUL]; the
 * id -> entry array gives insertion-ordered ids. */
#include "strtab.h"
#include "hkey.h"
#include "strsort.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

#define CHUNK (1024 * 1024)	/* arena chunk; larger strings get their own */
/* Past BIG_AFTER bytes held, chunks are BIG bytes (xmalloc_big): a
 * table growing big takes its memory in fewer, larger pieces. */
#define BIG_AFTER ((size_t)4 << 20)
#define BIG ((size_t)8 << 20)

struct slot {
	char *entry;		/* the entry, NULL when empty */
	uint32_t hash;		/* high bits of the key's hash */
	uint32_t len;		/* key length, saturated at UINT32_MAX */
};

/* The header before an entry's bytes. */
struct head {
	size_t len;		/* key length */
	uint32_t id;		/* insertion index */
};

struct chunk {
	struct chunk *next;	/* older chunk */
	size_t used;		/* bytes handed out from data */
	size_t size;		/* bytes in data */
	max_align_t data[];	/* the entries */
};

struct strtab {
	struct slot *slots;	/* 2^bits slots */
	unsigned bits;		/* log2 of the slot count */
	size_t valsize;		/* value bytes per entry, rounded for alignment */
	char **entries;		/* id -> entry start (its value) */
	size_t n;		/* entries in use */
	size_t cap;		/* capacity of entries */
	struct chunk *arena;	/* newest chunk first */
	const unsigned char *secret;	/* hkey's */
	size_t bytes;		/* total memory held */
};

struct strtab *strtab_new(size_t valsize)
{
	struct strtab *t = xcalloc(1, sizeof(*t));
	size_t a = sizeof(max_align_t);

	t->valsize = (valsize + a - 1) / a * a;
	t->secret = hkey_secret();
	t->bits = 10;
	t->slots = xcalloc((size_t)1 << t->bits, sizeof(*t->slots));
	t->bytes = sizeof(*t) + (sizeof(*t->slots) << t->bits);
	return t;
}

void strtab_free(struct strtab *t)
{
	struct chunk *c, *next;

	if (!t)
		return;
	for (c = t->arena; c; c = next) {
		next = c->next;
		free(c);
	}
	free(t->entries);
	free(t->slots);
	free(t);
}

static void *arena_alloc(struct strtab *t, size_t n)
{
	size_t a = sizeof(max_align_t);
	struct chunk *c = t->arena;

	n = (n + a - 1) / a * a;
	if (!c || c->size - c->used < n) {
		size_t size = n > CHUNK / 4 ? n : CHUNK;

		if (size == CHUNK && t->bytes >= BIG_AFTER) {
			size = BIG - sizeof(*c);
			c = xmalloc_big(sizeof(*c) + size);
		} else {
			c = xmalloc(sizeof(*c) + size);
		}
		c->size = size;
		c->used = 0;
		/* A big string gets a chunk of its own behind the current one,
		 * so the current chunk's free space is not wasted. */
		if (t->arena && n > CHUNK / 4) {
			c->next = t->arena->next;
			t->arena->next = c;
		} else {
			c->next = t->arena;
			t->arena = c;
		}
		t->bytes += sizeof(*c) + size;
	}
	c->used += n;
	return (char *)c->data + c->used - n;
}

static const char *entry_str(const struct strtab *t, const char *e, size_t *len)
{
	const struct head *h = (const struct head *)(const void *)(e + t->valsize);

	if (len)
		*len = h->len;
	return e + t->valsize + sizeof(*h);
}

static uint32_t entry_id(const struct strtab *t, const char *e)
{
	return ((const struct head *)(const void *)(e + t->valsize))->id;
}

static uint32_t slot_len(size_t len)
{
	return len < UINT32_MAX ? (uint32_t)len : UINT32_MAX;
}

/* The home slot of hash h among 2^bits: its top bits, so that while
 * bits <= 32 it follows from the 32 bits a slot keeps, and growing the
 * table reads no string again. */
static size_t home(uint64_t h, unsigned bits)
{
	return (size_t)(h >> (64 - bits));
}

static void grow_slots(struct strtab *t)
{
	unsigned bits = t->bits + 1;
	size_t mask = ((size_t)1 << bits) - 1;
	struct slot *s = xmalloc_big((mask + 1) * sizeof(*s));
	size_t i;

	memset(s, 0, (mask + 1) * sizeof(*s));

	for (i = 0; i < ((size_t)1 << t->bits); i++) {
		struct slot old = t->slots[i];
		size_t len, j;
		const char *str;

		if (!old.entry)
			continue;
		if (bits <= 32)
			j = (size_t)(old.hash >> (32 - bits));
		else {
			str = entry_str(t, old.entry, &len);
			j = home(hkey_with(t->secret, str, len), bits);
		}
		while (s[j].entry)
			j = (j + 1) & mask;
		s[j] = old;
	}
	free(t->slots);
	t->bytes += sizeof(*s) << t->bits;
	t->slots = s;
	t->bits = bits;
}

/* Returns the slot where s is, or the empty slot where it would go. */
static size_t probe(const struct strtab *t, const char *s, size_t len, uint64_t h)
{
	size_t mask = ((size_t)1 << t->bits) - 1;
	size_t j = home(h, t->bits);
	uint32_t hi = (uint32_t)(h >> 32), sl_len = slot_len(len);

	for (;; j = (j + 1) & mask) {
		const struct slot *sl = &t->slots[j];
		size_t n;
		const char *e;

		if (!sl->entry)
			return j;
		if (sl->hash != hi || sl->len != sl_len)
			continue;
		e = entry_str(t, sl->entry, &n);
		if (n == len && memcmp(e, s, len) == 0)
			return j;
	}
}

uint32_t strtab_find(const struct strtab *t, const char *s, size_t len)
{
	size_t j = probe(t, s, len, hkey_with(t->secret, s, len));

	return t->slots[j].entry ? entry_id(t, t->slots[j].entry) : UINT32_MAX;
}

uint64_t strtab_hash(const char *s, size_t len)
{
	return hkey(s, len);
}

void strtab_prefetch(const struct strtab *t, uint64_t h)
{
#if defined(__GNUC__) || defined(__clang__)
	__builtin_prefetch(&t->slots[home(h, t->bits)]);
#else
	(void)t, (void)h;
#endif
}

uint32_t strtab_intern(struct strtab *t, const char *s, size_t len, int *added)
{
	return strtab_intern_hashed(t, s, len, hkey_with(t->secret, s, len), added);
}

uint32_t strtab_intern_hashed(struct strtab *t, const char *s, size_t len, uint64_t h, int *added)
{
	size_t j = probe(t, s, len, h);
	struct head hd;
	char *e;

	if (added)
		*added = t->slots[j].entry == NULL;
	if (t->slots[j].entry)
		return entry_id(t, t->slots[j].entry);
	if (t->n >= UINT32_MAX - 1)
		xalloc_fail(SIZE_MAX);	/* ids are 32-bit */
	e = arena_alloc(t, t->valsize + sizeof(hd) + len + 1);
	memset(e, 0, t->valsize);
	hd.len = len;
	hd.id = (uint32_t)t->n;
	memcpy(e + t->valsize, &hd, sizeof(hd));
	memcpy(e + t->valsize + sizeof(hd), s, len);
	e[t->valsize + sizeof(hd) + len] = '\0';
	if (t->n == t->cap)
		xgrow(&t->entries, &t->cap, t->n + 1, sizeof(*t->entries));
	t->entries[t->n++] = e;
	t->slots[j].entry = e;
	t->slots[j].hash = (uint32_t)(h >> 32);
	t->slots[j].len = slot_len(len);
	/* Keep the load under 1/2 so probe chains stay short. */
	if (t->n * 2 > ((size_t)1 << t->bits))
		grow_slots(t);
	return (uint32_t)(t->n - 1);
}

size_t strtab_count(const struct strtab *t)
{
	return t->n;
}

const char *strtab_str(const struct strtab *t, uint32_t id, size_t *len)
{
	return entry_str(t, t->entries[id], len);
}

void *strtab_val(const struct strtab *t, uint32_t id)
{
	return t->entries[id];
}

size_t strtab_bytes(const struct strtab *t)
{
	return t->bytes + t->cap * sizeof(*t->entries);
}

/* Whether x comes strictly before y bytewise. */
static int before(const struct strsort_key *x, const struct strsort_key *y)
{
	size_t n = x->len < y->len ? x->len : y->len;
	int r = memcmp(x->s, y->s, n);

	return r < 0 || (r == 0 && x->len < y->len);
}

uint32_t *strtab_sorted(const struct strtab *t)
{
	size_t i, n = strtab_count(t);
	struct strsort_key *k = xcalloc(n, sizeof(*k));
	uint32_t *ids = xcalloc(n, sizeof(*ids));
	int in_order = 1;

	for (i = 0; i < n; i++) {
		k[i].id = (uint32_t)i;
		k[i].s = strtab_str(t, (uint32_t)i, &k[i].len);
		in_order = in_order && (i == 0 || before(&k[i - 1], &k[i]));
	}
	/* A table filled in order (a collapser that sorted its stacks) is
	 * checked in one pass rather than sorted again. */
	if (!in_order)
		strsort(k, n);
	for (i = 0; i < n; i++)
		ids[i] = k[i].id;
	free(k);
	return ids;
}

void strtab_swap(struct strtab *a, struct strtab *b)
{
	struct strtab t = *a;

	*a = *b;
	*b = t;
}
