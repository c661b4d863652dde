/* regex.h for the Windows build, which has no POSIX regular expressions:
 * every pattern is refused with a message saying so, so the stack
 * operators that take one are usage errors there (--fold-pct, which
 * takes none, still works). */
#ifndef FLAME_WIN_REGEX_H
#define FLAME_WIN_REGEX_H

#include <stddef.h>
#include <stdio.h>

#define REG_EXTENDED 1
#define REG_NOSUB 2
#define REG_NOMATCH 1
#define REG_BADPAT 2

typedef struct {
	size_t re_nsub;
} regex_t;

typedef long regoff_t;

typedef struct {
	regoff_t rm_so, rm_eo;
} regmatch_t;

static inline int regcomp(regex_t *re, const char *pat, int flags)
{
	(void)pat, (void)flags;
	re->re_nsub = 0;
	return REG_BADPAT;
}

static inline size_t regerror(int code, const regex_t *re, char *buf, size_t size)
{
	(void)code, (void)re;
	return (size_t)snprintf(buf, size, "patterns need the Linux build of flame "
				"(this Windows build has no regular expressions)") + 1;
}

static inline int regexec(const regex_t *re, const char *s, size_t n, regmatch_t *m, int flags)
{
	(void)re, (void)s, (void)n, (void)m, (void)flags;
	return REG_NOMATCH;
}

static inline void regfree(regex_t *re)
{
	(void)re;
}

#endif
