/* perf_header: reading a perf script event header by its fields. */
#include "perf_header.h"
#include "bytes.h"

#include <stdlib.h>
#include <string.h>

static int is_space(char c)
{
	return c == ' ' || c == '\t';
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* The word (run of non-blanks) at or after s[i]: returns its start, sets
 * *end past it; both are n when none is left. */
static size_t word_at(const char *s, size_t n, size_t i, size_t *end)
{
	size_t e;

	while (i < n && is_space(s[i]))
		i++;
	/* e, not *end, in the loop: a store through *end could change s[]
	 * as far as the compiler knows, so it would be made every byte. */
	for (e = i; e < n && !is_space(s[e]); e++)
		;
	*end = e;
	return i;
}

static int all_digits(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!is_digit(s[i]))
			return 0;
	return n > 0;
}

/* A PID or TID as perf prints it: "1234", or "-1" for a task it could
 * not name (an exited one: comm ":-1"). */
static int id_word(const char *s, size_t n)
{
	return n > 0 && s[0] == '-' ? all_digits(s + 1, n - 1) : all_digits(s, n);
}

/* "TID" or "PID/TID"; *slash is the '/' offset, or n. */
static int ids_word(const char *s, size_t n, size_t *slash)
{
	const char *q = memchr(s, '/', n);

	*slash = q ? (size_t)(q - s) : n;
	return id_word(s, *slash) && (!q || id_word(q + 1, n - *slash - 1));
}

/* "[001]" */
static int cpu_word(const char *s, size_t n)
{
	return n > 2 && s[0] == '[' && s[n - 1] == ']' && all_digits(s + 1, n - 2);
}

/* "12345.678901:" (perf script --ns gives 16 digits and more). */
static int time_word(const char *s, size_t n, double *t)
{
	char buf[40], *end;
	size_t i;

	if (n < 2 || s[n - 1] != ':' || !is_digit(s[0]))
		return 0;
	for (i = 0; i + 1 < n; i++)
		if (!is_digit(s[i]) && s[i] != '.')
			return 0;
	if (bytes_decimal(s, n - 1, t) == 0)
		return 1;
	if (n > sizeof(buf))
		return 0;
	memcpy(buf, s, n - 1);
	buf[n - 1] = 0;
	*t = strtod(buf, &end);
	return *end == 0;
}

/* "cycles:" or "cpu-clock:ppp:": a name, maybe modifiers, then ':'. */
static int event_word(const char *s, size_t n)
{
	return n > 1 && s[n - 1] == ':' && s[0] != ':';
}

/* How well the text after a candidate for the ids reads as the rest of a
 * header: 2 when a CPU "[001]" or a time stamp comes next (nothing in a
 * command name is followed by those), 1 when "[period] event:" does, else
 * 0.  Looks at a few words only, so trying every candidate stays linear. */
static int tail_fit(const char *s, size_t n)
{
	size_t b, e;
	double t;

	b = word_at(s, n, 0, &e);
	if (cpu_word(s + b, e - b) || time_word(s + b, e - b, &t))
		return 2;
	if (all_digits(s + b, e - b))
		b = word_at(s, n, e, &e);
	return event_word(s + b, e - b);
}

/* The command name runs from first to the blanks before end. */
static void header_comm(const char *s, size_t first, size_t end, struct perf_header *h)
{
	while (end > first && is_space(s[end - 1]))
		end--;
	h->comm = s + first;
	h->commlen = end - first;
}

/* Finds the ids ("TID" or "PID/TID") after the command name, which may
 * itself hold spaces, colons and digits ("Web Content", "kworker/0:1H",
 * ":-1", "a:b 12"): the first id word followed by a CPU or a time stamp,
 * else by an event, else the first id word, looking no further than the
 * first CPU or time stamp.  A CPU or time stamp before any id word ends
 * a name with no ids (perf script -F without tid and pid).  The first
 * word is always part of the name. */
int perf_header_ids(const char *s, size_t n, struct perf_header *h, size_t *after)
{
	size_t b, e, first, best = n, bestend = 0, slash;
	int fit, bestfit = -1;
	double t;

	first = word_at(s, n, 0, &e);
	for (b = word_at(s, n, e, &e); b < n && bestfit < 2; b = word_at(s, n, e, &e)) {
		if (cpu_word(s + b, e - b) || time_word(s + b, e - b, &t)) {
			if (best < n)
				break;
			header_comm(s, first, b, h);
			h->pid = h->tid = "?";
			h->pidlen = h->tidlen = 1;
			*after = b;
			return 0;
		}
		if (e == n || !ids_word(s + b, e - b, &slash))
			continue;
		fit = tail_fit(s + e, n - e);
		if (fit > bestfit) {
			bestfit = fit;
			best = b;
			bestend = e;
		}
	}
	if (best == n)
		return -1;
	header_comm(s, first, best, h);
	ids_word(s + best, bestend - best, &slash);
	slash += best;
	h->pid = slash < bestend ? s + best : "?";
	h->pidlen = slash < bestend ? slash - best : 1;
	h->tid = slash < bestend ? s + slash + 1 : s + best;
	h->tidlen = slash < bestend ? bestend - slash - 1 : bestend - best;
	*after = bestend;
	return 0;
}

/* "[cpu] [time:] ... [period] event:[mods:] [rest]" after the ids: the
 * event is the first word ending in ':' that is not the time stamp, the
 * period the all-digit word just before it. */
void perf_header_event(const char *s, size_t n, struct perf_header *h)
{
	size_t b, e, prev = n, prevend = n;

	h->event = NULL;
	h->period = 0;
	h->rest = NULL;
	h->restlen = 0;
	h->has_time = 0;
	for (b = word_at(s, n, 0, &e); b < n; prev = b, prevend = e, b = word_at(s, n, e, &e)) {
		if (!h->has_time && time_word(s + b, e - b, &h->time)) {
			h->has_time = 1;
			continue;
		}
		if (!event_word(s + b, e - b))
			continue;
		h->event = s + b;
		h->eventlen = (size_t)((const char *)memchr(s + b, ':', e - b) - (s + b));
		if (prev < n && all_digits(s + prev, prevend - prev))
			for (; prev < prevend; prev++)
				h->period = h->period * 10 + (uint64_t)(s[prev] - '0');
		h->rest = s + word_at(s, n, e, &e);
		h->restlen = (size_t)(s + n - h->rest);
		return;
	}
}
