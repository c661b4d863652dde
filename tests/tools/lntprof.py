#!/usr/bin/env python3
"""LNT profiles for the tests, written and read independently of flame.

  lntprof.py make KIND VERSION OUT   write a profile of a built-in kind
                                     (VERSION: 1 = pickle protocol 0 as
                                     Python 3 writes it, 1py2 = protocol 0
                                     as Python 2 wrote it, 1p2, 1p4 =
                                     binary protocols, 2 = the v2 layout)
  lntprof.py expect FILE [--event EV] [--per-instruction]
                     [--root counter|file|none] [--table]
                                     what stackcollapse-lnt must print
  lntprof.py corrupt KIND IN OUT     a damaged copy of IN

v1 is read with Python's own zlib and pickle; v2 is read by following
the layout LNT's profilev2impl.py documents, written here afresh.
"""
import bz2
import os
import pickle
import struct
import sys
import zlib
from decimal import Decimal

# ---------------------------------------------------------------- kinds


def kind(name):
    """The profile data (v1's dict) of a built-in kind."""
    if name == 'basic':
        return {'counters': {'cycles': 20000.0, 'branch-misses': 300.0},
                'disassembly-format': 'raw',
                'functions': {
                    'main': {'counters': {'cycles': 60.0, 'branch-misses': 25.0},
                             'data': [[{'cycles': 50.0, 'branch-misses': 100.0}, 0x400000, '\tpush rbp'],
                                      [{'cycles': 50.0}, 0x400001, '\tmov rbp, rsp']]},
                    'work': {'counters': {'cycles': 37.5, 'branch-misses': 75.0},
                             'data': [[{'cycles': 12.5, 'branch-misses': 40.0}, 0x400100, 'add eax, 1'],
                                      [{'cycles': 87.5, 'branch-misses': 60.0}, 0x400104, 'jne 400100 <work>']]},
                    'idle': {'counters': {'cycles': 2.5},
                             'data': [[{'cycles': 100.0}, 0x400200, 'ret']]}}}
    if name == 'after':
        # basic, a run later: work grew, main shrank, idle went, new came.
        return {'counters': {'cycles': 22000.0, 'branch-misses': 280.0},
                'functions': {
                    'main': {'counters': {'cycles': 40.0, 'branch-misses': 20.0},
                             'data': [[{'cycles': 100.0}, 0x400000, 'push rbp']]},
                    'work': {'counters': {'cycles': 55.0, 'branch-misses': 80.0},
                             'data': [[{'cycles': 100.0}, 0x400100, 'add eax, 1']]},
                    'new': {'counters': {'cycles': 5.0}, 'data': []}}}
    if name == 'hostile':
        return {'counters': {'cycles': 1000.0},
                'functions': {
                    'a;b': {'counters': {'cycles': 10.0}, 'data': [[{'cycles': 100.0}, 16, 'x;y']]},
                    'line\nbreak': {'counters': {'cycles': 20.0}, 'data': []},
                    '<script>alert(1)</script>': {'counters': {'cycles': 30.0},
                                                  'data': [[{'cycles': 25.0}, 32, '<b>&amp;</b>'],
                                                           [{'cycles': 75.0}, 36, 'tab\there']]},
                    "quote's \"and\" back\\slash": {'counters': {'cycles': 1.0 / 3}, 'data': []},
                    'unicode \u00e9\u4e2d\U0001f600': {'counters': {'cycles': 0.1}, 'data': []},
                    'zero': {'counters': {'cycles': 0.0}, 'data': []},
                    'tiny': {'counters': {'cycles': 1e-7}, 'data': []},
                    'huge': {'counters': {'cycles': 1e17}, 'data': []}}}
    if name == 'many':
        fns = {}
        for i in range(3000):
            data = [[{'cycles': 100.0 / 3 if j < 3 else 0.0}, 0x10000 + 16 * i + 4 * j, 'op %d' % (j % 7)]
                    for j in range(3)]
            fns['fn%04d' % i] = {'counters': {'cycles': (i % 97) / 8.0, 'instructions': float(i)},
                                 'data': data}
        return {'counters': {'cycles': 1e9, 'instructions': 2e9}, 'functions': fns}
    if name == 'nocycles':
        return {'counters': {'zeta': 5.0, 'alpha': 7.0},
                'functions': {'f': {'counters': {'zeta': 5.0, 'alpha': 7.0}, 'data': []}}}
    raise SystemExit('unknown kind ' + name)


# ------------------------------------------------------- v1, as Python 2


def dump_py2(obj):
    """Protocol 0 as Python 2's pickle wrote LNT's files: S strings, I and
    F lines, MARK then DICT/LIST, PUT after each, GET for repeats."""
    out, memo = [], {}

    def put(key):
        memo[key] = len(memo)
        out.append('p%d\n' % memo[key])

    def rec(o):
        if isinstance(o, str):
            if o in memo:
                out.append('g%d\n' % memo[o])
                return
            b = o.encode('utf-8')
            s = ''.join(chr(c) if 32 <= c < 127 and c not in (39, 92) else
                        {39: "\\'", 92: '\\\\', 10: '\\n', 9: '\\t'}.get(c, '\\x%02x' % c) for c in b)
            out.append("S'%s'\n" % s)
            put(o)
        elif isinstance(o, bool):
            out.append('I0%d\n' % o)
        elif isinstance(o, int):
            out.append(('I%d\n' if o < 2 ** 31 else 'L%dL\n') % o)
        elif isinstance(o, float):
            out.append('F%r\n' % o)
        elif isinstance(o, dict):
            out.append('(d')
            put(id(o))
            for k, v in o.items():
                rec(k)
                rec(v)
                out.append('s')
        elif isinstance(o, (list, tuple)):
            out.append('(l')
            put(id(o))
            for v in o:
                rec(v)
                out.append('a')
    rec(obj)
    out.append('.')
    return ''.join(out).encode('latin-1')


# ----------------------------------------------------------- v2 writer


def uleb(n):
    b = bytearray()
    while True:
        c = n & 0x7f
        n >>= 7
        b.append(c | (0x80 if n else 0))
        if not n:
            return bytes(b)


def fbits(f):
    return uleb(struct.unpack('>I', struct.pack('>f', f))[0])


def write_v2(d):
    """The v2 layout: version, 8 (offset, size) entries (the text pool's
    with an empty file name), then the sections back to back."""
    fns = d['functions']
    names = sorted(set(d['counters']) | {k for f in fns.values() for k in f['counters']})
    idx = {n: i for i, n in enumerate(names)}
    pool, pool_at = bytearray(b'\n'), {}
    lc, la, lt, ftab = bytearray(), bytearray(), bytearray(), bytearray(uleb(len(fns)))
    for name in sorted(fns):
        f = fns[name]
        ftab += name.encode() + b'\n' + uleb(len(f['data'])) + uleb(len(lc)) + uleb(len(la)) + uleb(len(lt))
        ftab += uleb(len(f['counters']))
        for k, v in sorted(f['counters'].items()):
            ftab += uleb(idx[k]) + fbits(v)
        prev = 0
        for c, addr, text in f['data']:
            for k in sorted(f['counters']):
                lc += fbits(c.get(k, 0.0))
            la += uleb(max(0, addr - prev))
            prev = addr
            if text not in pool_at:
                pool_at[text] = len(pool)
                pool += text.encode() + b'\n'
            lt += uleb(pool_at[text])
        lt += uleb(0)
    sections = [d.get('disassembly-format', 'raw').encode() + b'\n',
                uleb(len(names)) + b''.join(n.encode() + b'\n' for n in names),
                uleb(len(d['counters'])) + b''.join(uleb(idx[k]) + uleb(int(v))
                                                    for k, v in sorted(d['counters'].items())),
                bz2.compress(bytes(lc)), bz2.compress(bytes(la)), bz2.compress(bytes(lt)),
                bz2.compress(bytes(pool)), bytes(ftab)]
    head, body = bytearray(uleb(2)), bytearray()
    for i, s in enumerate(sections):
        head += uleb(len(body)) + uleb(len(s)) + (b'\n' if i == 6 else b'')
        body += s
    return bytes(head + body)


def make(kind_name, version, out):
    d = kind(kind_name)
    if version == '2':
        # v2 strings end at a newline: a name with one cannot be written.
        d['functions'] = {k: v for k, v in d['functions'].items() if '\n' not in k}
        data = write_v2(d)
    elif version == '1py2':
        data = zlib.compress(dump_py2(d))
    else:
        proto = {'1': 0, '1p2': 2, '1p4': 4}[version]
        data = zlib.compress(pickle.dumps(d, protocol=proto))
    with open(out, 'wb') as f:
        f.write(data)


# ------------------------------------------------------------- readers


class Cur:
    def __init__(self, b, pos=0):
        self.b, self.pos = b, pos

    def num(self):
        n = shift = 0
        while True:
            c = self.b[self.pos]
            self.pos += 1
            n |= (c & 0x7f) << shift
            shift += 7
            if not c & 0x80:
                return n

    def str(self):
        end = self.b.index(b'\n', self.pos)
        s = self.b[self.pos:end]
        self.pos = end + 1
        return s.decode('utf-8', 'surrogateescape')

    def flt(self):
        return struct.unpack('>f', struct.pack('>I', self.num()))[0]


def read_v2(b):
    """The v1-shaped dict of a v2 file."""
    c = Cur(b)
    assert c.num() == 2
    sect = []
    for i in range(8):
        off, size = c.num(), c.num()
        if i == 6:
            assert c.str() == ''
        sect.append((off, size))
    start = c.pos
    raw = [b[start + o:start + o + s] for o, s in sect]
    names = Cur(raw[1])
    pool_names = [names.str() for _ in range(names.num())]
    tot = Cur(raw[2])
    totals = {}
    for _ in range(tot.num()):
        k = tot.num()
        totals[pool_names[k]] = float(tot.num())
    lc, la, lt, tp = (bz2.decompress(r) for r in raw[3:7])
    ft, fns = Cur(raw[7]), {}
    for _ in range(ft.num()):
        name, n = ft.str(), ft.num()
        clc, cla, clt = Cur(lc, ft.num()), Cur(la, ft.num()), Cur(lt, ft.num())
        counters = {}
        for _ in range(ft.num()):
            k = ft.num()
            counters[pool_names[k]] = ft.flt()
        data, addr = [], 0
        for _ in range(n):
            cs = {k: clc.flt() for k in sorted(counters)}
            addr += cla.num()
            data.append([cs, addr, Cur(tp, clt.num()).str()])
        fns[name] = {'counters': counters, 'data': data}
    return {'counters': totals, 'functions': fns}


def load(path):
    with open(path, 'rb') as f:
        b = f.read()
    if b[:1] == b'\x02':
        return read_v2(b)
    return pickle.loads(zlib.decompress(b), encoding='utf-8', errors='surrogateescape')


def fmt(x):
    """Plain notation: a whole number's every digit, else the shortest
    digits that read back as x."""
    if x == int(x):
        return str(int(x))
    s = format(Decimal(repr(x)), 'f')
    return s.rstrip('0').rstrip('.') if '.' in s else s


def tidy(s):
    return ''.join(':' if ch == ';' else ' ' if ch in '\n\r\t\0' else ch for ch in s)


def expect(path, event=None, per_insn=False, root='counter', table=False):
    d = load(path)
    fns = d['functions']
    names = sorted(set(d.get('counters', {})) | {k for f in fns.values() for k in f.get('counters', {})},
                   key=lambda n: n.encode('utf-8', 'surrogateescape'))
    ev = event or ('cycles' if 'cycles' in names else names[0])
    if table:
        return table_of(fns, names, ev)
    r = {'counter': ev, 'none': None,
         'file': os.path.basename(path)[:-8] if path.endswith('.lntprof') and
         len(os.path.basename(path)) > 8 else os.path.basename(path)}[root]
    out = {}
    for name, f in fns.items():
        v = f.get('counters', {}).get(ev, 0)
        if v <= 0:
            continue
        stack = ([tidy(r)] if r is not None else []) + [tidy(name)]
        if not per_insn:
            out[';'.join(stack)] = v
            continue
        for c, addr, text in f.get('data', []):
            w = c.get(ev, 0)
            if w > 0:
                t = text.strip(' \t')
                frame = '0x%x' % addr + (' ' + t if t else '')
                out[';'.join(stack + [tidy(frame)])] = v * w / 100
    enc = lambda s: s.encode('utf-8', 'surrogateescape')
    return b''.join(enc(k) + b' ' + fmt(out[k]).encode() + b'\n' for k in sorted(out, key=enc))


def table_of(fns, names, ev):
    rows = sorted(fns.items(), key=lambda kv: (-kv[1]['counters'].get(ev, 0),
                                               kv[0].encode('utf-8', 'surrogateescape')))
    cols = [[fmt(f['counters'].get(n, 0.0)) for _, f in rows] for n in names]
    width = [min(64, max([len(n)] + [len(v) for v in col])) for n, col in zip(names, cols)]
    lines = [''.join('%*s  ' % (w, n) for w, n in zip(width, names)) + 'function']
    for i, (name, _) in enumerate(rows):
        lines.append(''.join('%*s  ' % (w, col[i]) for w, col in zip(width, cols)) +
                     ''.join(' ' if ch in '\n\r\t\0' else ch for ch in name))
    return ('\n'.join(lines) + '\n').encode('utf-8', 'surrogateescape')


# ---------------------------------------------------------- corruption


def v2_parts(b):
    c = Cur(b)
    c.num()
    ents = []
    for i in range(8):
        off, size = c.num(), c.num()
        pool = c.str() if i == 6 else None
        ents.append([off, size, pool])
    return ents, b[c.pos:]


def v2_join(ents, body):
    head = bytearray(uleb(2))
    for off, size, pool in ents:
        head += uleb(off) + uleb(size) + (pool.encode() + b'\n' if pool is not None else b'')
    return bytes(head) + body


def corrupt(how, src):
    with open(src, 'rb') as f:
        b = f.read()
    if how == 'truncate':
        return b[:len(b) // 2]
    if how == 'flip':
        m = len(b) // 2
        return b[:m] + bytes([b[m] ^ 0x55]) + b[m + 1:]
    if how == 'deep':
        return zlib.compress(b'(' * 200 + b'd.')
    if how == 'opcode':
        return zlib.compress(b"cos\nsystem\n(S'echo owned'\ntR.")
    if how == 'notdict':
        return zlib.compress(pickle.dumps([1, 2, 3], protocol=0))
    if how == 'shared':
        data = [[{'cycles': 1.0}, i, 'x'] for i in range(2000)]
        d = {'counters': {'cycles': 1.0},
             'functions': {'f%d' % i: {'counters': {'cycles': 1.0}, 'data': data} for i in range(2000)}}
        return zlib.compress(pickle.dumps(d, protocol=0))
    if how == 'junk-entries':
        d = kind('basic')
        d['functions']['bad'] = [1, 2]
        d['functions']['main']['data'].append(['not', 'an', 'entry'])
        d['functions']['work']['counters']['cycles'] = 'lots'
        return zlib.compress(pickle.dumps(d, protocol=0))
    ents, body = v2_parts(b)
    if how == 'v2-size':
        ents[7][1] += 1000
    elif how == 'v2-pool-file':
        ents[6][2] = 'pool.txt'
    elif how == 'v2-bz2':
        off, size = ents[4][0], ents[4][1]
        m = off + size // 2
        body = body[:m] + bytes([body[m] ^ 0x55]) + body[m + 1:]
    elif how == 'v2-fn-length':
        # The first function's instruction count: after its name.
        ft = ents[7][0]
        c = Cur(body, ft)
        c.num()
        c.str()
        at = c.pos
        c.num()
        body = body[:at] + uleb(10 ** 6) + body[c.pos:]
        ents[7][1] += len(uleb(10 ** 6)) - (c.pos - at)
    elif how == 'v2-cut-functions':
        cut = ents[7][1] // 2
        body = body[:ents[7][0] + cut]
        ents[7][1] = cut
    else:
        raise SystemExit('unknown corruption ' + how)
    return v2_join(ents, body)


def main(argv):
    if argv[1] == 'make':
        make(argv[2], argv[3], argv[4])
    elif argv[1] == 'corrupt':
        with open(argv[4], 'wb') as f:
            f.write(corrupt(argv[2], argv[3]))
    elif argv[1] == 'expect':
        opts = {'event': None, 'per_insn': False, 'root': 'counter', 'table': False}
        i, path = 2, None
        while i < len(argv):
            a = argv[i]
            if a == '--event':
                opts['event'] = argv[i + 1]
                i += 1
            elif a == '--root':
                opts['root'] = argv[i + 1]
                i += 1
            elif a == '--per-instruction':
                opts['per_insn'] = True
            elif a == '--table':
                opts['table'] = True
            else:
                path = a
            i += 1
        sys.stdout.buffer.write(expect(path, **opts))
    else:
        raise SystemExit(__doc__)


if __name__ == '__main__':
    main(sys.argv)
