#!/usr/bin/env python3
"""speedscope_check.py FILE [UNIT]: checks that FILE is a speedscope file
as speedscope's file-format spec (src/lib/file-format-spec.ts) defines
it: the $schema URL, shared.frames as objects with a string name (file a
string, line and col numbers, when given), profiles each sampled or
evented with a name, a unit of the spec's list and numeric start and end
values; a sampled profile's samples are lists of indices into the frames
and its weights numbers, one per sample; an evented profile's events are
O/C with a frame index and non-decreasing "at", balanced.  With UNIT,
every profile must have that unit.  Also what flame promises beyond the
spec: endValue - startValue is the sum of the weights.  Prints the first
problem and exits 1, or prints "ok N frames M samples"."""
import json
import sys

UNITS = {"none", "nanoseconds", "microseconds", "milliseconds", "seconds", "bytes"}


def num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def check_sampled(p, nframes):
    samples, weights = p.get("samples"), p.get("weights")
    assert isinstance(samples, list) and isinstance(weights, list), "samples and weights must be lists"
    assert len(samples) == len(weights), "one weight per sample"
    for s in samples:
        assert isinstance(s, list) and s, "a sample is a non-empty list"
        assert all(isinstance(i, int) and 0 <= i < nframes for i in s), "sample names a frame not there: %r" % s
    assert all(num(w) and w >= 0 for w in weights), "weights are non-negative numbers"
    assert abs((p["endValue"] - p["startValue"]) - sum(weights)) <= 1e-9 * max(1, sum(weights)), \
        "endValue - startValue is not the weights' sum"
    return len(samples)


def check_evented(p, nframes):
    events, stack, last = p.get("events"), [], None
    assert isinstance(events, list), "events must be a list"
    for e in events:
        assert e.get("type") in ("O", "C") and num(e.get("at")), "bad event %r" % e
        assert isinstance(e.get("frame"), int) and 0 <= e["frame"] < nframes, "event names no frame"
        assert last is None or e["at"] >= last, "events out of order"
        last = e["at"]
        if e["type"] == "O":
            stack.append(e["frame"])
        else:
            assert stack and stack.pop() == e["frame"], "unbalanced close"
    assert not stack, "frames left open"
    return len(events)


def main():
    doc = json.load(open(sys.argv[1], encoding="utf-8"))
    unit = sys.argv[2] if len(sys.argv) > 2 else None
    assert doc.get("$schema") == "https://www.speedscope.app/file-format-schema.json", "no $schema"
    frames = doc["shared"]["frames"]
    for f in frames:
        assert isinstance(f.get("name"), str), "a frame without a name"
        assert "file" not in f or isinstance(f["file"], str)
        assert all(k not in f or num(f[k]) for k in ("line", "col"))
    profiles, n = doc["profiles"], 0
    assert isinstance(profiles, list) and profiles, "no profiles"
    for p in profiles:
        assert p.get("type") in ("sampled", "evented"), "bad type"
        assert isinstance(p.get("name"), str), "a profile without a name"
        assert p.get("unit") in UNITS, "unit %r not in the spec" % p.get("unit")
        assert unit is None or p["unit"] == unit, "unit %r, wanted %r" % (p["unit"], unit)
        assert num(p.get("startValue")) and num(p.get("endValue")), "start and end values"
        assert p["endValue"] >= p["startValue"]
        n += check_sampled(p, len(frames)) if p["type"] == "sampled" else check_evented(p, len(frames))
    if "activeProfileIndex" in doc:
        assert 0 <= doc["activeProfileIndex"] < len(profiles)
    print("ok %d frames %d samples" % (len(frames), n))


if __name__ == "__main__":
    try:
        main()
    except (AssertionError, KeyError, TypeError, ValueError) as e:
        print("not a speedscope file: %s" % e)
        sys.exit(1)
