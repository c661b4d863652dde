/* json_num: JSON's number grammar and the number helpers (json.h). */
#include "json.h"
#include "bytes.h"
#include "folded.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NUMBER 64		/* longer numbers are refused */

/* JSON's number grammar, the whole n bytes; leading zeros taken when
 * zeros is 1. */
static int number_syntax(const char *s, size_t n, int zeros)
{
	size_t i = n && s[0] == '-';

	if (i == n || s[i] < '0' || s[i] > '9' || n > MAX_NUMBER)
		return 0;
	if (!zeros && s[i] == '0' && i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '9')
		return 0;
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	if (i < n && s[i] == '.') {
		if (++i == n || s[i] < '0' || s[i] > '9')
			return 0;
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++;
	}
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		i += i + 1 < n && (s[i + 1] == '+' || s[i + 1] == '-') ? 2 : 1;
		if (i >= n || s[i] < '0' || s[i] > '9')
			return 0;
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++;
	}
	return i == n;
}

int json_number_ok(const char *s, size_t n)
{
	return number_syntax(s, n, 0);
}

int json_number_loose(const char *s, size_t n)
{
	return number_syntax(s, n, 1);
}

int json_double(const char *s, size_t n, double *v)
{
	char tmp[MAX_NUMBER + 1];

	if (!json_number_ok(s, n))
		return -1;
	if (bytes_decimal(s, n, v) == 0)
		return 0;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	*v = strtod(tmp, NULL);
	return 0;
}

int json_u64(const char *s, size_t n, uint64_t *v)
{
	uint64_t x = 0;
	size_t i;

	if (n == 0 || n > 20 || (s[0] == '0' && n > 1))
		return -1;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9' || x > (UINT64_MAX - (uint64_t)(s[i] - '0')) / 10)
			return -1;
		x = x * 10 + (uint64_t)(s[i] - '0');
	}
	*v = x;
	return 0;
}

int json_i64(const char *s, size_t n, int64_t *v)
{
	uint64_t u;
	int neg = n && s[0] == '-';

	if (json_u64(s + neg, n - (size_t)neg, &u) < 0 || u > (uint64_t)INT64_MAX + (uint64_t)neg)
		return -1;
	*v = neg ? (int64_t)(0 - u) : (int64_t)u;
	return 0;
}

void json_fcount(double d, struct fcount *c)
{
	c->n = 0;
	c->frac = 0;
	if (d == floor(d) && d < 9007199254740992.0)
		c->n = (uint64_t)d;
	else
		c->frac = d;
}

int json_weight(const char *s, size_t n, struct fcount *c)
{
	double d;

	if (folded_count(s, n, c) == 0)
		return 0;
	if (json_double(s, n, &d) < 0 || !(d >= 0) || isinf(d))
		return -1;
	json_fcount(d, c);
	return 0;
}

