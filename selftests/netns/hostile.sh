#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Hostile input at S while a reconstruction runs: crafted segments of
# every malformed shape, to the VIP:port as A and to S's source-side port
# as a source (spoofed from A's side of the network, with ports and
# sequence numbers sniffed from the live connection), one at a time, each
# of which must be dropped and counted for its own reason (bytes in the
# window with a timestamp older than the leg's last one among them: PAWS,
# which guards a stream past 4 GiB against old duplicates); then a SYN
# flood at the VIP:port.  Each time the reconstruction must still be
# byte-exact, and (checked by the VM harness) the kernel must not
# complain.  Last, a flood from unroutable addresses at the idle task
# must take nothing.  Packets are built with scapy (hostile.py).
#
# Topology: ../lib/topo.sh with three sources, A -- S (VIP on lo) -- B1..B3.
# The link to A is slowed down while the packets arrive, so that the
# transfer is still running.
set -u
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/ec.sh"

here=$(cd "$(dirname "$0")" && pwd)
PY=/usr/bin/python3
FLOOD=${ECP_FLOOD_SYNS:-20000}
topo_init hs

# drops ID: "reason count" lines of task ID's drop counters.
drops() {
	ecq $S -j task show id "$1" -s |
		jq -r '[.. | objects | select(has("drops")) | .drops][0] //
		       {} | to_entries[] | "\(.key) \(.value)"'
}

# drop_count FILE REASON: the count of REASON in a drops() listing.
drop_count() {
	awk -v r="$2" '$1 == r { n = $2 } END { print n + 0 }' "$1"
}

pp modprobe ecproxy
topo_setup 1 3 || exit 1
if ! $PY -c 'import scapy.layers.inet' 2>/dev/null; then
	tap_skip "hostile input" "python3-scapy missing (scripts/deps.sh)"
	tap_done
	exit
fi
# Slow A's link so that the transfer outlives the attack (scapy is slow
# under emulation, and each shape is judged on its own): a 2 MiB fragment
# takes 65 s at 256 kbit/s.  The link is sped up once the attack is over.
pp ip netns exec $S tc qdisc add dev to-a1 root netem rate 256kbit

# ---- Crafted segments ----------------------------------------------------

ec_prep 1 isal-cauchy 3 2 0 $((6 << 20))
ip netns exec $A $PY "$here/hostile.py" crafted "$tmp/ready" "$tmp/shapes" \
	$VIP 7001 to-s ${B}1 to-s 10.0.11.2 8001 $S "$ECCTL" 1 \
	2> "$tmp/crafted.err" &
cpid=$!
if ! wait_for 300 test -e "$tmp/ready"; then
	tap_fail "crafted: packet generator ready" "$(cat "$tmp/crafted.err")"
fi
EC_TIMEOUT=300 ec_fetch 1 &
apid=$!
if wait $cpid; then
	tap_ok "crafted: every shape sent during the transfer"
else
	tap_fail "crafted: every shape sent during the transfer" \
		"$(cat "$tmp/crafted.err")"
fi
cat "$tmp/crafted.err" "$tmp/shapes" >&2
running=$(ecq $S -j task show id 1 -s |
	  jq -r '[.. | objects | select(has("conns")) | .conns][0]')
pp ip netns exec $S tc qdisc change dev to-a1 root netem rate 100mbit
wait $apid
ec_verify "crafted: reconstruction byte-exact under malformed segments" 1
if [ "$running" = 1 ]; then
	tap_ok "crafted: the transfer outlived the attack"
else
	tap_fail "crafted: the transfer outlived the attack" "connections $running"
fi
# Each shape must have been dropped and counted for its own reason.
for reason in bad_csum out_of_window truncated bad_options bad_flags paws; do
	n=$(grep -c " $reason " "$tmp/shapes")
	bad=$(grep "^FAIL $reason " "$tmp/shapes")
	if [ "$n" -gt 0 ] && [ -z "$bad" ]; then
		tap_ok "crafted: $reason: each of $n shapes dropped and counted"
	else
		tap_fail "crafted: $reason: each of $n shapes dropped and counted" "$bad"
	fi
done
ec_reported 1 'connections 1 done 1 failed 0' "crafted: one connection, closed cleanly"
ec_stop_servers
wait_for 10 ec_conn_idle 1

# ---- SYN flood -----------------------------------------------------------

# meminfo KEY: the field of /proc/meminfo, kB.
meminfo() {
	awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo
}

# The flooder builds its packets first (slow under emulation), then
# waits for the go, given once A's connection is up; at 256 kbit/s the
# 2 MiB transfer would take 65 s, the flood lasts at most 3 s, and the
# link is sped up once the flood is over.
pp ip netns exec $S tc qdisc change dev to-a1 root netem rate 256kbit
ec_prep 2 isal-cauchy 3 2 0 $((6 << 20))
ip netns exec $A $PY "$here/hostile.py" flood "$tmp/go" $VIP 7002 "$FLOOD" 3 \
	> "$tmp/flood.out" 2> "$tmp/flood.err" &
fpid=$!
wait_for 300 test -e "$tmp/go.ready"
EC_TIMEOUT=300 ec_fetch 2 &
apid=$!
wait_for 60 sh -c "ip netns exec $S '$ECCTL' task show id 2 -s | grep -q 'state established'"
sync
echo 2 > /proc/sys/vm/drop_caches
slab0=$(meminfo Slab)
avail0=$(meminfo MemAvailable)
syn_recv0=$(ip netns exec $S ss -tnH state syn-recv | wc -l)
start=$(date +%s%N)
touch "$tmp/go"
wait $fpid
el=$((($(date +%s%N) - start) / 1000000))
sent=$(cat "$tmp/flood.out")
slab1=$(meminfo Slab)
avail1=$(meminfo MemAvailable)
syn_recv1=$(ip netns exec $S ss -tnH state syn-recv | wc -l)
conn_during=$(ecq $S -j task show id 2 -s |
	      jq -r '[.. | objects | select(has("conns")) | .conns][0]')
pp ip netns exec $S tc qdisc change dev to-a1 root netem rate 100mbit
wait $apid
ec_verify "flood: reconstruction byte-exact under a SYN flood" 2
drops 2 > "$tmp/drops2"
cat "$tmp/flood.err" "$tmp/drops2" >&2
busy=$(drop_count "$tmp/drops2" busy)
echo "# SYN flood: ${sent:-0} SYNs in $el ms; busy drops $busy," \
	"no-memory drops $(drop_count "$tmp/drops2" no_memory);" \
	"Slab ${slab0} -> ${slab1} kB ($((slab1 - slab0)) kB);" \
	"MemAvailable ${avail0} -> ${avail1} kB;" \
	"SYN-RECV sockets at S ${syn_recv0} -> ${syn_recv1}"
# Each SYN is answered (a RST) and forgotten: no connection, no socket,
# no memory kept.  Some SYNs may be lost before S (veth backlog), so
# busy may be below sent, never above.
if [ "${sent:-0}" -gt 0 ] && [ "$busy" -gt 0 ] && [ "$busy" -le "$sent" ]; then
	tap_ok "flood: $busy of $sent SYNs dropped as busy"
else
	tap_fail "flood: $busy of ${sent:-0} SYNs dropped as busy" "$(cat "$tmp/flood.err")"
fi
if [ "$conn_during" = 1 ] && [ "$syn_recv1" -le "$syn_recv0" ]; then
	tap_ok "flood: no connection nor half-open socket per SYN"
else
	tap_fail "flood: no connection nor half-open socket per SYN" \
		"connections $conn_during, SYN-RECV $syn_recv0 -> $syn_recv1"
fi
# 64 bytes a SYN would already be 1.2 MiB for 20000 SYNs; what moves
# the figure is the kernel's own churn (socat, page tables, skb caches).
if [ $((slab1 - slab0)) -lt 1024 ]; then
	tap_ok "flood: slab grew $((slab1 - slab0)) kB (bound 1024 kB)"
else
	tap_fail "flood: slab grew $((slab1 - slab0)) kB (bound 1024 kB)"
fi
out=$(ecin $S stats)
echo "$out" >&2
ec_stop_servers
wait_for 10 ec_conn_idle 2

# The same spoofed clients at an idle task: S has no route back to them
# (198.18.0.0/15), so no SYN may start a connection nor take the task.
conns0=$(ecq $S -j task show id 2 -s |
	 jq -r '[.. | objects | select(has("conns")) | .conns][0]')
ip netns exec $A $PY "$here/hostile.py" flood "$tmp/go2" $VIP 7002 2000 3 \
	> "$tmp/flood2.out" 2> "$tmp/flood2.err" &
fpid=$!
wait_for 300 test -e "$tmp/go2.ready"
touch "$tmp/go2"
wait $fpid
sent=$(cat "$tmp/flood2.out")
wait_for 5 sh -c "ip netns exec $S '$ECCTL' -j task show id 2 -s | jq -e '.[0].stats.drops.no_route > 0' >/dev/null"
drops 2 > "$tmp/drops3"
noroute=$(drop_count "$tmp/drops3" no_route)
conns1=$(ecq $S -j task show id 2 -s |
	 jq -r '[.. | objects | select(has("conns")) | .conns][0]')
if [ "${sent:-0}" -gt 0 ] && [ "$noroute" -gt 0 ] && [ "$noroute" -le "$sent" ] &&
   [ "$conns1" = "$conns0" ] && ec_conn_idle 2; then
	tap_ok "idle flood from unroutable addresses: $noroute of $sent SYNs dropped as no-route, task idle"
else
	tap_fail "idle flood from unroutable addresses: dropped as no-route, task idle" \
		"no_route $noroute of ${sent:-0}, connections $conns0 -> $conns1"
fi
tap_check "tasks deleted after the attack" ecin $S task flush

tap_done
