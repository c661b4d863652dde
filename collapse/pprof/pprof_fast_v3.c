/* pprof_lane's loops over samples built for AVX2, BMI1 and BMI2 (of
 * x86-64-v3: most x86-64 since 2015), which pprof_fast takes where the
 * processor has them: keys compared 32 bytes at a time,
 * a sample's two values read with pext, three-operand instructions
 * throughout (the 100k-stack profile's sample pass: some 40 fewer
 * instructions a sample).  Elsewhere (another processor, a compiler
 * without target pragmas) the same names are the baseline's loops. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/* The intrinsics' own declarations first: they carry their targets. */
#include <immintrin.h>
#define PPROF_V3 1
#ifdef __clang__
#pragma clang attribute push(__attribute__((target("avx2,bmi,bmi2"))), \
			     apply_to = function)
#else
#pragma GCC target("avx2,bmi,bmi2")
#endif
#endif

#include "pprof_lane.h"

#include <stdlib.h>
#include <string.h>

void pprof_lane_job_v3(struct lane *l, const struct job *j)
{
	lane_job(l, j);
}

const unsigned char *pprof_lane_streak_v3(struct lane *l, const unsigned char *q,
					  const unsigned char *stop, const unsigned char *end,
					  const unsigned char *lim, size_t *n)
{
	return lane_streak(l, q, stop, end, lim, n);
}

#ifdef PPROF_V3
#ifdef __clang__
#pragma clang attribute pop
#endif

/* Whether the processor runs this build, FLAME_BASELINE not set (set
 * and not 0: the baseline's loops, to compare the two). */
int pprof_lane_v3(void)
{
	const char *env = getenv("FLAME_BASELINE");

	if (env && *env && strcmp(env, "0") != 0)
		return 0;
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
	       __builtin_cpu_supports("bmi2");
}
#else
int pprof_lane_v3(void)
{
	return 0;
}
#endif
