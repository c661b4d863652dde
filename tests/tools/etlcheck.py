#!/usr/bin/env python3
"""etlcheck: a second, independent reading of an .etl trace (or a zip
holding one), for tests of collapse/etl: written apart from the C reader,
with Python's struct and dicts, from the same public descriptions.

    etlcheck.py TRACE [--include-idle] [--addrs]

Prints, one per line:
    buffers N / compressed N / events N / samples N / kept N
    count HOOK N          (kernel events by group/opcode, hex)
    process NAME (PID) N  (kept samples per process)
    thread PID TID N      (kept samples per thread)
    stack FOLDED N        (the collapsed stacks, module level)"""
import struct
import sys
import uuid
import zipfile
from collections import Counter, defaultdict

import xcahuff


def unlz77(src, limit):
    """MS-XCA plain LZ77."""
    out = bytearray()
    pos, bits, nbits, nib = 0, 0, 0, None
    while len(out) < limit:
        if nbits == 0:
            if pos + 4 > len(src):
                break
            bits, = struct.unpack_from("<I", src, pos)
            pos, nbits = pos + 4, 32
        nbits -= 1
        if not bits >> nbits & 1:
            if pos >= len(src):
                break
            out.append(src[pos])
            pos += 1
            continue
        if pos >= len(src):
            break
        word, = struct.unpack_from("<H", src, pos)
        pos += 2
        dist, n = (word >> 3) + 1, word & 7
        if n == 7:
            if nib is None:
                n, nib = src[pos] & 15, pos
                pos += 1
            else:
                n, nib = src[nib] >> 4, None
            if n == 15:
                n = src[pos]
                pos += 1
                if n == 255:
                    n, = struct.unpack_from("<H", src, pos)
                    pos += 2
                    if n == 0:
                        n, = struct.unpack_from("<I", src, pos)
                        pos += 4
                    n -= 22
                n += 15
            n += 7
        n += 3
        if dist > len(out):
            raise ValueError("bad match")
        for _ in range(n):
            out.append(out[-dist])
    return bytes(out)


def wstrings(b, n):
    """n NUL-terminated UTF-16 strings from b, as ASCII ('?' past it)."""
    out, at = [], 0
    for _ in range(n):
        end = at
        while end + 1 < len(b) and b[end:end + 2] != b"\0\0":
            end += 2
        s = b[at:end].decode("utf-16-le", "replace")
        out.append("".join(c if " " <= c < "\x7f" else "?" for c in s))
        at = end + 2
    return out


def buffers(data):
    """(cpu, bytes from the header on, decompressed) per buffer."""
    at = 0
    while at + 72 <= len(data):
        size, used = struct.unpack_from("<II", data, at)
        flag, = struct.unpack_from("<H", data, at + 0x34)
        raw = data[at:at + size]
        if flag & 0x40 and xcahuff.is_huffman(raw[72:]):
            yield raw[:72] + xcahuff.decompress(raw[72:], used - 72), 1
        elif flag & 0x40:
            yield raw[:72] + unlz77(raw[72:], used - 72), 1
        else:
            yield raw[:min(used, size)], 0
        at += size


SIZE_AT_4 = {1: 32, 2: 32, 3: 24, 4: 24, 0x10: 16, 0x11: 16}


def events(buf):
    """(kind, hook, version, timestamp, payload) per kernel event, and
    (kind, None, ...) for the others."""
    at = 72
    while at + 8 <= len(buf):
        if buf[at:at + 4] == b"\xff\xff\xff\xff":
            return
        kind = buf[at + 2]
        hdr = SIZE_AT_4.get(kind)
        if hdr:
            version, size, hook = struct.unpack_from("<H2xHH", buf, at)
            ts, = struct.unpack_from("<Q", buf, at + (8 if hdr == 16 else 16))
            yield kind, hook, version, ts, buf[at + hdr:at + size]
        else:
            size, = struct.unpack_from("<H", buf, at)
            if kind in (0x12, 0x13):   # EVENT_HEADER: the hook is the event itself
                yield kind, buf[at:at + 80], 0, 0, buf[at + 80:at + size]
            else:
                yield kind, None, 0, 0, b""
        at += (size + 7) // 8 * 8


class Reader:
    def __init__(self, addrs, idle):
        self.addrs, self.idle = addrs, idle
        self.ptr = 8
        self.counts = Counter()
        self.recs = []          # (ts, order, kind, fields)
        self.n = Counter()
        self.modules = {}       # .NET ModuleID -> name

    def ptrs(self, b, count):
        return list(struct.unpack_from("<%d%s" % (count, "Q" if self.ptr == 8 else "I"), b))

    def sid_end(self, b, at):
        if struct.unpack_from("<I", b, at)[0] == 0:
            return at + 4
        return at + 2 * self.ptr + 8 + 4 * b[at + 2 * self.ptr + 1]

    def kernel(self, hook, version, ts, p):
        P = self.ptr
        g = hook >> 8
        op = hook & 0xFF
        add = lambda kind, *f: self.recs.append((ts, len(self.recs), kind, f))
        if hook == 0x0F2E:
            ip, = self.ptrs(p, 1)
            tid, _, fl = struct.unpack_from("<IHH", p, P)
            add("sample", tid, fl & 3)
        elif hook == 0x1820:
            ets, pid, tid = struct.unpack_from("<QII", p)
            add("stack", ets, tid, tuple(self.ptrs(p[16:], (len(p) - 16) // P)))
        elif hook in (0x1825, 0x1826):
            ets, pid, tid = struct.unpack_from("<QII", p)
            add("kref" if hook == 0x1825 else "uref", ets, tid, self.ptrs(p[16:], 1)[0])
        elif hook in (0x1823, 0x1824):
            a = self.ptrs(p, len(p) // P)
            add("kdef", a[0], tuple(a[1:]))
        elif (g == 0x14 and op in (2, 3, 10)) or hook == 0x030A:   # Load: either group
            base, size = self.ptrs(p, 2)
            pid, = struct.unpack_from("<I", p, 2 * P)
            name_at = 44 + 3 * (P - 4)
            name = p[name_at:].decode("utf-16-le", "replace").split("\0")[0]
            add("unload" if op == 2 else "load", pid, base, size,
                name.replace("/", "\\").split("\\")[-1] or "?", op == 3)
        elif g == 3 and op in (1, 2, 3, 4):   # Process Start, End, DCStart, DCEnd
            pid, = struct.unpack_from("<I", p, P)
            if version >= 3:
                sid = (28 if version >= 4 else 24) + 2 * (P - 4)
            else:
                sid = 20 + (P - 4)
            end = self.sid_end(p, sid)
            add("proc", pid, p[end:p.index(b"\0", end)].decode("latin-1") or "?")
        elif g == 5 and op in (1, 2, 3, 4):
            pid, tid = struct.unpack_from("<II", p)
            add("thread", tid, pid)

    RUNTIME = "e13c0d23-ccbc-4e12-931b-d9cc2eee27e4"
    RUNDOWN = "a669021c-c450-4609-a035-5af59af4df18"

    def clr(self, h, p):
        """The CLR's method and module events (manifest ids)."""
        flags, tid, pid, ts = struct.unpack_from("<HxxIIQ", h, 4)
        provider = str(uuid.UUID(bytes_le=bytes(h[24:40])))
        eid, = struct.unpack_from("<H", h, 40)
        if flags & 1 or provider not in (self.RUNTIME, self.RUNDOWN):
            return
        rt = provider == self.RUNTIME
        if (rt and eid == 152) or (not rt and eid in (153, 154)):
            path = wstrings(p[24:], 1)[0]
            self.modules[struct.unpack_from("<Q", p)[0]] = \
                path.replace("/", "\\").split("\\")[-1] or "?"
        elif eid == 143 or eid == 144:
            mid, modid, start, size = struct.unpack_from("<QQQI", p)
            ns, name, sig = wstrings(p[36:], 3)
            args = sig[sig.index("("):] if "(" in sig else ""
            text = (ns + "." if ns else "") + name + args
            kind = "unload" if rt and eid == 144 else "load"
            self.recs.append((ts, len(self.recs), kind,
                              (pid, start, size, ("jit", modid, text.replace(";", ":")), not rt)))

    def read(self, data):
        for buf, comp in buffers(data):
            self.n["buffers"] += 1
            self.n["compressed"] += comp
            for kind, hook, version, ts, p in events(buf):
                self.n["events"] += 1
                if hook is None:
                    continue
                if isinstance(hook, bytes):
                    self.clr(hook, p)
                    continue
                if hook == 0 and kind in (1, 2):
                    self.ptr = struct.unpack_from("<I", p, 44)[0]
                    self.t0 = ts
                    continue
                if (kind in (0x01, 0x03, 0x10)) != (self.ptr == 4):
                    continue    # the other pointer size: not read
                self.counts[hook] += 1
                self.kernel(hook, version, ts, p)

    def kernel_addr(self, a):
        return a >= (0x80000000 if self.ptr == 4 else 0xFFFF800000000000)

    def join(self):
        thread_pid, names, images = {}, {}, []
        by_key, waiting, open_refs, samples = {}, defaultdict(list), defaultdict(list), []

        def put(s, slot, val, key):
            if key:
                s[slot] = None
                open_refs[val].append((s, slot))
            else:
                s[slot] = val

        def leave(tid, val, key, target):
            hit = False
            for s in waiting.pop(tid, []):
                put(s, "user", val, key)
                hit = hit or s is target
            return hit

        for ts, _, kind, f in sorted(self.recs):
            if kind == "thread":
                thread_pid[f[0]] = f[1]
            elif kind == "proc":
                names[f[0]] = f[1]
            elif kind == "load":
                images.append([f[0], f[1], f[2], 0 if f[4] else ts, None, f[3]])
            elif kind == "unload":
                for im in reversed(images):
                    if im[0] == f[0] and im[1] == f[1]:
                        if im[4] is None:
                            im[4] = ts
                        break
            elif kind == "sample":
                tid = f[0]
                pid = 0 if tid == 0 else thread_pid.get(tid)
                s = {"ts": ts, "tid": tid, "pid": pid, "dpc": f[1], "name": names.get(pid),
                     "kern": (), "user": ()}
                samples.append(s)
                by_key[(ts, tid)] = s
            elif kind == "stack":
                s = by_key.get((f[0], f[1]))
                a = f[2]
                if self.kernel_addr(a[-1]):
                    if s:
                        s["kern"] = a
                        if not any(w is s for w in waiting[f[1]]):
                            waiting[f[1]].append(s)
                elif not (not self.kernel_addr(a[0]) and leave(f[1], a, False, s)) and s:
                    s["user"] = a
            elif kind in ("kref", "uref"):
                s = by_key.get((f[0], f[1]))
                if not s:
                    continue
                if kind == "kref":
                    put(s, "kern", f[2], True)
                    if not any(w is s for w in waiting[f[1]]):
                        waiting[f[1]].append(s)
                elif not leave(f[1], f[2], True, s):
                    put(s, "user", f[2], True)
            elif kind == "kdef":
                for s, slot in open_refs.pop(f[0], []):
                    s[slot] = f[1]
        for s in samples:
            if s["pid"] is None:
                s["pid"] = thread_pid.get(s["tid"])
            if s["name"] is None:
                s["name"] = names.get(s["pid"])
        return samples, images

    def module(self, images, pid, a, ts):
        best = None
        for im in images:
            if im[0] == pid and im[1] <= a < im[1] + im[2] and im[3] <= ts and \
                    (im[4] is None or ts < im[4]):
                best = im
        return best

    def folded(self):
        samples, images = self.join()
        by_pid = defaultdict(list)
        for im in images:
            by_pid[im[0]].append(im)
        out, procs, threads = Counter(), Counter(), Counter()
        for s in samples:
            self.n["samples"] += 1
            if s["tid"] == 0 and not s["dpc"] and not self.idle:
                continue
            pid = s["pid"] if s["pid"] is not None else -1
            name = s["name"] or ("Idle" if pid == 0 else "Unknown")
            frames, last = [], object()
            bad = s["user"] is None or s["kern"] is None
            for frag in (s["user"] or (), s["kern"] or ()):
                for a in reversed(frag):
                    owner = 0 if self.kernel_addr(a) else pid
                    im = self.module(by_pid[owner], owner, a, s["ts"])
                    mod = im[5] if im else "?"
                    if isinstance(mod, tuple):     # a .NET method
                        frames.append("%s!%s" % (self.modules.get(mod[1], "?"), mod[2]))
                        last = None
                        continue
                    if self.addrs:
                        frames.append("%s!0x%x" % (mod, a - im[1] if im else a))
                    elif mod != last:
                        frames.append(mod + "!?")
                    last = mod
            self.n["kept"] += 1
            self.n["unresolved"] += bad
            root = "%s (%d);TID %d" % (name, pid, s["tid"])
            out[";".join([root] + frames)] += 1
            procs["%s (%d)" % (name, pid)] += 1
            threads["%d %d" % (pid, s["tid"])] += 1
        return out, procs, threads


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    if len(args) != 1:
        sys.exit(__doc__)
    path = args[0]
    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as z:
            member = [n for n in z.namelist() if n.lower().endswith(".etl")][0]
            data = z.read(member)
    else:
        with open(path, "rb") as f:
            data = f.read()
    r = Reader("--addrs" in argv, "--include-idle" in argv)
    r.read(data)
    stacks, procs, threads = r.folded()
    for k in ("buffers", "compressed", "events", "samples", "kept", "unresolved"):
        print(k, r.n[k])
    for hook in sorted(r.counts):
        print("count %04x %d" % (hook, r.counts[hook]))
    for p in sorted(procs):
        print("process", p, procs[p])
    for t in sorted(threads):
        print("thread", t, threads[t])
    for s in sorted(stacks):
        print("stack", s, stacks[s])


if __name__ == "__main__":
    main(sys.argv)
