/* split: the stacks of a table grouped by thread or by process, from
 * their roots -- ETW's "PROCESS (PID);TID N" (two frames) and perf's
 * "COMM-PID/TID" (one frame; a process whose threads have other names,
 * or a thread renamed while it ran, stays one group) -- the busiest
 * groups first, each with the file name UIforETW gives it
 * (PROCESS_PID[_TID]), unique among them.  flame --split-by and
 * stackcollapse-etw --split both use it. */
#ifndef FLAME_SPLIT_H
#define FLAME_SPLIT_H

#include <stddef.h>
#include <stdint.h>

struct strtab;

enum split_by { SPLIT_NONE, SPLIT_THREAD, SPLIT_PROCESS };

/* Between the directory and a group's file name in the paths the tools
 * list: a Windows hook gets Windows paths. */
#ifdef _WIN32
#define SPLIT_DIR_SEP "\\"
#else
#define SPLIT_DIR_SEP "/"
#endif

struct split_group {
	char name[200];			/* file name, no extension */
	char label[256];		/* the root it is named after, as written */
	double weight;			/* its samples */
	double share;			/* of the table's total */
};

struct split;

/* Groups t's stacks (values: struct fcount) by by, keeping the top
 * busiest groups (ties by first appearance).  Free with split_free. */
struct split *split_new(const struct strtab *t, enum split_by by, size_t top);

void split_free(struct split *s);

/* How many groups were kept (at most top). */
size_t split_count(const struct split *s);

/* Kept group i, busiest first. */
const struct split_group *split_group(const struct split *s, size_t i);

/* Which kept group stack id of t belongs to, or -1 when none. */
int split_rank(const struct split *s, uint32_t id);

/* Writes the stacks of t (values: struct fcount) that sp puts in its
 * kept group i to path, sorted, atomically.  Returns 0, or -1 with a
 * message in err. */
int split_save_folded(const struct split *sp, size_t i, const struct strtab *t, const char *path,
		      char *err, size_t errlen);

#endif
