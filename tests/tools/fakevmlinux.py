#!/usr/bin/env python3
"""Writes the assembly of a stand-in vmlinux for the perf.data tests: the
running kernel's text symbols (from a kallsyms file) at their addresses,
each renamed "vmlinux_NAME" so a test can tell they came from this file,
in a .text section without file bytes.  _text keeps its name: perf and
flame relocate by it.  Prints the address .text starts at on stderr.
Usage: fakevmlinux.py KALLSYMS OUT.s"""
import sys


def main():
    syms = []
    with open(sys.argv[1]) as f:
        for line in f:
            parts = line.split()
            if len(parts) != 3 or parts[1] not in "tTwW":
                continue
            syms.append((int(parts[0], 16), parts[2]))
    text = min(a for a, n in syms if n == "_text")
    etext = max(a for a, n in syms if n == "_etext")
    seen = set()
    out = ['\t.section .text,"ax",@nobits', "\t.globl _text", "_text:"]
    at = text
    for addr, name in sorted(syms):
        if addr < text or addr >= etext or name in seen or name == "_text":
            continue
        if not all(c.isalnum() or c in "_." for c in name):
            continue
        seen.add(name)
        if addr > at:
            out.append("\t.skip %d" % (addr - at))
            at = addr
        out.append("\t.globl vmlinux_%s\n\t.type vmlinux_%s,@function\nvmlinux_%s:" % (name, name, name))
    out.append("\t.skip %d" % (etext - at))
    with open(sys.argv[2], "w") as f:
        f.write("\n".join(out) + "\n")
    sys.stderr.write("%x\n" % text)


main()
