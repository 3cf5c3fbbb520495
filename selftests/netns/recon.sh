#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# End-to-end reconstruction through the proxy.  Fragments are encoded with
# ecctl, the survivors are served by socat on B1..Bk, A reads VIP:port
# with socat and what it gets must be the lost fragment, byte for byte.
#
#                 +---------------------------+
#   +-------+     |            S              |     +--------+
#   |   A   |-----| veth 10.0.1.1             |-----| B1 .2  | 10.0.11.0/24
#   | .1.2  |     | VIP 10.99.0.1 (on lo)     |-----| B2 .2  | 10.0.12.0/24
#   +-------+     | ecproxy tasks             | ... | Bk .2  | 10.0.(10+k).0/24
#                 +---------------------------+     +--------+
#
# Every B listens on port 8000 (socat, one fork per connection).  Tasks
# listen on VIP:7000 + n.  A fresh set of fragments per case.
set -u
. "$(dirname "$0")/../lib/tap.sh"

top=$(cd "$(dirname "$0")/../.." && pwd)
ECCTL=${ECCTL:-$top/tools/ecctl/ecctl}
S=ecp-rc-s
A=ecp-rc-a
B=ecp-rc-b
VIP=10.99.0.1
NB=6
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
	local p
	for p in "${pids[@]}"; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	pids=()
}

conn_idle() {
	ecin task show id "$1" -s | grep -q 'state none'
}

# recon DESC TASK PROFILE K M LOST SIZE: encode SIZE random bytes, serve
# the K lowest surviving fragments, rebuild fragment LOST through the
# proxy and compare.
recon() {
	local desc=$1 id=$2 profile=$3 k=$4 m=$5 lost=$6 size=$7
	local dir=$tmp/$id i n=0 srcs=() want got
	mkdir -p "$dir"
	head -c "$size" /dev/urandom > "$dir/in"
	pp "$ECCTL" code encode "$profile" k "$k" m "$m" in "$dir/in" out "$dir" >&2
	for i in $(seq 0 $((k + m - 1))); do
		[ "$i" != "$lost" ] || continue
		[ $n -lt "$k" ] || break
		n=$((n + 1))
		serve $n "$dir/frag.$i"
		srcs+=(source 10.0.$((10 + n)).2:8000:$i)
	done
	ecin task add id "$id" vip $VIP port $((7000 + id)) \
		code "$profile" k "$k" m "$m" lost "$lost" "${srcs[@]}" >&2
	echo "[+] ip netns exec $A socat -u TCP:$VIP:$((7000 + id)) - > out" >&2
	timeout 60 ip netns exec $A socat -u TCP:$VIP:$((7000 + id)) - \
		> "$dir/out" 2> "$dir/err"
	want=$(sha256sum < "$dir/frag.$lost")
	got=$(sha256sum < "$dir/out")
	if [ "$want" = "$got" ]; then
		tap_ok "$desc"
	else
		tap_fail "$desc" "got $(stat -c %s "$dir/out") bytes, want $(stat -c %s "$dir/frag.$lost"); $(cat "$dir/err")"
		ecin task show id "$id" -s >&2
	fi
	stop_servers
	wait_for 10 conn_idle "$id"
}

pp modprobe ecproxy
setup

# MSS on a 1500 MTU link: 1460; the fragment is ceil(size / k).
mss=1460
n=1
for sz in 1 $(((mss - 1) * 3)) $((mss * 3)) $(((mss + 1) * 3)) $((3 << 20)); do
	recon "isal-cauchy RS(3,2) lost 0, fragment of $(((sz + 2) / 3)) bytes" \
		$n isal-cauchy 3 2 0 $sz
	n=$((n + 1))
done
recon "jerasure RS(6,3) lost parity 7, fragment of 512 KiB" \
	$n jerasure-rs 6 3 7 $((3 << 20))
n=$((n + 1))

# Loss between S and A (S re-sends from its buffer) and between a source
# and S (the source retransmits; bytes it already contributed are skipped).
if ip netns exec $S tc qdisc add dev s-a root netem loss 2% 2>/dev/null; then
	pp ip netns exec ${B}1 tc qdisc add dev b-s root netem loss 2%
	recon "2% loss towards A and from B1, fragment of 256 KiB" \
		$n isal-cauchy 3 2 0 $((3 << 18))
	out=$(ecin task show id $n -s)
	echo "$out" >&2
	if echo "$out" | grep -q 'resent [1-9]' &&
	   echo "$out" | grep -q 'dup-bytes [1-9]'; then
		tap_ok "loss: re-sent to A, duplicates from B1 skipped"
	else
		tap_fail "loss: re-sent to A, duplicates from B1 skipped" "$out"
	fi
	pp ip netns exec $S tc qdisc del dev s-a root
	pp ip netns exec ${B}1 tc qdisc del dev b-s root
else
	tap_skip "2% loss towards A and from B1" "no netem"
	tap_skip "loss: re-sent to A, duplicates from B1 skipped" "no netem"
fi
n=$((n + 1))

# Statistics of the 1 MiB case: everything out that came in, once.
out=$(ecin task show id 5 -s)
echo "$out" >&2
if echo "$out" | grep -q " out 1048576 segments"; then
	tap_ok "stats: bytes out of the 1 MiB fragment"
else
	tap_fail "stats: bytes out of the 1 MiB fragment" "$out"
fi

# A source whose port is closed: A is reset within the handshake.
ecin task add id 20 vip $VIP port 7020 source 10.0.11.2:8001 coef 1 \
	source 10.0.12.2:8000 coef 1 >&2
serve 2 /dev/null
# Baseline: the same client against a closed port of S's own stack, so
# that process start-up under emulation does not count.
start=$(date +%s%N)
timeout 5 ip netns exec $A socat -u TCP:$VIP:9001 - 2>/dev/null
base=$((($(date +%s%N) - start) / 1000000))
start=$(date +%s%N)
tap_expect_fail "closed source port: A's connect fails" \
	timeout 5 ip netns exec $A socat -u TCP:$VIP:7020 - 
el=$((($(date +%s%N) - start) / 1000000))
# A SYN retransmission would take 1 s more.
if [ $el -lt $((base + 800)) ]; then
	tap_ok "closed source port: reset in ${el} ms (closed local port: ${base} ms)"
else
	tap_fail "closed source port: reset in ${el} ms (closed local port: ${base} ms)"
fi
stop_servers
out=$(ecin task show id 20 -s)
echo "$out" >&2
# One connection: A's first SYN was answered with the RST, no retry.
if echo "$out" | grep -q 'connections 1 done 0 failed 1 .*last-error source-refused (source 0)'; then
	tap_ok "closed source port: reported, reset on the first SYN"
else
	tap_fail "closed source port: reported, reset on the first SYN" "$out"
fi

# bytes_out_gt ID N: task ID has sent A more than N bytes.
bytes_out_gt() {
	local out
	out=$(ip netns exec $S "$ECCTL" task show id "$1" -s 2>/dev/null |
	      sed -n 's/.*bytes in [0-9]* out \([0-9]*\) .*/\1/p')
	[ -n "$out" ] && [ "$out" -gt "$2" ]
}

# endless ID: tasks ID's sources stream zeros forever to A, in the
# background; sets apid.
endless() {
	local i
	for i in 1 2 3; do
		serve $i /dev/zero
	done
	ecin task add id "$1" vip $VIP port $((7000 + $1)) \
		source 10.0.11.2:8000 coef 1 source 10.0.12.2:8000 coef 2 \
		source 10.0.13.2:8000 coef 3 >&2
	ip netns exec $A socat -u TCP:$VIP:$((7000 + $1)) /dev/null \
		2> "$tmp/endless.err" &
	apid=$!
}

# gone PID: the process exits within 5 s.
gone() {
	wait_for 5 sh -c "! kill -0 $1"
}

# Deleting a task mid-transfer resets A (and the sources).
endless 21
if wait_for 20 bytes_out_gt 21 100000 && pp ecin task del id 21 &&
   gone $apid; then
	tap_ok "task deleted mid-transfer: A reset"
else
	tap_fail "task deleted mid-transfer: A reset" "$(cat "$tmp/endless.err")"
	kill $apid 2>/dev/null
fi
wait $apid 2>/dev/null
stop_servers

# Other ports of the VIP go to S's own stack, untouched.
ip netns exec $S socat -U TCP-LISTEN:9000,bind=$VIP,reuseaddr \
	SYSTEM:'echo plain' 2>/dev/null &
pids+=($!)
wait_for 5 ip netns exec $S sh -c 'ss -ltnH | grep -q ":9000 "'
got=$(timeout 5 ip netns exec $A socat -u TCP:$VIP:9000 - 2>&1)
if [ "$got" = plain ]; then
	tap_ok "other VIP port untouched"
else
	tap_fail "other VIP port untouched" "got: $got"
fi
stop_servers

# Module unload mid-transfer: A is reset, the module goes cleanly (the
# debug VM checks for splats and leaks), and comes back for later tests.
endless 22
if wait_for 20 bytes_out_gt 22 100000 && pp modprobe -r ecproxy &&
   gone $apid; then
	tap_ok "module unloaded mid-transfer: A reset"
else
	tap_fail "module unloaded mid-transfer: A reset" "$(cat "$tmp/endless.err")"
	kill $apid 2>/dev/null
fi
wait $apid 2>/dev/null
stop_servers
tap_check "module loads again" modprobe ecproxy

tap_done
