/* bytes: tests on byte strings given as (pointer, length), no NUL needed. */
#ifndef FLAME_BYTES_H
#define FLAME_BYTES_H

#include <stddef.h>

/* Non-zero when the n bytes at s end with the NUL-terminated suffix. */
int bytes_ends_with(const char *s, size_t n, const char *suffix);

/* Non-zero when the n bytes at s contain the NUL-terminated needle. */
int bytes_contains(const char *s, size_t n, const char *needle);

#endif
