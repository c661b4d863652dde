/* flame_record: `flame record [options] -- COMMAND...`: runs the command
 * under `perf record` into a temporary perf.data, which flame then reads
 * like any input.  The options of its own (--call-graph, --freq) are taken
 * out here; the rest are flame's. */
#ifndef FLAME_FLAME_RECORD_H
#define FLAME_FLAME_RECORD_H

#include <stddef.h>

/* Whether this build can record (perf is Linux only). */
#ifdef _WIN32
#define FLAME_RECORD_AVAILABLE 0
#else
#define FLAME_RECORD_AVAILABLE 1
#endif

struct flame_record {
	char *call_graph;	/* "fp" or "dwarf" */
	char *freq;		/* samples per second, as given */
	char **cmd;		/* the command and its arguments, NULL-ended */
	char **fargv;		/* flame's own argv: options then the data file */
	int fargc;		/* entries in fargv */
	char data[4096];	/* the temporary perf.data */
	char title[512];	/* the default title: the command */
};

/* Splits argv (argv[0] is "record") into rec.  Returns 0, or -1 with a
 * usage message in err.  Release with flame_record_release either way. */
int flame_record_parse(struct flame_record *rec, int argc, char **argv, char *err,
		       size_t errlen);

/* Runs perf record on rec's command.  Returns 0 when a recording was
 * written (the command's own failure is told on stderr), or -1 with a
 * message in err (perf missing, recording not allowed, perf failed, not
 * FLAME_RECORD_AVAILABLE). */
int flame_record_run(struct flame_record *rec, char *err, size_t errlen);

/* Removes the temporary file and frees what parse made. */
void flame_record_release(struct flame_record *rec);

#endif
