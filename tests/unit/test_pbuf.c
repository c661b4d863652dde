/* Unit tests for pbuf's hot-loop varints: pb_varint8 (no branch on the
 * length) must give what a plain byte-by-byte reading gives for every
 * length from 1 to 8 bytes, whatever bytes follow, and refuse (0) a
 * varint that goes on past its 8 bytes; pb_varint4 the same up to 4;
 * pb_short_varint and pb_count_varints agree with the same reading. */
#include "check.h"
#include "pbuf.h"

#include <stdint.h>
#include <string.h>

/* v as a varint at s; returns its length (written here, not by pbuf). */
static size_t put(unsigned char *s, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		s[n++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	s[n++] = (unsigned char)v;
	return n;
}

/* A reproducible stream of numbers (xorshift64*). */
static uint64_t rnd(uint64_t *x)
{
	*x ^= *x >> 12;
	*x ^= *x << 25;
	*x ^= *x >> 27;
	return *x * 0x2545f4914f6cdd1du;
}

/* v written at each of the 8 offsets of a buffer, the bytes after it
 * filled with fill: pb_varint8 reads it back, with its length. */
static int reads_back(uint64_t v, unsigned char fill)
{
	unsigned char buf[32];
	uint64_t got;
	size_t n, at, i;
	int ok = 1;

	for (at = 0; at < 8; at++) {
		memset(buf, fill, sizeof(buf));
		n = put(buf + at, v);
		got = ~v;
		ok &= pb_varint8(buf + at, &got) == n && got == v;
		/* pb_varint4: the same up to 4 bytes, 0 (nothing written)
		 * past them. */
		{
			uint32_t g4 = 12345;
			size_t m = pb_varint4(buf + at, &g4);

			ok &= n <= 4 ? m == n && g4 == v : m == 0 && g4 == 12345;
		}
		/* pb_short_varint reads the same (its bound: the varint's end). */
		i = at;
		ok &= pb_short_varint(buf, &i, at + n, &got) == 0 && i == at + n && got == v;
	}
	return ok;
}

int main(void)
{
	static const unsigned char fills[] = { 0x00, 0x7f, 0x80, 0xff, 0x0a };
	unsigned char buf[32];
	uint64_t x = 88172645463325252u, v, got;
	size_t f, bits, n, i;
	int ok;

	/* Each length's edges: 2^(7k) - 1 is the longest value of k bytes. */
	for (ok = 1, f = 0; f < sizeof(fills); f++)
		for (bits = 0; bits <= 56; bits += 7) {
			ok &= reads_back(bits ? ((uint64_t)1 << bits) - 1 : 0, fills[f]);
			ok &= reads_back((uint64_t)1 << (bits ? bits - 1 : 0), fills[f]);
		}
	CHECK(ok);
	/* Values of every size below 2^56, many of each. */
	for (ok = 1, i = 0; i < 200000; i++) {
		v = rnd(&x) >> (8 + rnd(&x) % 56);
		ok &= reads_back(v, (unsigned char)rnd(&x));
	}
	CHECK(ok);
	/* 2^56 and up take 9 bytes or more: not read, nothing written. */
	for (ok = 1, bits = 56; bits < 64; bits++) {
		memset(buf, 0, sizeof(buf));
		n = put(buf, (uint64_t)1 << bits);
		got = 12345;
		ok &= n > 8 && pb_varint8(buf, &got) == 0 && got == 12345;
	}
	CHECK(ok);
	/* Eight bytes all with the continuation bit: no end within them. */
	memset(buf, 0x80, 8);
	buf[8] = 1;
	CHECK(pb_varint8(buf, &got) == 0);
	/* A run of varints: each read in turn, as many as pb_count_varints
	 * says. */
	{
		unsigned char run[512];
		uint64_t want[64];
		size_t len = 0, k = 0, at = 0;

		for (i = 0; i < 64; i++) {
			want[i] = rnd(&x) >> (8 + i % 50);
			len += put(run + len, want[i]);
		}
		memset(run + len, 0xff, sizeof(run) - len);
		for (ok = 1; at < len; k++) {
			n = pb_varint8(run + at, &got);
			ok &= n != 0 && k < 64 && got == want[k];
			at += n ? n : len;
		}
		CHECK(ok && k == 64 && at == len);
		CHECK(pb_count_varints(run, len) == 64);
	}
	return check_done();
}
