#!/usr/bin/env python3
"""perfdata_swap.py IN OUT: rewrites a little-endian file-mode perf.data
as a big-endian one, as perf on a big-endian machine would write it, so
the reader's other byte order can be tested without such a machine.

Only what a frame-pointer recording holds is converted: the attributes
and their ids, and the records the stacks need (SAMPLE with IDENTIFIER,
IP, TID, TIME, ADDR, ID, STREAM_ID, CPU, PERIOD, CALLCHAIN; MMAP, MMAP2,
COMM, FORK, EXIT, LOST, FINISHED_ROUND).  Other records and the feature
sections are left out, so events keep perf's generic names."""
import struct
import sys

S = {'IP': 1, 'TID': 2, 'TIME': 4, 'ADDR': 8, 'READ': 16, 'CALLCHAIN': 32,
     'ID': 64, 'CPU': 128, 'PERIOD': 256, 'STREAM_ID': 512, 'IDENTIFIER': 1 << 16}
SAMPLE_ID_ALL = 1 << 18
KNOWN = sum(S.values()) & ~S['READ']


def conv(buf, off, fmt):
    """The fields fmt (struct letters, no byte order) at off, big-endian."""
    vals = struct.unpack_from('<' + fmt, buf, off)
    return struct.pack('>' + fmt, *vals)


def revbits(v):
    return int('{:064b}'.format(v)[::-1], 2)


# perf_event_attr: (offset, fields) up to 136 bytes; flags at 40 apart.
ATTR = [(0, 'II'), (8, 'QQQQ'), (48, 'II'), (56, 'QQQQ'), (88, 'Ii'), (96, 'Q'),
        (104, 'IHH'), (112, 'II'), (120, 'QQ')]


def attr_be(a):
    out = bytearray(a)
    for off, fmt in ATTR:
        n = struct.calcsize('<' + fmt)
        if off + n <= len(a):
            out[off:off + n] = conv(a, off, fmt)
    if len(a) >= 48:
        flags = struct.unpack_from('<Q', a, 40)[0]
        out[40:48] = struct.pack('>Q', revbits(flags))
    return bytes(out)


def trailer_fmt(st):
    f = ''
    for bit, c in (('TID', 'II'), ('TIME', 'Q'), ('ID', 'Q'), ('STREAM_ID', 'Q'),
                   ('CPU', 'II'), ('IDENTIFIER', 'Q')):
        if st & S[bit]:
            f += c
    return f


def sample_be(r, st):
    out = bytearray(r)
    pos = 8
    for bit, c in (('IDENTIFIER', 'Q'), ('IP', 'Q'), ('TID', 'II'), ('TIME', 'Q'),
                   ('ADDR', 'Q'), ('ID', 'Q'), ('STREAM_ID', 'Q'), ('CPU', 'II'),
                   ('PERIOD', 'Q')):
        if st & S[bit]:
            n = struct.calcsize('<' + c)
            out[pos:pos + n] = conv(r, pos, c)
            pos += n
    if st & S['CALLCHAIN']:
        nr = struct.unpack_from('<Q', r, pos)[0]
        out[pos:pos + 8 + 8 * nr] = conv(r, pos, 'Q' * (nr + 1))
        pos += 8 + 8 * nr
    return bytes(out)


# Fixed fields after the record header, then a string, then the trailer.
BODY = {1: 'IIQQQ', 3: 'II', 4: 'IIIIQ', 7: 'IIIIQ', 2: 'QQ'}


def record_be(r, st, id_all):
    typ, misc, size = struct.unpack_from('<IHH', r, 0)
    head = struct.pack('>IHH', typ, misc, size)
    if typ == 9:
        return head + sample_be(r, st)[8:]
    if typ == 68:
        return head
    if typ == 10:
        body = conv(r, 8, 'IIQQQ')
        body += conv(r, 40, 'BBH') + r[44:64] if misc & (1 << 14) else conv(r, 40, 'IIQQ')
        body += conv(r, 64, 'II')
        fixed = 72
    elif typ in BODY:
        fixed = 8 + struct.calcsize('<' + BODY[typ])
        body = conv(r, 8, BODY[typ])
    else:
        return None
    tf = trailer_fmt(st) if id_all else ''
    tn = struct.calcsize('<' + tf) if tf else 0
    mid = r[fixed:size - tn]
    tail = conv(r, size - tn, tf) if tf else b''
    return head + body + mid + tail


def main():
    src = open(sys.argv[1], 'rb').read()
    if src[:8] != b'PERFILE2' or struct.unpack_from('<Q', src, 8)[0] == 16:
        sys.exit('perfdata_swap: %s: not a little-endian file-mode perf.data' % sys.argv[1])
    asz, aoff, alen, doff, dlen = struct.unpack_from('<QQQQQ', src, 16)
    attrs = []
    for i in range(alen // asz):
        e = src[aoff + i * asz:aoff + (i + 1) * asz]
        ioff, ilen = struct.unpack_from('<QQ', e, asz - 16)
        attrs.append((e[:asz - 16], src[ioff:ioff + ilen]))
    st = struct.unpack_from('<Q', attrs[0][0], 24)[0]
    flags = struct.unpack_from('<Q', attrs[0][0], 40)[0]
    for a, _ in attrs:
        if struct.unpack_from('<Q', a, 24)[0] & ~KNOWN:
            sys.exit('perfdata_swap: a sample_type this converter does not know')
    data = bytearray()
    pos = doff
    while pos + 8 <= doff + dlen:
        size = struct.unpack_from('<H', src, pos + 6)[0]
        if size < 8:
            break
        rec = record_be(src[pos:pos + size], st, flags & SAMPLE_ID_ALL)
        if rec is not None:
            data += rec
        pos += size
    out = bytearray(104)
    attr_at = 104
    ids_at = attr_at + asz * len(attrs)
    table = bytearray()
    ids = bytearray()
    for a, idb in attrs:
        table += attr_be(a) + struct.pack('>QQ', ids_at + len(ids), len(idb))
        ids += conv(idb, 0, 'Q' * (len(idb) // 8))
    data_at = ids_at + len(ids)
    out[0:8] = b'2ELIFREP'
    out[8:72] = struct.pack('>QQQQQQQQ', 104, asz, attr_at, len(table), data_at, len(data), 0, 0)
    open(sys.argv[2], 'wb').write(bytes(out) + table + ids + data)


main()
