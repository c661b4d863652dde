/* Unit tests for lib/strtab. */
#include "check.h"
#include "strtab.h"

#include <stdlib.h>

int main(void)
{
	struct strtab *t = strtab_new(sizeof(long));
	char key[32];
	uint32_t *ids;
	size_t len, i;
	int added, ok = 1;

	CHECK(strtab_intern(t, "b", 1, &added) == 0 && added);
	CHECK(strtab_intern(t, "a", 1, &added) == 1 && added);
	CHECK(strtab_intern(t, "b", 1, &added) == 0 && !added);
	CHECK(strtab_intern(t, "a\0z", 3, &added) == 2 && added);
	CHECK(strtab_find(t, "a\0z", 3) == 2);
	CHECK(strtab_find(t, "zz", 2) == UINT32_MAX);
	CHECK(strtab_intern(t, "", 0, &added) == 3 && added);
	/* The hashed calls are strtab_intern with the hash given. */
	strtab_prefetch(t, strtab_hash("b", 1));
	CHECK(strtab_intern_hashed(t, "b", 1, strtab_hash("b", 1), &added) == 0 && !added);
	CHECK(strtab_hash("a\0z", 3) != strtab_hash("a\0y", 3));
	*(long *)strtab_val(t, 1) = 42;
	for (i = 0; i < 200000; i++) {
		int n = snprintf(key, sizeof(key), "key%zu", i);

		strtab_intern(t, key, (size_t)n, NULL);
	}
	CHECK(strtab_count(t) == 200004);
	CHECK(*(long *)strtab_val(t, 1) == 42);
	CHECK(strcmp(strtab_str(t, 1, &len), "a") == 0 && len == 1);
	for (i = 0; i < 200000 && ok; i++) {
		int n = snprintf(key, sizeof(key), "key%zu", i);

		ok = strtab_find(t, key, (size_t)n) == i + 4;
	}
	CHECK(ok);
	ids = strtab_sorted(t);
	CHECK(ids[0] == 3 && ids[1] == 1 && ids[2] == 2 && ids[3] == 0);
	for (i = 5, ok = 1; i < strtab_count(t); i++) {
		size_t la, lb;
		const char *a = strtab_str(t, ids[i - 1], &la), *b = strtab_str(t, ids[i], &lb);

		ok &= memcmp(a, b, la < lb ? la : lb) <= 0;
	}
	CHECK(ok);
	free(ids);
	strtab_free(t);
	strtab_free(NULL);
	return check_done();
}
