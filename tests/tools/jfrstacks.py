#!/usr/bin/env python3
"""jfrstacks: the collapsed stacks of a JFR recording's jdk.ExecutionSample
events as the JDK's own `jfr` tool reads them, a second reading for the
tests: `jfr print --json` output on stdin, one "CLASS.METHOD;... COUNT" line
per distinct stack (root first, the class in its internal form) on stdout,
sorted bytewise."""
import json
import sys
from collections import Counter


def frame(f):
    m = f.get("method") or {}
    t = m.get("type") or {}
    cls = t.get("name") or "[unknown]"
    name = m.get("name") or "[unknown]"
    s = cls + "." + name
    return "".join(" " if ord(c) < 0x20 or c == "\x7f" else c for c in s.replace(";", ":"))


def main():
    doc = json.load(sys.stdin)
    out = Counter()
    for ev in doc["recording"]["events"]:
        if ev.get("type") != "jdk.ExecutionSample":
            continue
        st = (ev.get("values") or {}).get("stackTrace")
        if not st or not st.get("frames"):
            continue
        out[";".join(frame(f) for f in reversed(st["frames"]))] += 1
    for k in sorted(out, key=lambda s: s.encode()):
        print(k, out[k])


if __name__ == "__main__":
    main()
