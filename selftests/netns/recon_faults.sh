#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The fault matrix: one reconstruction (RS(3,2), a 1 MiB fragment; 4 MiB
# where the fault is rare) under each netem fault on the source links
# (B1..B3 towards S) and on A's link (both ways), and a tbf straggler.
# Each case must be byte-exact, and the statistic that proves the fault's
# path was taken must have moved:
#
#   source loss       S prompted the lagging source (prompts)
#   A-link loss       S re-sent from its buffer (resent)
#   reordering        duplicate ACKs to the sources (prompts)
#   duplication       duplicate source bytes skipped, not applied (dups)
#   corruption        corrupted segments dropped by checksum (bad_csum)
#   jitter            exact is the whole claim
#   straggler         the buffer stayed within its bound, window clamps,
#                     and the transfer ran at the straggler's pace
#
# A "# matrix:" line per case gives the time against the clean run; the
# dead-peer faults (a source or A killed or cut off) are in faults.sh and
# the closed port in fallback.sh.
set -u
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/ec.sh"

topo_init rfm
pp modprobe ecproxy
topo_setup 1 3 || exit 1

if ! ip netns exec $S tc qdisc add dev to-a1 root netem loss 0% 2>/dev/null; then
	tap_skip "fault matrix" "no netem in this kernel"
	tap_done
	exit
fi
ip netns exec $S tc qdisc del dev to-a1 root

# Segment-sized packets on the faulty links: netem drops, duplicates or
# delays a GSO packet whole.  Checksums are verified on S's side of the
# source links: veth would otherwise mark what netem corrupted as
# verified, which a real NIC would not.
for i in 1 2 3; do
	pp ip netns exec $B$i ethtool -K to-s tso off gso off
	pp ip netns exec $S ethtool -K to-b$i rx off
done
pp ip netns exec $A ethtool -K to-s tso off gso off

# netem_on WHERE SPEC...: a netem qdisc on the source links' sending ends
# (WHERE src), on both ends of A's link (a), or both (all).
netem_on() {
	local where=$1 i
	shift
	if [ "$where" != a ]; then
		for i in 1 2 3; do
			ip netns exec $B$i tc qdisc replace dev to-s root netem "$@" limit 100000
		done
	fi
	if [ "$where" != src ]; then
		ip netns exec $S tc qdisc replace dev to-a1 root netem "$@" limit 100000
		ip netns exec $A tc qdisc replace dev to-s root netem "$@" limit 100000
	fi
}

faults_off() {
	local i
	for i in 1 2 3; do
		ip netns exec $B$i tc qdisc del dev to-s root 2>/dev/null
	done
	ip netns exec $S tc qdisc del dev to-a1 root 2>/dev/null
	ip netns exec $A tc qdisc del dev to-s root 2>/dev/null
	return 0
}

base_ms=0
id=0

# case NAME MIB CHECK: rebuild a MIB MiB fragment under the faults in
# place, then check it (CHECK: a jq condition over the task's statistics,
# the proof that the fault's path was taken).  Sets el (ms, ec_fetch).
case_run() {
	local name=$1 mib=$2 check=$3 got ratio
	id=$((id + 1))
	if ! ec_prep $id isal-cauchy 3 2 0 $((3 * mib << 20)); then
		tap_fail "$name" "setting up the sources or the task failed"
		ec_stop_servers
		return
	fi
	ec_fetch $id
	faults_off
	ec_verify "$name: byte-exact" $id
	ec_stop_servers
	wait_for 10 ec_conn_idle $id
	ecin $S task show id $id -s >&2
	got=$(ec_stats $id ".stats | {prompts, resent, dups_skipped,
		bad_csum: .drops.bad_csum, peak_buffer, window_clamps, overflow}
		| to_entries | map(\"\(.key) \(.value)\") | join(\", \")")
	if [ "$(ec_stats $id ".stats | ($check)")" = true ]; then
		tap_ok "$name: $check"
	else
		tap_fail "$name: $check" "$got"
	fi
	[ $base_ms != 0 ] || base_ms=$el
	ratio=$(awk -v a=$el -v b=$base_ms -v m=$mib 'BEGIN { printf "%.2f", a / (b * m) }')
	echo "# matrix: $name | ${mib} MiB in $el ms | x$ratio of clean | $got"
	ecin $S task del id $id >&2
}

# The first connection pays for cold caches: time the second.
case_run "clean, warm-up" 1 '.conns_done == 1'
base_ms=0
case_run "clean" 1 '.conns_done == 1'

# 5% only: 1% asserted the same on the same links.
netem_on src loss 5%
case_run "5% loss on the source links" 1 '.prompts > 0'
# S puts one segment in a packet towards A (topo_segs; S's GSO follows the
# device's gso_max_segs, taken at connect): netem sees a GSO packet whole,
# and S's megabyte went out in so few that at 5% none was lost in one run
# of make check (resent 0); segment by segment, as a wire loses frames.
netem_on a loss 5%
pp topo_segs "$S" to-a1 1
case_run "5% loss on A's link" 1 '.resent > 0'
pp topo_segs "$S" to-a1 65535
# netem reorders by sending 25% of the packets at once and holding the
# rest back for 10 ms.
netem_on all delay 10ms reorder 25% 50%
case_run "25% reordering on every link" 1 '.prompts > 0'
netem_on all duplicate 5%
case_run "5% duplication on every link" 1 '.dups_skipped > 0'
# netem flips a byte of the linear part of a segment, here mostly its
# headers (the payload is in page fragments); those in the TCP header are
# the module's to drop, by their checksum.  2%: at 0.1% a run saw a
# handful of them, and sometimes none.
netem_on src corrupt 2%
case_run "2% corruption on the source links" 4 '.drops.bad_csum > 0'
netem_on all delay 5ms 5ms
case_run "5 ms +- 5 ms jitter on every link" 1 '.conns_done == 1'

# Straggler: B1 at 8 Mbit/s, a tenth of what the others get through S
# here at least; a 256 KiB buffer.  The transfer cannot beat B1's pace
# (1 MiB at 8 Mbit/s: 1049 ms), and the buffer must hold.
pp topo_cap_b 1 8mbit
EC_TASK="buffer 262144"
case_run "straggler: B1 at 8 Mbit/s, 256 KiB buffer" 1 \
	'.peak_buffer > 0 and .peak_buffer <= 262144 and .overflow == 0 and .window_clamps > 0'
EC_TASK=
if [ $el -ge 1000 ]; then
	tap_ok "straggler: the transfer ran at the straggler's pace ($el ms >= 1000 ms)"
else
	tap_fail "straggler: the transfer ran at the straggler's pace" "$el ms < 1000 ms"
fi

tap_done
