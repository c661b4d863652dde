/* check.h: the unit tests' tiny harness.  CHECK(cond) records a pass or
 * prints "FAIL file:line: cond"; check_done() prints "N passed, N failed"
 * and returns the exit status. */
#ifndef FLAME_CHECK_H
#define FLAME_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_pass, check_fail;

#define CHECK(c) do { \
	if (c) check_pass++; \
	else { check_fail++; printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #c); } \
} while (0)

#define CHECK_STR(a, b) do { \
	const char *a_ = (a), *b_ = (b); \
	if (a_ && b_ && strcmp(a_, b_) == 0) check_pass++; \
	else { check_fail++; printf("FAIL %s:%d: \"%s\" != \"%s\"\n", __FILE__, __LINE__, \
		a_ ? a_ : "(null)", b_ ? b_ : "(null)"); } \
} while (0)

static int check_done(void)
{
	printf("%d passed, %d failed\n", check_pass, check_fail);
	return check_fail != 0;
}

#endif
