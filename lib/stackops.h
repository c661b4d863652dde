/* stackops: PerfView's stack operators (GroupPats, FoldPats, Fold%,
 * IncPats, ExcPats, set as root, callers and callees) over a stackset,
 * applied in the order given.  Patterns are POSIX extended regular
 * expressions, compiled once, matched anywhere in a frame name, and run
 * once per distinct frame name: every decision is kept per frame id.
 * The options are a cliopt family, so flame and stackfilter take the same
 * ones.  Operators that only reshape keep the sum of counts exactly; those
 * that drop stacks say how much through a callback. */
#ifndef FLAME_STACKOPS_H
#define FLAME_STACKOPS_H

#include <stddef.h>

#include "cliopt.h"

struct stackops;
struct stackset;
struct strtab;

/* The options (--group, --fold, --fold-pct, --include, --exclude,
 * --focus, --callers, --callees); their object is a struct stackops. */
extern const struct cliopt_family stackops_family;

/* Parses option key of stackops_family's table with value arg and appends
 * the operator to o.  Returns 0, or -1 with a message naming the option,
 * the pattern and the regex error in err. */
int stackops_add(struct stackops *o, int key, const char *arg, char *err, size_t errlen);

/* Operators in o. */
size_t stackops_count(const struct stackops *o);

/* Receives what an operator removed, "--exclude 'x' dropped 12 of 345
 * samples" (no program name, no newline). */
typedef void stackops_say_fn(void *ctx, const char *msg);

/* Applies o to s in place (frames interned into s as needed). */
void stackops_run(const struct stackops *o, struct stackset *s, stackops_say_fn *say, void *ctx);

/* Applies o to t (values: struct fcount): returns a new table of the
 * reshaped stacks, values struct fcount, that the caller frees. */
struct strtab *stackops_apply(const struct stackops *o, const struct strtab *t,
			      stackops_say_fn *say, void *ctx);

#endif
