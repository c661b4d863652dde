#!/usr/bin/env python3
"""speedscope_snap.py SNAP DIR FLAME [NAME...]: compares the stacks flame
reads from speedscope's test inputs with what speedscope's own importer
made of them (its jest snapshot: a "stacks" list per test, each line
"frame;frame weight" with the weight printed in ms, us or none).

The stacks of each test are summed per stack (speedscope lists them in
time order, flame merges them), and compared with a tolerance for the
two decimals speedscope prints.  A test's input is found by the
profileGroup.name the snapshot records; shared samples may carry a
prefix ("chrome-65-simple.cpuprofile" for "simple.cpuprofile"), and the
"Chrome NN"/"Node NN" of the test name picks among several.

Prints "SAME name file" or "DIFF name file" per test it could run, with
both sides after a DIFF; with NAMEs, only tests whose file is one of
them.  Exits 1 when any DIFF was printed."""
import collections
import os
import re
import subprocess
import sys

UNITS = {"µs": 1.0, "ms": 1000.0, "s": 1e6, "ns": 0.001, "": 1.0}


def snapshot(path):
    text = open(path, encoding="utf-8").read()
    names = dict(re.findall(r'exports\[`([^`]*?): profileGroup\.name 1`\] = `"([^"]*)"`', text))
    tests = collections.defaultdict(collections.Counter)
    for name, _idx, body in re.findall(r'exports\[`([^`]*?) (\d+)`\] = `\n(.*?)\n`;', text, re.S):
        m = re.search(r'"stacks": \[\n(.*?)\n  \]', body, re.S)
        if not m:
            continue
        for line in m.group(1).split("\n"):
            line = line.strip().rstrip(",")[1:-1]
            stack, val = line.rsplit(" ", 1)
            v = re.match(r"([\d.]+)(µs|ms|s|ns)?$", val)
            if v and stack.strip():
                tests[name][stack] += float(v.group(1)) * UNITS[v.group(2) or ""]
    return names, tests


def find(d, f, name):
    cands = [x for x in os.listdir(d) if x == f or x.endswith("-" + f)]
    ver = re.search(r"(?:Chrome|Node) (\d+)", name)
    if len(cands) > 1 and ver:
        cands = [x for x in cands if re.search(r"-%s[.-]" % ver.group(1), x)]
    return os.path.join(d, cands[0]) if len(cands) == 1 else None


def flame_stacks(flame, path):
    out = subprocess.run([flame, "--to", "collapsed", path, "-o", "-"],
                         capture_output=True, text=True).stdout
    got = collections.Counter()
    for line in out.splitlines():
        stack, v = line.rsplit(" ", 1)
        got[stack] += float(v)
    return got


def main():
    snap, d, flame = sys.argv[1:4]
    only = set(sys.argv[4:])
    names, tests = snapshot(snap)
    bad = 0
    for name in sorted(tests):
        want = tests[name]
        path = find(d, names[name], name) if name in names else None
        if not path or (only and os.path.basename(path) not in only):
            continue
        got = flame_stacks(flame, path)
        same = set(got) == set(want) and all(
            abs(got[k] - want[k]) <= max(0.0051 * want[k], 0.011) for k in want)
        print("%s %s %s" % ("SAME" if same else "DIFF", name, os.path.basename(path)))
        if not same:
            bad = 1
            print("  speedscope", dict(want))
            print("  flame     ", dict(got))
    return bad


if __name__ == "__main__":
    sys.exit(main())
