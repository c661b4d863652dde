#!/usr/bin/env python3
"""normfolded.py FILE: the stacks of a folded file as the collapsers print
them -- summed by stack (integers exactly, fractions as doubles, in file
order), empty stacks dropped, sorted bytewise, counts printed as integers
or with 15 significant digits.  An independent model of the round trip
collapsed -> PerfView -> collapsed, written for the tests."""
import re
import sys

LINE = re.compile(rb'^(.*)[ \t\n\x0b\f\r]([0-9]+(?:\.[0-9]*)?)$', re.S)


def count(tok):
    if b'.' in tok and tok.split(b'.')[1].strip(b'0'):
        return 0, float(tok)
    return int(tok.split(b'.')[0]), 0.0


def main():
    ints, fracs, order = {}, {}, []
    with open(sys.argv[1], 'rb') as f:
        for raw in f.read().split(b'\n'):
            raw = raw[:-1] if raw.endswith(b'\r') else raw
            m = LINE.match(raw)
            if not m:
                continue
            stack, tok = m.group(1), m.group(2)
            if not stack:
                continue
            n, x = count(tok)
            if stack not in ints:
                ints[stack], fracs[stack] = 0, 0.0
                order.append(stack)
            if ints[stack] + n >= 1 << 64:
                fracs[stack] += float(n)
            else:
                ints[stack] += n
            fracs[stack] += x
    out = sys.stdout.buffer
    for s in sorted(order):
        if fracs[s] == 0:
            out.write(s + b' ' + str(ints[s]).encode() + b'\n')
        else:
            out.write(s + b' ' + (b'%.15g' % (ints[s] + fracs[s])) + b'\n')


main()
