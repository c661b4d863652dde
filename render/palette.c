/* palette: flamegraph.pl's colour schemes. */
#include "palette.h"
#include "lread.h"
#include "outfile.h"
#include "strtab.h"
#include "bytes.h"
#include "xalloc.h"
#include "xmlesc.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define COLOR_LEN 48

struct palette {
	enum fg_palette scheme;	/* --colors */
	int hash;		/* --hash */
	int random;		/* --random */
	uint64_t rng;		/* xorshift state for --random */
	struct strtab *map;	/* name -> colour, NULL without --cp */
};

struct palette *palette_new(enum fg_palette scheme, int hash, int random)
{
	struct palette *p = xcalloc(1, sizeof(*p));

	p->scheme = scheme;
	p->hash = hash;
	p->random = random;
	p->rng = (uint64_t)time(NULL) * 0x9e3779b97f4a7c15u ^ (uint64_t)getpid();
	if (!p->rng)
		p->rng = 1;
	return p;
}

void palette_free(struct palette *p)
{
	if (!p)
		return;
	strtab_free(p->map);
	free(p);
}

double palette_perl_rand(unsigned long seed)
{
	/* Perl seeds drand48 as (seed << 16) + 0x330e and returns the next
	 * value of x = a*x + c mod 2^48, divided by 2^48. */
	uint64_t x = ((uint64_t)(seed & 0xffffffffu) << 16) | 0x330e;

	x = (x * 0x5deece66dULL + 0xb) & ((1ULL << 48) - 1);
	return (double)x / (double)(1ULL << 48);
}

static double rand01(struct palette *p)
{
	p->rng ^= p->rng << 13;
	p->rng ^= p->rng >> 7;
	p->rng ^= p->rng << 17;
	return (double)(p->rng >> 11) / 9007199254740992.0;
}

/* Code points of s, for the hashes that work on characters. */
static size_t codepoints(const char *s, size_t len, unsigned *out, size_t max)
{
	size_t i = 0, n = 0;

	while (i < len && n < max)
		i += xmlesc_char(s + i, len - i, &out[n++]);
	return n;
}

/* flamegraph.pl's --hash: a weighted sum of the first three characters
 * (after dropping a "module`" prefix), each mod 10, 11, 12. */
static double name_hash(const unsigned *cp, size_t n)
{
	double vector = 0, weight = 1, max = 1;
	unsigned mod = 10;
	size_t i, start = 0;

	for (i = 1; i < n; i++) {
		if (cp[i] == '`') {
			start = i + 1;
			break;
		}
	}
	for (i = start; i < n && mod <= 12; i++, mod++) {
		vector += (double)(cp[i] % mod) / (double)(mod - 1) * weight;
		max += weight;
		weight *= 0.70;
	}
	return 1 - vector / max;
}

static void hash_values(const char *name, size_t len, double v[3])
{
	size_t n = xmlesc_count(name, len), i;
	unsigned *cp = xcalloc(n ? n : 1, sizeof(*cp));

	codepoints(name, len, cp, n);
	v[0] = name_hash(cp, n);
	for (i = 0; i < n / 2; i++) {
		unsigned t = cp[i];

		cp[i] = cp[n - 1 - i];
		cp[n - 1 - i] = t;
	}
	v[1] = v[2] = name_hash(cp, n);
	free(cp);
}

/* The default: Perl's rand(1) after srand(sum of the code points). */
static double sum_hash(const char *name, size_t len)
{
	uint32_t sum = 0;
	size_t i = 0;

	while (i < len) {
		unsigned cp;

		i += xmlesc_char(name + i, len - i, &cp);
		sum += cp;
	}
	return palette_perl_rand(sum);
}

static int java_package(const char *s, size_t len)
{
	static const char *const pkgs[] = { "java/", "javax/", "jdk/", "net/", "org/",
					    "com/", "io/", "sun/" };
	size_t i;

	if (len && s[0] == 'L') {
		s++;
		len--;
	}
	for (i = 0; i < sizeof(pkgs) / sizeof(pkgs[0]); i++)
		if (len >= strlen(pkgs[i]) && memcmp(s, pkgs[i], strlen(pkgs[i])) == 0)
			return 1;
	return 0;
}

static enum fg_palette java_kind(const char *s, size_t n)
{
	if (bytes_ends_with(s, n, "_[j]"))
		return PAL_GREEN;
	if (bytes_ends_with(s, n, "_[i]"))
		return PAL_AQUA;
	if (java_package(s, n) || bytes_contains(s, n, ":::"))
		return PAL_GREEN;
	if (bytes_contains(s, n, "::"))
		return PAL_YELLOW;
	if (bytes_ends_with(s, n, "_[k]"))
		return PAL_ORANGE;
	return PAL_RED;
}

static enum fg_palette js_kind(const char *s, size_t n)
{
	const char *slash = memchr(s, '/', n);

	if (bytes_ends_with(s, n, "_[j]"))
		return slash ? PAL_GREEN : PAL_AQUA;
	if (bytes_contains(s, n, "::"))
		return PAL_YELLOW;
	if (slash && bytes_contains(slash, n - (size_t)(slash - s), ".js"))
		return PAL_GREEN;
	if (memchr(s, ':', n))
		return PAL_AQUA;
	if (n == 1 && s[0] == ' ')
		return PAL_GREEN;
	if (bytes_contains(s, n, "_[k]"))
		return PAL_ORANGE;
	return PAL_RED;
}

/* Multi-colour schemes pick one of the flat palettes by the name. */
static enum fg_palette resolve(enum fg_palette scheme, const char *s, size_t n)
{
	switch (scheme) {
	case PAL_JAVA: return java_kind(s, n);
	case PAL_JS: return js_kind(s, n);
	case PAL_PERL:
		if (bytes_contains(s, n, "::"))
			return PAL_YELLOW;
		if (bytes_contains(s, n, "Perl") || bytes_contains(s, n, ".pl"))
			return PAL_GREEN;
		return bytes_ends_with(s, n, "_[k]") ? PAL_ORANGE : PAL_RED;
	case PAL_WAKEUP: return PAL_AQUA;
	case PAL_CHAIN: return bytes_contains(s, n, "_[w]") ? PAL_AQUA : PAL_BLUE;
	default: return scheme;
	}
}

static void rgb(char *out, double r, double g, double b)
{
	snprintf(out, COLOR_LEN, "rgb(%d,%d,%d)", (int)r, (int)g, (int)b);
}

static void compute(struct palette *p, const char *name, size_t len, char *out)
{
	double v[3];

	if (p->hash) {
		hash_values(name, len, v);
	} else if (p->random) {
		v[0] = rand01(p);
		v[1] = rand01(p);
		v[2] = rand01(p);
	} else {
		v[0] = v[1] = v[2] = sum_hash(name, len);
	}
	/* The channel formulas are flamegraph.pl's, so graphs look alike. */
	switch (resolve(p->scheme, name, len)) {
	case PAL_HOT: rgb(out, 205 + (int)(50 * v[2]), (int)(230 * v[0]), (int)(55 * v[1])); break;
	case PAL_MEM: rgb(out, 0, 190 + (int)(50 * v[1]), (int)(210 * v[0])); break;
	case PAL_IO: rgb(out, 80 + (int)(60 * v[0]), 80 + (int)(60 * v[0]), 190 + (int)(55 * v[1])); break;
	case PAL_RED: rgb(out, 200 + (int)(55 * v[0]), 50 + (int)(80 * v[0]), 50 + (int)(80 * v[0])); break;
	case PAL_GREEN: rgb(out, 50 + (int)(60 * v[0]), 200 + (int)(55 * v[0]), 50 + (int)(60 * v[0])); break;
	case PAL_BLUE: rgb(out, 80 + (int)(60 * v[0]), 80 + (int)(60 * v[0]), 205 + (int)(50 * v[0])); break;
	case PAL_YELLOW: rgb(out, 175 + (int)(55 * v[0]), 175 + (int)(55 * v[0]), 50 + (int)(20 * v[0])); break;
	case PAL_PURPLE: rgb(out, 190 + (int)(65 * v[0]), 80 + (int)(60 * v[0]), 190 + (int)(65 * v[0])); break;
	case PAL_AQUA: rgb(out, 50 + (int)(60 * v[0]), 165 + (int)(55 * v[0]), 165 + (int)(55 * v[0])); break;
	case PAL_ORANGE: rgb(out, 190 + (int)(65 * v[0]), 90 + (int)(65 * v[0]), 0); break;
	default: rgb(out, 0, 0, 0); break;
	}
}

void palette_color(struct palette *p, const char *name, size_t len, char *out)
{
	uint32_t id;
	int added;
	char *c;

	if (!p->map) {
		compute(p, name, len, out);
		return;
	}
	id = strtab_intern(p->map, name, len, &added);
	c = strtab_val(p->map, id);
	if (added)
		compute(p, name, len, c);
	memcpy(out, c, COLOR_LEN);
}

void palette_diff(double delta, double maxdelta, int negate, char *out)
{
	double r = 255, g = 255, b = 255;

	if (negate)
		delta = -delta;
	if (maxdelta <= 0)
		maxdelta = 1;
	if (delta > maxdelta)
		delta = maxdelta;
	if (delta < -maxdelta)
		delta = -maxdelta;
	if (delta > 0)
		g = b = (int)(210 * (maxdelta - delta) / maxdelta);
	else if (delta < 0)
		r = g = (int)(210 * (maxdelta + delta) / maxdelta);
	rgb(out, r, g, b);
}

/* "rgb(R,G,B)" with each 0..255, or "#rrggbb". */
static int valid_color(const char *s, size_t n)
{
	unsigned r, g, b;
	int end = 0;
	char buf[COLOR_LEN];

	if (n == 0 || n >= COLOR_LEN)
		return 0;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (buf[0] == '#')
		return n == 7 && strspn(buf + 1, "0123456789abcdefABCDEF") == 6;
	if (sscanf(buf, "rgb(%3u,%3u,%3u)%n", &r, &g, &b, &end) != 3 || (size_t)end != n)
		return 0;
	return r < 256 && g < 256 && b < 256 && strspn(buf, "rgb(0123456789,)") == n;
}

static void map_line(struct palette *p, const char *line, size_t len, const char *path,
		     unsigned long lineno, palette_warn_fn *warn, void *ctx)
{
	const char *arrow = NULL, *s;
	char msg[256];

	/* The last "->": a name may contain one (C++ operator->). */
	for (s = line; (s = memmem(s, len - (size_t)(s - line), "->", 2)); s += 2)
		arrow = s;
	if (arrow && valid_color(arrow + 2, len - (size_t)(arrow + 2 - line))) {
		char *c = strtab_val(p->map, strtab_intern(p->map, line, (size_t)(arrow - line), NULL));
		size_t n = len - (size_t)(arrow + 2 - line);

		memcpy(c, arrow + 2, n);
		c[n] = '\0';
		return;
	}
	if (len == 0)
		return;
	snprintf(msg, sizeof(msg), "%s:%lu: ignored palette line: expected NAME->rgb(R,G,B)",
		 path, lineno);
	warn(ctx, msg);
}

int palette_map_load(struct palette *p, const char *path, palette_warn_fn *warn, void *ctx)
{
	struct lread *lr;
	const char *line;
	size_t len;
	int r;

	if (!p->map)
		p->map = strtab_new(COLOR_LEN);
	lr = lread_open(path);
	if (!lr)
		return errno == ENOENT ? 0 : -1;
	while ((r = lread_next(lr, &line, &len)) != LREAD_EOF) {
		if (r == LREAD_LINE)
			map_line(p, line, len, path, lread_lineno(lr), warn, ctx);
		else if (r == LREAD_ERROR)
			break;
	}
	lread_free(lr);
	if (r == LREAD_ERROR) {
		errno = EIO;
		return -1;
	}
	return 0;
}

int palette_map_save(const struct palette *p, const char *path)
{
	struct outfile *o;
	uint32_t *ids;
	size_t i, n;
	FILE *f;

	if (!p->map)
		return 0;
	o = outfile_open(path);
	if (!o)
		return -1;
	f = outfile_stream(o);
	ids = strtab_sorted(p->map);
	n = strtab_count(p->map);
	for (i = 0; i < n; i++) {
		size_t len;
		const char *name = strtab_str(p->map, ids[i], &len);

		fwrite(name, 1, len, f);
		fprintf(f, "->%s\n", (const char *)strtab_val(p->map, ids[i]));
	}
	free(ids);
	return outfile_commit(o);
}
