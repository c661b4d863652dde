#!/usr/bin/env python3
"""perfdata_patch.py MODE IN OUT: damages a little-endian file-mode
perf.data in one known way, for the reader's bad-input tests, and prints
what the test needs to know about the damage:

  datasize   the header says the data section is 1 TB          (prints nothing)
  unknown    the first FINISHED_ROUND gets type 60, unknown     (prints nothing)
  zerosize   the middle record's size becomes 0                 (its byte offset)
  chain      the first sample's callchain claims 65535 entries  (its byte offset, period)
  zgarbage   the start of the first COMPRESSED record is 0xff   (its byte offset)
  v1         the magic becomes the old "PERFFILE"               (prints nothing)
  cut        the file ends inside the middle record             (the cut's offset)"""
import struct
import sys


def records(b):
    doff, dlen = struct.unpack_from('<QQ', b, 40)
    pos = doff
    while pos + 8 <= doff + dlen:
        typ, misc, size = struct.unpack_from('<IHH', b, pos)
        if size < 8:
            return
        yield pos, typ, size
        pos += size


def sample_layout(b):
    """Words before CALLCHAIN and PERIOD's word, for the first event."""
    asz, aoff = struct.unpack_from('<QQ', b, 16)
    st = struct.unpack_from('<Q', b, aoff + 24)[0]
    order = [(1 << 16, 1), (1, 1), (2, 1), (4, 1), (8, 1), (64, 1), (512, 1), (128, 1),
             (256, 1)]
    words, period = 0, None
    for bit, n in order:
        if st & bit:
            if bit == 256:
                period = words
            words += n
    if not st & 32 or st & 16:
        sys.exit('perfdata_patch: the first event has no callchain, or a READ field')
    return words, period


def main():
    mode, src, dst = sys.argv[1:4]
    b = bytearray(open(src, 'rb').read())
    recs = list(records(b))
    mid = recs[len(recs) // 2]
    if mode == 'datasize':
        struct.pack_into('<Q', b, 48, 1 << 40)
    elif mode == 'unknown':
        pos = next(p for p, t, s in recs if t == 68)
        struct.pack_into('<I', b, pos, 60)
    elif mode == 'zerosize':
        struct.pack_into('<H', b, mid[0] + 6, 0)
        print(mid[0])
    elif mode == 'chain':
        words, period = sample_layout(b)
        pos = next(p for p, t, s in recs if t == 9)
        struct.pack_into('<Q', b, pos + 8 + 8 * words, 65535)
        print(pos, struct.unpack_from('<Q', b, pos + 8 + 8 * period)[0])
    elif mode == 'zgarbage':
        pos, t, size = next(r for r in recs if r[1] == 81)
        for i in range(pos + 8, pos + 24):
            b[i] = 0xff
        print(pos)
    elif mode == 'v1':
        b[0:8] = b'PERFFILE'
    elif mode == 'cut':
        b = b[:mid[0] + mid[2] // 2]
        print(len(b))
    else:
        sys.exit('perfdata_patch: unknown mode ' + mode)
    open(dst, 'wb').write(bytes(b))


main()
