#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Generic netlink for the ecproxy family, for the selftests.

The numbers are read from uapi/linux/ecproxy.h at import: every #define
and enum constant of the header is an attribute of this module
(ECPROXY_CMD_TASK_ADD, ECPROXY_A_TASK_ID, ECPROXY_GENL_NAME ...), and
CMD and A hold them without their prefixes (CMD.TASK_ADD, A.TASK_ID,
A.SOURCE_COEF, A.INFO_VERSION).

  nla(type, payload), u8/u16/u32(type, value), nest(type, *attrs)
                        encode attributes (payloads padded)
  attrs(buf)            decode: [(type, payload)], the flag bits masked
  Genl()                a socket with extended acks, the family resolved:
    .request(cmd, attrs=b"", flags=NLM_F_ACK, version=GENL_VERSION,
             reserved=0)
                        send one request, return its answer's messages
    .send_raw(mtype, flags, body), .answer(seq, flags)
  error_of(msgs)        (errno, extended-ack message) of an answer

As a command, for what ecctl cannot send:
  ecpgenl.py CMD [ATTR:TYPE:VALUE ...]
      One request: CMD names a command (TASK_SET), ATTR an attribute
      (TASK_ID), TYPE is u8, u16, u32, ip or str.  Prints "ok", or the
      error as "-ERRNO MESSAGE" (the extended ack's message).
"""
import os
import random
import re
import socket
import struct
import sys
import types

HEADER = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                      "..", "..", "uapi", "linux", "ecproxy.h")

NETLINK_GENERIC = 16
SOL_NETLINK = 270
NETLINK_EXT_ACK = 11
NLM_F_REQUEST, NLM_F_MULTI, NLM_F_ACK = 1, 2, 4
NLM_F_DUMP = 0x300
NLM_F_CAPPED, NLM_F_ACK_TLVS = 0x100, 0x200
NLMSG_ERROR, NLMSG_DONE = 2, 3
NLMSGERR_ATTR_MSG = 1
GENL_ID_CTRL = 0x10
CTRL_CMD_GETFAMILY, CTRL_ATTR_FAMILY_ID, CTRL_ATTR_FAMILY_NAME = 3, 1, 2
NLA_F_NESTED, NLA_F_NET_BYTEORDER = 0x8000, 0x4000
NLA_TYPE_MASK = 0x3fff


def parse_header(path):
    """{name: value} of the header's #defines (numbers, strings, and
    expressions of those) and enum constants, in the header's order."""
    text = open(path).read()
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    names = {}

    def value(expr):
        expr = expr.strip()
        if re.fullmatch(r'"[^"]*"', expr):
            return expr[1:-1]
        tokens = re.findall(r"0[xX][0-9a-fA-F]+|\d+|\w+|<<|>>|[-+|()]", expr)
        if "".join(tokens) != re.sub(r"\s+", "", expr):
            raise ValueError(expr)
        return eval(" ".join(str(names[t]) if t[0].isalpha() or t[0] == "_"
                             else t for t in tokens), {"__builtins__": {}})

    items = re.finditer(r"^[ \t]*#define[ \t]+(\w+)[ \t]+(\S.*)$"
                        r"|\benum\b[^{;]*\{([^}]*)\}", text, re.M)
    for m in items:
        if m.group(1):
            try:
                names[m.group(1)] = value(m.group(2))
            except (ValueError, KeyError, SyntaxError):
                pass
            continue
        n = 0
        for item in m.group(3).split(","):
            name, _, expr = item.partition("=")
            if name.strip():
                n = value(expr) if expr.strip() else n
                names[name.strip()] = n
                n += 1
    return names


def _prefixed(names, prefix):
    return types.SimpleNamespace(**{k[len(prefix):]: v for k, v in names.items()
                                    if k.startswith(prefix)})


_names = parse_header(HEADER)
globals().update(_names)
GENL_NAME = _names["ECPROXY_GENL_NAME"]
GENL_VERSION = _names["ECPROXY_GENL_VERSION"]
CMD = _prefixed(_names, "ECPROXY_CMD_")
A = _prefixed(_names, "ECPROXY_A_")


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


def attrs(buf):
    """[(type, payload)] of a run of attributes; stops at a broken one."""
    out = []
    while len(buf) >= 4:
        alen, atype = struct.unpack_from("=HH", buf)
        if alen < 4:
            break
        out.append((atype & NLA_TYPE_MASK, buf[4:alen]))
        buf = buf[(alen + 3) & ~3:]
    return out


def _extack_msg(tlvs):
    for atype, payload in attrs(tlvs):
        if atype == NLMSGERR_ATTR_MSG:
            return payload.rstrip(b"\0").decode()
    return None


def error_of(msgs):
    """(errno, extack message) of the answer, errno 0 for success."""
    for mtype, mflags, payload in msgs:
        if mtype == NLMSG_ERROR:
            err = -struct.unpack_from("=i", payload)[0]
            msg = None
            if mflags & NLM_F_ACK_TLVS:
                # The request is echoed unless capped: skip it.
                olen = struct.unpack_from("=I", payload, 4)[0]
                echoed = 16 if mflags & NLM_F_CAPPED else (olen + 3) & ~3
                msg = _extack_msg(payload[4 + echoed:])
            return err, msg
        if mtype == NLMSG_DONE:
            err = -struct.unpack_from("=i", payload)[0] if payload else 0
            # A dump's error: its extended ack follows the errno.
            msg = _extack_msg(payload[4:]) if mflags & NLM_F_ACK_TLVS else None
            return err, msg
    return 0, None


class Genl:
    def __init__(self, name=GENL_NAME):
        self.s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW,
                               NETLINK_GENERIC)
        self.s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
        self.s.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
        self.s.bind((0, 0))
        self.s.settimeout(10)
        self.seq = random.getrandbits(16)
        self.family = self.resolve(name)

    def resolve(self, name):
        msgs = self.request(CTRL_CMD_GETFAMILY,
                            nla(CTRL_ATTR_FAMILY_NAME, name.encode() + b"\0"),
                            version=1, family=GENL_ID_CTRL)
        for mtype, _, payload in msgs:
            if mtype == GENL_ID_CTRL:
                for atype, value in attrs(payload[4:]):
                    if atype == CTRL_ATTR_FAMILY_ID:
                        return struct.unpack_from("=H", value)[0]
        sys.exit(f"ecpgenl: no generic netlink family {name}")

    def send_raw(self, mtype, flags, body, nlmsg_len=None):
        self.seq = (self.seq + 1) & 0xffffffff
        length = 16 + len(body) if nlmsg_len is None else nlmsg_len
        self.s.send(struct.pack("=IHHII", length, mtype, flags, self.seq, 0)
                    + body)
        return self.seq

    def request(self, cmd, attrs=b"", flags=NLM_F_ACK,
                version=GENL_VERSION, reserved=0, family=None):
        body = struct.pack("=BBH", cmd, version, reserved) + attrs
        seq = self.send_raw(self.family if family is None else family,
                            NLM_F_REQUEST | flags, body)
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


_ENCODE = {
    "u8": u8, "u16": u16, "u32": u32,
    "ip": lambda t, v: nla(t, socket.inet_aton(v)),
    "str": lambda t, v: nla(t, v.encode() + b"\0"),
}


def main(argv):
    if len(argv) < 2 or not hasattr(CMD, argv[1]):
        sys.exit(__doc__)
    body = b""
    for spec in argv[2:]:
        name, kind, v = spec.split(":", 2)
        body += _ENCODE[kind](getattr(A, name),
                              v if kind in ("ip", "str") else int(v, 0))
    err, msg = error_of(Genl().request(getattr(CMD, argv[1]), body))
    print("ok" if err == 0 else f"-{err} {msg or ''}")


if __name__ == "__main__":
    main(sys.argv)
