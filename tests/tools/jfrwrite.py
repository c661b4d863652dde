#!/usr/bin/env python3
"""jfrwrite: writes a small Java Flight Recorder recording from the
documented layout (chunk header, metadata event with its string table and
element tree, checkpoint events of constant pools, events), and the
collapsed stacks a reader should find in it, from what it wrote.

    jfrwrite.py OUT.jfr EXPECTED.folded [--fixed] [--seed N] [--samples N]
                [--chunks N]

Each chunk has its own metadata (class ids shuffled) and pools (keys
reused from chunk to chunk with other meanings).  Names come in every
string encoding (UTF-8, Latin-1, UTF-16 chars with a surrogate pair, a
java.lang.String pool reference, empty, null) and with ';' and control
bytes in them; a pool of a class the reader does not keep (inline values,
arrays, every primitive) sits between the pools it needs; events of
other types are to be skipped; a stack names a method no pool holds
("[unknown]"), a sample a stack trace no pool holds (not drawn).
--fixed writes fixed-size integers (the compressed-integers flag off)."""
import random
import struct
import sys
from collections import Counter


class W:
    def __init__(self, packed):
        self.b = bytearray()
        self.packed = packed

    def varint(self, v):
        v &= (1 << 64) - 1
        for i in range(9):
            if i == 8:
                self.b.append(v & 0xff)
                return
            if v < 0x80:
                self.b.append(v)
                return
            self.b.append((v & 0x7f) | 0x80)
            v >>= 7

    def long(self, v):
        if self.packed:
            self.varint(v)
        else:
            self.b += struct.pack(">Q", v & ((1 << 64) - 1))

    def int(self, v):
        if self.packed:
            self.varint(v)
        else:
            self.b += struct.pack(">I", v)

    def short(self, v):
        if self.packed:
            self.varint(v)
        else:
            self.b += struct.pack(">H", v & 0xffff)

    def byte(self, v):
        self.b.append(v & 0xff)

    def string(self, s, enc=3):
        """enc: 0 null, 1 empty, 2 pool ref (s an int), 3 UTF-8, 4 chars, 5 Latin-1."""
        self.byte(enc)
        if enc in (0, 1):
            return
        if enc == 2:
            self.long(s)
        elif enc == 3:
            d = s.encode()
            self.int(len(d))
            self.b += d
        elif enc == 4:
            u = s.encode("utf-16-be")
            self.int(len(u) // 2)
            for i in range(0, len(u), 2):
                self.short(u[i] << 8 | u[i + 1])
        else:
            d = s.encode("latin-1")
            self.int(len(d))
            self.b += d


PRIMS = ["boolean", "char", "float", "double", "byte", "short", "int", "long", "java.lang.String"]


def classes(rng):
    """(name, [(field, type, cp, array)]) in an order, with shuffled ids."""
    cl = [(p, []) for p in PRIMS]
    cl += [
        ("java.lang.Thread", [("osName", "java.lang.String", 0, 0), ("javaThreadId", "long", 0, 0)]),
        ("jdk.types.Symbol", [("string", "java.lang.String", 0, 0)]),
        ("java.lang.Class", [("classLoader", "long", 0, 0), ("name", "jdk.types.Symbol", 1, 0),
                             ("modifiers", "int", 0, 0)]),
        ("jdk.types.Method", [("type", "java.lang.Class", 1, 0), ("name", "jdk.types.Symbol", 1, 0),
                              ("descriptor", "jdk.types.Symbol", 1, 0), ("modifiers", "int", 0, 0),
                              ("hidden", "boolean", 0, 0)]),
        ("jdk.types.FrameType", [("description", "java.lang.String", 0, 0)]),
        ("jdk.types.StackFrame", [("method", "jdk.types.Method", 1, 0), ("lineNumber", "int", 0, 0),
                                  ("bytecodeIndex", "int", 0, 0), ("type", "jdk.types.FrameType", 1, 0)]),
        ("jdk.types.StackTrace", [("truncated", "boolean", 0, 0), ("frames", "jdk.types.StackFrame", 0, 1)]),
        ("x.Inner", [("a", "int", 0, 0), ("s", "java.lang.String", 0, 0), ("f", "float", 0, 0)]),
        ("x.Nothing", []),
        ("x.Outer", [("inner", "x.Inner", 0, 0), ("list", "x.Inner", 0, 1), ("d", "double", 0, 0),
                     ("c", "char", 0, 0), ("by", "byte", 0, 0), ("sh", "short", 0, 0),
                     ("none", "x.Nothing", 0, 1), ("t", "java.lang.Thread", 1, 0)]),
        ("jdk.ExecutionSample", [("startTime", "long", 0, 0), ("sampledThread", "java.lang.Thread", 1, 0),
                                 ("stackTrace", "jdk.types.StackTrace", 1, 0), ("state", "long", 0, 0)]),
        ("jdk.NativeMethodSample", [("startTime", "long", 0, 0), ("stackTrace", "jdk.types.StackTrace", 1, 0)]),
        ("x.OtherEvent", [("startTime", "long", 0, 0), ("v", "double", 0, 0), ("note", "java.lang.String", 0, 0)]),
    ]
    ids = rng.sample(range(20, 400), len(cl))
    return {name: (ids[i], fields) for i, (name, fields) in enumerate(cl)}


def metadata(w, cl):
    strs = []

    def idx(s):
        if s not in strs:
            strs.append(s)
        return strs.index(s)

    def element(name, attrs, children):
        e = bytearray()
        sub = W(w.packed)
        sub.int(idx(name))
        sub.int(len(attrs))
        for k, v in attrs:
            sub.int(idx(k))
            sub.int(idx(v))
        sub.int(len(children))
        e += sub.b
        for c in children:
            e += c
        return e

    kids = []
    for name, (cid, fields) in cl.items():
        fe = []
        for fname, ftype, cp, arr in fields:
            a = [("name", fname), ("class", str(cl[ftype][0]))]
            if cp:
                a.append(("constantPool", "true"))
            if arr:
                a.append(("dimension", "1"))
            fe.append(element("field", a, [element("annotation", [("class", "1")], [])]))
        kids.append(element("class", [("name", name), ("id", str(cid)), ("superType", "x")], fe))
    tree = element("root", [], [element("metadata", [], kids), element("region", [("locale", "en_US")], [])])
    body = W(w.packed)
    for v in (0, 0, 0, 7):	# type, start, duration, metadata id
        body.long(v)
    body.int(len(strs))
    for s in strs:
        body.string(s)
    return bytes(body.b) + bytes(tree)


def event(packed, payload):
    """An event: its size (counting itself), then payload (type first)."""
    if not packed:
        return struct.pack(">I", 4 + len(payload)) + payload
    n = len(payload) + 1
    while True:
        w = W(True)
        w.varint(n)
        if len(w.b) + len(payload) == n:
            return bytes(w.b) + payload
        n = len(w.b) + len(payload)


def tidy(s):
    return "".join(" " if ord(c) < 0x20 or c == "\x7f" else c for c in s.replace(";", ":")) or "[unknown]"


def chunk(rng, packed, nsamples, want):
    cl = classes(rng)
    cid = {k: v[0] for k, v in cl.items()}
    encs = [3, 3, 3, 5, 4, 2]
    # Symbols: key -> (text as named, encoding); pool strings for encoding 2.
    words = ["java/util/HashMap", "get", "caf\xe9", "run\x01x", "a;b", "\U0001d4bbn", "Main", "loop", ""]
    base = rng.randrange(1, 1 << 40)
    syms, strpool = {}, {}
    for i, t in enumerate(words):
        k = base + i * rng.randrange(1, 1000)
        enc = 1 if t == "" else rng.choice(encs if all(ord(c) < 256 for c in t) else [3, 4, 2])
        syms[k] = (t, enc)
        if enc == 2:
            strpool[k + 7] = t
    skeys = list(syms)
    classes_ = {base + 5000 + i: rng.choice(skeys) for i in range(4)}
    methods = {base + 9000 + i: (rng.choice(list(classes_)), rng.choice(skeys)) for i in range(12)}
    methods[base + 9999] = (base + 1, skeys[0])	# its class is in no pool
    mkeys = list(methods)
    ftypes = {1: "Interpreted", 2: "JIT compiled", 3: "Inlined"}
    stacks = {}
    for i in range(30):
        fr = [rng.choice(mkeys) for _ in range(rng.randrange(1, 12))]
        stacks[base + 20000 + i] = (rng.random() < 0.2, fr)
    ghost_method = base + 777777
    stacks[base + 20100] = (False, [mkeys[0], ghost_method])

    def sym_text(k):
        return syms[k][0] if k in syms else None

    def name(m):
        if m not in methods:
            return "[unknown]"
        c, n = methods[m]
        cs = sym_text(classes_[c]) if c in classes_ else None
        return tidy(cs or "") + "." + tidy(sym_text(n) or "")

    def value_str(w, t, enc, k):
        if enc == 2:
            w.string(k + 7, 2)
        else:
            w.string(t, enc)

    def pool(w, cls, entries):
        w.long(cid[cls])
        w.int(len(entries))
        for k, fn in entries:
            w.long(k)
            fn(w)

    pools = []
    pools.append(("jdk.types.Symbol", [(k, (lambda t, e, k: lambda w: value_str(w, t, e, k))(t, e, k))
                                       for k, (t, e) in syms.items()]))
    pools.append(("java.lang.String", [(k, (lambda t: lambda w: w.string(t))(t)) for k, t in strpool.items()]))

    def outer(w):
        w.int(5); w.string("in", 4); w.b += struct.pack(">f", 1.5)
        w.int(2)
        for i in range(2):
            w.int(i); w.string(None, 0); w.b += struct.pack(">f", 0.0)
        w.b += struct.pack(">d", 2.5); w.short(0x263a); w.byte(7); w.short(300)
        w.int(3)	# three x.Nothing: no bytes each
        w.long(1)
    pools.append(("x.Outer", [(1, outer), (2, outer)]))
    pools.append(("java.lang.Class", [(k, (lambda s: lambda w: (w.long(0), w.long(s), w.int(1)))(s))
                                      for k, s in classes_.items()]))
    pools.append(("jdk.types.Method", [(k, (lambda c, n: lambda w: (w.long(c), w.long(n), w.long(n),
                                                                     w.int(9), w.byte(0)))(c, n))
                                       for k, (c, n) in methods.items()]))
    pools.append(("jdk.types.FrameType", [(k, (lambda t: lambda w: w.string(t))(t)) for k, t in ftypes.items()]))

    def trace(tr, fr):
        def f(w):
            w.byte(1 if tr else 0)
            w.int(len(fr))
            for m in fr:
                w.long(m); w.int(10); w.int(3); w.long(rng.choice(list(ftypes)))
        return f
    pools.append(("jdk.types.StackTrace", [(k, trace(tr, fr)) for k, (tr, fr) in stacks.items()]))
    pools.append(("java.lang.Thread", [(1, lambda w: (w.string("main\nthread"), w.long(1)))]))
    rng.shuffle(pools)

    def checkpoint(ps):
        w = W(packed)
        for v in (1, 0, 0, 0):	# type, start, duration, delta
            w.long(v)
        w.byte(0)
        w.int(len(ps))
        for cls, entries in ps:
            pool(w, cls, entries)
        return event(packed, bytes(w.b))

    body = bytearray()
    half = rng.randrange(0, len(pools) + 1)
    body += checkpoint(pools[:half])
    skeys2 = list(stacks) + [base + 123456789]
    for i in range(nsamples):
        w = W(packed)
        r = rng.random()
        if r < 0.1:
            w.long(cid["x.OtherEvent"]); w.long(i); w.b += struct.pack(">d", 1.0); w.string("x;y", 3)
        elif r < 0.15:
            w.long(cid["jdk.NativeMethodSample"]); w.long(i); w.long(rng.choice(skeys2))
        else:
            k = rng.choice(skeys2)
            w.long(cid["jdk.ExecutionSample"]); w.long(i); w.long(1); w.long(k); w.long(3)
            if k in stacks:
                want[";".join(name(m) for m in reversed(stacks[k][1]))] += 1
        body += event(packed, bytes(w.b))
    cp_at = len(body)
    body += checkpoint(pools[half:])
    meta_at = len(body)
    body += event(packed, metadata(W(packed), cl))
    size = 68 + len(body)
    head = b"FLR\0" + struct.pack(">HHqqqqqqqI", 2, 0, size, 68 + cp_at, 68 + meta_at, 0, 0, 0,
                                  1000000000, 1 if packed else 0)
    return head + bytes(body)


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        sys.exit(__doc__)
    out, exp = args[0], args[1]
    opt = {"--seed": 1, "--samples": 400, "--chunks": 1}
    packed = "--fixed" not in args
    for k in opt:
        if k in args:
            opt[k] = int(args[args.index(k) + 1])
    rng = random.Random(opt["--seed"])
    want = Counter()
    data = b"".join(chunk(rng, packed, opt["--samples"], want) for _ in range(opt["--chunks"]))
    with open(out, "wb") as f:
        f.write(data)
    with open(exp, "w", encoding="utf-8") as f:
        for k in sorted(want, key=lambda s: s.encode()):
            f.write("%s %d\n" % (k, want[k]))


if __name__ == "__main__":
    main()
