/* numfmt: numbers as printf's "%.Nf" and "%.15g" write them, byte for
 * byte, without its float machinery on the common path (whole numbers,
 * and values clear of a rounding tie); the rest still go to snprintf. */
#ifndef FLAME_NUMFMT_H
#define FLAME_NUMFMT_H

#include <stddef.h>
#include <stdint.h>

/* Room a buffer needs: "%.3f" of the largest double. */
#define NUMFMT_MAX 352

/* v in decimal ("%llu") into buf (room: 20 bytes); returns the length.
 * For the counts written at the end of every line. */
size_t numfmt_u64(char *buf, uint64_t v);

/* v as "%.*f" with decimals 0 to 3 into buf (room: NUMFMT_MAX bytes);
 * returns the length. */
size_t numfmt_fixed(char *buf, double v, int decimals);

/* v as "%.15g" into buf (room: 32 bytes; it never writes more than 24);
 * returns the length. */
size_t numfmt_g15(char *buf, double v);

#endif
