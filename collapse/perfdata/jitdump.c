/* jitdump: the reader.  Layout (all numbers in the writer's byte order,
 * told by the magic): a header of at least 40 bytes (magic "JiTD" as a
 * u32, version, its own size, ELF machine, padding, pid, timestamp,
 * flags), then records, each a 16-byte prefix (id, total size,
 * timestamp) and a body.  A load's body: pid, tid, vma, code address,
 * code size, code index, the NUL-terminated name, the code.  A move's:
 * pid, tid, vma, old address, new address, code size, code index. */
#include "jitdump.h"
#include "strtab.h"

#include <string.h>

#define MAGIC 0x4A695444u
#define HEADER_MIN 40
#define PREFIX 16
#define LOAD_FIXED (PREFIX + 40)
#define MOVE_SIZE (PREFIX + 48)

enum { CODE_LOAD = 0, CODE_MOVE = 1, CODE_CLOSE = 3 };

struct reader {
	const unsigned char *buf;	/* the file */
	size_t len;			/* its bytes */
	int swap;			/* the other byte order */
	struct strtab *names;		/* code index (8 bytes) -> struct loaded */
};

/* Where a piece of code's name lies in the file. */
struct loaded {
	size_t at;		/* offset of the name */
	size_t len;		/* its length */
};

static uint32_t u32(const struct reader *r, size_t at)
{
	uint32_t v;

	memcpy(&v, r->buf + at, 4);
	return r->swap ? __builtin_bswap32(v) : v;
}

static uint64_t u64(const struct reader *r, size_t at)
{
	uint64_t v;

	memcpy(&v, r->buf + at, 8);
	return r->swap ? __builtin_bswap64(v) : v;
}

static struct loaded *name_slot(struct reader *r, uint64_t index, int add)
{
	uint32_t id = add ? strtab_intern(r->names, (const char *)&index, 8, NULL)
			  : strtab_find(r->names, (const char *)&index, 8);

	return id == UINT32_MAX ? NULL : strtab_val(r->names, id);
}

/* The fields both kinds of record start with, at p: pid, tid, vma. */
static void common(const struct reader *r, size_t p, struct jitdump_code *c)
{
	c->pid = u32(r, p + PREFIX);
	c->tid = u32(r, p + PREFIX + 4);
	c->time = u64(r, p + 8);
}

/* A load at p of size n: its name must end inside it. */
static const char *load(struct reader *r, size_t p, size_t n, struct jitdump_code *c)
{
	const unsigned char *nul;
	struct loaded *l;

	if (n < LOAD_FIXED + 1)
		return "code load record too short";
	nul = memchr(r->buf + p + LOAD_FIXED, 0, n - LOAD_FIXED);
	if (!nul)
		return "code load record's name is not terminated";
	common(r, p, c);
	c->addr = u64(r, p + PREFIX + 16);
	c->size = u64(r, p + PREFIX + 24);
	c->index = u64(r, p + PREFIX + 32);
	c->name = (const char *)r->buf + p + LOAD_FIXED;
	c->namelen = (size_t)(nul - (r->buf + p + LOAD_FIXED));
	l = name_slot(r, c->index, 1);
	l->at = p + LOAD_FIXED;
	l->len = c->namelen;
	return NULL;
}

/* A move at p: the code keeps the name it was loaded with; *known 0
 * when it never was. */
static const char *move(struct reader *r, size_t p, size_t n, struct jitdump_code *c, int *known)
{
	const struct loaded *l;

	if (n < MOVE_SIZE)
		return "code move record too short";
	common(r, p, c);
	c->addr = u64(r, p + PREFIX + 24);
	c->size = u64(r, p + PREFIX + 32);
	c->index = u64(r, p + PREFIX + 40);
	l = name_slot(r, c->index, 0);
	*known = l != NULL;
	if (l) {
		c->name = (const char *)r->buf + l->at;
		c->namelen = l->len;
	}
	return NULL;
}

/* One record at p of n bytes: reports its code, if any.  Returns what is
 * wrong with it, or NULL; *stop set at the end of the stream. */
static const char *record(struct reader *r, size_t p, size_t n, jitdump_fn *fn, void *ctx,
			  struct jitdump_result *res, int *stop)
{
	struct jitdump_code c;
	const char *why = NULL;
	int known = 1;

	memset(&c, 0, sizeof(c));
	switch (u32(r, p)) {
	case CODE_LOAD:
		why = load(r, p, n, &c);
		break;
	case CODE_MOVE:
		why = move(r, p, n, &c, &known);
		break;
	case CODE_CLOSE:
		*stop = 1;
		return NULL;
	default:
		res->skipped++;
		return NULL;
	}
	if (why)
		return why;
	if (!known) {
		res->skipped++;
		return NULL;
	}
	res->codes++;
	if (fn(ctx, &c) != 0)
		*stop = 1;
	return NULL;
}

static int header(struct reader *r, struct jitdump_result *res, size_t *first)
{
	uint32_t magic;

	if (r->len < HEADER_MIN) {
		res->why = "too short for a jitdump header";
		return -1;
	}
	memcpy(&magic, r->buf, 4);
	if (magic != MAGIC && magic != __builtin_bswap32(MAGIC)) {
		res->why = "no jitdump magic";
		return -1;
	}
	r->swap = magic != MAGIC;
	*first = u32(r, 8);
	res->pid = u32(r, 20);
	if (*first < HEADER_MIN || *first > r->len) {
		res->why = "header size out of range";
		return -1;
	}
	return 0;
}

int jitdump_read(const unsigned char *buf, size_t len, jitdump_fn *fn, void *ctx,
		 struct jitdump_result *res)
{
	struct reader r = { buf, len, 0, NULL };
	size_t p;
	int stop = 0;
	const char *why = NULL;

	memset(res, 0, sizeof(*res));
	if (header(&r, res, &p) != 0)
		return -1;
	r.names = strtab_new(sizeof(struct loaded));
	while (!stop && !why && p < len) {
		size_t n;

		if (len - p < PREFIX) {
			why = "record header cut short";
			break;
		}
		n = u32(&r, p + 4);
		if (n < PREFIX || n > len - p) {
			why = n < PREFIX ? "record smaller than its header" : "record runs past the end";
			break;
		}
		why = record(&r, p, n, fn, ctx, res, &stop);
		if (!why)
			p += n;
	}
	strtab_free(r.names);
	if (why) {
		res->bad_at = p;
		res->why = why;
		return -1;
	}
	return 0;
}
