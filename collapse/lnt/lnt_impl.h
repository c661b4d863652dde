/* lnt_impl: what the v1 and v2 readers share to build the model. */
#ifndef FLAME_LNT_IMPL_H
#define FLAME_LNT_IMPL_H

#include "lnt.h"

/* An empty profile of version v. */
struct lnt_prof *lnt_new(int version);

/* Sets the counter names (n strings, copied), sorted, repeats dropped;
 * call once, before adding functions. */
void lnt_set_names(struct lnt_prof *p, char *const *names, size_t n);

/* The index of the counter named by len bytes at s, or -1. */
int lnt_name_index(const struct lnt_prof *p, const char *s, size_t len);

/* The function named by len bytes at s, emptied when it was already
 * there (a later entry replaces an earlier one, as in a Python dict). */
struct lnt_fn *lnt_add_fn(struct lnt_prof *p, const char *s, size_t len);

/* A new instruction of f, its counters zero and no text; NULL (and
 * counted as skipped) past LNT_MAX_INSNS in the profile, which bounds
 * what a small compressed file can make us allocate. */
struct lnt_insn *lnt_add_insn(struct lnt_prof *p, struct lnt_fn *f);

/* Counts an entry that could not be read, keeping the first's message. */
void lnt_skip(struct lnt_prof *p, const char *what);

/* A counter value as LNT keeps it: finite and not negative. */
int lnt_value_ok(double v);

struct lnt_prof *lnt_v1_read(const unsigned char *p, size_t n, char *err, size_t errlen);
int lnt_v1_sniff(const unsigned char *p, size_t n);
int lnt_v2_sniff(const unsigned char *p, size_t n);
struct lnt_prof *lnt_v2_read(const unsigned char *p, size_t n, char *err, size_t errlen);

#endif
