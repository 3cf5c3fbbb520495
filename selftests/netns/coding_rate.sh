#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Rate caps: a task with a target, capped with "rate", holds its rate
# within 5% while a foreground TCP flow shares the target's link, and
# `ecctl task change ... rate` takes effect at once, mid-run.  The rate
# is measured where it matters, at the target: the bytes its TCP
# received on the connection from S (ss's bytes_received), over windows
# of ten seconds.  Not the growth of the file it stores: under TCG the
# target's writes bunch up, by a few percent of such a window.  Then a
# pull task under a cap, read by a client.  Timing-sensitive: it runs on
# the stock kernel (scripts/check.sh).
#
# The rates are low, 1 to 3 Mbit/s, so that a VM that shares its host's
# cores with others (make check runs three lanes on CI's two cores) has
# the CPU to hold them: there, under TCG, an uncapped pull of RS(3,2) has
# made as little as 4.6 Mbit/s, and a capped output beside the foreground
# flow 7.5; at 4 Mbit/s beside the foreground flow, the target of a run
# in three lanes received 9% less than S's own count, which held.  For
# the same reason the foreground flow's link is 10 Mbit/s: what S
# forwards costs the same CPU.
#
# Topology (../lib/topo.sh): B1..B3 serve RS(3,2) survivors, T1 stores
# the rebuilt fragment behind a 10 Mbit/s link, and A1 sends the
# foreground flow to T1 through S over the same link.  The link queues as
# a Debian router's do, with fq_codel (systemd's default_qdisc) under the
# shaper: in one deep FIFO a greedy flow would hold the capped one's round
# trip at the FIFO's 200 ms, and no TCP sender, paced or not, keeps a rate
# through that with a congestion window of a few segments.
set -u
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/ec.sh"

EC_SERVER=prog
topo_init crt
pp modprobe ecproxy
topo_setup 1 3 1 || exit 1
pp ip netns exec $S tc qdisc add dev to-t1 root handle 1: tbf rate 10mbit burst 32k latency 200ms
pp ip netns exec $S tc qdisc add dev to-t1 parent 1:1 fq_codel

# rx_bytes: what T1 received on its link so far.
rx_bytes() {
	ip netns exec "$T"1 cat /sys/class/net/to-s/statistics/rx_bytes
}

# sample NS FILTER: sets s_n, the bytes NS's TCP received on the
# established connections that match the ss FILTER, and s_a and s_b, the
# times (us) before and after the call that counted them.  Under TCG, with
# one vCPU that the foreground flow keeps busy, that call took seconds:
# so no process but ss's own, and ss at the highest priority.
sample() {
	local line
	s_n=0
	s_a=${EPOCHREALTIME/./}
	while read -r line; do
		[[ $line =~ bytes_received:([0-9]+) ]] &&
			s_n=$((s_n + BASH_REMATCH[1]))
	done < <(nice -n -20 ip netns exec "$1" ss -Htin state established "$2")
	s_b=${EPOCHREALTIME/./}
}

# rate_over NS FILTER SECS: over about SECS seconds, sets got, the bytes
# NS received on FILTER's connections; t_mid (us), the time between the
# middles of the two counts' calls, and rate, got over t_mid; and
# fg_rate, what else T1 received meanwhile (the foreground flow, headers
# included).  The calls take about as long, so their middles are as far
# from the counts.
rate_over() {
	local t0 u0 b0 r0 r1
	r0=$(rx_bytes)
	sample "$1" "$2"
	t0=$s_a u0=$s_b b0=$s_n
	sleep "$3"
	sample "$1" "$2"
	r1=$(rx_bytes)
	got=$((s_n - b0))
	t_mid=$(((s_a + s_b - t0 - u0) / 2))
	calls=$(((u0 - t0) / 1000))+$(((s_b - s_a) / 1000))
	fg_rate=$(((r1 - r0 - got) * 1000000 / t_mid))
	rate=$((got * 1000000 / t_mid))
}

# The foreground flow: A1 sends T1 zeros, through S, for as long as it runs.
ip netns exec "$T"1 socat -u TCP-LISTEN:5001,reuseaddr OPEN:/dev/null 2>/dev/null &
wait_for 10 topo_listening "$T"1 5001
ip netns exec $A socat -u OPEN:/dev/zero TCP:"$(topo_addr t1)":5001 2>/dev/null &
fg=$!
fg_rate=0

# rate_held DESC WANT NS FILTER: over ten seconds, NS receives WANT
# bytes/s, within 5%, on FILTER's connections; and `task show -s` of task
# ID (default 1) measures the same.  A token bucket's contract: over an
# interval T, within 5% of WANT * T, give or take the bucket's depth
# (ecp_conn_tokens(): one GSO packet, 64 KiB, at these rates), which
# leaves in one piece (a tenth of a 5 s window at 1 Mbit/s).
rate_held() {
	local lo hi depth=65536

	rate_over "$3" "$4" 10
	lo=$(($2 * 95 * (t_mid / 1000) / 100000 - depth))
	hi=$(($2 * 105 * (t_mid / 1000) / 100000 + depth))
	if [ "$got" -ge $lo ] && [ "$got" -le $hi ]; then
		tap_ok "$1: $rate bytes/s"
	else
		tap_fail "$1" "$rate bytes/s, want $2: $got bytes in $((t_mid / 1000)) ms (the counts' calls took $calls ms), want $lo..$hi"
		ecin $S task show -s >&2
	fi
	# The same contract over the measured rate's window, its last four
	# seconds (ecp_conn_measure()): one burst is 4% of those at 3 Mbit/s,
	# so that 5% alone failed one run in three whose ten-second count held.
	lo=$(($2 * 95 / 100 - depth / 4))
	hi=$(($2 * 105 / 100 + depth / 4))
	tap_expect_jq "$1: show -s measures it within 5%" \
		".[0].stats.rate >= $lo and .[0].stats.rate <= $hi" \
		ecin $S -j task show id "${ID:-1}" -s
}

# A fragment of 32 MB, which outlasts the capped phases even when every
# command under TCG takes seconds.
dir=$tmp/1
ec_encode "$dir" isal-cauchy 3 2 $((3 * 32000000)) || exit 1
ec_store "$dir" 3 2 0 8001
ec_targets "$dir" 0 9001
at_t1="( sport = :9001 )"
tap_check "add task 1: RS(3,2) fragment 0 to T1, rate 2mbit" \
	ecin $S task add id 1 vip $VIP code isal-cauchy k 3 m 2 lost 0 \
	"${EC_SOURCES[@]}" "${EC_DESTS[@]}" rate 2mbit
tap_expect_jq "show: rate 250000 bytes/s configured" '.[0].rate == 250000' \
	ecin $S -j task show id 1
tap_check "start task 1" ecin $S task start id 1
sleep 1.5
rate_held "2mbit held beside a foreground flow, at the target" 250000 "$T"1 "$at_t1"
echo "# foreground flow beside 2mbit: $fg_rate bytes/s"
# After a change, the ten seconds start once what the old rate let out is
# through: the bucket's depth (one GSO packet, 64 KiB, half a second at 1
# Mbit/s) and what sits in the link's queue.  A CI run that started at
# once measured 6% over 1 Mbit/s.
tap_check "change the rate to 3mbit mid-run" ecin $S task change id 1 rate 3mbit
sleep 1.5
rate_held "up to 3mbit at once" 375000 "$T"1 "$at_t1"
echo "# foreground flow beside 3mbit: $fg_rate bytes/s"
tap_check "change the rate to 1mbit" ecin $S task change id 1 rate 1mbit
sleep 1.5
rate_held "down to 1mbit at once" 125000 "$T"1 "$at_t1"
# The cap's tokens go in whole segments (1448 bytes at MTU 1500): spent
# on slivers as an ACK's interval brings them in, they averaged 1137 (79%).
# Re-sent segments count in SEGS_OUT and RESENT; the tail, a probe's and
# what the sources have complete (no Nagle) may be short.
tap_expect_jq "capped, S sent T1 whole segments" \
	'.[0].stats.bytes_out * 100 >= (.[0].stats.segs_out - .[0].stats.resent) * 1448 * 90' \
	ecin $S -j task show id 1 -s
# The largest rate ecctl takes, 1.6e19 bytes/s (130000000tbit), mid-run:
# the bucket's and the pace's arithmetic must not overflow a division,
# which on x86-64 faults in softirq.
tap_check "change the rate to 130000000tbit" \
	ecin $S task change id 1 rate 130000000tbit
sleep 1
tap_check "lift the cap" ecin $S task change id 1 rate none
if wait_for 120 ec_conn_idle 1 && ec_stored "$dir" 0; then
	tap_ok "uncapped, the run completes: the fragment stored byte for byte"
else
	tap_fail "uncapped, the run completes" "$(cat "$dir/tgt.0" 2>&1)"
fi
ec_stop_servers

kill "$fg" 2>/dev/null

# --- a pull task under a cap -------------------------------------------------
# The client reads through its own, uncapped link; the rate is taken once
# the handshakes and slow starts are behind it.  The fragment lasts 32 s
# at the cap, so that the connection still runs when `task show -s` is
# read after the ten seconds (under TCG, with the host's cores shared,
# each command can take seconds): once a run has ended, the measured rate
# is its whole average, handshakes and slow start included.
EC_TASK="rate 2mbit" ec_prep 2 isal-cauchy 3 2 1 $((3 * 8000000))
ec_fetch 2 &
fetch=$!
wait_for 20 sh -c "[ \$(stat -c %s $tmp/2/out 2>/dev/null || echo 0) -gt 250000 ]"
ID=2 rate_held "pull task: 2mbit held at the client" 250000 $A "( dport = :7002 )"
wait "$fetch"
ec_verify "pull task capped at 2mbit: byte-exact" 2
ec_stop_servers

tap_check "flush" ecin $S task flush
tap_check "unload" modprobe -r ecproxy
tap_done
