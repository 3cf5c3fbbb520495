#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Rate caps: a task with a target, capped with "rate", holds its rate
# within 5% while a foreground TCP flow shares the target's link, and
# `ecctl task change ... rate` takes effect at once, mid-run.  The rate
# is measured where it matters, at the target: the growth of the file it
# stores, sampled over windows of four seconds (shorter ones, under
# TCG, see the target's writes bunch up).  Then a pull task under a
# cap, read by a client.  Timing-sensitive: it runs on the stock kernel
# (scripts/check.sh), where TCG leaves enough headroom above the caps.
#
# The rates are low, so that a VM that shares its host's cores with
# others (make check runs three) still has the CPU to hold them.
#
# Topology (../lib/topo.sh): B1..B3 serve RS(3,2) survivors, T1 stores
# the rebuilt fragment behind a 40 Mbit/s link, and A1 sends the
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
pp ip netns exec $S tc qdisc add dev to-t1 root handle 1: tbf rate 40mbit burst 32k latency 200ms
pp ip netns exec $S tc qdisc add dev to-t1 parent 1:1 fq_codel

# size_at FILE: "NANOSECONDS BYTES" now.
size_at() {
	echo "$(date +%s%N) $(stat -c %s "$1" 2>/dev/null || echo 0)"
}

# rx_bytes: what T1 received on its link so far.
rx_bytes() {
	ip netns exec "$T"1 cat /sys/class/net/to-s/statistics/rx_bytes
}

# rate_over FILE SECS: bytes/s FILE grew at over SECS seconds; fg_rate is
# what else T1 received meanwhile (the foreground flow, headers included).
rate_over() {
	local t0 b0 t1 b1 r0 r1
	r0=$(rx_bytes)
	read -r t0 b0 <<< "$(size_at "$1")"
	sleep "$2"
	read -r t1 b1 <<< "$(size_at "$1")"
	r1=$(rx_bytes)
	fg_rate=$(((r1 - r0 - (b1 - b0)) * 1000000000 / (t1 - t0)))
	echo $(((b1 - b0) * 1000000000 / (t1 - t0)))
}

# within5 GOT WANT: GOT is within 5% of WANT.
within5() {
	[ $(($1 * 100)) -ge $(($2 * 95)) ] && [ $(($1 * 100)) -le $(($2 * 105)) ]
}

# The foreground flow: A1 sends T1 zeros, through S, for as long as it runs.
ip netns exec "$T"1 socat -u TCP-LISTEN:5001,reuseaddr OPEN:/dev/null 2>/dev/null &
wait_for 10 topo_listening "$T"1 5001
ip netns exec $A socat -u OPEN:/dev/zero TCP:"$(topo_addr t1)":5001 2>/dev/null &
fg=$!
fg_rate=0

# A fragment of 24 MB: longer than the run takes at the caps.
dir=$tmp/1
ec_encode "$dir" isal-cauchy 3 2 $((3 * 32000000)) || exit 1
ec_store "$dir" 3 2 0 8001
ec_targets "$dir" 0 9001
tap_check "add task 1: RS(3,2) fragment 0 to T1, rate 4mbit" \
	ecin $S task add id 1 vip $VIP code isal-cauchy k 3 m 2 lost 0 \
	"${EC_SOURCES[@]}" "${EC_DESTS[@]}" rate 4mbit
tap_expect_jq "show: rate 500000 bytes/s configured" '.[0].rate == 500000' \
	ecin $S -j task show id 1
tap_check "start task 1" ecin $S task start id 1
sleep 1.5
rate_over "$dir/got.0" 4 > "$tmp/rate"
got=$(cat "$tmp/rate")
echo "# foreground flow beside 4mbit: $fg_rate bytes/s"
if within5 "$got" 500000; then
	tap_ok "4mbit held beside a foreground flow: $got bytes/s at the target"
else
	tap_fail "4mbit held within 5% beside a foreground flow" "$got bytes/s, want 500000"
fi
tap_expect_jq "show -s: the measured rate within 5% of the cap" \
	'.[0].stats.rate >= 475000 and .[0].stats.rate <= 525000' ecin $S -j task show id 1 -s
tap_check "change the rate to 8mbit mid-run" ecin $S task change id 1 rate 8mbit
sleep 0.5
rate_over "$dir/got.0" 4 > "$tmp/rate"
got=$(cat "$tmp/rate")
echo "# foreground flow beside 8mbit: $fg_rate bytes/s"
if within5 "$got" 1000000; then
	tap_ok "the change took effect at once: 8mbit, $got bytes/s at the target"
else
	tap_fail "8mbit within 5% at once" "$got bytes/s, want 1000000"
	ecin $S task show id 1 -s >&2
fi
tap_expect_jq "show -s: the measured rate within 5% of 8mbit" \
	'.[0].stats.rate >= 950000 and .[0].stats.rate <= 1050000' ecin $S -j task show id 1 -s
tap_check "change the rate to 2mbit" ecin $S task change id 1 rate 2mbit
sleep 0.5
got=$(rate_over "$dir/got.0" 4)
if within5 "$got" 250000; then
	tap_ok "down to 2mbit at once: $got bytes/s at the target"
else
	tap_fail "2mbit within 5% at once" "$got bytes/s, want 250000"
	ecin $S task show id 1 -s >&2
fi
tap_expect_jq "show -s: the measured rate within 5% of 2mbit" \
	'.[0].stats.rate >= 237500 and .[0].stats.rate <= 262500' ecin $S -j task show id 1 -s
tap_check "lift the cap" ecin $S task change id 1 rate none
if wait_for 120 ec_conn_idle 1 && ec_stored "$dir" 0; then
	tap_ok "uncapped, the run completes: the fragment stored byte for byte"
else
	tap_fail "uncapped, the run completes" "$(cat "$dir/tgt.0" 2>&1)"
fi
ec_stop_servers

kill "$fg" 2>/dev/null

# --- a pull task under a cap -------------------------------------------------
# The client reads through its own, uncapped link; the rate is taken from
# its file once the handshakes and slow starts are behind it.
EC_TASK="rate 8mbit" ec_prep 2 isal-cauchy 3 2 1 $((3 * 6000000))
ec_fetch 2 &
fetch=$!
wait_for 20 sh -c "[ \$(stat -c %s $tmp/2/out 2>/dev/null || echo 0) -gt 500000 ]"
got=$(rate_over "$tmp/2/out" 3)
if within5 "$got" 1000000; then
	tap_ok "pull task: 8mbit held at the client: $got bytes/s"
else
	tap_fail "pull task: 8mbit within 5% at the client" "$got bytes/s, want 1000000"
fi
wait "$fetch"
ec_verify "pull task capped at 8mbit: byte-exact" 2
ec_stop_servers

tap_check "flush" ecin $S task flush
tap_check "unload" modprobe -r ecproxy
tap_done
