#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Generic netlink fuzzer for the ecproxy family (selftests/netns/nlfuzz.sh).

  nlfuzz.py fuzz SEED ITERATIONS
      Random requests for every command (and for commands that do not
      exist): random attribute sets, wrong types and lengths, broken
      attribute headers, huge and deeply nested attributes, odd netlink
      flags and genl headers, mutations of valid TASK_ADD requests.
      Every request must get exactly one well-formed answer: an ack, data
      then (for dumps) NLMSG_DONE, or an error from a known set; an
      ecproxy command's error must carry an extended-ack message.
  nlfuzz.py race SEED SECONDS
      Add, delete, get, dump, flush and stats in a loop with small ids,
      meant to run in several processes at once.

Prints a summary line; exits 1 on any violation, listing the first ones.
The encoding and the numbers are ../lib/ecpgenl.py's.
"""
import errno
import os
import random
import struct
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "lib"))
from ecpgenl import (A, CMD, NLA_F_NESTED, NLA_F_NET_BYTEORDER,  # noqa: E402
                     NLM_F_ACK, NLM_F_DUMP, NLM_F_REQUEST, Genl, error_of,
                     nest, nla, u8, u16, u32)

# Errors a bad request may get: anything else (or none at all) is a bug.
ALLOWED = {0, errno.EINVAL, errno.ERANGE, errno.EEXIST, errno.ENOENT,
           errno.EOPNOTSUPP, errno.EAFNOSUPPORT, errno.ENOSPC,
           errno.EMSGSIZE, errno.E2BIG,
           # A VIP that is no local address; a port a source uses.
           errno.EADDRNOTAVAIL, errno.EADDRINUSE}


# ---- Random requests ----------------------------------------------------

def rand_payload(r):
    n = r.choice([0, 1, 2, 3, 4, 5, 6, 8, 12, 15, 16, 17, 20, 32,
                  r.randrange(0, 300), r.randrange(0, 4000)])
    if r.random() < 0.3:
        return bytes(n)
    return bytes(r.getrandbits(8) for _ in range(n))


def rand_attr(r, depth=0):
    t = r.randrange(0, 20)
    if r.random() < 0.15:
        t |= NLA_F_NESTED
    if r.random() < 0.05:
        t |= NLA_F_NET_BYTEORDER
    if depth < 40 and r.random() < 0.2:
        return nla(t | NLA_F_NESTED,
                   b"".join(rand_attr(r, depth + 1)
                            for _ in range(r.randrange(0, 4))))
    return nla(t, rand_payload(r))


def deep_nest(r, depth, t=A.TASK_SOURCES):
    inner = u8(A.SOURCE_COEF, 1)
    for _ in range(depth):
        inner = nest(r.randrange(0, 12) if r.random() < 0.5 else t, inner)
    return inner


def source(r, i):
    attrs = [nla(A.SOURCE_ADDR, bytes([10, 0, 11 + i % 50, 2])),
             u16(A.SOURCE_PORT, 8000 + i),
             u8(A.SOURCE_COEF, r.randrange(1, 256))]
    if r.random() < 0.3:
        attrs.append(u8(A.SOURCE_FRAG, i))
    return nest(i, *attrs)


def valid_add(r, tid=None, k=None):
    """A TASK_ADD that the kernel accepts, if the id and VIP:port are
    free and memory allows."""
    tid = tid if tid is not None else r.randrange(1, 64)
    k = k if k is not None else r.randrange(1, 33)
    attrs = [u32(A.TASK_ID, tid), nla(A.TASK_VIP, bytes([10, 99, 0, 1])),
             u16(A.TASK_PORT, 7000 + tid),
             nest(A.TASK_SOURCES, *[source(r, i) for i in range(k)]),
             u32(A.TASK_BUFFER_SIZE, r.choice([4096, 8192, 65536]))]
    if r.random() < 0.3:
        attrs += [nla(A.TASK_CLIENT, bytes([10, 0, 1, 0])),
                  u8(A.TASK_CLIENT_PREFIX, 24)]
    if r.random() < 0.3:
        attrs += [u32(A.TASK_HANDSHAKE_TIMEOUT, 1000),
                  u32(A.TASK_IDLE_TIMEOUT, 5000),
                  u32(A.TASK_LINGER_TIMEOUT, 0)]
    return attrs


def mutate(r, attrs):
    """One to three changes to a list of encoded attributes."""
    attrs = list(attrs)
    for _ in range(r.randrange(1, 4)):
        op = r.randrange(9)
        i = r.randrange(len(attrs)) if attrs else 0
        if op == 0 and attrs:
            del attrs[i]
        elif op == 1:
            attrs.insert(i, rand_attr(r))
        elif op == 2 and attrs and len(attrs[i]) >= 4:
            # Same type, other length.
            t = struct.unpack_from("=H", attrs[i], 2)[0]
            attrs[i] = nla(t, rand_payload(r))
        elif op == 3 and attrs:
            attrs.insert(i, attrs[i])            # duplicate
        elif op == 4 and attrs and len(attrs[i]) >= 4:
            # Flip the nested flag.
            a = bytearray(attrs[i])
            a[3] ^= NLA_F_NESTED >> 8
            attrs[i] = bytes(a)
        elif op == 5 and attrs and len(attrs[i]) >= 4:
            # nla_len past the end of the message, or below the header.
            a = bytearray(attrs[i])
            struct.pack_into("=H", a, 0, r.choice(
                [0, 1, 3, len(a) + 4, 0xffff, r.randrange(0, 0x10000)]))
            attrs[i] = bytes(a)
        elif op == 6:
            attrs.append(deep_nest(r, r.randrange(2, 200)))
        elif op == 7:
            # Sources: none, too many, or a huge list.
            n = r.choice([0, 33, 64, 300])
            attrs.append(nest(A.TASK_SOURCES,
                              *[source(r, j) for j in range(n)]))
        elif op == 8 and attrs:
            # Truncate the last attribute in the middle.
            attrs[-1] = attrs[-1][:r.randrange(0, len(attrs[-1]) + 1)]
    return attrs


class Checker:
    def __init__(self):
        self.n = 0
        self.errs = {}
        self.nomsg = 0
        self.bad = []

    def check(self, what, cmd, msgs):
        self.n += 1
        err, msg = error_of(msgs)
        self.errs[err] = self.errs.get(err, 0) + 1
        if err not in ALLOWED:
            self.bad.append(f"{what}: errno {err} ({os.strerror(err)})")
        # Errors of the family's own commands must say why.
        elif err and CMD.GET_INFO <= cmd <= CMD.STATS_GET and not msg:
            self.nomsg += 1
            if err != errno.EOPNOTSUPP:
                self.bad.append(f"{what}: errno {err} without a message")
        return err

    def summary(self, name):
        errs = " ".join(f"{errno.errorcode.get(e, e) if e else 'ok'}={n}"
                        for e, n in sorted(self.errs.items()))
        print(f"{name}: {self.n} requests; {errs}")
        for b in self.bad[:10]:
            print("  " + b)
        return not self.bad


def fuzz(seed, iterations):
    r = random.Random(int(seed))
    g = Genl()
    c = Checker()
    # Every command up to TASK_SET, and numbers no command has.
    cmds = list(range(CMD.UNSPEC, CMD.TASK_SET + 1)) + [200, 255]
    for it in range(int(iterations)):
        cmd = r.choice(cmds + [CMD.TASK_ADD] * 6 + [CMD.TASK_GET] * 2)
        kind = r.randrange(10)
        if kind < 4 and cmd == CMD.TASK_ADD:
            attrs = mutate(r, valid_add(r))
        elif kind < 6:
            attrs = [rand_attr(r) for _ in range(r.randrange(0, 12))]
        elif kind < 7:
            attrs = [deep_nest(r, r.randrange(1, 500))]
        elif kind < 8:
            # A huge attribute (up to the 64 KiB a nla_len can say).
            attrs = [nla(r.choice([A.TASK_SOURCES, A.TASK_VIP, A.TASK_ID, 0,
                                   15, A.TASK_SOURCES | NLA_F_NESTED]),
                         bytes(r.randrange(60000, 65500)))]
        elif kind < 9:
            attrs = mutate(r, [u32(A.TASK_ID, r.randrange(0, 70))])
        else:
            attrs = valid_add(r) if cmd == CMD.TASK_ADD else \
                [u32(A.TASK_ID, r.randrange(1, 64))]
        body = b"".join(attrs)
        flags = NLM_F_ACK
        if r.random() < 0.2:
            flags |= NLM_F_DUMP
        version = 1 if r.random() < 0.9 else r.randrange(256)
        reserved = 0 if r.random() < 0.95 else r.randrange(1, 0x10000)
        what = f"#{it} cmd {cmd} flags {flags:#x} {len(body)} bytes"
        try:
            if r.random() < 0.03:
                # A message cut inside the genl header, or longer than
                # what was sent: the core must refuse it, and answer.
                hdr = struct.pack("=BBH", cmd, version, reserved)
                full = hdr + body
                cut = full[:r.randrange(0, 4)]
                seq = g.send_raw(g.family, NLM_F_REQUEST | NLM_F_ACK, cut)
                c.check(what + " (cut)", -1, g.answer(seq, NLM_F_ACK))
                continue
            msgs = g.request(cmd, body, flags, version, reserved)
        except (OSError, ValueError) as e:
            if isinstance(e, OSError) and e.errno == errno.EMSGSIZE:
                c.check(what, -1, [])
                continue
            c.bad.append(f"{what}: {e}")
            break
        c.check(what, cmd, msgs)
        if it % 200 == 199:
            c.check("flush", CMD.TASK_FLUSH, g.request(CMD.TASK_FLUSH))
    g.request(CMD.TASK_FLUSH)
    return c.summary(f"fuzz seed {seed}")


def race(seed, seconds):
    r = random.Random(int(seed))
    g = Genl()
    c = Checker()
    end = time.time() + float(seconds)
    while time.time() < end:
        op = r.randrange(6)
        tid = r.randrange(1, 9)
        try:
            if op == 0:
                cmd = CMD.TASK_ADD
                msgs = g.request(cmd, b"".join(valid_add(r, tid,
                                                         r.randrange(1, 5))))
            elif op == 1:
                cmd = CMD.TASK_DEL
                msgs = g.request(cmd, u32(A.TASK_ID, tid))
            elif op == 2:
                cmd = CMD.TASK_GET
                msgs = g.request(cmd, b"", NLM_F_ACK | NLM_F_DUMP)
            elif op == 3:
                cmd = CMD.TASK_GET
                msgs = g.request(cmd, u32(A.TASK_ID, tid))
            elif op == 4:
                cmd = CMD.TASK_FLUSH
                msgs = g.request(cmd)
            else:
                cmd = CMD.STATS_GET
                msgs = g.request(cmd)
        except (OSError, ValueError) as e:
            c.bad.append(f"race op {op}: {e}")
            break
        c.check(f"race op {op} id {tid}", cmd, msgs)
    return c.summary(f"race seed {seed}")


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] not in ("fuzz", "race"):
        sys.exit(__doc__)
    ok = (fuzz if sys.argv[1] == "fuzz" else race)(sys.argv[2], sys.argv[3])
    sys.exit(0 if ok else 1)
