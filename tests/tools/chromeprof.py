#!/usr/bin/env python3
"""chromeprof.py TRACE: the collapsed stacks of a trace's sampled
profiles, worked out here on our own from the format, to check flame's
trace reader against.

A sampled profile is the "ProfileChunk" events of one pid and id (or a
Chrome 65-66 "CpuProfile" event, by pid and tid): each chunk brings
args.data.cpuProfile.nodes (id, callFrame, parent or children) and
.samples (node ids), and args.data.timeDeltas (microseconds, one per
sample; a chunk with fewer adds zeros).  The rules flame documents:
a sample weighs the time to the next sample of its profile (times never
go back: a negative delta holds the clock), the last weighs nothing; a
stack runs from the node up to, not including, the first (root) or
(idle) node; a frame is the functionName, else "(anonymous FILE:LINE)"
(FILE: the url's last path part, LINE: lineNumber + 1), else
"(anonymous)"; ';' becomes ':' and line ends spaces.  Prints
"stack weight" lines sorted bytewise, stacks of no weight left out."""
import json
import sys


def tidy(s):
    return s.replace(";", ":").replace("\n", " ").replace("\r", " ")


def frame(cf):
    fn = cf.get("functionName") or ""
    if fn:
        return tidy(fn)
    url = cf.get("url") or ""
    if url:
        line = cf.get("lineNumber", -1)
        line = int(line) if isinstance(line, (int, float)) else -1
        return tidy("(anonymous %s:%d)" % (url.rsplit("/", 1)[-1], line + 1))
    return "(anonymous)"


def profiles(events):
    profs, order = {}, []
    for e in events:
        if not isinstance(e, dict) or e.get("name") not in ("ProfileChunk", "CpuProfile"):
            continue
        data = (e.get("args") or {}).get("data") or {}
        cp = data.get("cpuProfile") or {}
        if "id" in e:
            key = "%s/%s" % (e.get("pid"), e["id"])
        else:
            key = "%s/tid %s" % (e.get("pid"), e.get("tid"))
        nodes = cp.get("nodes") or []
        samples = cp.get("samples") or []
        deltas = data.get("timeDeltas", cp.get("timeDeltas")) or []
        if not nodes and not samples:
            continue
        if key not in profs:
            profs[key] = {"nodes": [], "samples": [], "deltas": []}
            order.append(key)
        p = profs[key]
        p["nodes"] += nodes
        p["samples"] += samples
        p["deltas"] += [deltas[i] if i < len(deltas) else 0 for i in range(len(samples))]
    return [profs[k] for k in order]


def stacks(p, out):
    byid, parent = {}, {}
    for n in p["nodes"]:
        byid.setdefault(n["id"], n)
    for n in p["nodes"]:
        if "parent" in n:
            parent[n["id"]] = n["parent"]
    for n in p["nodes"]:
        for c in n.get("children") or []:
            if c != n["id"]:
                parent[c] = n["id"]
    clock, times = 0, []
    for i, d in enumerate(p["deltas"]):
        raw = d if i == 0 else raw + d
        clock = raw if i == 0 else max(clock, raw)
        times.append(clock)
    for i, s in enumerate(p["samples"]):
        w = times[i + 1] - times[i] if i + 1 < len(times) else 0
        if s not in byid or w == 0:
            continue
        names, x, seen = [], s, set()
        while x in byid and x not in seen:
            cf = byid[x].get("callFrame") or {}
            if cf.get("functionName") in ("(root)", "(idle)"):
                break
            seen.add(x)
            names.append(frame(cf))
            x = parent.get(x)
        if names:
            st = ";".join(reversed(names))
            out[st] = out.get(st, 0) + w


def main():
    doc = json.load(open(sys.argv[1], encoding="utf-8"))
    events = doc.get("traceEvents", []) if isinstance(doc, dict) else doc
    out = {}
    for p in profiles(events):
        stacks(p, out)
    for st in sorted(out, key=lambda s: s.encode()):
        print("%s %d" % (st, out[st]))


main()
