/* etl_walk: the events of one buffer, by header kind. */
#include "etl_int.h"

#include <stdio.h>

#define HDR 72

/* Header kinds (the marker's third byte). */
enum {
	H_SYSTEM32 = 0x01, H_SYSTEM64 = 0x02, H_COMPACT32 = 0x03, H_COMPACT64 = 0x04,
	H_FULL32 = 0x0a, H_INSTANCE32 = 0x0b, H_TIMED = 0x0c, H_ERROR = 0x0d,
	H_WNODE = 0x0e, H_MESSAGE = 0x0f, H_PERFINFO32 = 0x10, H_PERFINFO64 = 0x11,
	H_EVENT32 = 0x12, H_EVENT64 = 0x13, H_FULL64 = 0x14, H_INSTANCE64 = 0x15
};

/* The size of a kernel header kind (the event's size at byte 4), else 0:
 * the others give their size at byte 0. */
static size_t kernel_header(int kind)
{
	switch (kind) {
	case H_SYSTEM32: case H_SYSTEM64: return 32;
	case H_COMPACT32: case H_COMPACT64: return 24;
	case H_PERFINFO32: case H_PERFINFO64: return 16;
	default: return 0;
	}
}

static int pointer_size(int kind)
{
	switch (kind) {
	case H_SYSTEM32: case H_COMPACT32: case H_PERFINFO32: return 4;
	default: return 8;
	}
}

/* The TRACE_LOGFILE_HEADER: pointer size, clock, the trace start. */
static void logfile_header(struct etl *x, const unsigned char *p, size_t n, int psz,
			   uint64_t ts)
{
	size_t freq_at = psz == 8 ? 256 : 248;	/* after the time zone, 8-aligned */
	uint64_t freq, clock, mhz;

	if (n < freq_at + 24)
		return;
	x->ptrsize = (int)etl_le(p + 44, 4);
	if (etl_le(p + 12, 4) > x->ncpu && etl_le(p + 12, 4) <= 256)
		x->ncpu = (uint32_t)etl_le(p + 12, 4);
	if (x->ptrsize != psz) {
		etl_warn(x, "byte %llu: the logfile header gives %d-byte pointers in a %d-byte "
			 "header; using %d", (unsigned long long)x->off, x->ptrsize, psz, psz);
		x->ptrsize = psz;
	}
	freq = etl_le(p + freq_at, 8);
	clock = etl_le(p + freq_at + 16, 4);
	mhz = etl_le(p + 52, 4);
	if (clock == 3 && mhz)			/* CPU cycle counter */
		x->freq = (double)mhz * 1e6;
	else if (clock == 1 && freq)		/* QueryPerformanceCounter */
		x->freq = (double)freq;
	else					/* system time: 100 ns */
		x->freq = 1e7;
	if (!x->have_t0) {
		x->t0 = ts;
		x->have_t0 = 1;
	}
}

/* A kernel event at e (size bytes, header kind). */
static void kernel_event(struct etl *x, const unsigned char *e, size_t size, int kind)
{
	size_t h = kernel_header(kind);
	unsigned hook = (unsigned)etl_le(e + 6, 2);
	int version = (int)etl_le(e, 2), psz = pointer_size(kind);
	uint64_t ts = etl_le(e + (h == 16 ? 8 : 16), 8);
	uint32_t tid = h == 16 ? 0xffffffff : (uint32_t)etl_le(e + 8, 4);
	uint32_t pid = h == 16 ? 0xffffffff : (uint32_t)etl_le(e + 12, 4);

	if (hook == HOOK_HEADER && h == 32) {
		logfile_header(x, e + h, size - h, psz, ts);
		return;
	}
	if (x->ptrsize && psz != x->ptrsize && etl_hook_used(hook)) {
		x->st.bad_events++;
		etl_warn(x, "byte %llu: a %d-byte pointer event in a %d-byte trace; skipped",
			 (unsigned long long)x->off, psz, x->ptrsize);
		return;
	}
	etl_kernel(x, hook, version, ts, tid, pid, e + h, size - h, psz);
}

/* The size of the event at e (avail bytes left), 0 when it cannot be read. */
static size_t event_size(const unsigned char *e, size_t avail, int kind)
{
	size_t h = kernel_header(kind), size;

	if (h) {
		if (avail < h)
			return 0;
		size = (size_t)etl_le(e + 4, 2);
		return size >= h ? size : 0;
	}
	size = (size_t)etl_le(e, 2);
	return size >= 8 ? size : 0;
}

static const char *why(const unsigned char *e)
{
	if ((e[3] & 0xc0) == 0xc0 && e[2] >= H_SYSTEM32 && e[2] <= H_INSTANCE64)
		return "an event runs past its buffer";
	return "no event header";
}

void etl_events(struct etl *x, const unsigned char *b, size_t end, int compressed, int cut)
{
	size_t at = HDR, size;
	int kind;

	while (end - at >= 8) {
		const unsigned char *e = b + at;

		if (etl_le(e, 4) == 0xffffffff)
			break;			/* the unused rest */
		kind = e[2];
		if ((e[3] & 0xc0) != 0xc0 || kind < H_SYSTEM32 || kind > H_INSTANCE64 ||
		    (size = event_size(e, end - at, kind)) == 0 || size > end - at) {
			if (cut)
				return;	/* the end of what could be read */
			x->st.bad_events++;
			if (compressed)
				etl_warn(x, "byte %llu: %s at offset %zu of the decompressed buffer; "
					 "its rest skipped", (unsigned long long)x->off, why(e), at);
			else
				etl_warn(x, "byte %llu: %s; the rest of its buffer skipped",
					 (unsigned long long)(x->off + at), why(e));
			return;
		}
		x->st.events++;
		if (kernel_header(kind))
			kernel_event(x, e, size, kind);
		else if (kind == H_EVENT32 || kind == H_EVENT64)
			etl_clr(x, e, size);
		at += (size + 7) & ~(size_t)7;
		if (at > end)
			break;
	}
}
