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
"""
import errno
import os
import random
import socket
import struct
import sys
import time

NETLINK_GENERIC = 16
NETLINK_EXT_ACK = 11
NLM_F_REQUEST, NLM_F_MULTI, NLM_F_ACK = 1, 2, 4
NLM_F_DUMP = 0x300
NLMSG_ERROR, NLMSG_DONE = 2, 3
NLM_F_ACK_TLVS = 0x200
NLMSGERR_ATTR_MSG = 1
GENL_ID_CTRL = 0x10
CTRL_CMD_GETFAMILY, CTRL_ATTR_FAMILY_ID, CTRL_ATTR_FAMILY_NAME = 3, 1, 2
NLA_F_NESTED, NLA_F_NET_BYTEORDER = 0x8000, 0x4000

# uapi/linux/ecproxy.h
CMD_GET_INFO, CMD_TASK_ADD, CMD_TASK_DEL, CMD_TASK_GET = 1, 2, 3, 4
CMD_TASK_FLUSH, CMD_STATS_GET = 5, 6
A_ID, A_VIP, A_PORT, A_CLIENT, A_PREFIX, A_SOURCES = 2, 3, 4, 5, 6, 7
A_BUFFER, A_HANDSHAKE, A_IDLE, A_LINGER = 8, 9, 10, 11
S_ADDR, S_PORT, S_COEF, S_FRAG = 2, 3, 4, 5

# Errors a bad request may get: anything else (or none at all) is a bug.
ALLOWED = {0, errno.EINVAL, errno.ERANGE, errno.EEXIST, errno.ENOENT,
           errno.EOPNOTSUPP, errno.EAFNOSUPPORT, errno.ENOSPC,
           errno.EMSGSIZE, errno.E2BIG}


def nla(atype, payload):
    payload = payload[:0xffff - 4]
    hdr = struct.pack("=HH", 4 + len(payload), atype)
    return hdr + payload + b"\0" * (-len(payload) % 4)


def u8(t, v):
    return nla(t, struct.pack("=B", v & 0xff))


def u16(t, v):
    return nla(t, struct.pack("=H", v & 0xffff))


def u32(t, v):
    return nla(t, struct.pack("=I", v & 0xffffffff))


def nest(t, *attrs):
    return nla(t | NLA_F_NESTED, b"".join(attrs))


class Genl:
    def __init__(self):
        self.s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW,
                               NETLINK_GENERIC)
        self.s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
        self.s.setsockopt(270, NETLINK_EXT_ACK, 1)
        self.s.bind((0, 0))
        self.s.settimeout(10)
        self.seq = random.getrandbits(16)
        self.family = self.resolve()

    def resolve(self):
        msgs = self.request(GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1,
                            nla(CTRL_ATTR_FAMILY_NAME, b"ecproxy\0"))
        for mtype, _, payload in msgs:
            if mtype == GENL_ID_CTRL:
                attrs = payload[4:]
                while len(attrs) >= 4:
                    alen, atype = struct.unpack_from("=HH", attrs)
                    if atype == CTRL_ATTR_FAMILY_ID:
                        return struct.unpack_from("=H", attrs, 4)[0]
                    attrs = attrs[(alen + 3) & ~3:]
        sys.exit("nlfuzz: no ecproxy family")

    def send_raw(self, mtype, flags, body, nlmsg_len=None):
        self.seq = (self.seq + 1) & 0xffffffff
        length = 16 + len(body) if nlmsg_len is None else nlmsg_len
        self.s.send(struct.pack("=IHHII", length, mtype, flags, self.seq, 0)
                    + body)
        return self.seq

    def request(self, mtype, cmd, version, attrs, flags=NLM_F_ACK,
                reserved=0):
        body = struct.pack("=BBH", cmd, version, reserved) + attrs
        seq = self.send_raw(mtype, NLM_F_REQUEST | flags, body)
        return self.answer(seq, flags)

    def answer(self, seq, flags):
        """Messages up to the error/ack or NLMSG_DONE of request seq."""
        out = []
        while True:
            data = self.s.recv(1 << 20)
            off = 0
            while off + 16 <= len(data):
                mlen, mtype, mflags, mseq, _ = struct.unpack_from(
                    "=IHHII", data, off)
                if mlen < 16 or off + mlen > len(data):
                    raise ValueError("malformed answer")
                payload = data[off + 16:off + mlen]
                off += (mlen + 3) & ~3
                if mseq != seq:
                    # Left over from an earlier request (an ack after a
                    # dump's DONE): not the answer to this one.
                    continue
                out.append((mtype, mflags, payload))
                if mtype in (NLMSG_ERROR, NLMSG_DONE):
                    return out
                if not mflags & NLM_F_MULTI and not flags & NLM_F_ACK:
                    return out


def error_of(msgs):
    """(errno, extack message) of the answer, errno 0 for success."""
    for mtype, mflags, payload in msgs:
        if mtype == NLMSG_ERROR:
            err = -struct.unpack_from("=i", payload)[0]
            msg = None
            if mflags & NLM_F_ACK_TLVS:
                # The request is echoed unless capped: skip it.
                olen = struct.unpack_from("=I", payload, 4)[0]
                tlvs = payload[4 + ((olen + 3) & ~3 if not mflags & 0x100
                                    else 16):]
                while len(tlvs) >= 4:
                    alen, atype = struct.unpack_from("=HH", tlvs)
                    if alen < 4:
                        break
                    if atype == NLMSGERR_ATTR_MSG:
                        msg = tlvs[4:alen].rstrip(b"\0").decode()
                    tlvs = tlvs[(alen + 3) & ~3:]
            return err, msg
        if mtype == NLMSG_DONE:
            err = -struct.unpack_from("=i", payload)[0] if payload else 0
            # A dump's error: its extended ack follows the errno.
            msg = None
            tlvs = payload[4:] if mflags & NLM_F_ACK_TLVS else b""
            while len(tlvs) >= 4:
                alen, atype = struct.unpack_from("=HH", tlvs)
                if alen < 4:
                    break
                if atype == NLMSGERR_ATTR_MSG:
                    msg = tlvs[4:alen].rstrip(b"\0").decode()
                tlvs = tlvs[(alen + 3) & ~3:]
            return err, msg
    return 0, None


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


def deep_nest(r, depth, t=A_SOURCES):
    inner = u8(S_COEF, 1)
    for _ in range(depth):
        inner = nest(r.randrange(0, 12) if r.random() < 0.5 else t, inner)
    return inner


def source(r, i):
    attrs = [nla(S_ADDR, bytes([10, 0, 11 + i % 50, 2])),
             u16(S_PORT, 8000 + i), u8(S_COEF, r.randrange(1, 256))]
    if r.random() < 0.3:
        attrs.append(u8(S_FRAG, i))
    return nest(i, *attrs)


def valid_add(r, tid=None, k=None):
    """A TASK_ADD that the kernel accepts, if the id and VIP:port are
    free and memory allows."""
    tid = tid if tid is not None else r.randrange(1, 64)
    k = k if k is not None else r.randrange(1, 33)
    attrs = [u32(A_ID, tid), nla(A_VIP, bytes([10, 99, 0, 1])),
             u16(A_PORT, 7000 + tid),
             nest(A_SOURCES, *[source(r, i) for i in range(k)]),
             u32(A_BUFFER, r.choice([4096, 8192, 65536]))]
    if r.random() < 0.3:
        attrs += [nla(A_CLIENT, bytes([10, 0, 1, 0])), u8(A_PREFIX, 24)]
    if r.random() < 0.3:
        attrs += [u32(A_HANDSHAKE, 1000), u32(A_IDLE, 5000),
                  u32(A_LINGER, 0)]
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
            attrs.append(nest(A_SOURCES, *[source(r, j) for j in range(n)]))
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
        elif err and 1 <= cmd <= 6 and not msg:
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
    cmds = [0, 1, 2, 3, 4, 5, 6, 7, 200, 255]
    for it in range(int(iterations)):
        cmd = r.choice(cmds + [CMD_TASK_ADD] * 6 + [CMD_TASK_GET] * 2)
        kind = r.randrange(10)
        if kind < 4 and cmd == CMD_TASK_ADD:
            attrs = mutate(r, valid_add(r))
        elif kind < 6:
            attrs = [rand_attr(r) for _ in range(r.randrange(0, 12))]
        elif kind < 7:
            attrs = [deep_nest(r, r.randrange(1, 500))]
        elif kind < 8:
            # A huge attribute (up to the 64 KiB a nla_len can say).
            attrs = [nla(r.choice([A_SOURCES, A_VIP, A_ID, 0, 15,
                                   A_SOURCES | NLA_F_NESTED]),
                         bytes(r.randrange(60000, 65500)))]
        elif kind < 9:
            attrs = mutate(r, [u32(A_ID, r.randrange(0, 70))])
        else:
            attrs = valid_add(r) if cmd == CMD_TASK_ADD else \
                [u32(A_ID, r.randrange(1, 64))]
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
            msgs = g.request(g.family, cmd, version, body, flags, reserved)
        except (OSError, ValueError) as e:
            if isinstance(e, OSError) and e.errno == errno.EMSGSIZE:
                c.check(what, -1, [])
                continue
            c.bad.append(f"{what}: {e}")
            break
        c.check(what, cmd, msgs)
        if it % 200 == 199:
            c.check("flush", CMD_TASK_FLUSH,
                    g.request(g.family, CMD_TASK_FLUSH, 1, b""))
    g.request(g.family, CMD_TASK_FLUSH, 1, b"")
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
                msgs = g.request(g.family, CMD_TASK_ADD, 1,
                                 b"".join(valid_add(r, tid,
                                                    r.randrange(1, 5))))
                cmd = CMD_TASK_ADD
            elif op == 1:
                msgs = g.request(g.family, CMD_TASK_DEL, 1, u32(A_ID, tid))
                cmd = CMD_TASK_DEL
            elif op == 2:
                msgs = g.request(g.family, CMD_TASK_GET, 1, b"",
                                 NLM_F_ACK | NLM_F_DUMP)
                cmd = CMD_TASK_GET
            elif op == 3:
                msgs = g.request(g.family, CMD_TASK_GET, 1, u32(A_ID, tid))
                cmd = CMD_TASK_GET
            elif op == 4:
                msgs = g.request(g.family, CMD_TASK_FLUSH, 1, b"")
                cmd = CMD_TASK_FLUSH
            else:
                msgs = g.request(g.family, CMD_STATS_GET, 1, b"")
                cmd = CMD_STATS_GET
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
