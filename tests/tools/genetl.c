/* genetl: a big .etl trace for make bench, from a small one written by
 * tests/tools/etlwrite.py (uncompressed): its data buffers N times over,
 * each copy's time stamps (and its stack events' EventTimeStamp) moved
 * past the copy before, optionally compressed in MS-XCA plain LZ77 (-z)
 * or LZ77+Huffman (-h, buffers under 64 KiB; genetl_huff.h) with a
 * greedy matcher of its own.
 *
 *     genetl [-z | -h] -n COPIES TEMPLATE.etl > big.etl */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HDR 72

static uint64_t le(const unsigned char *p, int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

static void put_le(unsigned char *p, uint64_t v, int n)
{
	int i;

	for (i = 0; i < n; i++, v >>= 8)
		p[i] = (unsigned char)v;
}

/* Where an event's time stamp is, by header kind; 0: none known. */
static size_t ts_at(int kind)
{
	switch (kind) {
	case 0x01: case 0x02: case 0x03: case 0x04: case 0x12: case 0x13: return 16;
	case 0x10: case 0x11: return 8;
	default: return 0;
	}
}

/* Moves every time stamp in the buffer's events by shift; returns the
 * latest after the move. */
static uint64_t shift_events(unsigned char *b, size_t end, uint64_t shift)
{
	size_t at = HDR, size, t;
	uint64_t top = 0;

	while (end - at >= 8 && le(b + at, 4) != 0xffffffff) {
		unsigned char *e = b + at;
		int kind = e[2];
		unsigned hook = (unsigned)le(e + 6, 2);

		size = kind <= 4 || kind == 0x10 || kind == 0x11 ? le(e + 4, 2) : le(e, 2);
		if (size < 8 || size > end - at)
			break;
		if ((t = ts_at(kind)) != 0) {
			put_le(e + t, le(e + t, 8) + shift, 8);
			if (le(e + t, 8) > top)
				top = le(e + t, 8);
		}
		if ((kind == 0x10 || kind == 0x11) && (hook == 0x1820 || hook == 0x1825 ||
						       hook == 0x1826) && size >= 24)
			put_le(e + 16, le(e + 16, 8) + shift, 8);
		at += (size + 7) & ~(size_t)7;
	}
	return top;
}

/* The plain LZ77 writer's state. */
struct enc {
	unsigned char *out;
	size_t n, flag_at, half;
	uint32_t flags;
	int nflags;
	int have_half;
};

static void flag(struct enc *z, int bit)
{
	if (z->nflags == 0) {
		z->flag_at = z->n;
		z->n += 4;
	}
	z->flags = z->flags << 1 | (uint32_t)bit;
	if (++z->nflags == 32) {
		put_le(z->out + z->flag_at, z->flags, 4);
		z->flags = 0;
		z->nflags = 0;
	}
}

static void match(struct enc *z, size_t off, size_t len)
{
	size_t l = len - 3, nib;

	put_le(z->out + z->n, (off - 1) << 3 | (l < 7 ? l : 7), 2);
	z->n += 2;
	if (l < 7)
		return;
	nib = l - 7 < 15 ? l - 7 : 15;
	if (!z->have_half) {
		z->half = z->n;
		z->out[z->n++] = (unsigned char)nib;
		z->have_half = 1;
	} else {
		z->out[z->half] |= (unsigned char)(nib << 4);
		z->have_half = 0;
	}
	if (nib < 15)
		return;
	if (l - 22 < 255) {
		z->out[z->n++] = (unsigned char)(l - 22);
	} else {
		z->out[z->n++] = 255;
		put_le(z->out + z->n, l, 2);
		z->n += 2;
	}
}

/* Compresses src (n bytes, under 64 KiB) into out (room for n + n/8 + 8). */
static size_t lz77(const unsigned char *src, size_t n, unsigned char *out)
{
	static uint32_t last[1 << 14];
	struct enc z = { out, 0, 0, 0, 0, 0, 0 };
	size_t i = 0;

	memset(last, 0xff, sizeof(last));
	while (i < n) {
		size_t best = 0, len = 0;
		uint32_t h = i + 3 <= n ? ((uint32_t)le(src + i, 3) * 2654435761u) >> 18 : 0;
		uint32_t j = i + 3 <= n ? last[h] : 0xffffffff;

		if (j != 0xffffffff && i - j <= 8192) {
			while (i + len < n && src[j + len] == src[i + len] && len < 65000)
				len++;
			best = len;
		}
		if (i + 3 <= n)
			last[h] = (uint32_t)i;
		if (best < 3) {
			flag(&z, 0);
			z.out[z.n++] = src[i++];
			continue;
		}
		flag(&z, 1);
		match(&z, i - j, best);
		i += best;
	}
	if (z.nflags)
		put_le(z.out + z.flag_at, z.flags << (32 - z.nflags) | ((1u << (32 - z.nflags)) - 1), 4);
	return z.n;
}

#include "genetl_huff.h"

static void emit(const unsigned char *p, size_t n)
{
	if (fwrite(p, 1, n, stdout) != n) {
		perror("genetl");
		exit(1);
	}
}

/* One copy of the data buffers at data[0, len), moved by shift. */
static uint64_t copy(const unsigned char *data, size_t len, uint64_t shift, int z)
{
	static unsigned char buf[1 << 20], comp[(1 << 20) + (1 << 17)];
	size_t at = 0, size, used;
	uint64_t top = 0, t;

	while (len - at >= HDR) {
		size = (size_t)le(data + at, 4);
		used = (size_t)le(data + at + 4, 4);
		if (size < HDR || size > len - at || size > sizeof(buf) || used > size)
			break;
		memcpy(buf, data + at, size);
		if ((t = shift_events(buf, used, shift)) > top)
			top = t;
		if (!z) {
			emit(buf, size);
		} else {
			size_t c = z == 2 && used - HDR < 65536 ? huff(buf + HDR, used - HDR, comp + HDR)
						 : lz77(buf + HDR, used - HDR, comp + HDR);

			memcpy(comp, buf, HDR);
			put_le(comp, HDR + c, 4);
			put_le(comp + 0x34, 0x40, 2);
			emit(comp, HDR + c);
		}
		at += size;
	}
	return top;
}

int main(int argc, char **argv)
{
	static unsigned char data[64 << 20];
	long copies = 1, k;
	size_t len, first;
	uint64_t shift = 0, top;
	int c, z = 0;
	FILE *f;

	while ((c = getopt(argc, argv, "zhn:")) != -1) {
		if (c == 'z')
			z = 1;
		else if (c == 'h')
			z = 2;
		else if (c == 'n')
			copies = strtol(optarg, NULL, 10);
		else
			return 2;
	}
	if (optind != argc - 1 || !(f = fopen(argv[optind], "rb"))) {
		fprintf(stderr, "usage: genetl [-z | -h] -n COPIES TEMPLATE.etl > big.etl\n");
		return 2;
	}
	len = fread(data, 1, sizeof(data), f);
	fclose(f);
	first = len >= HDR ? (size_t)le(data, 4) : 0;	/* the logfile header's buffer */
	if (first < HDR || first > len)
		return 1;
	emit(data, first);
	for (k = 0; k < copies; k++) {
		top = copy(data + first, len - first, shift, z);
		shift = top + 1000;
	}
	return fflush(stdout) != 0;
}
