#!/usr/bin/env python3
"""pprof test profiles, written by hand in the protobuf wire format, and
what flame must make of them, worked out here on our own.

  pprofgen.py make KIND OUT [--gzip]     write a profile of KIND
  pprofgen.py expect KIND [TYPE] [--labels]
                                         the collapsed stacks it must give
  pprofgen.py big OUT MB [--gzip] [--stacks N]
                                         a big varied profile (benchmarks;
                                         N distinct stacks, default 100000)
  pprofgen.py raw [TYPE_INDEX]           `go tool pprof -raw` text on stdin
                                         to collapsed stacks (flame's naming)
  pprofgen.py bad OUTDIR                 malformed profiles, one per file,
                                         and OUTDIR/WANT: file, byte offset
  pprofgen.py collide OUT N HEADER       N distinct 32-byte location keys
                                         that pprof_kset's short-key hash
                                         (its constants read from HEADER)
                                         gives one value

A profile is described as a dict (types, samples of (location ids leaf
first, values, labels), locations of (mapping, address, function ids
innermost first), functions, mappings); expect() turns that same dict
into stacks with the rules flame documents, without reading the bytes.
"""
import gzip
import random
import re
import sys


def varint(n):
    n &= (1 << 64) - 1
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def f_int(num, v):
    return varint(num << 3) + varint(v)


def f_bytes(num, b):
    return varint(num << 3 | 2) + varint(len(b)) + b


def packed(num, vals):
    return f_bytes(num, b"".join(varint(v) for v in vals))


class Strings:
    def __init__(self):
        self.tab, self.ix = [""], {"": 0}

    def __call__(self, s):
        if s not in self.ix:
            self.ix[s] = len(self.tab)
            self.tab.append(s)
        return self.ix[s]


def encode(p, order="go", unpacked=False):
    """p: the profile dict.  order 'go': fields as Go writes them
    (scalars first); 'shuffle': any order."""
    st = Strings()
    parts = []
    for t, u in p["types"]:
        parts.append(f_bytes(1, f_int(1, st(t)) + f_int(2, st(u))))
    for locs, vals, labels in p["samples"]:
        b = b""
        if unpacked:
            b += b"".join(f_int(1, x) for x in locs) + b"".join(f_int(2, v) for v in vals)
        else:
            b += packed(1, locs) + packed(2, vals)
        for k, v in labels:
            if isinstance(v, str):
                b += f_bytes(3, f_int(1, st(k)) + f_int(2, st(v)))
            else:
                num, unit = v
                b += f_bytes(3, f_int(1, st(k)) + f_int(3, num) + (f_int(4, st(unit)) if unit else b""))
        parts.append(f_bytes(2, b))
    for mid, fname in p.get("mappings", []):
        parts.append(f_bytes(3, f_int(1, mid) + f_int(2, 0x400000) + f_int(5, st(fname))))
    for lid, (mid, addr, fns) in sorted(p["locations"].items()):
        b = f_int(1, lid) + (f_int(2, mid) if mid else b"") + f_int(3, addr)
        for fid in fns:
            b += f_bytes(4, f_int(1, fid) + f_int(2, 7))
        parts.append(f_bytes(4, b))
    for fid, (name, sysname) in sorted(p["functions"].items()):
        parts.append(f_bytes(5, f_int(1, fid) + f_int(2, st(name)) + f_int(3, st(sysname))
                             + f_int(4, st("x.go"))))
    if p.get("default"):
        parts.append(f_int(14, st(p["default"])))
    parts.append(f_int(9, 1500000000))
    strs = b"".join(f_bytes(6, s.encode()) for s in st.tab)
    if order == "shuffle":
        parts.append(strs)
        random.Random(7).shuffle(parts)
        return b"".join(parts)
    return parts[-1] + b"".join(parts[:-1]) + strs


def kinds():
    funcs = {1: ("main", "main"), 2: ("work", "_Z4workv"), 3: ("inl;ined", "inl"),
             4: ("", "sys_only"), 5: ("leaf\tx", "leaf"), 6: ("caller", "caller")}
    locs = {1: (0, 0x1000, [6]), 2: (1, 0x1010, [2]), 3: (0, 0x1020, [5, 3]),
            4: (2, 0x2000, []), 5: (0, 0xdead, []), 6: (0, 0x1030, [4]), 7: (0, 0x1040, [1])}
    maps = [(1, "/usr/bin/app"), (2, "/lib/libc.so.6")]
    samples = [
        ([3, 2, 7], [5, 500], [("thread", "w1"), ("bytes", (64, "bytes"))]),
        ([2, 7], [3, 300], [("thread", "main")]),
        ([4, 1, 7], [1, 100], []),
        ([5, 7], [1, 50], []),
        ([6, 7], [0, 0], []),
        ([6, 7], [2, 200], [("a", "x")]),
        ([3, 2, 7], [1, 100], [("thread", "w2")]),
        ([2, 7], [4, -5], []),
    ]
    base = {"types": [("samples", "count"), ("cpu", "nanoseconds")], "samples": samples,
            "locations": locs, "functions": funcs, "mappings": maps}
    out = {"basic": dict(base), "shuffled": dict(base), "unpacked": dict(base),
           "default": dict(base, default="samples")}
    out["heap"] = dict(base, types=[("alloc_objects", "count"), ("alloc_space", "bytes")])
    out["notypes"] = dict(base, types=[])
    out["baddefault"] = dict(base, default="nope")
    # Values at the edge of int64: a sum past it, and -1 (ten bytes).
    out["huge"] = dict(base, types=[("samples", "count")],
                       samples=[([2, 7], [2**63 - 1], []), ([2, 7], [3], []), ([1, 7], [-1], []),
                                ([3, 2, 7], [2**62], [])])
    # One stack of 2^63 - 1: three inputs of it sum past 2^64, which the
    # table keeps in floating point.
    out["wrap"] = dict(base, types=[("samples", "count")], samples=[([2, 7], [2**63 - 1], [])])
    # Stacks of 143 locations: keys past the 128 bytes pprof_kset reads as
    # one, two of them alike but in the middle.
    deep = [3, 2] + [1, 2] * 70 + [7]
    deep2 = deep[:72] + [2, 1] + deep[74:]
    out["deep"] = dict(base, samples=[(deep, [2, 200], []), (deep2, [1, 100], []),
                                      (deep, [4, 400], []), ([2, 7], [3, 300], [])])
    # Samples past 16 KB (a length of three bytes): 16,400 locations.
    longs = [3] + [1, 2] * 8200 + [7]
    out["long"] = dict(base, samples=[(longs, [2, 200], []), ([2, 7], [3, 300], []),
                                      (longs, [1, 100], [])])
    # Location ids of every varint length from one byte to nine (2^62),
    # read as packed keys: each id's bytes, not a loop over them, up to
    # eight; the nine-byte ones go the long way.
    ids = [5, 300, 70000, 2**22 + 9, 2**29 + 1, 2**36 + 3, 2**43 + 5, 2**50 + 7, 2**57 + 1,
           2**62 + 11]
    bfuncs = {i + 1: ("f%d" % i, "f%d" % i) for i in range(len(ids))}
    blocs = {lid: (0, 0x1000 + 16 * i, [i + 1]) for i, lid in enumerate(ids)}
    brnd = random.Random(11)
    bsamples = [([brnd.choice(ids) for _ in range(brnd.randrange(1, 12))],
                 [brnd.randrange(1, 9), brnd.randrange(1, 2**40)], []) for _ in range(400)]
    out["bigids"] = dict(base, samples=bsamples, locations=blocs, functions=bfuncs, mappings=[])
    # Two values of every length from one byte to nine, in every pair:
    # up to 8 bytes in all read by pext (the x86-64-v3 loop), up to 5
    # each by value5, the others the long way.  None negative (that
    # profile is read another way) and each stack's sums below 2^64:
    # every sample is read by pprof_fast.
    vs = [0, 0x7F, 0x80, 2**14 - 1, 2**14, 2**21, 2**28 + 1, 2**35 - 1, 2**35, 2**42 + 3,
          2**49, 2**56 + 5]
    vsamples = [([1 + i % 3, 7], [a, b], []) for i, (a, b) in
                enumerate((a, b) for a in vs for b in vs)]
    out["values"] = dict(base, samples=vsamples)
    # Samples of the usual shape (pprof_lane's lane_usual: lengths of one
    # byte, two values of 8 bytes at most) with others among them, far
    # enough from the end that the fast loop reads them: samples of 124
    # to 131 bytes (a length of two bytes from 128 on), labels,
    # values of 9 and 11 bytes, a zero; then a sum of the first value
    # type passing 2^64 (three of 2^63 - 1), which sends the profile to
    # pprof_stack while the sums of the second stay exact.
    urnd = random.Random(5)
    short = [([urnd.choice([1, 2, 6]), 7], [urnd.randrange(1, 9), urnd.randrange(1, 999)], [])
             for _ in range(300)]
    odd = [([2] * n + [7], [1, n - 100], []) for n in range(117, 125)]
    odd += [([1, 7], [2, 20], [("thread", "u")]), ([2, 7], [2**35, 2**14], []),
            ([6, 7], [2**40, 2**30], []), ([2, 7], [0, 0], []), ([1, 7], [3, 0], [])]
    usual = short[:40] + odd + short[40:80] + odd + short[80:]
    out["usual"] = dict(base, samples=usual)
    wrap2 = [([2, 7], [2**63 - 1, 7], [])] * 3
    out["usualwrap"] = dict(base, samples=short[:30] + wrap2 + short[30:])
    # Locations of one to six lines (inlined frames): a location's record
    # holds three frames, more go to a pool (pprof_build).  Read with
    # every location built first, and (with many locations no sample
    # names) each built as a key first names it.
    ilocs = dict(locs)
    chain = [2, 5, 3, 6, 4, 1]
    for n in range(1, 7):
        ilocs[10 + n] = (0, 0x3000 + 16 * n, chain[:n])
    irnd = random.Random(3)
    isamples = [([irnd.randrange(11, 17) for _ in range(irnd.randrange(1, 4))] + [7],
                 [irnd.randrange(1, 9), irnd.randrange(1, 999)], []) for _ in range(200)]
    out["inlined"] = dict(base, samples=isamples, locations=ilocs)
    lazylocs = dict(ilocs)
    for n in range(100, 2100):
        lazylocs[n] = (0, 0x8000 + 16 * n, [n % 6 + 1])
    out["inlinedlazy"] = dict(base, samples=isamples[:20], locations=lazylocs)
    # Names that begin one another, going on with bytes below and above
    # ';' (and a ';' tidied to ':'): bytewise order puts "a b;x" before
    # "a;x" before "a<;x", so a stack's order is not its names' order.
    pre = ["a", "a.", "a.b", "a!", "a:", "a<", "ab", "a.;", "b", "a.b.c", "a\x01", "\xc3\xa9"]
    pfuncs = {i + 1: (n, n) for i, n in enumerate(pre)}
    plocs = {i + 1: (0, 0x1000 + 16 * i, [i + 1]) for i in range(len(pre))}
    prnd = random.Random(7)
    psamples = [([prnd.randrange(1, len(pre) + 1) for _ in range(prnd.randrange(1, 5))],
                 [prnd.randrange(1, 9)], []) for _ in range(300)]
    out["prefixes"] = {"types": [("samples", "count")], "samples": psamples,
                       "locations": plocs, "functions": pfuncs, "mappings": []}
    return out


def tidy(s):
    return s.replace(";", ":").replace("\n", " ").replace("\r", " ").replace("\t", " ")


def loc_frames(p, lid):
    mid, addr, fns = p["locations"][lid]
    maps = dict(p.get("mappings", []))

    def where():
        if mid in maps and maps[mid]:
            return "[" + tidy(maps[mid].rsplit("/", 1)[-1]) + "]"
        return "0x%x" % addr
    out = []
    for fid in reversed(fns):
        if fid in p["functions"]:
            name, sysname = p["functions"][fid]
            out.append(tidy(name or sysname))
        else:
            out.append(where())
    return out or [where()]


def expect(p, tname=None, labels=False):
    names = [t for t, _ in p["types"]]
    if tname is None:
        tname = p.get("default") if p.get("default") in names else (names[-1] if names else None)
    vi = names.index(tname) if names else -1
    total = {}
    for locs, vals, labs in p["samples"]:
        v = vals[vi]
        if v <= 0:
            continue
        frames = []
        if labels:
            for k, x in sorted(labs, key=lambda kv: kv[0].encode()):
                if isinstance(x, str):
                    frames.append(tidy(k + ":" + x))
                else:
                    frames.append(tidy(k + ":" + str(x[0]) + (" " + x[1] if x[1] else "")))
        for lid in reversed(locs):
            frames += loc_frames(p, lid)
        s = ";".join(frames)
        total[s] = total.get(s, 0) + v
    return "".join("%s %d\n" % (s, total[s]) for s in sorted(total, key=lambda s: s.encode()))


def big(path, mb, gz, nstacks=100000):
    """About mb MB of profile: 20000 functions, 60000 locations (a fifth
    of them with inlined frames), nstacks (100000) distinct stacks of 5-40
    locations grown from 5000 call paths, and samples drawn from them
    (the heavier stacks more often, as in a real profile), each with
    its own pair of values, as unaggregated profiles hold them."""
    rnd = random.Random(42)
    nf, nl = 20000, 60000
    st = Strings()
    head = f_bytes(1, f_int(1, st("samples")) + f_int(2, st("count")))
    head += f_bytes(1, f_int(1, st("cpu")) + f_int(2, st("nanoseconds")))
    paths = [[rnd.randrange(1, nl + 1) for _ in range(rnd.randrange(5, 40))] for _ in range(5000)]
    pool = []
    for _ in range(nstacks):
        pth = rnd.choice(paths)
        leaf = pth[:rnd.randrange(2, len(pth) + 1)] + [rnd.randrange(1, nl + 1)]
        pool.append(packed(1, list(reversed(leaf))))
    body = []
    size, target = 0, mb << 20
    while size < target * 0.97:
        n = rnd.randrange(1, 20)
        b = f_bytes(2, pool[int(len(pool) * rnd.random() ** 2)] + packed(2, [n, n * 10000000]))
        body.append(b)
        size += len(b)
    tail = []
    for lid in range(1, nl + 1):
        fns = [rnd.randrange(1, nf + 1) for _ in range(1 if rnd.random() < 0.8 else 3)]
        b = f_int(1, lid) + f_int(3, 0x400000 + lid * 16)
        b += b"".join(f_bytes(4, f_int(1, fid) + f_int(2, 10)) for fid in fns)
        tail.append(f_bytes(4, b))
    for fid in range(1, nf + 1):
        name = "pkg%d/mod%d.(*Type%d).Method%d" % (fid % 97, fid % 13, fid, fid % 7)
        tail.append(f_bytes(5, f_int(1, fid) + f_int(2, st(name)) + f_int(3, st(name))))
    tail.append(b"".join(f_bytes(6, s.encode()) for s in st.tab))
    data = head + b"".join(body) + b"".join(tail)
    with open(path, "wb") as f:
        f.write(gzip.compress(data, 6) if gz else data)


def raw(vi):
    """`go tool pprof -raw` output to collapsed stacks."""
    text = sys.stdin.read().split("\n")
    sec, samples, locs, maps = None, [], {}, {}
    cur = None
    for line in text:
        if line in ("Samples:", "Locations", "Mappings"):
            sec = line
            continue
        if sec == "Samples:":
            m = re.match(r"^\s*([-\d ]+): ([\d ]*)$", line)
            if m:
                vals = [int(x) for x in m.group(1).split()]
                samples.append((vals, [int(x) for x in m.group(2).split()]))
        elif sec == "Locations":
            m = re.match(r"^\s*(\d+): (0x[0-9a-f]+) (?:M=(\d+) )?(.*)$", line)
            if m:
                cur = int(m.group(1))
                locs[cur] = (int(m.group(3) or 0), int(m.group(2), 16), [])
                rest = m.group(4)
            else:
                rest = line.strip()
            fm = re.match(r"^(.*) \S*:-?\d+ s=\d+$", rest)
            if fm and cur is not None:
                locs[cur][2].append(fm.group(1))
        elif sec == "Mappings":
            m = re.match(r"^(\d+): 0x[0-9a-f]+/0x[0-9a-f]+/0x[0-9a-f]+ ?(\S*)", line)
            if m:
                maps[int(m.group(1))] = m.group(2)
    total = {}
    for vals, ids in samples:
        v = vals[vi if vi >= 0 else len(vals) - 1]
        if v <= 0:
            continue
        frames = []
        for lid in reversed(ids):
            mid, addr, names = locs[lid]
            if names:
                frames += [tidy(n) for n in reversed(names)]
            elif maps.get(mid):
                frames.append("[" + tidy(maps[mid].rsplit("/", 1)[-1]) + "]")
            else:
                frames.append("0x%x" % addr)
        s = ";".join(frames)
        total[s] = total.get(s, 0) + v
    sys.stdout.write("".join("%s %d\n" % (s, total[s]) for s in sorted(total, key=lambda s: s.encode())))


def bad(outdir):
    """Malformed profiles: each is a good one cut or corrupted at a known
    byte, with the offset flame must name."""
    good = encode(kinds()["basic"])
    cases = {}
    # A varint that never ends: the input stops inside it.
    cases["endless-varint"] = (good + b"\x48" + b"\xff" * 9, len(good) + 1)
    # A varint of 11 bytes: more than 64 bits.
    cases["long-varint"] = (good + b"\x48" + b"\xff" * 10 + b"\x01", len(good) + 1)
    # A string longer than what is left.
    cases["long-string"] = (good + f_bytes(6, b"abc")[:-2] + b"\x00" * 0, len(good))
    # A huge length, past any input.
    cases["huge-length"] = (good + b"\x32" + varint(1 << 62), len(good))
    # Wire type 3 (a group).
    cases["group"] = (good + b"\x0b", len(good))
    # Field number 0.
    cases["field-zero"] = (good + b"\x02\x00", len(good))
    with open(outdir + "/WANT", "w") as w:
        for name, (data, off) in sorted(cases.items()):
            with open("%s/%s.pb" % (outdir, name), "wb") as f:
                f.write(data)
            w.write("%s %d\n" % (name, off))


def secret_words(seed):
    """lib/hkey's words under FLAME_HASH_SEED=seed: SplitMix64's stream from
    it, XXH3's secret (24 words), then hkey_words' (24)."""
    m, x, out = (1 << 64) - 1, seed, []
    for _ in range(48):
        x = (x + 0x9E3779B97F4A7C15) & m
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & m
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & m
        out.append(z ^ (z >> 31))
    return out


def collide(path, n, seed):
    """A key's bytes 16-23 equal to the hash's third word (hkey_words',
    known here from the seed) make the product of that pair of words 0,
    whatever bytes 24-31 hold: those vary (ids 1-127), all else is alike.
    Every id is a location.  The word's last byte must end a varint (under
    0x80): not every seed's does (4243's does)."""
    mid = secret_words(seed)[24 + 2].to_bytes(8, "little")
    if mid[7] >= 0x80:
        raise SystemExit("pprofgen collide: seed %d's word does not end a varint" % seed)
    ids, at = set(), 0
    st = Strings()
    parts = [f_bytes(1, f_int(1, st("samples")) + f_int(2, st("count")))]
    for k in range(n):
        tail = bytes([1 + k // 127 ** e % 127 for e in range(8)])
        body = bytes([1] * 14) + mid + tail
        parts.append(f_bytes(2, f_bytes(1, body) + packed(2, [1])))
    for body in (bytes([1]), mid, bytes(range(1, 128))):
        at = 0
        while at < len(body):
            x, sh = 0, 0
            while True:
                x |= (body[at] & 0x7F) << sh
                sh += 7
                at += 1
                if body[at - 1] < 0x80:
                    break
            ids.add(x)
    name = st("f")
    for lid in sorted(ids):
        parts.append(f_bytes(4, f_int(1, lid) + f_int(3, 0x1000 + lid) + f_bytes(4, f_int(1, 1))))
    parts.append(f_bytes(5, f_int(1, 1) + f_int(2, name)))
    parts += [f_bytes(6, t.encode()) for t in st.tab]
    with open(path, "wb") as f:
        f.write(b"".join(parts))


def main(a):
    if a[0] == "collide":
        collide(a[1], int(a[2]), int(a[3]))
    elif a[0] == "make":
        k = kinds()[a[1]]
        data = encode(k, "shuffle" if a[1] == "shuffled" else "go", a[1] == "unpacked")
        with open(a[2], "wb") as f:
            f.write(gzip.compress(data) if "--gzip" in a else data)
    elif a[0] == "expect":
        rest = [x for x in a[2:] if x != "--labels"]
        sys.stdout.write(expect(kinds()[a[1]], rest[0] if rest else None, "--labels" in a))
    elif a[0] == "big":
        big(a[1], int(a[2]), "--gzip" in a,
            int(a[a.index("--stacks") + 1]) if "--stacks" in a else 100000)
    elif a[0] == "raw":
        raw(int(a[1]) if len(a) > 1 else -1)
    elif a[0] == "bad":
        bad(a[1])


if __name__ == "__main__":
    main(sys.argv[1:])
