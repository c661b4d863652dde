#!/usr/bin/env python3
"""Checks of the LNT profiles `flame --to lnt` writes from perf.data,
against references that do not share its code.

  lntperf.py expect PROFILE WANT     WANT holds lines 'total EVENT N',
                                     'fn NAME EVENT PCT', 'insn NAME ADDR
                                     EVENT PCT': exactly those totals and
                                     functions, those counters (to float32
                                     precision), every other instruction 0
  lntperf.py own PROFILE SCRIPT BIN  SCRIPT is `perf script -F
                                     event,ip,sym,symoff,dso,period`: the
                                     totals, BIN's functions over 0.5% and
                                     their instructions' shares as perf
                                     resolves the samples, and the text of
                                     each instruction as objdump prints it

The profile is read with lntprof.py's reader (Python's bz2, LNT's v2
layout followed afresh).  Prints what differs; exit 1 when anything does.
"""
import collections
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lntprof  # noqa: E402

bad = []


def close(a, b):
    return abs(a - b) <= 1e-5 * max(1.0, abs(b))


def expect(prof, want):
    d = lntprof.load(prof)
    fns = d['functions']
    seen = set()
    counted = set()
    for line in open(want):
        w = line.split()
        if not w:
            continue
        if w[0] == 'total':
            if d['counters'].get(w[1]) != float(w[2]):
                bad.append('total %s: %s, want %s' % (w[1], d['counters'].get(w[1]), w[2]))
        elif w[0] == 'fn':
            seen.add(w[1])
            got = fns.get(w[1], {}).get('counters', {}).get(w[2])
            if got is None or not close(got, float(w[3])):
                bad.append('%s %s: %s, want %s' % (w[1], w[2], got, w[3]))
        elif w[0] == 'insn':
            addr = int(w[2], 0)
            counted.add((w[1], addr, w[3]))
            got = [c.get(w[3]) for c, a, _ in fns.get(w[1], {}).get('data', []) if a == addr]
            if len(got) != 1 or got[0] is None or not close(got[0], float(w[4])):
                bad.append('%s at %#x %s: %s, want %s' % (w[1], addr, w[3], got, w[4]))
    if set(fns) != seen:
        bad.append('functions %s, want %s' % (sorted(fns), sorted(seen)))
    for name in seen & set(fns):
        for c, a, _ in fns[name]['data']:
            for ev, v in c.items():
                if v and (name, a, ev) not in counted:
                    bad.append('%s at %#x %s: %s, want 0' % (name, a, ev, v))


def perf_samples(script):
    """(event, dso) -> periods, (event, dso, sym) -> periods,
    (event, dso, sym, off) -> periods."""
    tot, fn, ins = collections.Counter(), collections.Counter(), collections.Counter()
    pat = re.compile(r'^\s*(\d+)\s+(\S+):\s+([0-9a-f]+)\s+(.*?)\s+\((.*)\)\s*$')
    for line in open(script, errors='surrogateescape'):
        m = pat.match(line)
        if not m:
            continue
        period, ev, sym, dso = int(m.group(1)), m.group(2), m.group(4), m.group(5)
        tot[ev, dso] += period
        sm = re.match(r'^(.*)\+0x([0-9a-f]+)$', sym)
        if sm:
            fn[ev, dso, sm.group(1)] += period
            ins[ev, dso, sm.group(1), int(sm.group(2), 16)] += period
    return tot, fn, ins


def objdump_functions(binary):
    """name -> (start, [(addr, text)]) for the functions in .text."""
    syms = {}
    for line in subprocess.run(['objdump', '-t', '-C', binary], capture_output=True,
                               text=True).stdout.splitlines():
        m = re.match(r'^([0-9a-f]+) (.{7}) \.text\t([0-9a-f]+)\s+(.*)$', line)
        if m and m.group(2)[6] == 'F':
            syms[m.group(4)] = (int(m.group(1), 16), int(m.group(3), 16))
    out = {}
    for name, (start, size) in syms.items():
        if not size:
            continue
        dis = subprocess.run(['objdump', '-d', '--no-show-raw-insn', '--start-address=%#x' % start,
                              '--stop-address=%#x' % (start + size), binary],
                             capture_output=True, text=True).stdout
        lines = []
        for line in dis.splitlines():
            m = re.match(r'^\s*([0-9a-f]+):(.+)$', line)
            if m:
                lines.append((int(m.group(1), 16), m.group(2)))
        out[name] = (start, lines)
    return out


def own(prof, script, binary):
    d = lntprof.load(prof)
    tot, fn, ins = perf_samples(script)
    events = {ev for ev, _ in tot}
    total = {ev: sum(v for (e, dso), v in tot.items() if e == ev and dso != '[unknown]') for ev in events}
    for ev in events:
        if d['counters'].get(ev) != float(total[ev]):
            bad.append('total %s: %s, want %s' % (ev, d['counters'].get(ev), total[ev]))
    dis = objdump_functions(binary)
    dso = os.path.realpath(binary)
    want = {name for (ev, ds, name), v in fn.items()
            if ds == dso and name in dis and v / total[ev] > 0.005}
    fns = d['functions']
    if not want:
        bad.append('no function of %s over 0.5%% in the perf script output' % dso)
    for name in want:
        if name not in fns:
            bad.append('%s: missing' % name)
            continue
        f = fns[name]
        start, lines = dis[name]
        got = [(a, t) for _, a, t in f['data']]
        if got != lines:
            bad.append('%s: instructions %s, objdump says %s' % (name, got[:3], lines[:3]))
        for ev in events:
            s = fn[ev, dso, name]
            if not close(f['counters'].get(ev, 0), 100.0 * s / total[ev]):
                bad.append('%s %s: %s, want %s' % (name, ev, f['counters'].get(ev), 100.0 * s / total[ev]))
            for c, a, _ in f['data']:
                w = 100.0 * ins[ev, dso, name, a - start] / s if s else 0
                if not close(c.get(ev, 0), w):
                    bad.append('%s at %#x %s: %s, want %s' % (name, a, ev, c.get(ev, 0), w))


def main(argv):
    if len(argv) == 4 and argv[1] == 'expect':
        expect(argv[2], argv[3])
    elif len(argv) == 5 and argv[1] == 'own':
        own(argv[2], argv[3], argv[4])
    else:
        raise SystemExit(__doc__)
    for b in bad[:20]:
        print(b)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
