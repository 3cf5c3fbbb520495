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

# The client's ACK of S's SYN-ACK lost, and its answer to S's first
# repeat: socat sends nothing, so only S's repeats draw its ACKs.  S
# repeats every second, and the third answer completes the read within
# the 3 s handshake timeout (doubling, the next repeat came at 3 s, when
# the timeout reset the read).
pp topo_drop_first_acks $A $((7000 + n)) 2
ec_recon "the client's first two ACKs lost: byte-exact" \
	$n isal-cauchy 3 2 0 30000
tap_check "both were lost" test "$(topo_dropped $A)" -eq 2
pp topo_undrop $A
n=$((n + 1))

# Statistics of the 1 MiB case: everything out that came in, once.
ec_reported 5 " out 1048576 segments" "stats: bytes out of the 1 MiB fragment"

# two_sources ID N...: task ID on port 7000 + ID, of B1 and B2 (each
# coefficient 1) on port 8000 + ID, where each Bn named serves nothing.
two_sources() {
	local n
	ecin $S task add id "$1" vip $VIP port $((7000 + $1)) \
		source 10.0.11.2:$((8000 + $1)) coef 1 \
		source 10.0.12.2:$((8000 + $1)) coef 1 >&2
	for n in "${@:2}"; do
		ec_serve "$n" $((8000 + $1)) /dev/null
	done
}

# A source whose port is closed: A is reset within the handshake.
two_sources 20 2
# connect_fails DESC PORT: A's connect to VIP:PORT must fail; sets el to
# the milliseconds it took, as ecp-cli says ("... after S seconds"): it
# times connect() itself, so process start-up under emulation does not
# count.
connect_fails() {
	tap_expect_fail "$1" timeout 10 ip netns exec $A "$PROGS/ecp-cli" \
		$VIP "$2" 2> "$tmp/connect.err"
	cat "$tmp/connect.err" >&2
	el=$(awk '{ for (i = 1; i < NF; i++)
		if ($i == "after") printf "%d", $(i + 1) * 1000 }' "$tmp/connect.err")
}
# Baseline: a closed port of S's own stack.
connect_fails "closed local port: A's connect fails" 9001
base=$el
connect_fails "closed source port: A's connect fails" 7020
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

# A source that never answers (B1 drops S's SYNs): S repeats them, and
# 3 s after A's SYN the handshake timeout refuses A's connect (A repeats
# its SYN at 1 s and 3 s), naming the source.
two_sources 22 2
pp topo_drop ${B}1 tcp dport 8022
connect_fails "silent source: A's connect fails" 7022
tap_check "silent source: refused at the handshake timeout (${el:-?} ms, 3000 due)" \
	test "${el:-0}" -ge 2900 -a "${el:-0}" -lt 4000
pp topo_undrop ${B}1
ec_stop_servers
ec_reported 22 'failed 1 .*last-error handshake-timeout (source 0)' \
	"silent source: reported as its handshake timeout"

# A client that never acks S's SYN-ACK (S drops its ACKs before the
# module sees them): S repeats the SYN-ACK every second, and resets A
# 3 s after the first, naming no peer.
two_sources 23 1 2
pp topo_drop $S tcp dport 7023 "tcp flags & (syn | ack | fin | rst) == ack"
start=$(date +%s%N)
tap_expect_fail "silent client: A is reset" \
	timeout 10 ip netns exec $A "$PROGS/ecp-cli" $VIP 7023 2> "$tmp/mute.err"
el=$((($(date +%s%N) - start) / 1000000))
cat "$tmp/mute.err" >&2
tap_check "silent client: S repeated its SYN-ACK twice ($(topo_dropped $S) ACKs dropped)" \
	test "$(topo_dropped $S)" -ge 3
tap_check "silent client: reset at the handshake timeout ($el ms, 3000 due)" \
	test "$el" -ge 2900 -a "$el" -lt 5000
pp topo_undrop $S
ec_stop_servers
ec_reported 23 'failed 1 .*last-error handshake-timeout$' \
	"silent client: reported as a handshake timeout of no peer"

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
