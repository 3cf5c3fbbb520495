#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The applications at both ends are ordinary TCP programs: the survivors
# served by socat and by a plain socket server (progs/ecp-srv), A played by
# socat and by a plain client (progs/ecp-cli), each with a request (the
# other files run them without).  Every source must get A's bytes exactly before
# it answers; socat's A half-closes after its request (A's FIN reaches the
# sources before their data), ecp-cli's does not.  RS(3,2) of ../lib/topo.sh.
set -u
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/ec.sh"

topo_init rca
pp modprobe ecproxy
topo_setup 1 3 || exit 1

# Fragments of 96 KiB + 1 (not a multiple of the MSS); a 2937-byte
# request is three segments at MSS 1460.
size=$((3 * (96 << 10) + 3))
# Without a request every pairing runs elsewhere (socat both sides in
# recon.sh and the other recon files, prog sources in recon_big and
# coding_rate, an ecp-cli client in recon_sack and router_mtu).
id=1
EC_REQ=2937
for EC_SERVER in socat prog; do
	for EC_CLIENT in socat prog; do
		ec_recon "sources $EC_SERVER, A $EC_CLIENT, a $EC_REQ-byte request" \
			$id isal-cauchy 3 2 $((id % 5)) $size
		id=$((id + 1))
	done
done

# A one-byte request, and a request of 64 KiB (it fills A's initial window
# towards S; every copy is acked by all sources before A may send more).
EC_SERVER=prog EC_CLIENT=prog EC_REQ=1 ec_recon \
	"sources prog, A prog, a 1-byte request" $id jerasure-rs 3 2 1 $size
id=$((id + 1))
EC_SERVER=prog EC_CLIENT=prog EC_REQ=65536 ec_recon \
	"sources prog, A prog, a 64 KiB request" $id jerasure-rs 3 2 4 $size

# ecp-cli's own report matches what it wrote.
got=$(sed -n 's/^bytes \([0-9]*\) seconds .*/\1/p' "$tmp/$id/err")
if [ "$got" = "$(stat -c %s "$tmp/$id/out")" ]; then
	tap_ok "ecp-cli reports the bytes it received ($got)"
else
	tap_fail "ecp-cli reports the bytes it received" "$(cat "$tmp/$id/err")"
fi

tap_done
