#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Hostile packets for selftests/netns/hostile.sh, built with scapy.

  hostile.py crafted READY OUT VIP VPORT A_IF B_NS B_IF B_ADDR B_PORT
                     S_NS ECCTL TASK
      Run in A's namespace.  Sniffs the live reconstruction on A's link
      and on one source's link (in namespace B_NS) to learn the ports and
      sequence numbers, writes READY first so that the caller can start
      the transfer, then sends every malformed shape to VIP:VPORT as A and
      to S's source-side port as the source, from A's side of the network
      (an off-path attacker spoofing both).  One shape at a time: TASK's
      drop counters (read with ECCTL in S_NS) are read before and after,
      and OUT gets one line per shape: "pass|FAIL REASON NAME [moved]".
  hostile.py flood GO VIP VPORT COUNT SECS
      Creates GO.ready once its packets are built; once the file GO
      exists, up to COUNT SYNs from 1024 spoofed clients
      to VIP:VPORT, for at most SECS seconds; prints how many were sent.
"""
import ctypes
import json
import os
import random
import socket
import subprocess
import sys
import time

from scapy.layers.inet import IP, TCP
from scapy.layers.l2 import Ether

ETH_P_ALL = 0x0003
CLONE_NEWNET = 0x40000000


def setns(path):
    libc = ctypes.CDLL(None, use_errno=True)
    fd = os.open(path, os.O_RDONLY)
    try:
        if libc.setns(fd, CLONE_NEWNET):
            raise OSError(ctypes.get_errno(), "setns " + path)
    finally:
        os.close(fd)


def sniffer(ifname):
    # ETH_P_ALL: sockets for one protocol do not see outgoing packets.
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW,
                      socket.htons(ETH_P_ALL))
    s.bind((ifname, ETH_P_ALL))
    s.settimeout(1.0)
    return s


def wait_segment(sock, match, deadline):
    """The latest TCP segment queued on sock for which match(ip, tcp)
    holds, waiting for one if there is none yet."""
    found = None
    while found is None and time.time() < deadline:
        try:
            frame = sock.recv(70000)
        except socket.timeout:
            continue
        pkt = Ether(frame)
        if IP in pkt and TCP in pkt and match(pkt[IP], pkt[TCP]):
            found = pkt[IP], pkt[TCP]
    if found is None:
        sys.exit("hostile.py: no segment seen on the live connection")
    sock.setblocking(False)
    while True:
        try:
            frame = sock.recv(70000)
        except BlockingIOError:
            return found
        pkt = Ether(frame)
        if IP in pkt and TCP in pkt and match(pkt[IP], pkt[TCP]):
            found = pkt[IP], pkt[TCP]


def raw_sender():
    return socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)


def send(sock, pkt):
    data = bytes(pkt)
    sock.sendto(data, (pkt[IP].dst, 0))


def cut(pkt, tcp_len):
    """pkt with its TCP part cut to tcp_len bytes (checksum of the cut)."""
    ip = pkt[IP]
    raw = bytes(ip[TCP])[:tcp_len]
    return IP(src=ip.src, dst=ip.dst, proto=6) / raw


def crafted(ready, outpath, vip, vport, a_if, b_ns, b_if, b_addr, b_port,
            s_ns, ecctl, task):
    vport, b_port = int(vport), int(b_port)
    home = "/proc/self/ns/net"
    home_fd = os.open(home, os.O_RDONLY)
    setns("/run/netns/" + b_ns)
    b_sniff = sniffer(b_if)
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.setns(home_fd, CLONE_NEWNET):
        sys.exit("hostile.py: setns back failed")
    a_sniff = sniffer(a_if)
    tx = raw_sender()
    open(ready, "w").close()

    deadline = time.time() + 300
    # A's side: its ACKs to the VIP carry its port, next seq and ack.
    aip, atcp = wait_segment(
        a_sniff, lambda i, t: i.dst == vip and t.dport == vport and
        "A" in t.flags and "S" not in t.flags, deadline)
    a_addr, a_port, a_seq, a_ack = aip.src, atcp.sport, atcp.seq, atcp.ack
    # The source's side: a data segment gives S's local port and the
    # source's sequence.
    bip, btcp = wait_segment(
        b_sniff, lambda i, t: i.src == b_addr and t.sport == b_port and
        len(t.payload) > 0, deadline)
    lport, b_seq, b_ack = btcp.dport, btcp.seq, btcp.ack
    b_len = len(btcp.payload)
    # The timestamps each side sends (RFC 7323), if its leg has them.
    a_ts = dict(atcp.options).get("Timestamp")
    b_ts = dict(btcp.options).get("Timestamp")
    print(f"A {a_addr}:{a_port} seq {a_seq} ack {a_ack}; "
          f"source {b_addr}:{b_port} -> {vip}:{lport} seq {b_seq} "
          f"ack {b_ack}; timestamps A {a_ts} source {b_ts}",
          file=sys.stderr)

    # Data the source has not sent yet, in S's window: accepted, it
    # would be combined into the stream ahead of the real bytes.
    ahead = (b_seq + b_len + 2 * 1448) & 0xffffffff
    junk = bytes(random.getrandbits(8) for _ in range(512))
    m = 1 << 32

    def as_a(flags="A", seq=a_seq, ack=a_ack, **kw):
        return IP(src=a_addr, dst=vip) / TCP(sport=a_port, dport=vport,
                                              flags=flags, seq=seq % m,
                                              ack=ack % m, window=512, **kw)

    def as_b(flags="A", seq=ahead, ack=b_ack, sport=b_port, dport=lport,
             **kw):
        return IP(src=b_addr, dst=vip) / TCP(sport=sport, dport=dport,
                                              flags=flags, seq=seq % m,
                                              ack=ack % m, window=512, **kw)

    bad_mss = [(2, b"\x05\xb4\x00")]          # MSS of length 5
    shapes = []
    missing = []

    def add(reason, name, pkt):
        shapes.append((reason, name, pkt))

    for side in (as_a, as_b):
        who = "A" if side is as_a else "src"
        seq0 = a_seq if side is as_a else b_seq
        add("bad_csum", f"{who} ack+data", bad_csum(side() / junk))
        add("bad_csum", f"{who} psh+data", bad_csum(side(flags="PA") / junk))
        # Out of window: sequence and ack half the space away.
        if side is as_a:
            add("out_of_window", "A seq+2^31", side(seq=a_seq + (1 << 31)) / junk)
            # Past any window S can offer A (64 KiB << 12).
            add("out_of_window", "A seq+2^28", side(seq=a_seq + (1 << 28)) / junk)
            add("out_of_window", "A ack+2^30", side(ack=a_ack + (1 << 30)))
            add("out_of_window", "A ack-2^30", side(ack=a_ack - (1 << 30)))
            add("out_of_window", "A rst seq+2^20", side(flags="R", seq=a_seq + (1 << 20)))
            add("out_of_window", "A rst/ack seq-2^31", side(flags="RA", seq=a_seq - (1 << 31)))
        else:
            add("out_of_window", "src seq+2^31", side(seq=ahead + (1 << 31)) / junk)
            add("out_of_window", "src ack+2^30", side(ack=b_ack + (1 << 30)) / junk)
            add("out_of_window", "src ack-2^31", side(ack=b_ack - (1 << 31)))
            add("out_of_window", "src rst seq+2^29", side(flags="R", seq=b_seq + (1 << 29)))
            add("out_of_window", "src rst/ack seq+2^31", side(flags="RA", seq=b_seq + (1 << 31)))
            add("out_of_window", "src rst seq-2^28", side(flags="R", seq=b_seq - (1 << 28)))
        base = side() / junk
        for n in (12, 19, 4):
            add("truncated", f"{who} header cut to {n}", cut(base, n))
        add("truncated", f"{who} doff 15, 8 bytes", side(dataofs=15) / (b"\x01" * 8))
        add("truncated", f"{who} doff 4", side(dataofs=4) / junk)
        add("truncated", f"{who} doff 2", side(dataofs=2))
        for flags in ("S", "A", "PA"):
            if side is as_b and flags == "S":
                continue
            add("bad_options", f"{who} {flags} mss of length 5",
                side(flags=flags, options=bad_mss) /
                (b"" if flags == "S" else junk))
        # Hand-made option bytes the header claims: length 0, length
        # past the end, window scale of length 4, a kind without its
        # length byte, SACK blocks that are not 8 bytes each, and
        # SACK-permitted of length 3.
        for what, opts in (("length 0", b"\x08\x00\x01\x01"),
                           ("length past end", b"\x01\x01\x08\x20"),
                           ("wscale of length 4", b"\x03\x04\x07\x00"),
                           ("kind without length", b"\x01\x01\x01\x02"),
                           ("sack of length 6",
                            b"\x05\x06\x00\x00\x00\x01"),
                           ("sack-permitted of length 3", b"\x04\x03\x00"),
                           ("timestamps of length 9",
                            b"\x08\x09" + b"\x00" * 7)):
            for flags in ("S", "A"):
                if side is as_b and flags == "S":
                    continue
                pad = opts + b"\x00" * (-len(opts) % 4)
                t = side(flags=flags)
                t[TCP].dataofs = 5 + len(pad) // 4
                raw = bytes(t[TCP])[:20] + pad + (junk if flags == "A"
                                                  else b"")
                pk = IP(src=t[IP].src, dst=t[IP].dst, proto=6) / raw
                add("bad_options", f"{who} {flags} option {what}",
                    fix_csum(pk))
        for flags in ("SF", "SR", "SFA", "SRA", "", "F", "U", "UA", "PU",
                      "FU", "FPU", "SU", "SFRPAU"):
            add("bad_flags", f"{who} flags '{flags}'",
                side(flags=flags, seq=seq0 if side is as_a else ahead,
                     urgptr=1) / junk)
        # PAWS (RFC 7323): bytes in the window, with the option and a
        # timestamp a quarter of the clock older than the side's last one,
        # as a duplicate delayed past a sequence wrap would carry.
        ts = a_ts if side is as_a else b_ts
        if ts is None:
            missing.append(f"{who}: no timestamps on the leg")
        else:
            old = [("NOP", None), ("NOP", None),
                   ("Timestamp", ((ts[0] - (1 << 30)) % m, ts[1]))]
            add("paws", f"{who} data with an old timestamp",
                side(flags="PA", seq=seq0 if side is as_a else ahead,
                     options=old) / junk)
        # RST carrying data, at exactly the expected sequence.
        add("bad_flags", f"{who} rst+data", side(flags="R", seq=seq0) / junk)
        add("bad_flags", f"{who} rst/ack+data",
            side(flags="RA", seq=seq0) / junk)

    def drops():
        r = subprocess.run(["ip", "netns", "exec", s_ns, ecctl, "-j", "task",
                            "show", "id", task, "-s"],
                           capture_output=True, text=True, check=True)
        return find_drops(json.loads(r.stdout))

    # One shape at a time, each judged by the counter it moves.  A shape
    # whose own counter did not move is sent again (up to five times in
    # all): under emulation a packet can be lost on the way (a full
    # backlog; a loaded run lost one shape three times in a row), or
    # counted after the wait, and the live transfer may move another
    # counter meanwhile, none of which says anything about the module; a
    # shape the module counts under another reason, or not at all, fails
    # every time.  The counters read after one shape are those before
    # the next: under emulation each read is slow.
    with open(outpath, "w") as out:
        after = drops()
        for reason, name, pkt in shapes:
            for attempt in range(1, 6):
                before = after
                send(tx, pkt)
                end = time.time() + 3
                while True:
                    after = drops()
                    moved = {k: after.get(k, 0) - before.get(k, 0)
                             for k in after
                             if after.get(k, 0) != before.get(k, 0)}
                    if reason in moved or time.time() > end:
                        break
                    time.sleep(0.05)
                if reason in moved:
                    break
            ok = "pass" if reason in moved else "FAIL"
            desc = ",".join(f"{k}+{v}" for k, v in sorted(moved.items()))
            out.write(f"{ok} {reason} {name} [{desc or 'nothing moved'}]"
                      f" (sent {attempt}x)\n")
            out.flush()
        for what in missing:
            out.write(f"FAIL paws {what}\n")
        # Spoofed as the source but on the wrong ports: not the module's,
        # S's own stack answers them with a RST; no effect on the transfer.
        for pkt in (as_b(sport=b_port + 1) / junk,
                    as_b(dport=lport ^ 1) / junk,
                    as_b(flags="R", sport=b_port + 1, seq=b_seq),
                    as_b(flags="R", dport=lport ^ 1, seq=b_seq)):
            send(tx, pkt)
    print(f"sent {len(shapes)} malformed shapes and 4 off-port spoofs",
          file=sys.stderr)


def find_drops(j):
    """The "drops" object anywhere in an ecctl JSON answer."""
    if isinstance(j, dict):
        if "drops" in j:
            return j["drops"]
        vals = j.values()
    elif isinstance(j, list):
        vals = j
    else:
        return None
    for v in vals:
        d = find_drops(v)
        if d is not None:
            return d
    return None


def bad_csum(p):
    """p with its TCP checksum wrong (and so never right by chance)."""
    good = IP(bytes(p))[TCP].chksum
    p[TCP].chksum = good ^ 0x5a5a
    return p


def fix_csum(p):
    """p (IP / raw TCP bytes) with a correct TCP checksum."""
    raw = bytearray(bytes(p[IP].payload))
    raw[16:18] = b"\x00\x00"
    ip = p[IP]
    src = socket.inet_aton(ip.src)
    dst = socket.inet_aton(ip.dst)
    pseudo = src + dst + bytes([0, 6]) + len(raw).to_bytes(2, "big")
    data = pseudo + bytes(raw) + (b"\x00" if len(raw) % 2 else b"")
    s = sum(int.from_bytes(data[i:i + 2], "big")
            for i in range(0, len(data), 2))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    raw[16:18] = (~s & 0xffff).to_bytes(2, "big")
    return IP(src=ip.src, dst=ip.dst, proto=6) / bytes(raw)


def flood(go, vip, vport, count, secs):
    count = int(count)
    tx = raw_sender()
    # Prebuilt: scapy is too slow to build each SYN under emulation.
    tmpl = [bytes(IP(src=f"198.18.{i >> 8 & 255}.{i & 255}", dst=vip) /
                  TCP(sport=1024 + i % 60000, dport=int(vport), flags="S",
                      seq=random.getrandbits(32),
                      options=[("MSS", 1460), ("WScale", 7)]))
            for i in range(1, 1025)]
    open(go + ".ready", "w").close()
    while not os.path.exists(go):
        time.sleep(0.05)
    deadline = time.time() + float(secs)
    sent = 0
    for i in range(count):
        if i % 256 == 0 and time.time() > deadline:
            break
        try:
            tx.sendto(tmpl[i % len(tmpl)], (vip, 0))
            sent += 1
        except OSError:
            pass
    print(sent)


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "crafted":
        crafted(*sys.argv[2:14])
    elif cmd == "flood":
        flood(*sys.argv[2:7])
    else:
        sys.exit(__doc__)
