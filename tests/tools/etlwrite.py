#!/usr/bin/env python3
"""etlwrite: writes a small Windows .etl trace from the documented
structures (WMI_BUFFER_HEADER, SYSTEM_TRACE_HEADER, PERFINFO_TRACE_HEADER,
EVENT_HEADER, TRACE_LOGFILE_HEADER; the kernel MOF classes), and the
collapsed stacks a reader should find in it, from what it wrote.

    etlwrite.py OUT.etl EXPECTED.folded [--compress | --huffman] [--ptr 4|8]
                [--seed N] [--samples N] [--fault NAME] [--addrs] [--bufsize N]

The trace: an idle process, System, and two processes with threads and
images (kernel images in process 0); SampledProfile events on several
CPUs with StackWalk stacks in every way Windows logs them: a user stack,
a kernel fragment then the user fragment, two kernel fragments waiting for
one user fragment, cached stacks (StackKeyKernel/StackKeyUser) defined by
KeyDelete and KeyRundown events (a key reused), samples with no stack,
idle samples (dropped unless in a DPC), a DLL loaded and unloaded, a stack
of no sample, and events of other kinds to skip.  --compress writes the
data buffers in MS-XCA plain LZ77 (with matches, long lengths and shared
length nibbles); --huffman in MS-XCA LZ77+Huffman (tests/tools/xcahuff.py;
buffers over 64 KiB, --bufsize, make several Huffman blocks).  --fault spoils the result in one way; the expected
stacks are then those that stay readable (see FAULTS)."""
import random
import struct
import sys

import xcahuff

HDR = 72
KBASE = {4: 0x80000000, 8: 0xFFFFF80000000000}
FAULTS = ("none", "truncate", "lying-size", "corrupt-lz", "event-past-end",
          "orphan-stack", "ptr-mismatch", "garbage-buffer")


class Trace:
    def __init__(self, ptr, seed):
        self.ptr = ptr
        self.rng = random.Random(seed)
        self.cpus = {}          # cpu -> [event bytes]
        self.ts = 1000000
        self.expect = {}        # folded stack -> count

    def tick(self, n=1):
        self.ts += n
        return self.ts

    def add(self, cpu, ev):
        self.cpus.setdefault(cpu, []).append(ev)

    def p(self, v):
        return struct.pack("<Q" if self.ptr == 8 else "<I", v)

    # Header kinds.
    def system(self, hook, payload, ts, tid=0xFFFFFFFF, pid=0xFFFFFFFF, version=2):
        kind = 0x02 if self.ptr == 8 else 0x01
        size = 32 + len(payload)
        return (struct.pack("<HBBHHIIQII", version, kind, 0xC0, size, hook, tid, pid, ts, 0, 0)
                + payload)

    def perfinfo(self, hook, payload, ts, version=2, ptr=None):
        kind = 0x11 if (ptr or self.ptr) == 8 else 0x10
        return struct.pack("<HBBHHQ", version, kind, 0xC0, 16 + len(payload), hook, ts) + payload

    def event_header(self, ts, guid=bytes(range(16)), eid=7, payload=b"skip me" * 3, pid=2):
        """A manifest provider's event (EVENT_HEADER, 80 bytes); by default
        one of no provider the reader knows, to skip."""
        size = 80 + len(payload)
        kind = 0x13 if self.ptr == 8 else 0x12
        desc = struct.pack("<HBBBBHQ", eid, 1, 0, 4, 0, 0, 0)
        return (struct.pack("<HBBHHIIQ", size, kind, 0xC0, 0, 0, 1, pid, ts) + guid + desc
                + struct.pack("<Q", 0) + bytes(16) + payload)


def logfile_header(t, nbuf, bufsize):
    """The EventTrace header event's TRACE_LOGFILE_HEADER."""
    ptr = t.ptr
    b = struct.pack("<IIIIQIIII", bufsize, 0x00020206, 9200, 4, 0, 156250, 0, 0x00010001, nbuf)
    b += struct.pack("<IIII", 1, ptr, 0, 3000)              # StartBuffers..CpuSpeed
    b += t.p(0) + t.p(0)                                     # LoggerName, LogFileName
    b += bytes(172)                                          # TIME_ZONE_INFORMATION
    while len(b) % 8:
        b += b"\0"
    b += struct.pack("<QQQII", 0, 10000000, 0, 1, 0)         # Boot, PerfFreq, Start, clock
    b += "Test\0".encode("utf-16-le") + "test.etl\0".encode("utf-16-le")
    return t.system(0x0000, b, 1000, 1, 1)


def lz77(data):
    """MS-XCA plain LZ77: flags words, greedy matches over a 3-byte hash."""
    out = bytearray()
    flag_at, flags, nflags = 0, 0, 0
    half = None                  # where a length byte's high nibble is free
    heads = {}

    def flag(bit):
        nonlocal flag_at, flags, nflags
        if nflags == 0:
            flag_at = len(out)
            out.extend(b"\0\0\0\0")
        flags = flags << 1 | bit
        nflags += 1
        if nflags == 32:
            struct.pack_into("<I", out, flag_at, flags)
            flags, nflags = 0, 0

    i = 0
    while i < len(data):
        best, boff = 0, 0
        key = bytes(data[i:i + 3])
        for j in reversed(heads.get(key, [])[-8:]):
            if i - j > 8192:
                break
            n = 0
            while i + n < len(data) and data[j + n] == data[i + n] and n < 70000:
                n += 1
            if n > best:
                best, boff = n, i - j
        heads.setdefault(key, []).append(i)
        if best < 3:
            flag(0)
            out.append(data[i])
            i += 1
            continue
        flag(1)
        length = best - 3
        if length < 7:
            out += struct.pack("<H", (boff - 1) << 3 | length)
        else:
            out += struct.pack("<H", (boff - 1) << 3 | 7)
            nib = min(length - 7, 15)
            if half is None:
                half = len(out)
                out.append(nib)
            else:
                out[half] |= nib << 4
                half = None
            if nib == 15:
                if length - 22 < 255:
                    out.append(length - 22)
                elif length < 65536:
                    out.append(255)
                    out += struct.pack("<H", length)
                else:
                    out.append(255)
                    out += struct.pack("<HI", 0, length)
        for k in range(i + 1, min(i + best, i + 64)):
            heads.setdefault(bytes(data[k:k + 3]), []).append(k)
        i += best
    if nflags:
        rest = 32 - nflags
        struct.pack_into("<I", out, flag_at, (flags << rest | ((1 << rest) - 1)) & 0xFFFFFFFF)
    return bytes(out)


def buffer_header(size, used, cpu, flag, btype=0):
    h = struct.pack("<IIIiqq", size, used, used, 0, 0, 0)
    h += struct.pack("<Q", 0)
    h += struct.pack("<BBHIIHH", cpu, 0, 0, 3, used, flag, btype)
    h += bytes(16)
    assert len(h) == HDR
    return h


def literal_lz77(data):
    """Plain LZ77 of literals only: 32 bytes after each zero flags word."""
    out = bytearray()
    for i in range(0, len(data), 32):
        out += b"\0\0\0\0" + data[i:i + 32]
    return bytes(out)


def pack_buffers(t, cpu, events, bufsize, compress):
    """A CPU's events into buffers: [(header+data bytes)]; compress is a
    compressor, or None."""
    out, cur = [], bytearray()

    def flush():
        if not cur:
            return
        used = HDR + len(cur)
        if compress:
            comp = compress(bytes(cur))
            out.append(buffer_header(HDR + len(comp), used, cpu, 0x40) + comp)
        else:
            body = bytes(cur) + b"\xff" * (bufsize - used)
            out.append(buffer_header(bufsize, used, cpu, 0) + body)
        cur.clear()

    for ev in events:
        ev = ev + b"\0" * (-len(ev) % 8)
        if HDR + len(cur) + len(ev) > bufsize:
            flush()
        cur.extend(ev)
    flush()
    return out


# The world: processes, threads, images (module, base, size), kernel images.
PROCS = {0: "Idle", 4: "System", 100: "app.exe", 200: "tool.exe"}
THREADS = {0: 0, 8: 4, 101: 100, 102: 100, 201: 200}
KIMAGES = [("ntoskrnl.exe", 0x0, 0x100000), ("hal.dll", 0x200000, 0x10000)]
UIMAGES = {100: [("app.exe", 0x400000, 0x10000), ("ntdll.dll", 0x77000000, 0x100000)],
           200: [("tool.exe", 0x400000, 0x10000), ("ntdll.dll", 0x77000000, 0x100000)]}
LIB = ("lib.dll", 0x10000000, 0x10000)
# .NET methods of app.exe: (module id, namespace, name, signature, start,
# size, logged by the rundown provider at the end); and their frames.
CLR_MODULES = {0x5000: "C:\\app\\App.Core.dll", 0x5001: "C:\\app\\App.Util.dll"}
METHODS = [(0x5000, "App.Worker", "Run", "void  (int32)", 0x30000000, 0x200, False),
           (0x5000, "App.Worker", "Step", "int32  (class System.String,bool)", 0x30001000, 0x100, False),
           (0x5001, "App.Util", "Hash", "int64  ()", 0x30002000, 0x80, True)]
JIT_NAMES = ["App.Core.dll!App.Worker.Run(int32)",
             "App.Core.dll!App.Worker.Step(class System.String,bool)",
             "App.Util.dll!App.Util.Hash()"]
RUNTIME = bytes.fromhex("230d3ce1bccc124e931bd9cc2eee27e4")
RUNDOWN = bytes.fromhex("1c0269a650c40946a0355af59af4df18")


class World:
    def __init__(self, t, addrs):
        self.t, self.addrs = t, addrs
        self.lib_loaded = False
        self.key = 0x1000

    def kaddr(self, mod):
        name, off, size = [m for m in KIMAGES if m[0] == mod][0]
        return KBASE[self.t.ptr] + off + self.t.rng.randrange(size), name, KBASE[self.t.ptr] + off

    def uaddr(self, pid, mod):
        if isinstance(mod, int):            # a .NET method
            m = METHODS[mod]
            return m[4] + self.t.rng.randrange(m[5]), ("jit", mod), m[4]
        if mod == LIB[0]:
            name, base, size = LIB
        else:
            name, base, size = [m for m in UIMAGES[pid] if m[0] == mod][0]
        return base + self.t.rng.randrange(size), name, base

    def frames(self, pid, mods):
        """Root-first module names to leaf-first addresses and their names."""
        out = []
        for m in mods:
            a, name, base = self.kaddr(m) if m in ("ntoskrnl.exe", "hal.dll") else self.uaddr(pid, m)
            if name == LIB[0] and not self.lib_loaded:
                name, base = "?", 0
            out.append((a, name, base))
        return out[::-1]

    def folded(self, pid, tid, *frags):
        """The expected line: frags leaf-first, user fragment first."""
        parts = ["%s (%d)" % (PROCS[pid], pid), "TID %d" % tid]
        last = None
        for frag in frags:
            for a, name, base in reversed(frag):
                if isinstance(name, tuple):     # a .NET method: named, not merged
                    parts.append(JIT_NAMES[name[1]])
                    last = None
                    continue
                if self.addrs:
                    parts.append("%s!0x%x" % (name, a - base))
                elif name != last:
                    parts.append(name + "!?")
                last = name
        line = ";".join(parts)
        self.t.expect[line] = self.t.expect.get(line, 0) + 1


def stack_payload(t, ts, pid, tid, frag):
    return struct.pack("<QII", ts, pid, tid) + b"".join(t.p(a) for a, _, _ in frag)


def sample_payload(t, ip, tid, flags=0):
    return t.p(ip) + struct.pack("<IHH", tid, 1, flags)


def rundown(t, w):
    for pid, name in PROCS.items():
        sid = struct.pack("<I", 0) if pid in (0, 4) else (
            t.p(0xDEAD0) + t.p(0) + bytes([1, 2, 0, 0, 0, 0, 0, 5]) + struct.pack("<II", 21, 1000))
        pl = (t.p(0xABC0 + pid) + struct.pack("<IIIi", pid, 0, 1, 259) + t.p(0)
              + struct.pack("<I", 0) + sid + name.encode() + b"\0"
              + "cmd\0".encode("utf-16-le") + b"\0\0\0\0")
        t.add(0, t.system(0x0303, pl, t.tick(), version=4))
    for tid, pid in THREADS.items():
        t.add(0, t.system(0x0503, struct.pack("<II", pid, tid) + t.p(0) * 4, t.tick(), version=3))
    imgs = [(0, KBASE[t.ptr] + off, size, name) for name, off, size in KIMAGES]
    imgs += [(pid, base, size, name) for pid, l in UIMAGES.items() for name, base, size in l]
    for pid, base, size, name in imgs:
        t.add(0, image_event(t, 0x1403, pid, base, size, name))


def clr_module(t, rt, mid, path):
    pl = struct.pack("<QQII", mid, 0x9000, 0, 0) + (path + "\0").encode("utf-16-le") * 2
    return t.event_header(t.tick(), RUNTIME if rt else RUNDOWN, 152 if rt else 154, pl, 100)


def clr_method(t, m, eid):
    mod, ns, name, sig, start, size, _ = m
    pl = struct.pack("<QQQIII", 0x7000 + start, mod, start, size, 6, 0)
    pl += b"".join((x + "\0").encode("utf-16-le") for x in (ns, name, sig)) + struct.pack("<H", 9)
    return t.event_header(t.tick(), RUNDOWN if m[6] else RUNTIME, eid, pl, 100)


def clr_start(t):
    """The runtime's module and method loads, as a process starts."""
    t.add(0, clr_module(t, True, 0x5000, CLR_MODULES[0x5000]))
    for m in METHODS:
        if not m[6]:
            t.add(1, clr_method(t, m, 143))


def clr_rundown(t):
    """The rundown provider's at the end: there from the start."""
    t.add(2, clr_module(t, False, 0x5001, CLR_MODULES[0x5001]))
    for m in METHODS:
        if m[6]:
            t.add(2, clr_method(t, m, 144))


def image_event(t, hook, pid, base, size, name):
    path = ("\\Device\\HarddiskVolume2\\Windows\\" + name + "\0").encode("utf-16-le")
    pl = (t.p(base) + t.p(size) + struct.pack("<IIII", pid, 0, 0, 0) + t.p(base)
          + struct.pack("<IIII", 0, 0, 0, 0) + path)
    return t.system(hook, pl, t.tick(), version=3)


def user_mods(t, pid, lib):
    mods = ["ntdll.dll", PROCS[pid]] + [t.rng.choice(["ntdll.dll", PROCS[pid]])
                                          for _ in range(t.rng.randrange(4))]
    if lib:
        mods += [LIB[0]] * t.rng.randrange(1, 3)
    if pid == 100 and t.rng.random() < 0.3:
        mods += [0, 1] if t.rng.random() < 0.5 else [0, 2]
    return mods


def kernel_mods(t):
    return ["ntoskrnl.exe"] * t.rng.randrange(1, 4) + ["hal.dll"] * t.rng.randrange(2)


def one_sample(t, w, cpu, kind):
    tid = t.rng.choice([101, 102, 201])
    pid = THREADS[tid]
    lib = pid == 100 and t.rng.random() < 0.3
    ts = t.tick(t.rng.randrange(10, 1000))
    if kind == "user":
        u = w.frames(pid, user_mods(t, pid, lib))
        t.add(cpu, t.perfinfo(0x0F2E, sample_payload(t, u[0][0], tid), ts))
        t.add(cpu, t.perfinfo(0x1820, stack_payload(t, ts, pid, tid, u), ts))
        w.folded(pid, tid, u)
    elif kind == "kernel+user":
        k = w.frames(0, kernel_mods(t))
        u = w.frames(pid, user_mods(t, pid, lib))
        t.add(cpu, t.perfinfo(0x0F2E, sample_payload(t, k[0][0], tid), ts))
        t.add(cpu, t.perfinfo(0x1820, stack_payload(t, ts, pid, tid, k), ts))
        t.add(cpu, t.perfinfo(0x1820, stack_payload(t, ts, pid, tid, u), t.tick(5)))
        w.folded(pid, tid, u, k)
    elif kind == "two-kernel":
        k1, k2 = w.frames(0, kernel_mods(t)), w.frames(0, kernel_mods(t))
        u = w.frames(pid, user_mods(t, pid, lib))
        ts2 = t.tick(7)
        t.add(cpu, t.perfinfo(0x0F2E, sample_payload(t, k1[0][0], tid), ts))
        t.add(cpu, t.perfinfo(0x1820, stack_payload(t, ts, pid, tid, k1), ts))
        t.add(cpu, t.perfinfo(0x0F2E, sample_payload(t, k2[0][0], tid), ts2))
        t.add(cpu, t.perfinfo(0x1820, stack_payload(t, ts2, pid, tid, k2), ts2))
        t.add(cpu, t.perfinfo(0x1820, stack_payload(t, ts2, pid, tid, u), t.tick(3)))
        w.folded(pid, tid, u, k1)
        w.folded(pid, tid, u, k2)
    elif kind == "keys":
        k = w.frames(0, kernel_mods(t))
        u = w.frames(pid, user_mods(t, pid, lib))
        kk, ku = w.key, w.key + 8
        w.key += 16
        t.add(cpu, t.perfinfo(0x0F2E, sample_payload(t, k[0][0], tid), ts))
        t.add(cpu, t.perfinfo(0x1825, struct.pack("<QII", ts, pid, tid) + t.p(kk), ts))
        t.add(cpu, t.perfinfo(0x1826, struct.pack("<QII", ts, pid, tid) + t.p(ku), t.tick(2)))
        w.pending_keys.append((kk, k))
        w.pending_keys.append((ku, u))
        w.folded(pid, tid, u, k)
    elif kind == "nostack":
        t.add(cpu, t.perfinfo(0x0F2E, sample_payload(t, 0x400000, tid), ts))
        w.folded(pid, tid)
    elif kind == "idle":
        t.add(cpu, t.perfinfo(0x0F2E, sample_payload(t, KBASE[t.ptr], 0), ts))
        t.add(cpu, t.perfinfo(0x1820, stack_payload(t, ts, 0, 0, w.frames(0, kernel_mods(t))), ts))
    elif kind == "dpc":
        k = w.frames(0, kernel_mods(t))
        t.add(cpu, t.perfinfo(0x0F2E, sample_payload(t, k[0][0], 0, 1), ts))
        t.add(cpu, t.perfinfo(0x1820, stack_payload(t, ts, 0, 0, k), ts))
        w.folded(0, 0, k)
    elif kind == "system":
        k = w.frames(0, kernel_mods(t))
        t.add(cpu, t.perfinfo(0x0F2E, sample_payload(t, k[0][0], 8), ts))
        t.add(cpu, t.perfinfo(0x1820, stack_payload(t, ts, 4, 8, k), ts))
        w.folded(4, 8, k)
    if kind == "keys" and t.rng.random() < 0.5:
        flush_keys(t, w, cpu, 0x1823)      # KeyDelete now: the keys are then reused


def flush_keys(t, w, cpu, hook):
    for key, frag in w.pending_keys:
        t.add(cpu, t.perfinfo(hook, t.p(key) + b"".join(t.p(a) for a, _, _ in frag), t.tick()))
    w.pending_keys = []
    w.key = 0x1000


KINDS = ["user", "kernel+user", "two-kernel", "keys", "nostack", "idle", "dpc", "system"]


def decoys(t, fault):
    """A buffer holding samples the fault must keep out (tool.exe TID 999)."""
    ptr = 4 if fault == "ptr-mismatch" else t.ptr
    evs = []
    for i in range(5):
        ts = t.tick(50)
        u = [(0x77000000 + i, "ntdll.dll", 0x77000000)]
        evs.append(t.perfinfo(0x0F2E, (struct.pack("<Q" if ptr == 8 else "<I", u[0][0])
                                       + struct.pack("<IHH", 999, 1, 0)), ts, ptr=ptr))
    if fault == "event-past-end":
        ev = bytearray(evs[0])
        struct.pack_into("<H", ev, 4, 60000)
        evs[0] = bytes(ev)
    return evs


def build(args):
    t = Trace(args["ptr"], args["seed"])
    w = World(t, args["addrs"])
    w.pending_keys = []
    rundown(t, w)
    clr_start(t)
    for i in range(args["samples"]):
        if i == args["samples"] // 3:
            t.add(1, image_event(t, 0x140A, 100, *LIB[1:], LIB[0]))
            w.lib_loaded = True
        if i == 2 * args["samples"] // 3:
            t.add(2, image_event(t, 0x1402, 100, *LIB[1:], LIB[0]))
            w.lib_loaded = False
        if i % 17 == 5:
            t.add(3, t.event_header(t.tick()))
        one_sample(t, w, t.rng.randrange(4), t.rng.choice(KINDS))
    flush_keys(t, w, 0, 0x1824)            # KeyRundown at the end
    clr_rundown(t)
    if args["fault"] == "orphan-stack":
        frag = w.frames(100, ["ntdll.dll", "app.exe"])
        t.add(1, t.perfinfo(0x1820, stack_payload(t, 12345, 100, 101, frag), t.tick()))
    return t


def corrupt_huffman(data):
    """LZ77+Huffman whose first symbol is a match reaching before the start:
    a code of two symbols, literal 0 (code 0) and a match of 4 offset bits
    (code 1), then all ones."""
    table = bytearray(256)
    table[0] = 1
    table[(256 + 0x40) >> 1] = 1
    return bytes(table) + b"\xff" * 8


def write(args):
    t = build(args)
    bufsize, fault = args["bufsize"], args["fault"]
    bufs = []
    comp = xcahuff.compress if args["huffman"] else lz77 if args["compress"] else None
    for cpu in sorted(t.cpus):
        bufs += pack_buffers(t, cpu, t.cpus[cpu], bufsize, comp)
    head_ev = logfile_header(t, len(bufs) + 1, bufsize)
    head_ev += b"\0" * (-len(head_ev) % 8)
    first = buffer_header(512, HDR + len(head_ev), 0, 1, 4) + head_ev
    first += b"\xff" * (512 - len(first))
    data = first + b"".join(bufs)
    if fault in ("truncate", "lying-size", "corrupt-lz", "event-past-end", "ptr-mismatch",
                 "garbage-buffer"):
        evs = decoys(t, fault)
        if fault == "garbage-buffer":
            data += buffer_header(bufsize, bufsize, 5, 0) + b"\x01" * (bufsize - HDR)
        elif fault == "corrupt-lz":
            if args["huffman"]:
                b = pack_buffers(t, 5, evs, bufsize, corrupt_huffman)[0]
            else:
                b = pack_buffers(t, 5, evs, bufsize, lz77)[0]
                b = b[:HDR] + struct.pack("<IH", 0x80000000, 0xFFF8) + b[HDR + 6:]
            data += b
        else:
            b = pack_buffers(t, 5, evs, bufsize, literal_lz77 if args["compress"] else None)[0]
            if fault == "truncate":
                # Two whole decoys and a piece of the third stay: they are
                # read, the piece is not.
                b = b[:HDR + (4 + 64 + 10 if args["compress"] else 64 + 10)]
                t.expect["Unknown (-1);TID 999"] = 2
            elif fault == "lying-size":
                b = struct.pack("<I", 0x7FFFFFF0) + b[4:]
            data += b
    with open(args["out"], "wb") as f:
        f.write(data)
    with open(args["expected"], "w") as f:
        for line in sorted(t.expect):
            f.write("%s %d\n" % (line, t.expect[line]))


def main(argv):
    args = {"compress": False, "ptr": 8, "seed": 1, "samples": 200, "fault": "none",
            "addrs": False, "huffman": False, "bufsize": 8192}
    pos = []
    i = 1
    while i < len(argv):
        a = argv[i]
        if a == "--compress":
            args["compress"] = True
        elif a == "--huffman":
            args["compress"] = args["huffman"] = True
        elif a == "--addrs":
            args["addrs"] = True
        elif a in ("--ptr", "--seed", "--samples", "--bufsize"):
            i += 1
            args[a[2:]] = int(argv[i])
        elif a == "--fault":
            i += 1
            args["fault"] = argv[i]
            if argv[i] not in FAULTS:
                sys.exit("etlwrite: faults: " + ", ".join(FAULTS))
        else:
            pos.append(a)
        i += 1
    if len(pos) != 2:
        sys.exit(__doc__)
    args["out"], args["expected"] = pos
    write(args)


if __name__ == "__main__":
    main(sys.argv)
