#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# MTUs a router meets: fragments from a source and from the client (S
# reassembles them before its hook), a smaller path MTU beyond S's first
# hop on the client's and on a source's path (S honours ICMP
# "fragmentation needed", as TCP does), the MSS bounds (a 65535-byte MTU
# and a client announcing 48), and jumbo frames with loss.  No conntrack
# in S: its defragmentation must come from ecproxy itself.
#
#   A1 -- a1-r1 == a1-r2 -- S -- b1-r1 == b1-r2 -- B1     == : MTU varies
#   A2 ------------------- S ------------------- B2, B3
set -u
. "$(dirname "$0")/../lib/ec.sh"

TOPO_VIA="a1 b1"
topo_init mtu
ec_prog ecp-srv
ec_prog ecp-cli
pp modprobe ecproxy
topo_setup 2 3 || exit 1
A1=$A
A2=$P-a2

# frags NS: IP fragments the router NS made so far.
frags() {
	ip netns exec "$1" awk '/^Ip:/ { if (n++) print $NF }' /proc/net/snmp
}

# pmtu_updates ID: task ID's count of ICMP-lowered MSSes.
pmtu_updates() {
	ec_stats "$1" .stats.pmtu_updates
}

# --- fragments -------------------------------------------------------------
# B1 and A1 send without DF (no path MTU discovery): the 1000-byte middle
# link fragments their segments, and S must see each one whole.
pp topo_via_mtu b1 1000
pp topo_via_mtu a1 1000
pp ip netns exec ${B}1 sysctl -qw net.ipv4.ip_no_pmtu_disc=1
pp ip netns exec $A1 sysctl -qw net.ipv4.ip_no_pmtu_disc=1
ec_recon "a source's segments fragmented on the way: byte-exact" 1 \
	isal-cauchy 3 2 0 $((256 << 10))
tap_check "they were fragmented (b1-r2)" test "$(frags $P-b1-r2)" -gt 0
# The client's request, cut into fragments; S's own segments to A1 keep
# DF, and A1's path is too narrow for them (the ICMP path, below).
EC_REQ=4000 EC_CLIENT=prog ec_recon "the client's request fragmented on the way: byte-exact" 2 \
	isal-cauchy 3 2 0 $((256 << 10))
tap_check "it was fragmented (a1-r2)" test "$(frags $P-a1-r2)" -gt 0
pp ip netns exec ${B}1 sysctl -qw net.ipv4.ip_no_pmtu_disc=0
pp ip netns exec $A1 sysctl -qw net.ipv4.ip_no_pmtu_disc=0

# --- path MTU beyond the first hop -------------------------------------------
# A1 announces 1460, S's first hop takes 1500; the middle link takes
# 1280 and answers S's DF segments with ICMP.  Without PMTU discovery the
# transfer stalls until the idle timeout.
pp topo_via_mtu a1 1280
pp topo_via_mtu b1 1500
pp ip netns exec $S ip route flush cache
EC_TASK="timeout idle 20000" ec_recon "a smaller MTU on the client's path: byte-exact" 3 \
	isal-cauchy 3 2 0 $((1 << 20))
tap_check "S lowered the client's MSS from ICMP" test "$(pmtu_updates 3)" -ge 1
# S forwards A2's request to the sources cut to their MSS; B1's path
# narrows to 1280 beyond S's first hop.  A2 repeats what is lost, and S
# cuts it smaller once ICMP told it.
pp topo_via_mtu b1 1280
pp topo_via_mtu a1 1500
A=$A2 EC_REQ=4000 EC_CLIENT=prog EC_TASK="timeout idle 20000" \
	ec_recon "a smaller MTU on a source's path, a 4000-byte request: byte-exact" 4 \
	isal-cauchy 3 2 0 $((256 << 10))
tap_check "S lowered the source's MSS from ICMP" test "$(pmtu_updates 4)" -ge 1
pp topo_via_mtu b1 1500

# --- MSS bounds --------------------------------------------------------------
# A2's link at 65535: it announces MSS 65495, beyond what one GSO packet
# of S's carries; S must clamp it, not build empty segments for ever.
pp topo_mtu a2 65535
A=$A2 ec_recon "client MSS 65495 (MTU 65535): byte-exact" 5 \
	isal-cauchy 3 2 0 $((4 << 20))
pp topo_mtu a2 1500
# A client announcing 48, the smallest MSS a TCP may send (Linux itself
# announces 88 at least): A1's router clamps the MSS of its SYN, as
# routers do.  S sends it 48-byte segments, as a Linux sender would.
tap_check "A1's router clamps MSS to 48" ip netns exec $P-a1-r2 nft -f - <<'EOF'
table ip mss {
	chain forward {
		type filter hook forward priority mangle;
		tcp flags syn tcp option maxseg size set 48
	}
}
EOF
ec_recon "client MSS 48: byte-exact" 6 isal-cauchy 3 2 0 $((64 << 10))
tap_check "S sent it 48-byte segments" \
	test "$(ec_stats 6 .stats.segs_out)" -ge $(((64 << 10) / 3 / 48))
# Below 48 S sends 48 all the same, never 1-byte segments.
pp ip netns exec $P-a1-r2 nft flush chain ip mss forward
pp ip netns exec $P-a1-r2 nft add rule ip mss forward \
	tcp flags syn tcp option maxseg size set 1
ec_recon "client MSS 1: byte-exact" 7 isal-cauchy 3 2 0 $((64 << 10))
# Segments re-sent (a loss or a timeout on a loaded machine) are counted
# in both SEGS_OUT and RESENT: the stream's own are the difference.
tap_check "S sent it 48-byte segments, not 1-byte ones" \
	test "$(ec_stats 7 '.stats.segs_out - .stats.resent')" -le $(((64 << 10) / 3 / 48 + 4))
pp ip netns exec $P-a1-r2 nft delete table ip mss

# --- jumbo frames with loss --------------------------------------------------
# At MTU 9000 every segment S re-sends is 8948 bytes: page fragments, not
# a contiguous allocation in softirq (KUnit ecproxy_xmit checks the
# layout); here, that the stream arrives whole.
for x in a2 b2 b3; do
	pp topo_mtu $x 9000
done
pp ip netns exec $S tc qdisc replace dev to-a2 root netem loss 2%
# The 1.4 MB fragment is ~160 such segments, and in one run of 25 none
# of them is lost (0.98^160): A2 also drops every 40th data packet it
# receives, so that there are always re-sent segments to count.
pp topo_drop_every $A2 40 ip saddr $VIP tcp sport 7008 meta length \> 1000
pp ip netns exec $S sysctl -qw net.ipv4.route.flush=1
A=$A2 ec_prep 8 isal-cauchy 3 2 0 $((4 << 20)) >&2
A=$A2 ec_fetch 8
A=$A2 ec_verify "MTU 9000, 2% loss towards the client: byte-exact" 8
tap_check "segments were re-sent" test "$(ec_stats 8 .stats.resent)" -gt 0
pp topo_undrop $A2
ec_stop_servers

tap_done
