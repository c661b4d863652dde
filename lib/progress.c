/* progress: a redrawn status line for long reads. */
#include "progress.h"

#include "xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BIG_INPUT	(100ull << 20)	/* shown at once from this size */
#define SLOW_NS		2000000000ll	/* else shown after this long */
#define REDRAW_NS	250000000ll	/* at most this often */

struct progress {
	const char *prog;		/* program name, for the line */
	char name[64];			/* the input, cut to fit */
	uint64_t size;			/* its size, 0: unknown */
	uint64_t min;			/* size from which to show at once */
	long long start;		/* when the work began, ns */
	long long last;			/* when the line was drawn, 0: never */
	uint64_t next;			/* done count at which to look at the clock */
	int width;			/* characters of the line drawn */
};

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

struct progress *progress_new(const char *prog)
{
	struct progress *p;
	const char *min = getenv("FLAME_PROGRESS_MIN");	/* tests: a smaller size */

	if (!isatty(2))
		return NULL;
	p = xcalloc(1, sizeof(*p));
	p->prog = prog;
	p->min = min && *min ? strtoull(min, NULL, 10) : BIG_INPUT;
	p->start = now_ns();
	return p;
}

/* Writes all of s to fd 2 (the terminal), around stdio's stderr. */
static void out(const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(2, s, n);

		if (w <= 0 && errno != EINTR)
			return;
		if (w > 0) {
			s += w;
			n -= (size_t)w;
		}
	}
}

static void draw(struct progress *p, uint64_t done, long long t)
{
	double mb = (double)done / (1 << 20);
	char line[256];
	int n;

	if (p->size)
		n = snprintf(line, sizeof(line), "\r%s: %s: %.0f%% (%.0f of %.0f MB)", p->prog,
			     p->name, 100.0 * (double)done / (double)p->size, mb,
			     (double)p->size / (1 << 20));
	else
		n = snprintf(line, sizeof(line), "\r%s: %s: %.0f MB", p->prog, p->name, mb);
	n = n < (int)sizeof(line) ? n : (int)sizeof(line) - 1;
	/* Blanks over what a longer line before left. */
	while (n - 1 < p->width && n < (int)sizeof(line) - 1)
		line[n++] = ' ';
	out(line, (size_t)n);
	p->width = n - 1;
	p->last = t;
}

/* Takes the line off the screen; the next progress_at draws it again. */
static void clear(struct progress *p)
{
	char blank[260];
	size_t n = (size_t)p->width < sizeof(blank) - 2 ? (size_t)p->width : sizeof(blank) - 2;

	if (!p->last)
		return;
	blank[0] = '\r';
	memset(blank + 1, ' ', n);
	blank[n + 1] = '\r';
	out(blank, n + 2);
	p->last = 0;
	p->width = 0;
}

void progress_input(struct progress *p, const char *name, uint64_t size)
{
	size_t len;

	if (!p)
		return;
	len = strlen(name);
	if (len >= sizeof(p->name))	/* the end of a long path tells most */
		snprintf(p->name, sizeof(p->name), "...%s", name + len - (sizeof(p->name) - 4));
	else
		memcpy(p->name, name, len + 1);
	p->size = size;
	p->next = 0;
	if (size >= p->min)
		draw(p, 0, now_ns());
}

void progress_at(struct progress *p, uint64_t done)
{
	long long t;

	if (!p || done < p->next)
		return;
	p->next = done + (1 << 20);	/* the clock is read once a megabyte */
	t = now_ns();
	if (p->last ? t - p->last >= REDRAW_NS
		    : (p->size >= p->min || t - p->start >= SLOW_NS))
		draw(p, done, t);
}

void progress_free(struct progress *p)
{
	if (!p)
		return;
	clear(p);
	free(p);
}

static struct progress *installed;

static void clear_installed(void)
{
	fflush(stderr);
	progress_free(installed);
	installed = NULL;
}

/* stderr's writes: the progress line leaves the screen first, so a
 * message never shares its line. */
static ssize_t stderr_write(void *cookie, const char *buf, size_t n)
{
	(void)cookie;
	if (installed)
		clear(installed);
	out(buf, n);
	return (ssize_t)n;
}

void progress_install(const char *prog)
{
	static const cookie_io_functions_t io = { NULL, stderr_write, NULL, NULL };
	FILE *f;

#ifdef _WIN32
	/* stderr cannot be replaced there (nor given a cookie), and a line
	 * that messages could land on is worse than none. */
	(void)io, (void)f, (void)prog, (void)clear_installed;
	return;
#else
	if (installed || !(installed = progress_new(prog)))
		return;
	if ((f = fopencookie(NULL, "w", io))) {
		setvbuf(f, NULL, _IONBF, 0);
		stderr = f;
	}
	atexit(clear_installed);
#endif
}

struct progress *progress_installed(void)
{
	return installed;
}
