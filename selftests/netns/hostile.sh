#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Hostile input at S while a reconstruction runs: crafted segments of
# every malformed shape, to the VIP:port as A and to S's source-side port
# as a source (spoofed from A's side of the network, with ports and
# sequence numbers sniffed from the live connection), then a SYN flood at
# the VIP:port.  Each time the reconstruction must still be byte-exact,
# the right drop counters must grow, and (checked by the VM harness) the
# kernel must not complain.  Packets are built with scapy (hostile.py).
#
# Topology as in recon.sh: A -- S (VIP on lo) -- B1..B3.  The link to A
# is slowed down so that the transfer is still running when the packets
# arrive.
set -u
. "$(dirname "$0")/../lib/tap.sh"

top=$(cd "$(dirname "$0")/../.." && pwd)
here=$(cd "$(dirname "$0")" && pwd)
ECCTL=${ECCTL:-$top/tools/ecctl/ecctl}
PY=/usr/bin/python3
S=ecp-hs-s
A=ecp-hs-a
B=ecp-hs-b
VIP=10.99.0.1
NB=3
FLOOD=${ECP_FLOOD_SYNS:-20000}
tmp=$(mktemp -d)
pids=()

cleanup() {
	local p
	for p in "${pids[@]}"; do
		kill "$p" 2>/dev/null
	done
	ip netns del $S 2>/dev/null
	ip netns del $A 2>/dev/null
	for i in $(seq 1 $NB); do
		ip netns del $B$i 2>/dev/null
	done
	rm -rf "$tmp"
}
trap cleanup EXIT

ecin() {
	echo "[+] ip netns exec $S ecctl $*" >&2
	ip netns exec $S "$ECCTL" "$@"
}

setup() {
	local i
	pp ip netns add $S
	pp ip netns add $A
	ip -n $S link set lo up
	ip -n $A link set lo up
	pp ip -n $S addr add $VIP/32 dev lo
	pp ip netns exec $S sysctl -qw net.ipv4.ip_forward=1
	pp ip -n $S link add s-a type veth peer name a-s netns $A
	ip -n $S addr add 10.0.1.1/24 dev s-a
	ip -n $S link set s-a up
	ip -n $A addr add 10.0.1.2/24 dev a-s
	ip -n $A link set a-s up
	ip -n $A route add default via 10.0.1.1
	for i in $(seq 1 $NB); do
		pp ip netns add $B$i
		ip -n $B$i link set lo up
		pp ip -n $S link add s-b$i type veth peer name b-s netns $B$i
		ip -n $S addr add 10.0.$((10 + i)).1/24 dev s-b$i
		ip -n $S link set s-b$i up
		ip -n $B$i addr add 10.0.$((10 + i)).2/24 dev b-s
		ip -n $B$i link set b-s up
		ip -n $B$i route add default via 10.0.$((10 + i)).1
	done
}

# serve I FILE: B_I serves FILE on port 8000 until killed.
serve() {
	ip netns exec $B$1 socat -U TCP-LISTEN:8000,reuseaddr,fork \
		OPEN:"$2",rdonly 2>/dev/null &
	pids+=($!)
	wait_for 5 ip netns exec $B$1 sh -c 'ss -ltnH | grep -q ":8000 "'
}

stop_servers() {
	local p i
	for p in "${pids[@]}"; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	pids=()
	for i in $(seq 1 $NB); do
		ip netns pids $B$i | xargs -r kill 2>/dev/null
	done
}

conn_idle() {
	ecin task show id "$1" -s | grep -q 'state none'
}

# drops ID: "reason count" lines of task ID's drop counters.
drops() {
	ip netns exec $S "$ECCTL" -j task show id "$1" -s |
		jq -r '[.. | objects | select(has("drops")) | .drops][0] //
		       {} | to_entries[] | "\(.key) \(.value)"'
}

# drop_count FILE REASON: the count of REASON in a drops() listing.
drop_count() {
	awk -v r="$2" '$1 == r { n = $2 } END { print n + 0 }' "$1"
}

# prepare ID SIZE: encode SIZE random bytes as RS(3,2), serve fragments
# 1..3, add task ID rebuilding fragment 0 on VIP:7000+ID.
prepare() {
	local id=$1 dir=$tmp/$1 i
	mkdir -p "$dir"
	head -c "$2" /dev/urandom > "$dir/in"
	pp "$ECCTL" code encode isal-cauchy k 3 m 2 in "$dir/in" out "$dir" >&2
	for i in 1 2 3; do
		serve $i "$dir/frag.$i"
	done
	ecin task add id "$id" vip $VIP port $((7000 + id)) code isal-cauchy \
		k 3 m 2 lost 0 source 10.0.11.2:8000:1 \
		source 10.0.12.2:8000:2 source 10.0.13.2:8000:3 >&2
}

# fetch ID: A reads the task's VIP:port into $tmp/ID/out, in the
# background; sets apid.
fetch() {
	echo "[+] ip netns exec $A socat -u TCP:$VIP:$((7000 + $1)) - > out" >&2
	timeout 300 ip netns exec $A socat -u TCP:$VIP:$((7000 + $1)) - \
		> "$tmp/$1/out" 2> "$tmp/$1/err" &
	apid=$!
}

# check_exact DESC ID: what A got is the lost fragment.
check_exact() {
	local dir=$tmp/$2
	if [ "$(sha256sum < "$dir/frag.0")" = "$(sha256sum < "$dir/out")" ]; then
		tap_ok "$1"
	else
		tap_fail "$1" "got $(stat -c %s "$dir/out") bytes, want $(stat -c %s "$dir/frag.0"); $(cat "$dir/err")"
		ecin task show id "$2" -s >&2
	fi
}

pp modprobe ecproxy
setup
if ! $PY -c 'import scapy.layers.inet' 2>/dev/null; then
	tap_skip "hostile input" "python3-scapy missing (scripts/deps.sh)"
	tap_done
	exit
fi
# Slow A's link so that the transfer outlives the attack (scapy builds
# the packets slowly under emulation): a 2 MiB fragment takes 17 s at
# 1 Mbit/s, 4 s at 4 Mbit/s.
pp ip netns exec $S tc qdisc add dev s-a root netem rate 1mbit

# ---- Crafted segments ----------------------------------------------------

prepare 1 $((6 << 20))
ip netns exec $A $PY "$here/hostile.py" crafted "$tmp/ready" "$tmp/sent" \
	$VIP 7001 a-s ${B}1 b-s 10.0.11.2 8000 2> "$tmp/crafted.err" &
cpid=$!
if ! wait_for 300 test -e "$tmp/ready"; then
	tap_fail "crafted: packet generator ready" "$(cat "$tmp/crafted.err")"
fi
fetch 1
if wait $cpid; then
	tap_ok "crafted: every shape sent during the transfer"
else
	tap_fail "crafted: every shape sent during the transfer" \
		"$(cat "$tmp/crafted.err")"
fi
cat "$tmp/crafted.err" >&2
wait $apid
check_exact "crafted: reconstruction byte-exact under malformed segments" 1
drops 1 > "$tmp/drops1"
cat "$tmp/sent" "$tmp/drops1" >&2
# Each shape was sent twice; every one must have been dropped for its
# reason (more is fine: the real peers can send a stray one too).
for reason in bad_csum out_of_window truncated bad_options bad_flags; do
	sent=$(drop_count "$tmp/sent" $reason)
	got=$(drop_count "$tmp/drops1" $reason)
	if [ "$sent" -gt 0 ] && [ "$got" -ge $((2 * sent)) ]; then
		tap_ok "crafted: $reason counted ($got drops, $((2 * sent)) sent)"
	else
		tap_fail "crafted: $reason counted ($got drops, $((2 * sent)) sent)"
	fi
done
out=$(ecin task show id 1 -s)
echo "$out" >&2
if echo "$out" | grep -q 'connections 1 done 1 failed 0'; then
	tap_ok "crafted: one connection, closed cleanly"
else
	tap_fail "crafted: one connection, closed cleanly" "$out"
fi
stop_servers
wait_for 10 conn_idle 1

# ---- SYN flood -----------------------------------------------------------

# meminfo KEY: the field of /proc/meminfo, kB.
meminfo() {
	awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo
}

# The flooder builds its packets first (slow under emulation), then
# waits for the go, given once A's connection is up; 2 Mbit/s keeps the
# 2 MiB transfer going for 8 s, the flood lasts at most 3 s.
pp ip netns exec $S tc qdisc change dev s-a root netem rate 2mbit
prepare 2 $((6 << 20))
ip netns exec $A $PY "$here/hostile.py" flood "$tmp/go" $VIP 7002 "$FLOOD" 3 \
	> "$tmp/flood.out" 2> "$tmp/flood.err" &
fpid=$!
wait_for 300 test -e "$tmp/go.ready"
fetch 2
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
conn_during=$(ip netns exec $S "$ECCTL" -j task show id 2 -s |
	      jq -r '[.. | objects | select(has("conns")) | .conns][0]')
wait $apid
check_exact "flood: reconstruction byte-exact under a SYN flood" 2
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
out=$(ecin stats)
echo "$out" >&2
stop_servers
wait_for 10 conn_idle 2
tap_check "tasks deleted after the attack" ecin task flush

tap_done
