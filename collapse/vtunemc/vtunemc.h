/* vtunemc: VTune memory-consumption top-down CSV (amplxe-cl -R top-down
 * -call-stack-mode all -column="Allocations:Self","Allocation Size:Self",
 * "Module" -format csv) to collapsed stacks, as stackcollapse-vtune-mc.pl
 * does.  A row is "<indent>function,SIZE,N,ALLOCATIONS,module": the
 * indent its depth; a stack is its row's function under the latest rows
 * of each smaller depth, frames "function(module)", weighing the row's
 * allocations or, with --size, its bytes. */
#ifndef FLAME_VTUNEMC_H
#define FLAME_VTUNEMC_H

#include <stddef.h>

#include "ctool.h"
#include "format.h"
#include "linefmt.h"

struct vtunemc_opts {
	struct ctool_common common;	/* -q */
	int size;			/* --size: bytes, not allocations */
};

extern const struct linefmt vtunemc_linefmt;
extern const struct cliopt_family vtunemc_cli_family;

int vtunemc_sniff(const char *head, size_t len);
int vtunemc_collect(const struct format_job *j);

#endif
