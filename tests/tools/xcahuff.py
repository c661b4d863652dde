#!/usr/bin/env python3
"""xcahuff: MS-XCA LZ77+Huffman in Python, for the .etl tests: a small
compressor (greedy LZ77 over a 3-byte hash, canonical Huffman codes of at
most 15 bits per 64 KiB block) and a decompressor, both from the MS-XCA
description, written apart from flame's C decoder so each checks the
other.

    xcahuff.py FILE   round trip FILE, printing the sizes"""
import heapq
import struct
import sys

BLOCK = 65536


def tokens(data):
    """Greedy LZ77: literals (int) and matches ((length, offset))."""
    out, heads, i = [], {}, 0
    while i < len(data):
        best, boff = 0, 0
        key = bytes(data[i:i + 3])
        for j in reversed(heads.get(key, [])[-8:]):
            if i - j > 65535:
                break
            n = 0
            while i + n < len(data) and data[j + n] == data[i + n] and n < 70000:
                n += 1
            if n > best:
                best, boff = n, i - j
        heads.setdefault(key, []).append(i)
        if best < 3:
            out.append(data[i])
            i += 1
            continue
        out.append((best, boff))
        for k in range(i + 1, min(i + best, i + 64)):
            heads.setdefault(bytes(data[k:k + 3]), []).append(k)
        i += best
    return out


def symbol(tok):
    if isinstance(tok, int):
        return tok
    length, off = tok
    return 256 + ((off.bit_length() - 1) << 4 | min(length - 3, 15))


def code_lengths(freq):
    """Huffman code lengths (symbol -> bits, at most 15) for a complete code."""
    used = [s for s in range(512) if freq[s]]
    if len(used) == 1:
        used.append(0 if used[0] else 1)
    f = {s: max(freq[s], 1) for s in used}
    while True:
        heap = [(f[s], s, (s,)) for s in used]
        heapq.heapify(heap)
        depth = dict.fromkeys(used, 0)
        n = 512
        while len(heap) > 1:
            a, b = heapq.heappop(heap), heapq.heappop(heap)
            for s in a[2] + b[2]:
                depth[s] += 1
            heapq.heappush(heap, (a[0] + b[0], n, a[2] + b[2]))
            n += 1
        if max(depth.values()) <= 15:
            return depth
        f = {s: (v + 1) // 2 for s, v in f.items()}


def canonical(lengths):
    """Codes in the order the decoder's table is filled."""
    codes, at = {}, 0
    for ln in range(1, 16):
        for s in range(512):
            if lengths.get(s) == ln:
                codes[s] = at >> (15 - ln)
                at += 1 << (15 - ln)
    assert at == 1 << 15
    return codes


class Bits:
    """The bit stream as the decoder reads it: words are placed where the
    decoder's position is when it needs them (two ahead at a block's
    start, one more each time fewer than 16 bits are left)."""

    def __init__(self, out):
        self.out, self.c = out, 0
        self.words = [len(out), len(out) + 2]
        out.extend(bytes(4))

    def put(self, value, n):
        for k in range(n - 1, -1, -1):
            if value >> k & 1:
                at = self.words[self.c // 16]
                word = struct.unpack_from("<H", self.out, at)[0]
                struct.pack_into("<H", self.out, at, word | 1 << (15 - self.c % 16))
            self.c += 1
        if n and self.c > 16 * (len(self.words) - 1):
            self.words.append(len(self.out))
            self.out.extend(bytes(2))


def block(out, toks, last):
    freq = [0] * 512
    for t in toks:
        freq[symbol(t)] += 1
    if last:
        freq[256] += 1
    lengths = code_lengths(freq)
    codes = canonical(lengths)
    table = bytearray(256)
    for s, ln in lengths.items():
        table[s >> 1] |= ln << (4 * (s & 1))
    out += table
    bits = Bits(out)
    for t in toks:
        s = symbol(t)
        bits.put(codes[s], lengths[s])
        if s < 256:
            continue
        length, off = t
        if length - 3 >= 15:
            rest = length - 3
            if rest - 15 < 255:
                out.append(rest - 15)
            elif rest < 65536:
                out.append(255)
                out += struct.pack("<H", rest)
            else:
                out.append(255)
                out += struct.pack("<HI", 0, rest)
        nb = off.bit_length() - 1
        bits.put(off - (1 << nb), nb)
    if last:
        bits.put(codes[256], lengths[256])


def compress(data):
    out, toks, cur, pos = bytearray(), [], [], 0
    toks = tokens(data)
    start = 0
    for t in toks:
        cur.append(t)
        pos += 1 if isinstance(t, int) else t[0]
        if pos - start >= BLOCK:
            block(out, cur, False)
            cur, start = [], pos
    block(out, cur, True)
    return bytes(out)


def is_huffman(src):
    """A complete code in the first 256 bytes (as flame's reader decides)."""
    if len(src) < 260:
        return False
    s = 0
    for b in src[:256]:
        for ln in (b & 15, b >> 4):
            if ln:
                s += 1 << (15 - ln)
    return s == 1 << 15


def decompress(src, size):
    """Up to size bytes; stops quietly at the first fault."""
    out, i = bytearray(), 0
    while len(out) < size and len(src) - i >= 260:
        lengths = [src[i + (s >> 1)] >> (4 * (s & 1)) & 15 for s in range(512)]
        decode = {}
        at = 0
        for ln in range(1, 16):
            for s in range(512):
                if lengths[s] == ln:
                    decode[(ln, at >> (15 - ln))] = s
                    at += 1 << (15 - ln)
        i += 256
        bitpos, words = 0, []

        def word():
            nonlocal i
            words.append(struct.unpack_from("<H", src, i)[0] if len(src) - i >= 2 else None)
            i += 2

        def take(n):
            nonlocal bitpos
            v = 0
            for _ in range(n):
                w = words[bitpos // 16]
                if w is None:
                    raise EOFError
                v = v << 1 | (w >> (15 - bitpos % 16) & 1)
                bitpos += 1
            if n and 16 * len(words) - bitpos < 16:
                word()
            return v

        word()
        word()
        end = min(len(out) + BLOCK, size)
        try:
            while len(out) < end:
                code, ln = 0, 0
                while (ln, code) not in decode:
                    w = words[(bitpos + ln) // 16]
                    if ln == 15 or w is None:
                        return bytes(out)
                    code = code << 1 | (w >> (15 - (bitpos + ln) % 16) & 1)
                    ln += 1
                s = decode[(ln, code)]
                take(ln)
                if s < 256:
                    out.append(s)
                    continue
                if s == 256 and i >= len(src):
                    return bytes(out)
                s -= 256
                length = s & 15
                if length == 15:
                    length = src[i] + 15
                    i += 1
                    if length == 255 + 15:
                        length = struct.unpack_from("<H", src, i)[0]
                        i += 2
                        if length == 0:
                            length = struct.unpack_from("<I", src, i)[0]
                            i += 4
                length += 3
                nb = s >> 4
                off = take(nb) | 1 << nb
                if off > len(out) or len(out) + length > size:
                    return bytes(out)
                for _ in range(length):
                    out.append(out[-off])
        except (EOFError, IndexError, struct.error):
            return bytes(out)
    return bytes(out)


if __name__ == "__main__":
    d = open(sys.argv[1], "rb").read()
    c = compress(d)
    assert is_huffman(c)
    back = decompress(c, len(d))
    print(len(d), len(c), "ok" if back == d else "MISMATCH")
    sys.exit(back != d)
