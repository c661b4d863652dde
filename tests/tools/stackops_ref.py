#!/usr/bin/env python3
"""A reference for the stack operators, for tests/stackops.sh.

Applies the operators, as man/stackfilter.1 states them, to collapsed
text one stack at a time, with Python's re (so keep the tests' patterns
to what POSIX ERE and Python agree on).  It is deliberately the slow,
obvious way: lists of frame names, no ids, no caching.

    stackops_ref.py [--OP ARG]... < in.folded > out.folded

Writes the stacks sorted bytewise, and what the filters drop on stderr
as "--OP 'ARG' dropped N of M samples" (no thousands separators).
Counts are summed exactly (fractions)."""
import os
from fractions import Fraction
import re
import sys


def read(stream):
    stacks = {}
    for raw in stream.buffer.read().split(b'\n'):
        line = raw.decode('latin-1')
        m = re.match(r'^(.*)\s(\d+(?:\.\d*)?)$', line)
        if m:
            stacks[m.group(1)] = stacks.get(m.group(1), 0) + Fraction(m.group(2))
    return [(s.split(';') if s else [], c) for s, c in stacks.items()]


def num(c):
    """A count as the tools write one: whole, or 15 significant digits."""
    return '%d' % c if c.denominator == 1 else '%.15g' % float(c)


def substitute(name, m):
    return re.sub(r'\$(\d|\$)', lambda r: '$' if r.group(1) == '$' else (m.group(int(r.group(1))) or ''), name)


def group(stacks, rules):
    out = []
    for frames, c in stacks:
        new, last = [], None
        for f in frames:
            key, shown = None, f
            for pat, name, entry in rules:
                m = re.search(pat, f)
                if m:
                    if name:
                        key = (substitute(name, m), entry)
                        shown = key[0] + (' <<' + f + '>>' if entry else '')
                    break
            if key is not None and key == last:
                continue
            last = key
            new.append(shown)
        out.append((new, c))
    return out


def fold(stacks, folded):
    out = []
    for frames, c in stacks:
        kept = [f for f in frames if not folded(f)]
        out.append((kept if kept or not frames else frames[:1], c))
    return out


def fold_pct(stacks, pct):
    total = sum(c for _, c in stacks)
    inc = {}
    for frames, c in stacks:
        for f in set(frames):
            inc[f] = inc.get(f, 0) + c
    return fold(stacks, lambda f: inc[f] < total * pct / 100)


def first(frames, pat, last=False):
    idx = [i for i, f in enumerate(frames) if re.search(pat, f)]
    return None if not idx else idx[-1] if last else idx[0]


def filt(stacks, op, pat):
    out = []
    for frames, c in stacks:
        i = first(frames, pat, op == 'callees')
        if op == 'include' and i is not None or op == 'exclude' and i is None:
            out.append((frames, c))
        elif op in ('focus', 'callees') and i is not None:
            out.append((frames[i:], c))
        elif op == 'callers' and i is not None:
            out.append((frames[:i + 1][::-1], c))
    total = sum(c for _, c in stacks)
    kept = sum(c for _, c in out)
    sys.stderr.write("--%s '%s' dropped %s of %s samples\n" % (op, pat, num(total - kept), num(total)))
    return out


def main(argv):
    stacks = read(sys.stdin)
    ops = [(argv[i][2:], argv[i + 1]) for i in range(0, len(argv), 2)]
    i = 0
    while i < len(ops):
        op, arg = ops[i]
        if op == 'group':
            rules = []
            while i < len(ops) and ops[i][0] == 'group':
                a = ops[i][1]
                at = max(a.rfind('->'), a.rfind('=>'))
                rules.append((a[:at], a[at + 2:], a[at] == '='))
                i += 1
            stacks = group(stacks, rules)
            continue
        if op == 'fold':
            stacks = fold(stacks, lambda f, p=arg: re.search(p, f) is not None)
        elif op == 'fold-pct':
            stacks = fold_pct(stacks, float(arg))
        else:
            stacks = filt(stacks, op, arg)
        i += 1
    merged = {}
    for frames, c in stacks:
        s = ';'.join(frames)
        merged[s] = merged.get(s, 0) + c
    out = sys.stdout.buffer
    for s in sorted(merged, key=lambda k: k.encode('latin-1')):
        out.write(('%s %s\n' % (s, num(merged[s]))).encode('latin-1'))


if __name__ == '__main__':
    main([os.fsencode(a).decode('latin-1') for a in sys.argv[1:]])
