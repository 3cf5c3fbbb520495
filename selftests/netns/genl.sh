#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The module in a namespace topology: opening the "ecproxy" generic netlink
# family autoloads it, the family is visible in every network namespace,
# and it unloads cleanly with namespaces alive and after they are gone.
# Topology: ../lib/topo.sh with one client and no storage node:
#
#   +-------------+          +-------------+
#   |   ns $S     |          |   ns $A     |
#   |  (router)   |  veth    |  (client)   |
#   | to-a1       +----------+ to-s        |
#   | 10.0.1.1/24 |          | 10.0.1.2/24 |
#   +-------------+          +-------------+
set -u
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/topo.sh"

topo_init genl

loaded() { [ -d /sys/module/ecproxy ]; }
family_listed() { ip netns exec "$1" genl ctrl list 2>/dev/null | grep -q "Name: ecproxy$"; }

pp modprobe -r ecproxy 2>/dev/null
tap_check "module is not loaded at start" sh -c '! test -d /sys/module/ecproxy'

topo_setup 1 0
tap_check "topology: A reaches S" wait_for 10 ip netns exec $A ping -c1 -W1 10.0.1.1

tap_check "opening the family from a netns autoloads the module" \
	ip netns exec $S genl ctrl get name ecproxy
tap_check "module is loaded after autoload" loaded
tap_check "family visible in the other netns" family_listed $A
tap_check "family visible in the initial netns" sh -c 'genl ctrl list | grep -q "Name: ecproxy$"'
tap_check "modinfo shows description and version" \
	sh -c 'modinfo ecproxy | grep -q "^description:.*erasure" && modinfo ecproxy | grep -q "^version:"'
tap_check "modinfo shows the genl family alias" \
	sh -c 'modinfo ecproxy | grep -q "alias:.*net-pf-16-proto-16-family-ecproxy"'
# The packaging promise: description, license, version and every parameter
# with its description, as the README lists them.
want_ver=$(sed -n 's/^#define ECP_VERSION "\(.*\)"/\1/p' "$top/kmod/ecproxy.h")
mi=$(modinfo ecproxy)
echo "$mi" | sed 's/^/# /' >&2
got_ver=$(modinfo -F version ecproxy)
if [ -n "$want_ver" ] && [ "$got_ver" = "$want_ver" ]; then
	tap_ok "modinfo version is kmod/ecproxy.h's ECP_VERSION ($got_ver)"
else
	tap_fail "modinfo version is ECP_VERSION" "modinfo $got_ver, source $want_ver"
fi
tap_check "modinfo: description and license" sh -c \
	'[ "$(modinfo -F description ecproxy)" = "In-network erasure-code reconstruction proxy" ] &&
	 [ "$(modinfo -F license ecproxy)" = GPL ]'
for p in "netns_mem_max:Bytes of task buffers each network namespace may reserve (ulong)" \
	 "gf_impl:GF(2^8) implementation: auto, scalar, ssse3, avx2, avx512, gfni, gfni512" \
	 "gf_bench_ms:Benchmark time per implementation at load (ms) (uint)" \
	 "gf_bench:Measured mul_acc MB/s per implementation" \
	 "prompt_sources:Answer a source's (or writer's) segments past a hole with duplicate ACKs so that it fast-retransmits (default: Y; N leaves recovery to its RTO, for comparison) (bool)" \
	 "ack_segs:Ack a source's in-order data every N segments, the rest within ack_delay_us (default: 8; 2 acks as often as a Linux receiver) (uint)" \
	 "ack_delay_us:Ack a source's in-order data left over by ack_segs within N microseconds (default: 1000; 50 to 200000) (uint)" \
	 "pacing:Pace what S sends each client and target over the round trip, as Linux's TCP does (default: Y; N sends what the windows allow at once, for comparison; a rate cap still paces) (bool)" \
	 "steer_by_load:With RFS on, home each new connection on the CPU with the fewest connections (default: Y; N homes it where it was accepted, as without RFS) (bool)"; do
	if modinfo -F parm ecproxy | grep -qxF "$p"; then
		tap_ok "modinfo parameter ${p%%:*} with its description"
	else
		tap_fail "modinfo parameter ${p%%:*} with its description" "$(modinfo -F parm ecproxy)"
	fi
done
tap_check "modinfo lists exactly nine parameters" \
	sh -c '[ "$(modinfo -F parm ecproxy | wc -l)" = 9 ]'
tap_check "ecctl gf reports the module's version" \
	sh -c "$ECCTL gf | grep -qx 'ecproxy $got_ver'"

tap_check "unload with namespaces alive" modprobe -r ecproxy
tap_check "module is gone" sh -c '! test -d /sys/module/ecproxy'
tap_check "family is gone" sh -c '! genl ctrl list | grep -q "Name: ecproxy$"'

tap_check "load again" modprobe ecproxy
pp ip netns del $A
pp ip netns del $S
tap_check "unload after namespace teardown" modprobe -r ecproxy
tap_check "module is gone again" sh -c '! test -d /sys/module/ecproxy'

tap_done
