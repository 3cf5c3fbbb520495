#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# End-to-end reconstruction through the proxy, topology of ../lib/topo.sh
# with six sources: fragments are encoded with ecctl, the survivors are
# served by socat on B1..Bk, A reads VIP:port with socat and what it gets
# must be the lost fragment, byte for byte.  Sizes around the MSS, loss,
# a refused source, other ports of the VIP, task delete and module
# unload mid-transfer.  Codes, programs, offloads, EBSN, concurrency and
# size have files of their own (recon_*.sh).
set -u
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/ec.sh"

topo_init rc

pp modprobe ecproxy
topo_setup 1 6 || exit 1

# MSS on a 1500 MTU link: 1460; the fragment is ceil(size / k).
mss=1460
n=1
for sz in 1 $(((mss - 1) * 3)) $((mss * 3)) $(((mss + 1) * 3)) $((3 << 20)); do
	ec_recon "isal-cauchy RS(3,2) lost 0, fragment of $(((sz + 2) / 3)) bytes" \
		$n isal-cauchy 3 2 0 $sz
	n=$((n + 1))
done
ec_recon "jerasure RS(6,3) lost parity 7, fragment of 512 KiB" \
	$n jerasure-rs 6 3 7 $((3 << 20))
n=$((n + 1))

# Loss between S and A (S re-sends from its buffer) and between a source
# and S (S prompts the source, which retransmits; bytes it already
# contributed are skipped).  netem drops 2% of what each link's sender
# queues, which are GSO packets of several segments (topo_drop_every): in
# a CI run B1 re-sent 4 segments, all repaired by its SACK, none prompted.
# So the receivers also drop every 40th data segment, about 18 holes each
# way; TSO/GSO off on the senders' links makes them single segments.
if ip netns exec $S tc qdisc add dev to-a1 root netem loss 2% 2>/dev/null; then
	pp ip netns exec $S ethtool -K to-a1 tso off gso off
	pp ip netns exec ${B}1 ethtool -K to-s tso off gso off
	pp ip netns exec ${B}1 tc qdisc add dev to-s root netem loss 2%
	pp topo_drop_every $A 40 ip saddr $VIP tcp sport $((7000 + n)) \
		meta length \> 1000
	pp topo_drop_every $S 40 ip saddr "$(topo_addr b1)" \
		tcp sport $((8000 + n)) meta length \> 1000
	ec_recon "2% loss towards A and from B1, fragment of 1 MiB" \
		$n isal-cauchy 3 2 0 $((3 << 20))
	out=$(ecin $S task show id $n -s)
	echo "$out" >&2
	if echo "$out" | grep -q 'resent [1-9]' &&
	   echo "$out" | grep -q 'prompts [1-9]'; then
		tap_ok "loss: re-sent to A from the buffer, B1 prompted to resend"
	else
		tap_fail "loss: re-sent to A from the buffer, B1 prompted to resend" "$out"
	fi
	pp topo_undrop $A
	pp topo_undrop $S
	pp ip netns exec $S tc qdisc del dev to-a1 root
	pp ip netns exec ${B}1 tc qdisc del dev to-s root
	pp ip netns exec $S ethtool -K to-a1 tso on gso on
	pp ip netns exec ${B}1 ethtool -K to-s tso on gso on
else
	tap_skip "2% loss towards A and from B1" "no netem"
	tap_skip "loss: re-sent to A from the buffer, B1 prompted to resend" "no netem"
fi
n=$((n + 1))

# A source's SYN-ACK lost: the other sources answered, so S sends B1 its
# SYN again after three of their round trips (at least a tick, 50 ms), and
# A, whose SYN-ACK comes before its own 1 s SYN timeout, does not re-send
# its SYN (its stack's TCPSynRetrans).  B1 drops the first SYN-ACK it
# sends.  The read takes less than 150 ms longer than the same read with
# nothing lost (task 19, just before): at 200 ms, the wait this had, B2 and
# B3, in SYN-RECV all along, took it as their first round trip.
EC_CLIENT=prog ec_recon "the same read with nothing lost: byte-exact" \
	19 isal-cauchy 3 2 0 30000
base=$(sed -n 's/^bytes [0-9]* seconds //p' "$tmp/19/err")
pp topo_drop_first_synack ${B}1 $((8000 + n))
syns=$(topo_nstat $A TcpExtTCPSynRetrans)
EC_CLIENT=prog ec_recon "a source's SYN-ACK lost: byte-exact" \
	$n isal-cauchy 3 2 0 30000
cat "$tmp/$n/err" >&2
took=$(sed -n 's/^bytes [0-9]* seconds //p' "$tmp/$n/err")
tap_check "it was lost" test "$(topo_dropped ${B}1)" -eq 1
tap_check "S sent B1 its SYN again" \
	test "$(ec_stats $n .stats.syns_resent)" -eq 1
tap_check "A did not re-send its SYN ($(tail -n 1 "$tmp/$n/err"))" \
	test "$(topo_nstat $A TcpExtTCPSynRetrans)" -eq "$syns"
tap_check "the loss cost less than 150 ms ($took s against $base s)" \
	awk -v a="$took" -v b="$base" 'BEGIN { exit !(a != "" && b != "" && a < b + 0.15) }'
pp topo_undrop ${B}1
n=$((n + 1))

# Statistics of the 1 MiB case: everything out that came in, once.
ec_reported 5 " out 1048576 segments" "stats: bytes out of the 1 MiB fragment"

# A source whose port is closed: A is reset within the handshake.
ecin $S task add id 20 vip $VIP port 7020 source 10.0.11.2:8001 coef 1 \
	source 10.0.12.2:8020 coef 1 >&2
ec_serve 2 8020 /dev/null
# ecp-cli times connect() itself, so process start-up under emulation does
# not count.  Baseline: a closed port of S's own stack.
tap_expect_fail "closed local port: A's connect fails" \
	ip netns exec $A "$PROGS/ecp-cli" $VIP 9001 2> "$tmp/base.err"
tap_expect_fail "closed source port: A's connect fails" \
	timeout 5 ip netns exec $A "$PROGS/ecp-cli" $VIP 7020 2> "$tmp/refused.err"
cat "$tmp/base.err" "$tmp/refused.err" >&2
# ms FILE: the milliseconds of ecp-cli's "... after S seconds".
ms() {
	awk '{ for (i = 1; i < NF; i++) if ($i == "after") printf "%d", $(i + 1) * 1000 }' "$1"
}
base=$(ms "$tmp/base.err")
el=$(ms "$tmp/refused.err")
# A SYN retransmission would take 1 s more.
if [ -n "$el" ] && [ -n "$base" ] && [ "$el" -lt $((base + 800)) ]; then
	tap_ok "closed source port: reset in ${el} ms (closed local port: ${base} ms)"
else
	tap_fail "closed source port: reset in ${el:-?} ms (closed local port: ${base:-?} ms)"
fi
ec_stop_servers
# One connection: A's first SYN was answered with the RST, no retry.
ec_reported 20 'connections 1 done 0 failed 1 .*last-error source-refused (source 0)' \
	"closed source port: reported, reset on the first SYN"

# midway ID CMD...: CMD once task ID has sent A 100000 bytes.
midway() {
	wait_for 20 ec_bytes_out_gt "$1" 100000 && pp "${@:2}"
}

# Deleting a task mid-transfer resets A (and the sources).
ec_endless 21 8021
ec_client_reset "task deleted mid-transfer: A reset" 5 midway 21 ecin $S task del id 21
ec_stop_servers

# Other ports of the VIP go to S's own stack, untouched.
ip netns exec $S socat -U TCP-LISTEN:9000,bind=$VIP,reuseaddr \
	SYSTEM:'echo plain' 2>/dev/null &
wait_for 5 topo_listening $S 9000
got=$(timeout 5 ip netns exec $A socat -u TCP:$VIP:9000 - 2>&1)
if [ "$got" = plain ]; then
	tap_ok "other VIP port untouched"
else
	tap_fail "other VIP port untouched" "got: $got"
fi
topo_kill_ns $S

# Module unload mid-transfer: A is reset, the module goes cleanly (the
# debug VM checks for splats and leaks), and comes back for later tests.
ec_endless 22 8022
ec_client_reset "module unloaded mid-transfer: A reset" 5 midway 22 modprobe -r ecproxy
ec_stop_servers
tap_check "module loads again" modprobe ecproxy

tap_done
