#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# EBSN: with one source (B1) rate-limited by tc tbf, the window S offers
# every source is bounded by A's acknowledged offset plus the task's
# buffer I, so the fast sources are paced to the straggler and the decode
# buffer never holds more than I.
#
# Observables (ecctl task show -s):
#  - peak-buffer (the largest high - base of the ring, measured at every
#    apply in the kernel) <= I, and overflow (bytes refused at the ring's
#    limit, I + headroom) = 0: nothing was sent beyond the edges offered;
#  - window-clamps > 0: ACKs that left a fast source less than a segment,
#    EBSN holding it for the slowest;
#  - the buffer alone bounds the sources, not A's window: with A's
#    receive buffer held to 64 KiB and its link capped, fast sources fill
#    a 512 KiB ring far beyond A's window (the rings absorb a source's
#    stall for I / rate, not for A's window / rate);
#  - pacing while it runs: per-source bytes-in (distinct bytes applied)
#    sampled during the transfer.  A fast source's bytes lie below its
#    edge <= A's ack + I <= the straggler's bytes + I, so at every sample
#    max - min <= I, plus what the straggler itself moved while the
#    kernel was filling in the reply (the tolerance below).
# ../lib/topo.sh topology, RS(3,2).
set -u
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/ec.sh"

topo_init rce
pp modprobe ecproxy
topo_setup 1 3 || exit 1

buf=$((64 << 10))
frag=$((768 << 10))
# What the straggler may move while one reply is filled in: 64 KiB is
# 0.5 s at its rate, far longer than that takes even under emulation.
slack=$((64 << 10))
id=1
pp ip netns exec ${B}1 tc qdisc add dev to-s root tbf rate 1mbit \
	burst 16kb latency 500ms || exit 1

EC_TASK="buffer $buf" ec_prep $id isal-cauchy 3 2 0 $((3 * frag)) || exit 1
ec_fetch $id &
apid=$!

# sample: "straggler min max" of the sources' bytes-in, from one ecctl
# run parsed by the shell (a sample must be cheap under emulation).
sample() {
	local line v=() min max
	while read -r line; do
		[[ $line =~ bytes-in\ ([0-9]+) ]] && v+=("${BASH_REMATCH[1]}")
	done < <("$ECCTL" -n $S task show id $id -s 2>/dev/null)
	[ ${#v[@]} = 3 ] || return
	min=${v[0]}
	max=${v[0]}
	for line in "${v[@]}"; do
		((line < min)) && min=$line
		((line > max)) && max=$line
	done
	echo "${v[0]} $min $max"
}
samples=$tmp/samples
: > "$samples"
while kill -0 $apid 2>/dev/null; do
	sample >> "$samples"
done
wait $apid
ec_verify "straggler at 1 Mbit/s, buffer 64 KiB: fragment of 768 KiB" $id
ec_stop_servers
wait_for 10 ec_conn_idle $id
ecin $S task show id $id -s >&2

peak=$(ec_stats $id .stats.peak_buffer)
clamps=$(ec_stats $id .stats.window_clamps)
over=$(ec_stats $id .stats.overflow)
echo "# ebsn: buffer $buf, peak occupancy $peak, window clamps $clamps, overflow $over"
if [ "$peak" -gt 0 ] && [ "$peak" -le $buf ] && [ "$over" = 0 ]; then
	tap_ok "peak buffer occupancy $peak <= buffer $buf, no overflow"
else
	tap_fail "peak buffer occupancy $peak <= buffer $buf, no overflow" \
		"overflow $over"
fi
if [ "$clamps" -gt 0 ]; then
	tap_ok "window clamps counted ($clamps)"
else
	tap_fail "window clamps counted" "window-clamps 0"
fi

# Pacing: the samples taken while the straggler was between 10% and 90%
# of the fragment, when unpaced sources would have finished long before.
read -r n mid gap slow <<< "$(awk -v lo=$((frag / 10)) -v hi=$((frag * 9 / 10)) '
	{ n++; g = $3 - $2; if (g > gap) gap = g
	  if ($1 >= lo && $1 <= hi) { mid++; if ($1 == $2) slow++ } }
	END { print n + 0, mid + 0, gap + 0, slow + 0 }' "$samples")"
echo "# ebsn: $n samples, $mid with the straggler mid-way ($slow with it" \
	"the slowest), largest lead of a source over another $gap bytes"
if [ "$mid" -ge 3 ] && [ "$gap" -le $((buf + slack)) ]; then
	tap_ok "sources paced to the straggler: lead <= $gap bytes over $mid samples"
else
	tap_fail "sources paced to the straggler" \
		"lead $gap (bound $((buf + slack))), $mid samples mid-way"
fi

# The buffer, not A's window, bounds the sources: A's window stays under
# its 64 KiB receive buffer, S drains to A at 4 Mbit/s, and the sources
# (no straggler now) run up to I ahead of A's ack.  Bounded by A's window
# too, the ring would never hold more than that window.
pp ip netns exec ${B}1 tc qdisc del dev to-s root
pp ip netns exec $A sysctl -qw net.ipv4.tcp_rmem="4096 65536 65536"
pp topo_cap 1 4mbit
buf=$((512 << 10))
id=2
EC_TASK="buffer $buf" ec_recon "A's window 64 KiB, buffer 512 KiB: byte-exact" \
	$id isal-cauchy 3 2 0 $((3 << 20))
peak=$(ec_stats $id .stats.peak_buffer)
over=$(ec_stats $id .stats.overflow)
echo "# ebsn: A's window under 64 KiB, buffer $buf, peak occupancy $peak, overflow $over"
if [ "$peak" -gt $((4 * 65536)) ] && [ "$peak" -le $buf ] && [ "$over" = 0 ]; then
	tap_ok "the buffer, not A's window, bounds the sources: peak $peak"
else
	tap_fail "the buffer, not A's window, bounds the sources" \
		"peak $peak (want over $((4 * 65536)), at most $buf), overflow $over"
fi
# A's small window is what S fills: segments cut to its edge would be
# slivers (sender-side SWS).  Whole ones are 1448 bytes at MTU 1500; what
# the sources have complete still goes at once, short or not (no Nagle),
# and the tail and a probe's may be short: 1048576 bytes took 726 new
# segments (99.7% of whole ones) where cut to the window's edge they took
# 802 (90%).  Re-sent segments count in SEGS_OUT and RESENT.
bytes=$(ec_stats $id .stats.bytes_out)
segs=$(ec_stats $id .stats.segs_out)
resent=$(ec_stats $id .stats.resent)
new=$((segs - resent))
echo "# A's window under 64 KiB: $bytes bytes in $segs segments, $resent re-sent," \
	"$(ec_stats $id .stats.tail_probes) tail probes"
if [ $((bytes * 100)) -ge $((new * 1448 * 93)) ]; then
	tap_ok "S sent A's small window whole segments: $((bytes / new)) bytes each"
else
	tap_fail "S sent A's small window whole segments" \
		"$bytes bytes in $new new segments: $((bytes / new)) each, want 93% of 1448"
fi

tap_done
